import type { EngineServices as Engine } from '../engine-services';
import type { Scope } from '../ports/storage';
import {
  AdminCustomerListQuerySchema,
  CustomerAddressCreateSchema,
  CustomerAddressUpdateSchema,
  CustomerCreateSchema,
  CustomerPasswordChangeSchema,
  CustomerRegisterSchema,
  CustomerSignInSchema,
  CustomerTokenCreateSchema,
  CustomerUpdateSchema,
  PasswordResetConfirmSchema,
  PasswordResetRequestSchema,
  StorefrontCustomerUpdateSchema,
} from '../schemas';
import { body, type In, pageOf, query } from './inputs';

/**
 * Customers (admin), their tokens, and the signed-in customer's profile and address book (the
 * storefront's `/customers/me…` endpoints, with the customer named explicitly), bound to one scope.
 */
export function customersFacade(engine: Engine, scope: Scope) {
  const customers = engine.customers;
  const accounts = engine.accounts;
  return {
    /** Sign-up (docs/contract.md#sign-up): `{ customer, token, expires_at }`, signed in. */
    register: async (input: In<typeof CustomerRegisterSchema>) =>
      accounts.register(scope, body(CustomerRegisterSchema, input)),
    /** Sign-in with e-mail and password: `{ customer, token, expires_at }`. */
    signIn: async (input: In<typeof CustomerSignInSchema>) =>
      accounts.signIn(scope, body(CustomerSignInSchema, input)),
    /** Sign-out: revokes this customer token. */
    signOut: async (token: string) => {
      const principal = await engine.auth.authenticateCustomerToken(scope, token);
      return accounts.signOut(scope, principal.token_id);
    },
    /** Changes the password of the token's customer; every other token of theirs stops working. */
    changePassword: async (token: string, input: In<typeof CustomerPasswordChangeSchema>) => {
      const principal = await engine.auth.authenticateCustomerToken(scope, token);
      return accounts.changePassword(scope, principal, body(CustomerPasswordChangeSchema, input));
    },
    /** Always `{ success: true }`; the token reaches the host through `customer.password_reset_requested`. */
    requestPasswordReset: async (input: In<typeof PasswordResetRequestSchema>) =>
      accounts.requestPasswordReset(scope, body(PasswordResetRequestSchema, input)),
    /** Sets a new password with a reset token and signs the customer in. */
    resetPassword: async (input: In<typeof PasswordResetConfirmSchema>) =>
      accounts.confirmPasswordReset(scope, body(PasswordResetConfirmSchema, input)),
    create: async (input: In<typeof CustomerCreateSchema>) =>
      customers.create(scope, body(CustomerCreateSchema, input)),
    list: async (q: In<typeof AdminCustomerListQuerySchema> = {}) => {
      const parsed = query(AdminCustomerListQuerySchema, q);
      return customers.list(scope, { q: parsed.q, status: parsed.status, tag: parsed.tag }, pageOf(parsed));
    },
    get: async (id: string) => customers.get(scope, id),
    update: async (id: string, input: In<typeof CustomerUpdateSchema>) =>
      customers.update(scope, id, body(CustomerUpdateSchema, input)),
    delete: async (id: string) => customers.delete(scope, id),
    /** Issues an `X-Customer-Token` (`{ expires_in }` seconds, default 86400). */
    issueToken: async (id: string, input: In<typeof CustomerTokenCreateSchema> = {}) =>
      customers.issueToken(scope, id, body(CustomerTokenCreateSchema, input)),
    getProfile: async (customerId: string) => customers.getProfile(scope, customerId),
    updateProfile: async (customerId: string, input: In<typeof StorefrontCustomerUpdateSchema>) =>
      customers.updateProfile(scope, customerId, body(StorefrontCustomerUpdateSchema, input)),
    listAddresses: async (customerId: string) => customers.listAddresses(scope, customerId),
    createAddress: async (customerId: string, input: In<typeof CustomerAddressCreateSchema>) =>
      customers.createAddress(scope, customerId, body(CustomerAddressCreateSchema, input)),
    updateAddress: async (
      customerId: string,
      addressId: string,
      input: In<typeof CustomerAddressUpdateSchema>,
    ) => customers.updateAddress(scope, customerId, addressId, body(CustomerAddressUpdateSchema, input)),
    deleteAddress: async (customerId: string, addressId: string) =>
      customers.deleteAddress(scope, customerId, addressId),
  };
}
