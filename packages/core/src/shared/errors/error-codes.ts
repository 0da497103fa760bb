/**
 * Every error code the API can return (docs/contract.md#error-codes), with its error `type`.
 * The HTTP status for each code lives in one table in `@cartwright/http` (`status-map.ts`),
 * typed `Record<ErrorCode, number>` so that a new code cannot be forgotten there.
 */
export const ERROR_TYPES = {
  // 400
  invalid_json: 'invalid_request_error',
  parameter_invalid: 'invalid_request_error',
  parameter_missing: 'invalid_request_error',
  parameter_unknown: 'invalid_request_error',
  // 401
  unauthenticated: 'authentication_error',
  invalid_api_key: 'authentication_error',
  customer_token_required: 'authentication_error',
  invalid_customer_token: 'authentication_error',
  invalid_credentials: 'authentication_error',
  // 402
  payment_failed: 'payment_error',
  // 403
  forbidden: 'permission_error',
  customer_disabled: 'permission_error',
  // 404
  not_found: 'not_found_error',
  route_not_found: 'not_found_error',
  // 405
  method_not_allowed: 'invalid_request_error',
  // 409
  invalid_state_transition: 'conflict_error',
  cart_not_active: 'conflict_error',
  duplicate_slug: 'conflict_error',
  duplicate_sku: 'conflict_error',
  duplicate_email: 'conflict_error',
  duplicate_code: 'conflict_error',
  idempotency_key_reused: 'conflict_error',
  idempotency_key_in_use: 'conflict_error',
  currency_locked: 'conflict_error',
  category_has_children: 'conflict_error',
  duplicate_locale: 'conflict_error',
  duplicate_user_id: 'conflict_error',
  last_admin: 'conflict_error',
  // 408 (the request body did not arrive in time)
  request_timeout: 'invalid_request_error',
  // 413 / 415
  body_too_large: 'invalid_request_error',
  unsupported_media_type: 'invalid_request_error',
  // 422
  insufficient_inventory: 'invalid_request_error',
  product_unavailable: 'invalid_request_error',
  discount_not_found: 'invalid_request_error',
  discount_not_applicable: 'invalid_request_error',
  discount_expired: 'invalid_request_error',
  discount_usage_limit_reached: 'invalid_request_error',
  cart_empty: 'invalid_request_error',
  shipping_address_required: 'invalid_request_error',
  shipping_method_unavailable: 'invalid_request_error',
  currency_mismatch: 'invalid_request_error',
  refund_exceeds_refundable: 'invalid_request_error',
  quantity_exceeds_refundable: 'invalid_request_error',
  fulfillment_exceeds_unfulfilled: 'invalid_request_error',
  quantity_exceeds_returnable: 'invalid_request_error',
  return_window_expired: 'invalid_request_error',
  invalid_parent: 'invalid_request_error',
  locale_unavailable: 'invalid_request_error',
  region_unavailable: 'invalid_request_error',
  url_not_allowed: 'invalid_request_error',
  reset_token_invalid: 'invalid_request_error',
  invite_token_invalid: 'invalid_request_error',
  // 429
  rate_limited: 'rate_limit_error',
  // 5xx
  internal_error: 'api_error',
  payment_provider_unavailable: 'api_error',
  service_unavailable: 'api_error',
} as const satisfies Record<string, ErrorType>;

export type ErrorType =
  | 'invalid_request_error'
  | 'authentication_error'
  | 'payment_error'
  | 'permission_error'
  | 'not_found_error'
  | 'conflict_error'
  | 'rate_limit_error'
  | 'api_error';

export type ErrorCode = keyof typeof ERROR_TYPES;

export const ERROR_CODES = Object.keys(ERROR_TYPES) as ErrorCode[];
