import {
  CustomerPasswordChangeSchema,
  CustomerRegisterSchema,
  CustomerSchema,
  CustomerSessionSchema,
  CustomerSignInSchema,
  PasswordResetConfirmSchema,
  PasswordResetRequestSchema,
  SuccessSchema,
} from '../schemas';
import { tokenOf } from './call';
import { defineOperation } from './operation';

const TAGS = ['Customer accounts'] as const;

const FAILURE_LIMIT = 'Failed attempts are rate limited (the `sign_in` limit) per client address';
/** Every route that hashes a password (docs/security.md#passwords). */
const HASH_BOUND =
  'A process hashes a bounded number of passwords at once; past that (and a short queue) the request is refused at once with 503 `service_unavailable` and `Retry-After`';
const BUYER_IP =
  'A storefront server calling with a secret key may name its shopper’s address in `Commerce-Buyer-Ip`, which the per-address limit then counts instead of the connection’s';

/**
 * Customer accounts (docs/contract.md#customer-accounts): a storefront signs shoppers up and in with any key, no back end
 * of its own. The limits are the engine's (docs/contract.md#sign-in): only *failed* attempts count,
 * per client address (`ctx.clientAddress`, which a secret-key caller may set with
 * `Commerce-Buyer-Ip`: `buyerIp`) and per e-mail; successful sign-ins and registrations count only
 * toward the API key's budget. Reset requests count per e-mail, and never against the failures.
 */
export const customerAuthOperations = [
  defineOperation({
    name: 'customers.register',
    http: { method: 'POST', path: '/v1/storefront/customer-auth/register' },
    auth: 'any',
    customerToken: 'none',
    input: CustomerRegisterSchema,
    response: CustomerSessionSchema,
    summary: 'Register a customer account',
    description: `Creates a customer with a password and signs them in: the answer carries a customer token for \`X-Customer-Token\`, as \`POST /v1/admin/customers/{id}/token\` issues. Passwords are 8–128 characters and not the e-mail. An e-mail that already belongs to a customer, with a password or without, is 409 \`duplicate_email\` (an account the merchant created gets its password through a reset). Emits \`customer.created\`. Counts only toward the API key's budget, however many shoppers one address registers. ${HASH_BOUND}.`,
    tags: TAGS,
    operationId: 'registerCustomer',
    errors: ['duplicate_email', 'service_unavailable'],
    run: async (s, c) => s.accounts.register(c.scope, c.input),
  }),
  defineOperation({
    name: 'customers.signIn',
    http: { method: 'POST', path: '/v1/storefront/customer-auth/login', buyerIp: true },
    auth: 'any',
    customerToken: 'none',
    input: CustomerSignInSchema,
    response: CustomerSessionSchema,
    summary: 'Sign a customer in',
    description: `Answers a customer token. An unknown e-mail and a wrong password are both 401 \`invalid_credentials\`, with the same message and the same work; a disabled customer is 403 \`customer_disabled\`. ${FAILURE_LIMIT} and per e-mail address with the same budget: once either is spent, sign-in is 429 \`rate_limited\` before the password is checked, until the window ends (the owner can still reset the password). Successful sign-ins count only toward the API key's budget. ${BUYER_IP}. ${HASH_BOUND}.`,
    tags: TAGS,
    operationId: 'signInCustomer',
    errors: ['invalid_credentials', 'customer_disabled', 'service_unavailable'],
    run: async (s, c) => s.accounts.signIn(c.scope, c.input, c.origin),
  }),
  defineOperation({
    name: 'customers.signOut',
    http: { method: 'POST', path: '/v1/storefront/customer-auth/logout' },
    args: ['token'],
    auth: 'any',
    customerToken: 'required',
    response: SuccessSchema,
    summary: 'Sign a customer out',
    description: "Revokes the request's customer token; the customer's other tokens keep working.",
    tags: TAGS,
    operationId: 'signOutCustomer',
    run: async (s, c) => s.accounts.signOut(c.scope, tokenOf(c).token_id),
  }),
  defineOperation({
    name: 'customers.changePassword',
    http: { method: 'POST', path: '/v1/storefront/customers/me/password', buyerIp: true },
    args: ['token'],
    auth: 'any',
    customerToken: 'required',
    // A stolen token must not buy unlimited guesses of the current password.
    input: CustomerPasswordChangeSchema,
    response: CustomerSchema,
    summary: "Change the signed-in customer's password",
    description: `A wrong \`current_password\` is 422 \`invalid_credentials\` (\`param: current_password\`), counted as a failed sign-in: ${FAILURE_LIMIT} and per e-mail address. Every other token of the customer stops working at once; the request's own token keeps working. ${BUYER_IP}. ${HASH_BOUND}.`,
    tags: TAGS,
    operationId: 'changeMyPassword',
    errors: ['invalid_credentials', 'service_unavailable'],
    run: async (s, c) => s.accounts.changePassword(c.scope, tokenOf(c), c.input, c.origin),
  }),
  defineOperation({
    name: 'customers.requestPasswordReset',
    http: { method: 'POST', path: '/v1/storefront/customers/password-reset' },
    auth: 'any',
    customerToken: 'none',
    input: PasswordResetRequestSchema,
    response: SuccessSchema,
    summary: 'Request a password reset',
    description: `Always 200 \`{ "success": true }\`, whether the e-mail belongs to a customer or not. For an active customer it creates a single-use reset token (\`prt_…\`, valid one hour; a newer request voids older ones) and emits \`customer.password_reset_requested\` with \`data: { customer_id, email, token, expires_at }\`, for the host application to send the e-mail: that event is delivered only to webhooks that name it (never through \`["*"]\`) and to in-process listeners. At most 3 requests an hour per e-mail address create a token (the \`password_reset\` limit); beyond that the answer is still 200 and nothing is sent. Failed sign-ins never block it.`,
    tags: TAGS,
    operationId: 'requestPasswordReset',
    run: async (s, c) => s.accounts.requestPasswordReset(c.scope, c.input, c.origin),
  }),
  defineOperation({
    name: 'customers.resetPassword',
    http: { method: 'POST', path: '/v1/storefront/customers/password-reset/confirm', buyerIp: true },
    auth: 'any',
    customerToken: 'none',
    input: PasswordResetConfirmSchema,
    response: CustomerSessionSchema,
    summary: 'Set a new password with a reset token',
    description: `Sets the password and signs the customer in (a new customer token). An unknown, used or expired reset token is 422 \`reset_token_invalid\`. Every earlier customer token stops working. An invalid token counts as a failed attempt of the client address (never of an e-mail: failed sign-ins for the account never block its reset). ${BUYER_IP}. ${HASH_BOUND}.`,
    tags: TAGS,
    operationId: 'resetPassword',
    errors: ['reset_token_invalid', 'customer_disabled', 'service_unavailable'],
    run: async (s, c) => s.accounts.confirmPasswordReset(c.scope, c.input, c.origin),
  }),
] as const;
