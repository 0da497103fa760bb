// `@cartwright/core/operations`: the operation table and what derives from it (docs/architecture.md).

export { assertStaffMay, requiredRoleOf, type StaffActor, type StaffRole } from '../members/roles';
// What an HTTP layer needs besides the table: the canonical form of a client address, which the
// per-address limits count (docs/contract.md#rate-limits).
export { canonicalIp } from '../shared/rate-limits/client-address';
export { pageOf, signedIn, tokenOf } from './call';
export {
  type ExecuteOptions,
  executeOperation,
  type OperationRequest,
  parseOperationInput,
  SECRET_ACTOR,
} from './execute';
export { type ApiOf, argumentsOf, createFrontDoor, type OperationMethod } from './front-door';
export type {
  AnyOperation,
  ArgumentSource,
  AuthRequirement,
  CustomerTokenRequirement,
  HttpBinding,
  HttpMethod,
  Operation,
  OperationCall,
  OperationCustomer,
  OperationServices,
  PathParamList,
  PathParams,
} from './operation';
export { type Operations, operations, type StoreApi } from './table';
