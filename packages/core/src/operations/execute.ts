import type { z } from 'zod';
import type { CartActor } from '../carts/cart-access';
import type { AttemptOrigin } from '../customers/attempt-limits';
import { assertStaffMay, type StaffActor } from '../members/roles';
import type { Scope } from '../ports/storage';
import { parseInput } from '../shared/schemas/parse';
import type { AnyOperation, OperationCustomer, OperationServices } from './operation';

/** The actor of the in-process API unless another is given: a secret key, as the admin API. */
export const SECRET_ACTOR: CartActor = Object.freeze({ key_type: 'secret', customer_id: null });

/**
 * One call of an operation, as HTTP and the in-process API make it: the scope, who calls, the path
 * parameters, and the input (the request body, or the list query).
 */
export interface OperationRequest {
  scope: Scope;
  /** Default: a secret key with no customer. */
  actor?: CartActor | undefined;
  /** The signed-in customer (required by `customerToken: 'required'` operations). */
  customer?: OperationCustomer | null | undefined;
  /**
   * The person of the back office calling, through a staff session or the host's `authorize`
   * hook (decisions §23): refused with 403 `forbidden` when the operation needs a higher role
   * (`requiredRoleOf`). None: a secret key (or the in-process API), with every right.
   */
  staff?: StaffActor | null | undefined;
  params?: Record<string, string> | undefined;
  /** The body or query as written (validated here), or already validated with `validated: true`. */
  input?: unknown;
  origin?: AttemptOrigin | undefined;
  /** The request headers the operation declares (`http.headers`), by lower-case name. */
  headers?: Readonly<Record<string, string>> | undefined;
  /** Receives the response headers the use case sets (`call.setHeader`); without it they are dropped. */
  responseHeaders?: Record<string, string> | undefined;
}

const NO_HEADERS: Readonly<Record<string, string>> = Object.freeze({});

/** Options of {@link executeOperation}. */
export interface ExecuteOptions {
  /**
   * The params and input were already validated with the operation's own schemas (the HTTP
   * pipeline validates before it takes an idempotency claim, so a refused request stores nothing).
   */
  validated?: boolean;
  /** Answer prepared JSON text where the operation has it (`runJson`), for HTTP. */
  json?: boolean;
}

/** The operation's input, validated as the HTTP pipeline validates it (same defaults, same errors). */
export function parseOperationInput(operation: AnyOperation, input: unknown): unknown {
  if (operation.input === undefined) return {};
  return parseInput(operation.input as z.ZodType, input ?? {}, {
    location: operation.inputIn === 'query' ? 'query' : 'body',
  });
}

/**
 * Runs one operation: the single path by which both HTTP and `engine.forStore(scope)` reach a use
 * case. Answers the wire object (or, with `json`, prepared JSON text where the operation keeps one).
 */
export function executeOperation(
  services: OperationServices,
  operation: AnyOperation,
  request: OperationRequest,
  options: ExecuteOptions = {},
): Promise<unknown> {
  try {
    assertStaffMay(request.staff, operation);
  } catch (error) {
    return Promise.reject(error);
  }
  const customer = request.customer ?? null;
  const call = {
    scope: request.scope,
    actor: request.actor ?? SECRET_ACTOR,
    customer,
    params: request.params ?? {},
    input: options.validated === true ? (request.input ?? {}) : parseOperationInput(operation, request.input),
    origin: request.origin,
    headers: request.headers ?? NO_HEADERS,
    setHeader: (name: string, value: string) => {
      if (request.responseHeaders !== undefined) request.responseHeaders[name] = value;
    },
  };
  if (options.json === true && operation.runJson !== undefined) return operation.runJson(services, call);
  return operation.run(services, call);
}
