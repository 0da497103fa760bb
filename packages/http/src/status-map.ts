import type { ErrorCode, ErrorType } from '@cartwright/core';

/**
 * The one table from error code to HTTP status (docs/contract.md#error-codes). Typed `Record<ErrorCode, number>`,
 * so adding a code in `@cartwright/core` without a status here fails the type check.
 *
 * Statuses for codes beyond the first list of docs/contract.md#error-codes: `route_not_found` 404, `method_not_allowed` 405,
 * `customer_token_required` 401 (docs/contract.md#customer-tokens), `product_unavailable` / `shipping_method_unavailable` /
 * `fulfillment_exceeds_unfulfilled` 422 (well-formed but against a business rule),
 * `duplicate_code` / `idempotency_key_in_use` / `currency_locked` 409 (state or uniqueness
 * conflicts), `rate_limited` 429, `request_timeout` 408 (a request body that did not arrive within 30 s), and `payment_provider_unavailable` 502 (an upstream gateway
 * failed; the client may retry). Customer accounts (docs/contract.md#sign-in): `invalid_credentials` 401 (sign-in; see
 * {@link STATUS_OVERRIDES} for the password change) and `reset_token_invalid` 422.
 */
export const STATUS_BY_CODE: Record<ErrorCode, number> = {
  invalid_json: 400,
  parameter_invalid: 400,
  parameter_missing: 400,
  parameter_unknown: 400,
  unauthenticated: 401,
  invalid_api_key: 401,
  customer_token_required: 401,
  invalid_customer_token: 401,
  invalid_credentials: 401,
  payment_failed: 402,
  forbidden: 403,
  customer_disabled: 403,
  not_found: 404,
  route_not_found: 404,
  method_not_allowed: 405,
  invalid_state_transition: 409,
  cart_not_active: 409,
  duplicate_slug: 409,
  duplicate_sku: 409,
  duplicate_email: 409,
  duplicate_code: 409,
  idempotency_key_reused: 409,
  idempotency_key_in_use: 409,
  currency_locked: 409,
  category_has_children: 409,
  duplicate_locale: 409,
  duplicate_user_id: 409,
  last_admin: 409,
  request_timeout: 408,
  body_too_large: 413,
  unsupported_media_type: 415,
  insufficient_inventory: 422,
  product_unavailable: 422,
  discount_not_found: 422,
  discount_not_applicable: 422,
  discount_expired: 422,
  discount_usage_limit_reached: 422,
  cart_empty: 422,
  shipping_address_required: 422,
  shipping_method_unavailable: 422,
  currency_mismatch: 422,
  refund_exceeds_refundable: 422,
  quantity_exceeds_refundable: 422,
  fulfillment_exceeds_unfulfilled: 422,
  quantity_exceeds_returnable: 422,
  return_window_expired: 422,
  invalid_parent: 422,
  locale_unavailable: 422,
  region_unavailable: 422,
  url_not_allowed: 422,
  reset_token_invalid: 422,
  invite_token_invalid: 422,
  rate_limited: 429,
  internal_error: 500,
  payment_provider_unavailable: 502,
  service_unavailable: 503,
};

/** A status that replaces a code's own when the error names one input field (`param`). */
export interface StatusOverride {
  readonly code: ErrorCode;
  readonly param: string;
  readonly status: number;
}

/**
 * The few codes whose status depends on the field at fault, keyed on code + param. Only one today
 * (docs/contract.md#sign-in): `invalid_credentials` with `param: 'current_password'` — a signed-in customer's
 * wrong current password when changing it — is 422, a business rule broken by a well-formed,
 * authenticated request, while sign-in's `invalid_credentials` (no param) is 401.
 */
export const STATUS_OVERRIDES: readonly StatusOverride[] = [
  { code: 'invalid_credentials', param: 'current_password', status: 422 },
];

/**
 * The HTTP status for an error code, and the field it names if any (see {@link STATUS_OVERRIDES});
 * 500 for a code not in the table (a code from a newer core).
 */
export function statusForCode(code: string, param?: string): number {
  if (param !== undefined) {
    for (const override of STATUS_OVERRIDES) {
      if (override.code === code && override.param === param) return override.status;
    }
  }
  return (STATUS_BY_CODE as Record<string, number | undefined>)[code] ?? 500;
}

/**
 * The error `type` that follows a status (docs/contract.md#errors): 400/405/413/415/422 →
 * `invalid_request_error`, 401 → `authentication_error`, 402 → `payment_error`,
 * 403 → `permission_error`, 404 → `not_found_error`, 409 → `conflict_error`,
 * 429 → `rate_limit_error`, 5xx → `api_error`.
 */
export function errorTypeForStatus(status: number): ErrorType {
  switch (status) {
    case 401:
      return 'authentication_error';
    case 402:
      return 'payment_error';
    case 403:
      return 'permission_error';
    case 404:
      return 'not_found_error';
    case 409:
      return 'conflict_error';
    case 429:
      return 'rate_limit_error';
    default:
      return status >= 500 ? 'api_error' : 'invalid_request_error';
  }
}
