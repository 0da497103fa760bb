import { ERROR_CODES, type ErrorCode } from '@cartwright/core';
import { ERROR_TYPES } from '@cartwright/core/internal';
import { describe, expect, it } from 'vitest';
import { errorTypeForStatus, STATUS_BY_CODE, STATUS_OVERRIDES, statusForCode } from './status-map';

/** The status families of docs/contract.md#error-codes, written out independently of the table under test. */
const DECISIONS_STATUS: Partial<Record<ErrorCode, number>> = {
  invalid_json: 400,
  parameter_invalid: 400,
  parameter_missing: 400,
  parameter_unknown: 400,
  unauthenticated: 401,
  invalid_api_key: 401,
  invalid_customer_token: 401,
  customer_token_required: 401,
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
  idempotency_key_reused: 409,
  body_too_large: 413,
  unsupported_media_type: 415,
  insufficient_inventory: 422,
  discount_not_found: 422,
  discount_not_applicable: 422,
  discount_expired: 422,
  discount_usage_limit_reached: 422,
  cart_empty: 422,
  shipping_address_required: 422,
  currency_mismatch: 422,
  refund_exceeds_refundable: 422,
  quantity_exceeds_refundable: 422,
  url_not_allowed: 422,
  product_unavailable: 422,
  reset_token_invalid: 422,
  internal_error: 500,
};

describe('STATUS_BY_CODE', () => {
  it('has a status for every ErrorCode and nothing else', () => {
    expect(Object.keys(STATUS_BY_CODE).sort()).toEqual([...ERROR_CODES].sort());
    for (const code of ERROR_CODES) {
      expect(Number.isInteger(STATUS_BY_CODE[code]), code).toBe(true);
      expect(STATUS_BY_CODE[code], code).toBeGreaterThanOrEqual(400);
      expect(STATUS_BY_CODE[code], code).toBeLessThan(600);
    }
  });

  it('matches the statuses decisions §4 names (e.g. cart_not_active → 409, cart_empty → 422)', () => {
    for (const [code, status] of Object.entries(DECISIONS_STATUS)) {
      expect(STATUS_BY_CODE[code as ErrorCode], code).toBe(status);
    }
  });

  it("core's error type of every code is the type its status implies (§4: type follows the status)", () => {
    for (const code of ERROR_CODES) {
      expect(errorTypeForStatus(STATUS_BY_CODE[code]), code).toBe(ERROR_TYPES[code]);
    }
  });
});

describe('errorTypeForStatus', () => {
  it.each([
    [400, 'invalid_request_error'],
    [405, 'invalid_request_error'],
    [413, 'invalid_request_error'],
    [415, 'invalid_request_error'],
    [422, 'invalid_request_error'],
    [401, 'authentication_error'],
    [402, 'payment_error'],
    [403, 'permission_error'],
    [404, 'not_found_error'],
    [409, 'conflict_error'],
    [429, 'rate_limit_error'],
    [500, 'api_error'],
    [502, 'api_error'],
    [503, 'api_error'],
  ])('%i → %s', (status, type) => {
    expect(errorTypeForStatus(status)).toBe(type);
  });
});

describe('statusForCode', () => {
  it('falls back to 500 for a code missing from the table (a newer core)', () => {
    expect(statusForCode('brand_new_code')).toBe(500);
    expect(statusForCode('brand_new_code', 'current_password')).toBe(500);
    expect(statusForCode('cart_empty')).toBe(422);
  });

  it('invalid_credentials is 401 at sign-in (no param) and 422 on a wrong current password (decisions §16)', () => {
    expect(statusForCode('invalid_credentials')).toBe(401);
    expect(statusForCode('invalid_credentials', 'current_password')).toBe(422);
    expect(statusForCode('invalid_credentials', 'password')).toBe(401);
    // An override is keyed on code AND param: the same param on another code keeps that code's status.
    expect(statusForCode('parameter_invalid', 'current_password')).toBe(400);
  });

  it('every override names a known code and a status of another §4 family than the code’s own', () => {
    expect(STATUS_OVERRIDES.length).toBeGreaterThan(0);
    for (const { code, param, status } of STATUS_OVERRIDES) {
      expect(ERROR_CODES, code).toContain(code);
      expect(param.length, code).toBeGreaterThan(0);
      expect([400, 401, 402, 403, 404, 409, 422, 429], code).toContain(status);
      expect(status, code).not.toBe(STATUS_BY_CODE[code]);
      expect(statusForCode(code, param)).toBe(status);
    }
  });
});
