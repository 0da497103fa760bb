import { describe, expect, it } from 'vitest';
import { makeCondition as cond, makeDiscount, makeLine } from '../pricing-fixtures';
import { checkDiscount, type DiscountContext } from './discount-eligibility';

const NOW = 1_700_000_000_000;
const context = (overrides: Partial<DiscountContext> = {}): DiscountContext => ({
  now: NOW,
  subtotal: 5000,
  lines: [makeLine('shirt', 5000, 1, ['summer'])],
  customer: { id: 'cus_1', email: 'a@example.com', tags: ['vip'] },
  ...overrides,
});
const codeOf = (result: ReturnType<typeof checkDiscount>) => (result.ok ? 'ok' : result.code);

describe('checkDiscount', () => {
  it('accepts an active discount with no limits', () => {
    expect(checkDiscount(makeDiscount(), context())).toEqual({ ok: true });
  });

  it('refuses an inactive discount as discount_expired', () => {
    const result = checkDiscount(makeDiscount({ is_active: false }), context());
    expect(result).toMatchObject({ ok: false, code: 'discount_expired' });
    expect(result.ok ? '' : result.message).toMatch(/not active/);
  });

  it('window [starts_at, ends_at] is inclusive: now = starts_at and now = ends_at apply', () => {
    expect(codeOf(checkDiscount(makeDiscount({ starts_at: NOW }), context()))).toBe('ok');
    expect(codeOf(checkDiscount(makeDiscount({ ends_at: NOW }), context()))).toBe('ok');
  });

  it('1 ms before starts_at or after ends_at is discount_expired', () => {
    expect(codeOf(checkDiscount(makeDiscount({ starts_at: NOW + 1 }), context()))).toBe('discount_expired');
    expect(codeOf(checkDiscount(makeDiscount({ ends_at: NOW - 1 }), context()))).toBe('discount_expired');
  });

  it('usage_count 5 of usage_limit 5 is discount_usage_limit_reached; 4 of 5 applies', () => {
    expect(codeOf(checkDiscount(makeDiscount({ usage_limit: 5, usage_count: 5 }), context()))).toBe(
      'discount_usage_limit_reached',
    );
    expect(codeOf(checkDiscount(makeDiscount({ usage_limit: 5, usage_count: 4 }), context()))).toBe('ok');
  });

  it('per_customer_limit 1 with the customer’s 1 prior use is reached; 0 uses or unknown applies', () => {
    const discount = makeDiscount({ per_customer_limit: 1 });
    expect(codeOf(checkDiscount(discount, context({ customer_usage_count: 1 })))).toBe(
      'discount_usage_limit_reached',
    );
    expect(codeOf(checkDiscount(discount, context({ customer_usage_count: 0 })))).toBe('ok');
    expect(codeOf(checkDiscount(discount, context()))).toBe('ok');
  });

  it('minimum_amount 5000 applies at subtotal 5000 and is discount_not_applicable at 4999', () => {
    const discount = makeDiscount({ minimum_amount: 5000 });
    expect(codeOf(checkDiscount(discount, context()))).toBe('ok');
    expect(codeOf(checkDiscount(discount, context({ subtotal: 4999 })))).toBe('discount_not_applicable');
  });

  it('an unmet customer_tag condition is discount_not_applicable', () => {
    const discount = makeDiscount({ conditions: [cond('customer_tag', 'in', ['wholesale'])] });
    expect(codeOf(checkDiscount(discount, context()))).toBe('discount_not_applicable');
  });

  it('an unmet customer condition is discount_not_applicable', () => {
    const discount = makeDiscount({ conditions: [cond('customer', 'not_in', ['cus_1'])] });
    expect(codeOf(checkDiscount(discount, context()))).toBe('discount_not_applicable');
  });

  it('a product_tag condition with no matching line is discount_not_applicable', () => {
    const discount = makeDiscount({ conditions: [cond('product_tag', 'in', ['winter'])] });
    expect(codeOf(checkDiscount(discount, context()))).toBe('discount_not_applicable');
    const ok = makeDiscount({ conditions: [cond('product_tag', 'in', ['summer'])] });
    expect(codeOf(checkDiscount(ok, context()))).toBe('ok');
  });

  it('without line conditions an empty cart still qualifies', () => {
    expect(codeOf(checkDiscount(makeDiscount(), context({ lines: [], subtotal: 0 })))).toBe('ok');
  });

  it('precedence: expired beats usage limit, usage limit beats not applicable', () => {
    const all = makeDiscount({
      ends_at: NOW - 1,
      usage_limit: 1,
      usage_count: 1,
      minimum_amount: 999_999,
    });
    expect(codeOf(checkDiscount(all, context()))).toBe('discount_expired');
    expect(codeOf(checkDiscount({ ...all, ends_at: null }, context()))).toBe('discount_usage_limit_reached');
    expect(codeOf(checkDiscount({ ...all, ends_at: null, usage_limit: null }, context()))).toBe(
      'discount_not_applicable',
    );
  });

  it('a region condition (decisions §19): in holds only in a listed region, not_in everywhere else, no region is in no list', () => {
    const inEu = makeDiscount({ conditions: [cond('region', 'in', ['reg_eu', 'reg_uk'])] });
    expect(codeOf(checkDiscount(inEu, context({ region_id: 'reg_eu' })))).toBe('ok');
    expect(codeOf(checkDiscount(inEu, context({ region_id: 'reg_us' })))).toBe('discount_not_applicable');
    expect(codeOf(checkDiscount(inEu, context({ region_id: null })))).toBe('discount_not_applicable');
    expect(codeOf(checkDiscount(inEu, context()))).toBe('discount_not_applicable');
    const outsideEu = makeDiscount({ conditions: [cond('region', 'not_in', ['reg_eu'])] });
    expect(codeOf(checkDiscount(outsideEu, context({ region_id: 'reg_eu' })))).toBe(
      'discount_not_applicable',
    );
    expect(codeOf(checkDiscount(outsideEu, context({ region_id: 'reg_us' })))).toBe('ok');
    expect(codeOf(checkDiscount(outsideEu, context()))).toBe('ok');
    // A region condition chooses no lines: it never makes lines ineligible.
    expect(codeOf(checkDiscount(inEu, context({ region_id: 'reg_eu', lines: [] })))).toBe('ok');
  });
});
