import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import type { DiscountRecord } from '../ports/storage';
import { CommerceError } from '../shared/errors';
import { mergeRules } from './discount-service';

/** A stored discount: 10 % off the order, a code discount, no validity window. */
function stored(overrides: Partial<DiscountRecord> = {}): DiscountRecord {
  return {
    id: 'disc_1',
    store_id: 'store_1',
    mode: 'test',
    name: 'Ten',
    description: null,
    code: 'TEN',
    type: 'code',
    value_type: 'percentage',
    value: 10,
    target: 'order',
    usage_limit: null,
    usage_count: 0,
    per_customer_limit: null,
    minimum_amount: null,
    maximum_discount: null,
    currency: 'USD',
    starts_at: null,
    ends_at: null,
    is_active: true,
    conditions: [],
    metadata: {},
    created_at: 0,
    updated_at: 0,
    ...overrides,
  };
}

function refusal(fn: () => unknown): { code: string; param: string | undefined } {
  try {
    fn();
  } catch (error) {
    if (CommerceError.is(error)) return { code: error.code, param: error.param };
    throw error;
  }
  throw new Error('expected a refusal');
}

describe('mergeRules (PATCH /v1/admin/discounts/{id} against the stored discount)', () => {
  it('keeps the stored value type, value and target when the patch names none', () => {
    expect(mergeRules(stored(), {})).toEqual({ value_type: 'percentage', value: 10, target: 'order' });
    expect(
      mergeRules(stored({ value_type: 'fixed', value: 500, target: 'line_item' }), { name: 'x' }),
    ).toEqual({
      value_type: 'fixed',
      value: 500,
      target: 'line_item',
    });
  });

  it('refuses a change of type, a null code on a code discount and a code on an automatic one (param named)', () => {
    expect(refusal(() => mergeRules(stored(), { type: 'automatic' }))).toEqual({
      code: 'parameter_invalid',
      param: 'type',
    });
    expect(mergeRules(stored(), { type: 'code' }).value).toBe(10);
    expect(refusal(() => mergeRules(stored(), { code: null }))).toEqual({
      code: 'parameter_invalid',
      param: 'code',
    });
    const automatic = stored({ type: 'automatic', code: null });
    expect(refusal(() => mergeRules(automatic, { code: 'X' }))).toEqual({
      code: 'parameter_invalid',
      param: 'code',
    });
    expect(mergeRules(automatic, { code: null }).value_type).toBe('percentage');
  });

  it('free_shipping forces value 0 and target shipping; any other target is refused', () => {
    expect(mergeRules(stored({ value: 40 }), { value_type: 'free_shipping' })).toEqual({
      value_type: 'free_shipping',
      value: 0,
      target: 'shipping',
    });
    expect(refusal(() => mergeRules(stored(), { value_type: 'free_shipping', target: 'line_item' }))).toEqual(
      {
        code: 'parameter_invalid',
        param: 'target',
      },
    );
    // A stored free-shipping discount moved to another target without a value type is refused too.
    const free = stored({ value_type: 'free_shipping', value: 0, target: 'shipping' });
    expect(refusal(() => mergeRules(free, { target: 'order' }))).toEqual({
      code: 'parameter_invalid',
      param: 'target',
    });
  });

  it('a value type whose stored value does not fit needs a value (missing); a value out of range is invalid', () => {
    const fixed = stored({ value_type: 'fixed', value: 5000 });
    expect(refusal(() => mergeRules(fixed, { value_type: 'percentage' }))).toEqual({
      code: 'parameter_missing',
      param: 'value',
    });
    expect(mergeRules(fixed, { value_type: 'percentage', value: 100 }).value).toBe(100);
    expect(refusal(() => mergeRules(stored(), { value: 101 }))).toEqual({
      code: 'parameter_invalid',
      param: 'value',
    });
    // Leaving free shipping needs a value: its stored 0 is no percentage.
    const free = stored({ value_type: 'free_shipping', value: 0, target: 'shipping' });
    expect(refusal(() => mergeRules(free, { value_type: 'percentage', target: 'order' }))).toEqual({
      code: 'parameter_missing',
      param: 'value',
    });
  });

  it('percentages are accepted exactly in (0, 100]', () => {
    fc.assert(
      fc.property(fc.integer({ min: -1000, max: 1000 }), (value) => {
        const accepted = (() => {
          try {
            mergeRules(stored(), { value });
            return true;
          } catch {
            return false;
          }
        })();
        expect(accepted).toBe(value > 0 && value <= 100);
      }),
    );
  });

  it('ends_at must come after starts_at, the stored one or the patched one', () => {
    const windowed = stored({ starts_at: 1_000, ends_at: 5_000 });
    expect(refusal(() => mergeRules(windowed, { ends_at: 1_000 }))).toEqual({
      code: 'parameter_invalid',
      param: 'ends_at',
    });
    expect(refusal(() => mergeRules(windowed, { starts_at: 6_000 }))).toEqual({
      code: 'parameter_invalid',
      param: 'ends_at',
    });
    expect(mergeRules(windowed, { starts_at: 6_000, ends_at: null }).value).toBe(10);
    expect(mergeRules(windowed, { ends_at: 1_001 }).value).toBe(10);
  });
});
