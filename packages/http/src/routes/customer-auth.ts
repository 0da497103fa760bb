import {
  CustomerPasswordChangeSchema,
  CustomerRegisterSchema,
  CustomerSchema,
  CustomerSessionSchema,
  CustomerSignInSchema,
  PasswordResetConfirmSchema,
  PasswordResetRequestSchema,
  SuccessSchema,
} from '@cartwright/core/schemas';
import type { AnyRoute } from '../route';
import { defineApiRoute } from './define-api-route';
import { scopeOf } from './scope';

const TAGS = ['Customer accounts'] as const;

const SIGN_IN_LIMIT =
  'Rate limited per client address (the strict sign-in limit, shared by register, sign-in and both password-reset routes)';

/**
 * Customer accounts (docs/contract.md#customer-accounts): a storefront signs shoppers up and in with any key, no back end
 * of its own. Register, sign-in and the two password-reset routes count against the strict
 * per-address `sign_in` limit (docs/contract.md#rate-limits); sign-in and reset requests also count per e-mail address, with
 * the same budget, whatever the address they come from (the route's `rateLimitSubject`), before any work.
 */
export const customerAuthRoutes: AnyRoute[] = [
  defineApiRoute({
    method: 'POST',
    path: '/v1/storefront/customer-auth/register',
    auth: 'any',
    customerToken: 'none',
    body: CustomerRegisterSchema,
    response: CustomerSessionSchema,
    rateLimit: 'sign_in',
    summary: 'Register a customer account',
    description: `Creates a customer with a password and signs them in: the answer carries a customer token for \`X-Customer-Token\`, as \`POST /v1/admin/customers/{id}/token\` issues. Passwords are 8–128 characters and not the e-mail. An e-mail that already belongs to a customer, with a password or without, is 409 \`duplicate_email\` (an account the merchant created gets its password through a reset). Emits \`customer.created\`. ${SIGN_IN_LIMIT}.`,
    tags: TAGS,
    operationId: 'registerCustomer',
    errors: ['duplicate_email'],
    handler: async (ctx) => ctx.engine.accounts.register(scopeOf(ctx.auth), ctx.body),
  }),
  defineApiRoute({
    method: 'POST',
    path: '/v1/storefront/customer-auth/login',
    auth: 'any',
    customerToken: 'none',
    body: CustomerSignInSchema,
    response: CustomerSessionSchema,
    rateLimit: 'sign_in',
    summary: 'Sign a customer in',
    description: `Answers a customer token. An unknown e-mail and a wrong password are both 401 \`invalid_credentials\`, with the same message and the same work; a disabled customer is 403 \`customer_disabled\`. ${SIGN_IN_LIMIT}, and per e-mail address with the same budget.`,
    tags: TAGS,
    operationId: 'signInCustomer',
    errors: ['invalid_credentials', 'customer_disabled'],
    rateLimitSubject: (body) => ({ email: body.email }),
    handler: async (ctx) => ctx.engine.accounts.signIn(scopeOf(ctx.auth), ctx.body),
  }),
  defineApiRoute({
    method: 'POST',
    path: '/v1/storefront/customer-auth/logout',
    auth: 'any',
    customerToken: 'required',
    response: SuccessSchema,
    summary: 'Sign a customer out',
    description: "Revokes the request's customer token; the customer's other tokens keep working.",
    tags: TAGS,
    operationId: 'signOutCustomer',
    handler: async (ctx) => ctx.engine.accounts.signOut(scopeOf(ctx.auth), ctx.customer.token_id),
  }),
  defineApiRoute({
    method: 'POST',
    path: '/v1/storefront/customers/me/password',
    auth: 'any',
    customerToken: 'required',
    // A stolen token must not buy unlimited guesses of the current password.
    rateLimit: 'sign_in',
    body: CustomerPasswordChangeSchema,
    response: CustomerSchema,
    summary: "Change the signed-in customer's password",
    description:
      "A wrong `current_password` is 422 `invalid_credentials` (`param: current_password`). Rate limited per client address like sign-in. Every other token of the customer stops working at once; the request's own token keeps working.",
    tags: TAGS,
    operationId: 'changeMyPassword',
    errors: ['invalid_credentials'],
    handler: async (ctx) =>
      ctx.engine.accounts.changePassword(
        scopeOf(ctx.auth),
        { customer_id: ctx.customer.customer_id, token_id: ctx.customer.token_id },
        ctx.body,
      ),
  }),
  defineApiRoute({
    method: 'POST',
    path: '/v1/storefront/customers/password-reset',
    auth: 'any',
    customerToken: 'none',
    body: PasswordResetRequestSchema,
    response: SuccessSchema,
    rateLimit: 'sign_in',
    summary: 'Request a password reset',
    description: `Always 200 \`{ "success": true }\`, whether the e-mail belongs to a customer or not. For an active customer it creates a single-use reset token (\`prt_…\`, valid one hour; a newer request voids older ones) and emits \`customer.password_reset_requested\` with \`data: { customer_id, email, token, expires_at }\`, for the host application to send the e-mail: that event is delivered only to webhooks that name it (never through \`["*"]\`) and to in-process listeners. ${SIGN_IN_LIMIT}, and per e-mail address with the same budget.`,
    tags: TAGS,
    operationId: 'requestPasswordReset',
    rateLimitSubject: (body) => ({ email: body.email }),
    handler: async (ctx) => ctx.engine.accounts.requestPasswordReset(scopeOf(ctx.auth), ctx.body),
  }),
  defineApiRoute({
    method: 'POST',
    path: '/v1/storefront/customers/password-reset/confirm',
    auth: 'any',
    customerToken: 'none',
    body: PasswordResetConfirmSchema,
    response: CustomerSessionSchema,
    rateLimit: 'sign_in',
    summary: 'Set a new password with a reset token',
    description: `Sets the password and signs the customer in (a new customer token). An unknown, used or expired reset token is 422 \`reset_token_invalid\`. Every earlier customer token stops working. ${SIGN_IN_LIMIT}.`,
    tags: TAGS,
    operationId: 'resetPassword',
    errors: ['reset_token_invalid', 'customer_disabled'],
    handler: async (ctx) => ctx.engine.accounts.confirmPasswordReset(scopeOf(ctx.auth), ctx.body),
  }),
];
