import { describe, expect, test } from 'vitest';
import { parseInput } from '../shared/schemas/parse';
import { expectRejected } from '../shared/schemas/test-helpers';
import {
  AdminDiscountListQuerySchema,
  DiscountCreateSchema,
  DiscountUpdateSchema,
  discountValueProblem,
} from './schemas';

describe('discountValueProblem (decisions §11)', () => {
  test('percentage: 0 < v ≤ 100 (0.5, 12.5, 100 fine; 0, -5, 100.01 not)', () => {
    for (const ok of [0.5, 12.5, 100, 8.875]) expect(discountValueProblem('percentage', ok)).toBeNull();
    for (const bad of [0, -5, 100.01, Number.NaN])
      expect(discountValueProblem('percentage', bad)).not.toBeNull();
  });

  test('percentage: at most 6 decimal places', () => {
    expect(discountValueProblem('percentage', 0.1 + 0.2)).toMatch(/decimal places/);
  });

  test('fixed: integer ≥ 0 (0 and 500 fine; 5.5 and -1 not)', () => {
    expect(discountValueProblem('fixed', 0)).toBeNull();
    expect(discountValueProblem('fixed', 500)).toBeNull();
    expect(discountValueProblem('fixed', 5.5)).not.toBeNull();
    expect(discountValueProblem('fixed', -1)).not.toBeNull();
  });

  test('free_shipping ignores the value', () => {
    expect(discountValueProblem('free_shipping', 42)).toBeNull();
  });
});

describe('DiscountCreate', () => {
  test('a code discount: type defaults to code, target to order, active, no conditions', () => {
    expect(
      parseInput(DiscountCreateSchema, {
        name: '10% off',
        code: 'SAVE10',
        value_type: 'percentage',
        value: 10,
      }),
    ).toEqual({
      name: '10% off',
      code: 'SAVE10',
      type: 'code',
      value_type: 'percentage',
      value: 10,
      target: 'order',
      is_active: true,
      conditions: [],
      metadata: {},
    });
  });

  test('an automatic discount with conditions, limits, money bounds and a window', () => {
    const discount = parseInput(DiscountCreateSchema, {
      name: 'Summer',
      type: 'automatic',
      value_type: 'fixed',
      value: 500,
      target: 'line_item',
      usage_limit: 100,
      per_customer_limit: 1,
      minimum_amount: 5000,
      maximum_discount: { amount: 2000, currency: 'USD' },
      starts_at: '2024-06-01T00:00:00Z',
      ends_at: '2024-09-01',
      conditions: [
        { type: 'product_tag', values: ['summer'] },
        { type: 'customer', operator: 'not_in', values: ['cus_1'] },
      ],
    });
    expect(discount).toMatchObject({
      target: 'line_item',
      minimum_amount: { amount: 5000 },
      maximum_discount: { amount: 2000, currency: 'USD' },
      starts_at: Date.UTC(2024, 5, 1),
      ends_at: Date.UTC(2024, 8, 1),
      conditions: [
        { type: 'product_tag', operator: 'in', values: ['summer'] },
        { type: 'customer', operator: 'not_in', values: ['cus_1'] },
      ],
    });
  });

  test('code is required iff type is code', () => {
    expectRejected(
      DiscountCreateSchema,
      { name: 'X', value_type: 'fixed', value: 1 },
      'parameter_missing',
      'code',
    );
    expectRejected(
      DiscountCreateSchema,
      { name: 'X', type: 'code', code: null, value_type: 'fixed', value: 1 },
      'parameter_invalid',
      'code',
    );
    const error = expectRejected(
      DiscountCreateSchema,
      { name: 'X', type: 'automatic', code: 'AUTO', value_type: 'fixed', value: 1 },
      'parameter_invalid',
      'code',
    );
    expect(error.message).toBe("code must not be set when type is 'automatic'");
  });

  test('percentage range: 0 and 101 refused with the rule in the message', () => {
    const base = { name: 'X', code: 'P', value_type: 'percentage' };
    const error = expectRejected(DiscountCreateSchema, { ...base, value: 0 }, 'parameter_invalid', 'value');
    expect(error.message).toBe('value must be greater than 0 and at most 100 for a percentage discount');
    expectRejected(DiscountCreateSchema, { ...base, value: 101 }, 'parameter_invalid', 'value');
    expect(parseInput(DiscountCreateSchema, { ...base, value: 100 }).value).toBe(100);
  });

  test('fixed value: an integer ≥ 0', () => {
    const base = { name: 'X', code: 'F', value_type: 'fixed' };
    expectRejected(DiscountCreateSchema, { ...base, value: 2.5 }, 'parameter_invalid', 'value');
    expectRejected(DiscountCreateSchema, { ...base, value: -100 }, 'parameter_invalid', 'value');
    expect(parseInput(DiscountCreateSchema, { ...base, value: 0 }).value).toBe(0);
  });

  test('value required for fixed and percentage; free_shipping → value 0, target shipping', () => {
    expectRejected(
      DiscountCreateSchema,
      { name: 'X', code: 'F', value_type: 'fixed' },
      'parameter_missing',
      'value',
    );
    expect(
      parseInput(DiscountCreateSchema, { name: 'Ship', code: 'SHIP', value_type: 'free_shipping', value: 7 }),
    ).toMatchObject({
      value: 0,
      target: 'shipping',
    });
    expectRejected(
      DiscountCreateSchema,
      { name: 'Ship', code: 'SHIP', value_type: 'free_shipping', target: 'order' },
      'parameter_invalid',
      'target',
    );
  });

  test('unknown value_type, target, condition type and operator are refused', () => {
    const base = { name: 'X', code: 'C', value: 1 };
    expectRejected(DiscountCreateSchema, { ...base, value_type: 'bogo' }, 'parameter_invalid', 'value_type');
    expectRejected(
      DiscountCreateSchema,
      { ...base, value_type: 'fixed', target: 'cart' },
      'parameter_invalid',
      'target',
    );
    expectRejected(
      DiscountCreateSchema,
      { ...base, value_type: 'fixed', conditions: [{ type: 'collection', values: ['a'] }] },
      'parameter_invalid',
      'conditions[0][type]',
    );
    expectRejected(
      DiscountCreateSchema,
      { ...base, value_type: 'fixed', conditions: [{ type: 'product', operator: 'equals', values: ['a'] }] },
      'parameter_invalid',
      'conditions[0][operator]',
    );
    expectRejected(
      DiscountCreateSchema,
      { ...base, value_type: 'fixed', conditions: [{ type: 'product', values: [] }] },
      'parameter_invalid',
      'conditions[0][values]',
    );
  });

  test('limits are integers ≥ 1 or null; ends_at after starts_at', () => {
    const base = { name: 'X', code: 'C', value_type: 'fixed', value: 1 };
    expectRejected(DiscountCreateSchema, { ...base, usage_limit: 0 }, 'parameter_invalid', 'usage_limit');
    expect(parseInput(DiscountCreateSchema, { ...base, usage_limit: null }).usage_limit).toBeNull();
    expectRejected(
      DiscountCreateSchema,
      { ...base, starts_at: '2024-02-01', ends_at: '2024-01-01' },
      'parameter_invalid',
      'ends_at',
    );
  });
});

describe('DiscountUpdate', () => {
  test('any single field; rules apply between fields present', () => {
    expect(parseInput(DiscountUpdateSchema, { is_active: false })).toEqual({ is_active: false });
    expect(parseInput(DiscountUpdateSchema, { value: 15 })).toEqual({ value: 15 });
    expectRejected(
      DiscountUpdateSchema,
      { value_type: 'percentage', value: 150 },
      'parameter_invalid',
      'value',
    );
    expectRejected(DiscountUpdateSchema, { type: 'automatic', code: 'X' }, 'parameter_invalid', 'code');
    expectRejected(DiscountUpdateSchema, { type: 'code', code: null }, 'parameter_invalid', 'code');
  });

  test('usage_count is not settable', () => {
    expectRejected(DiscountUpdateSchema, { usage_count: 0 }, 'parameter_unknown', 'usage_count');
  });
});

describe('admin discount list query', () => {
  test("type code | automatic; is_active 'true' | 'false'", () => {
    expect(
      parseInput(
        AdminDiscountListQuerySchema,
        { type: 'automatic', is_active: 'false' },
        { location: 'query' },
      ),
    ).toMatchObject({
      type: 'automatic',
      is_active: false,
    });
    expectRejected(AdminDiscountListQuerySchema, { type: 'coupon' }, 'parameter_invalid', 'type', 'query');
    expectRejected(
      AdminDiscountListQuerySchema,
      { is_active: '1' },
      'parameter_invalid',
      'is_active',
      'query',
    );
  });
});
