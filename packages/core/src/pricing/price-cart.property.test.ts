import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { eligibleLines } from './discounts/discount-conditions';
import type { DiscountCondition, DiscountDefinition } from './discounts/discount-definition';
import { priceCart } from './price-cart';
import type { PricingInput, PricingResult } from './price-cart-types';
import { makeInput } from './pricing-fixtures';

const NOW = 1_700_000_000_000;
const TAGS = ['a', 'b', 'c'];
const PRODUCTS = ['p1', 'p2', 'p3'];

const conditionArb: fc.Arbitrary<DiscountCondition> = fc.record({
  id: fc.constant('cond_x'),
  type: fc.constantFrom(
    'product' as const,
    'variant' as const,
    'product_tag' as const,
    'customer' as const,
    'customer_tag' as const,
  ),
  operator: fc.constantFrom('in' as const, 'not_in' as const),
  values: fc.subarray([...TAGS, ...PRODUCTS, 'v0', 'v1', 'v2', 'cus_1', 'vip']),
});

const discountArb = (index: number, kind: 'automatic' | 'code'): fc.Arbitrary<DiscountDefinition> =>
  fc
    .record({
      value_type: fc.constantFrom('fixed' as const, 'percentage' as const, 'free_shipping' as const),
      target: fc.constantFrom('order' as const, 'line_item' as const, 'shipping' as const),
      fixed: fc.integer({ min: 0, max: 20_000 }),
      percent: fc.integer({ min: 1, max: 100_000 }).map((v) => v / 1000),
      usage_limit: fc.option(fc.integer({ min: 0, max: 5 }), { nil: null, freq: 2 }),
      usage_count: fc.integer({ min: 0, max: 3 }),
      per_customer_limit: fc.option(fc.integer({ min: 0, max: 3 }), { nil: null, freq: 2 }),
      minimum_amount: fc.option(fc.integer({ min: 0, max: 20_000 }), { nil: null, freq: 2 }),
      maximum_discount: fc.option(fc.integer({ min: 0, max: 10_000 }), { nil: null }),
      starts_at: fc.option(fc.integer({ min: NOW - 10, max: NOW + 10 }), { nil: null, freq: 2 }),
      ends_at: fc.option(fc.integer({ min: NOW - 10, max: NOW + 10 }), { nil: null, freq: 2 }),
      is_active: fc.constantFrom(true, true, true, false),
      conditions: fc.oneof(fc.constant<DiscountCondition[]>([]), fc.array(conditionArb, { maxLength: 2 })),
      created_at: fc.integer({ min: 0, max: 5 }),
    })
    .map((d) => ({
      id: `disc_${kind}_${index}`,
      name: `D${index}`,
      code: kind === 'code' ? `CODE${index}` : null,
      type: kind,
      value_type: d.value_type,
      value: d.value_type === 'percentage' ? d.percent : d.fixed,
      target: d.target,
      usage_limit: d.usage_limit,
      usage_count: d.usage_count,
      per_customer_limit: d.per_customer_limit,
      minimum_amount: d.minimum_amount,
      maximum_discount: d.maximum_discount,
      starts_at: d.starts_at,
      ends_at: d.ends_at,
      is_active: d.is_active,
      conditions: d.conditions,
      created_at: d.created_at,
    }));

const discountsArb = (kind: 'automatic' | 'code') =>
  fc
    .integer({ min: 0, max: 4 })
    .chain((n) => fc.tuple(...Array.from({ length: n }, (_, i) => discountArb(i, kind))));

const inputArb: fc.Arbitrary<PricingInput> = fc
  .record({
    lines: fc.array(
      fc.record({
        product: fc.constantFrom(...PRODUCTS),
        tags: fc.subarray(TAGS),
        unit_price: fc.integer({ min: 0, max: 50_000 }),
        quantity: fc.integer({ min: 0, max: 10 }),
      }),
      { maxLength: 6 },
    ),
    shipping: fc.option(
      fc.record({
        price: fc.integer({ min: 0, max: 5_000 }),
        free_shipping_threshold: fc.option(fc.integer({ min: 0, max: 100_000 }), { nil: null }),
      }),
      { nil: null, freq: 4 },
    ),
    rate: fc.integer({ min: 0, max: 50_000 }).map((v) => v / 1000),
    prices_include_tax: fc.boolean(),
    customer: fc.record({
      id: fc.constantFrom(null, 'cus_1', 'cus_2'),
      email: fc.constantFrom(null, 'cus_1@example.com'),
      tags: fc.subarray(['vip', 'staff']),
    }),
    automatic: discountsArb('automatic'),
    codes: discountsArb('code'),
    prior: fc.integer({ min: 0, max: 2 }),
  })
  .map((r) =>
    makeInput({
      lines: r.lines.map((l, i) => ({
        key: `l${i}`,
        variant_id: `v${i}`,
        product_id: l.product,
        product_tags: l.tags,
        unit_price: l.unit_price,
        quantity: l.quantity,
      })),
      shipping: r.shipping,
      tax: { rate: r.rate, prices_include_tax: r.prices_include_tax },
      customer: r.customer,
      automatic_discounts: r.automatic,
      code_discounts: r.codes,
      usage: { per_customer: Object.fromEntries(r.codes.map((c) => [c.id, r.prior])) },
      now: NOW,
    }),
  );

const sum = (values: number[]) => values.reduce((a, b) => a + b, 0);
const RUNS = { numRuns: 500 };

function check(name: string, assertion: (input: PricingInput, result: PricingResult) => void): void {
  it(name, () => {
    fc.assert(
      fc.property(inputArb, (input) => assertion(input, priceCart(input))),
      RUNS,
    );
  });
}

describe('priceCart properties', () => {
  check('every amount is a non-negative integer; totals are never negative', (_input, r) => {
    const amounts = [
      r.subtotal,
      r.discount_total,
      r.shipping_total,
      r.shipping_discount,
      r.shipping_tax,
      r.tax_total,
      r.total,
      ...r.lines.flatMap((l) => [l.subtotal, l.line_discount, l.line_total, l.tax_amount]),
    ];
    for (const amount of amounts) {
      expect(Number.isSafeInteger(amount)).toBe(true);
      expect(amount).toBeGreaterThanOrEqual(0);
    }
  });

  check(
    'exclusive: total = subtotal − discount_total + shipping_total + tax_total; inclusive: without tax',
    (input, r) => {
      const beforeTax = r.subtotal - r.discount_total + r.shipping_total;
      expect(r.total).toBe(input.tax.prices_include_tax ? beforeTax : beforeTax + r.tax_total);
    },
  );

  check(
    'lines: subtotal = unit_price × quantity, line_total = subtotal − line_discount, sums add up',
    (input, r) => {
      r.lines.forEach((line, i) => {
        const source = input.lines[i]!;
        expect(line.key).toBe(source.key);
        expect(line.subtotal).toBe(source.unit_price * source.quantity);
        expect(line.line_total).toBe(line.subtotal - line.line_discount);
      });
      expect(r.subtotal).toBe(sum(r.lines.map((l) => l.subtotal)));
      expect(r.item_count).toBe(input.lines.length);
      expect(r.total_quantity).toBe(sum(input.lines.map((l) => l.quantity)));
    },
  );

  check(
    'Σ line_discount = the item part of discount_total; shipping discount ≤ shipping_total',
    (_input, r) => {
      expect(sum(r.lines.map((l) => l.line_discount))).toBe(r.discount_total - r.shipping_discount);
      expect(r.shipping_discount).toBeLessThanOrEqual(r.shipping_total);
      expect(r.discount_total - r.shipping_discount).toBeLessThanOrEqual(r.subtotal);
    },
  );

  check(
    'tax: never negative, Σ line tax + shipping tax = tax_total, inclusive tax within its amount',
    (input, r) => {
      expect(r.tax_total).toBe(sum(r.lines.map((l) => l.tax_amount)) + r.shipping_tax);
      if (input.tax.prices_include_tax) {
        for (const line of r.lines) expect(line.tax_amount).toBeLessThanOrEqual(line.line_total);
        expect(r.shipping_tax).toBeLessThanOrEqual(r.shipping_total - r.shipping_discount);
      }
    },
  );

  check(
    'shipping_total is 0 or the method price, per the threshold on the discounted subtotal',
    (input, r) => {
      const discounted = r.subtotal - (r.discount_total - r.shipping_discount);
      const s = input.shipping;
      const free =
        s === null ||
        input.lines.length === 0 ||
        (s.free_shipping_threshold !== null && s.free_shipping_threshold <= discounted);
      expect(r.shipping_total).toBe(free || s === null ? 0 : s.price);
    },
  );

  check('applied discounts add up to discount_total, line by line and on shipping', (_input, r) => {
    for (const applied of r.applied_discounts) {
      expect(applied.saved).toBeGreaterThan(0);
      expect(applied.saved).toBe(sum(applied.allocations.map((a) => a.amount)) + applied.shipping_saved);
      for (const allocation of applied.allocations) expect(allocation.amount).toBeGreaterThan(0);
    }
    expect(sum(r.applied_discounts.map((d) => d.saved))).toBe(r.discount_total);
    expect(sum(r.applied_discounts.map((d) => d.shipping_saved))).toBe(r.shipping_discount);
    for (const line of r.lines) {
      const shares = r.applied_discounts.flatMap((d) => d.allocations.filter((a) => a.key === line.key));
      expect(sum(shares.map((a) => a.amount))).toBe(line.line_discount);
    }
  });

  check('each discount never exceeds its base, its cap, nor a fixed value', (input, r) => {
    const all = [...input.automatic_discounts, ...input.code_discounts];
    for (const applied of r.applied_discounts) {
      const d = all.find((x) => x.id === applied.discount_id)!;
      if (d.maximum_discount !== null) expect(applied.saved).toBeLessThanOrEqual(d.maximum_discount);
      const eligible = eligibleLines(input.lines, d.conditions);
      const eligibleKeys = new Set(eligible.map((l) => l.key));
      for (const allocation of applied.allocations) expect(eligibleKeys.has(allocation.key)).toBe(true);
      const isShipping = d.target === 'shipping' || d.value_type === 'free_shipping';
      const base = isShipping ? r.shipping_total : sum(eligible.map((l) => l.unit_price * l.quantity));
      expect(applied.saved).toBeLessThanOrEqual(base);
      if (d.value_type === 'fixed' && d.target !== 'line_item')
        expect(applied.saved).toBeLessThanOrEqual(d.value);
      if (d.value_type === 'fixed' && d.target === 'line_item') {
        const perUnit = sum(eligible.map((l) => Math.min(d.value, l.unit_price) * l.quantity));
        expect(applied.saved).toBeLessThanOrEqual(perUnit);
      }
    }
  });

  check(
    'codes are either applied, rejected, or saved nothing; automatic ones are never rejected',
    (input, r) => {
      const applied = new Set(r.applied_discounts.map((d) => d.discount_id));
      const codeIds = new Set(input.code_discounts.map((d) => d.id));
      for (const rejected of r.rejected_codes) {
        expect(codeIds.has(rejected.discount_id)).toBe(true);
        expect(applied.has(rejected.discount_id)).toBe(false);
      }
    },
  );

  it('pricing is deterministic and does not mutate its input', () => {
    fc.assert(
      fc.property(inputArb, (input) => {
        const copy = structuredClone(input);
        const first = priceCart(input);
        expect(input).toEqual(copy);
        expect(priceCart(input)).toEqual(first);
      }),
      RUNS,
    );
  });

  it('the generated carts exercise discounts: some apply, some are rejected, some ship free', () => {
    const samples = fc.sample(inputArb, { numRuns: 500, seed: 42 }).map((input) => priceCart(input));
    const count = (predicate: (r: PricingResult) => boolean) => samples.filter(predicate).length;
    expect(count((r) => r.applied_discounts.some((d) => d.allocations.length > 0))).toBeGreaterThan(50);
    expect(count((r) => r.shipping_discount > 0)).toBeGreaterThan(25);
    expect(count((r) => r.rejected_codes.length > 0)).toBeGreaterThan(50);
    expect(count((r) => r.shipping_total === 0 && r.subtotal > 0)).toBeGreaterThan(25);
  });
});
