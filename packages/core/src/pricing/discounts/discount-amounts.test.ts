import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { CommerceError } from '../../shared/errors';
import { makeCondition as cond, makeDiscount, makeLine } from '../pricing-fixtures';
import { computeItemDiscount, computeShippingDiscount, type DiscountableLine } from './discount-amounts';
import type { DiscountDefinition } from './discount-definition';

function line(
  key: string,
  unit_price: number,
  quantity = 1,
  remaining = unit_price * quantity,
  tags: string[] = [],
) {
  return { ...makeLine(key, unit_price, quantity, tags), remaining };
}
const amounts = (discount: DiscountDefinition, lines: DiscountableLine[]) =>
  computeItemDiscount(discount, lines).map((a) => a.amount);

describe('order target', () => {
  it('fixed 100 over three lines of 1000 is spread [34, 33, 33]', () => {
    const d = makeDiscount({ value_type: 'fixed', value: 100 });
    expect(amounts(d, [line('a', 1000), line('b', 1000), line('c', 1000)])).toEqual([34, 33, 33]);
  });

  it('fixed 5000 on a 1000 subtotal takes 1000 (never more than the base)', () => {
    const d = makeDiscount({ value_type: 'fixed', value: 5000 });
    expect(amounts(d, [line('a', 600), line('b', 400)])).toEqual([600, 400]);
  });

  it('percentage 10 % of lines 333, 333, 334 is 100 spread [33, 33, 34]', () => {
    const d = makeDiscount({ value: 10 });
    expect(amounts(d, [line('a', 333), line('b', 333), line('c', 334)])).toEqual([33, 33, 34]);
  });

  it('percentage 8.875 % of 1999 is 177', () => {
    expect(amounts(makeDiscount({ value: 8.875 }), [line('a', 1999)])).toEqual([177]);
  });

  it('spreads by REMAINING amounts: fixed 300 over lines with 1000 and 500 left is [200, 100]', () => {
    const d = makeDiscount({ value_type: 'fixed', value: 300 });
    expect(amounts(d, [line('a', 1000, 1, 1000), line('b', 1000, 1, 500)])).toEqual([200, 100]);
  });

  it('50 % capped by maximum_discount 300 on 1000 takes 300', () => {
    const d = makeDiscount({ value: 50, maximum_discount: 300 });
    expect(amounts(d, [line('a', 500), line('b', 500)])).toEqual([150, 150]);
  });

  it('only eligible lines: 10 % with product in [prod_b] takes 50 off b (500) and leaves a alone', () => {
    const d = makeDiscount({ value: 10, conditions: [cond('product', 'in', ['prod_b'])] });
    expect(computeItemDiscount(d, [line('a', 1000), line('b', 500)])).toEqual([{ key: 'b', amount: 50 }]);
  });

  it('on lines with nothing left it takes 0 from each', () => {
    const d = makeDiscount({ value_type: 'fixed', value: 100 });
    expect(amounts(d, [line('a', 1000, 1, 0), line('b', 1000, 1, 0)])).toEqual([0, 0]);
  });
});

describe('line_item target', () => {
  it('fixed 500 per unit on 300 × 2 and 1000 × 1 takes 600 and 500 (never below zero per unit)', () => {
    const d = makeDiscount({ target: 'line_item', value_type: 'fixed', value: 500 });
    expect(amounts(d, [line('a', 300, 2), line('b', 1000, 1)])).toEqual([600, 500]);
  });

  it('fixed 100 per unit on 1000 × 3 with only 150 left takes 150', () => {
    const d = makeDiscount({ target: 'line_item', value_type: 'fixed', value: 100 });
    expect(amounts(d, [line('a', 1000, 3, 150)])).toEqual([150]);
  });

  it('percentage 10 % on three lines of 5 rounds per line: 1 + 1 + 1 = 3 (order-level would be 2)', () => {
    const lines = [line('a', 5), line('b', 5), line('c', 5)];
    expect(amounts(makeDiscount({ target: 'line_item', value: 10 }), lines)).toEqual([1, 1, 1]);
    expect(amounts(makeDiscount({ target: 'order', value: 10 }), lines)).toEqual([1, 1, 0]);
  });

  it('fixed 500 per unit on two 1000 lines capped at 700 allocates [350, 350]', () => {
    const d = makeDiscount({ target: 'line_item', value_type: 'fixed', value: 500, maximum_discount: 700 });
    expect(amounts(d, [line('a', 1000), line('b', 1000)])).toEqual([350, 350]);
  });

  it('a cap above the total changes nothing: 10 % of 1000 and 500 capped at 1000 is [100, 50]', () => {
    const d = makeDiscount({ target: 'line_item', value: 10, maximum_discount: 1000 });
    expect(amounts(d, [line('a', 1000), line('b', 500)])).toEqual([100, 50]);
  });

  it('variant not_in [var_a] leaves line a out', () => {
    const d = makeDiscount({
      target: 'line_item',
      value: 50,
      conditions: [cond('variant', 'not_in', ['var_a'])],
    });
    expect(computeItemDiscount(d, [line('a', 1000), line('b', 400)])).toEqual([{ key: 'b', amount: 200 }]);
  });
});

describe('shipping discounts', () => {
  it('take nothing from lines', () => {
    expect(computeItemDiscount(makeDiscount({ target: 'shipping' }), [line('a', 1000)])).toEqual([]);
    expect(computeItemDiscount(makeDiscount({ value_type: 'free_shipping' }), [line('a', 1000)])).toEqual([]);
  });

  it('free_shipping takes all 500 of the shipping price, whatever its target', () => {
    expect(computeShippingDiscount(makeDiscount({ value_type: 'free_shipping', value: 0 }), 500)).toBe(500);
  });

  it('fixed 300 off 500 shipping is 300; fixed 800 off 500 is 500', () => {
    expect(
      computeShippingDiscount(makeDiscount({ target: 'shipping', value_type: 'fixed', value: 300 }), 500),
    ).toBe(300);
    expect(
      computeShippingDiscount(makeDiscount({ target: 'shipping', value_type: 'fixed', value: 800 }), 500),
    ).toBe(500);
  });

  it('percentage 25 % of 499 shipping is 125 (124.75)', () => {
    expect(computeShippingDiscount(makeDiscount({ target: 'shipping', value: 25 }), 499)).toBe(125);
  });

  it('free_shipping capped by maximum_discount 200 takes 200 of 500', () => {
    expect(
      computeShippingDiscount(makeDiscount({ value_type: 'free_shipping', maximum_discount: 200 }), 500),
    ).toBe(200);
  });

  it('an item discount takes 0 from shipping', () => {
    expect(computeShippingDiscount(makeDiscount({ target: 'order' }), 500)).toBe(0);
  });
});

describe('invalid values', () => {
  it('refuses a fractional or negative fixed value and a negative percentage on param value', () => {
    const bad = [
      makeDiscount({ value_type: 'fixed', value: 1.5 }),
      makeDiscount({ value_type: 'fixed', value: -1 }),
      makeDiscount({ value_type: 'percentage', value: -10 }),
    ];
    for (const d of bad) {
      let caught: unknown;
      try {
        computeItemDiscount(d, [line('a', 1000)]);
      } catch (error) {
        caught = error;
      }
      expect(CommerceError.is(caught) && caught.param).toBe('value');
    }
  });

  it('a percentage above 100 (150 %) takes no more than the base', () => {
    expect(amounts(makeDiscount({ value: 150 }), [line('a', 1000)])).toEqual([1000]);
    expect(amounts(makeDiscount({ target: 'line_item', value: 150 }), [line('a', 1000)])).toEqual([1000]);
  });
});

describe('properties', () => {
  const lineArb = fc
    .record({
      unit_price: fc.integer({ min: 0, max: 100_000 }),
      quantity: fc.integer({ min: 0, max: 20 }),
      used: fc.nat(100),
    })
    .map(({ unit_price, quantity, used }) => ({
      unit_price,
      quantity,
      remaining: Math.floor((unit_price * quantity * (100 - used)) / 100),
    }));
  const discountArb = fc.record({
    target: fc.constantFrom('order' as const, 'line_item' as const),
    value_type: fc.constantFrom('fixed' as const, 'percentage' as const),
    fixed: fc.integer({ min: 0, max: 200_000 }),
    percent: fc.integer({ min: 1, max: 100_000 }).map((v) => v / 1000),
    cap: fc.option(fc.integer({ min: 0, max: 100_000 }), { nil: null }),
  });

  it('each line’s share lies in [0, remaining] and the total respects the cap', () => {
    fc.assert(
      fc.property(fc.array(lineArb, { minLength: 1, maxLength: 8 }), discountArb, (rawLines, d) => {
        const lines = rawLines.map((l, i) => ({
          ...makeLine(`l${i}`, l.unit_price, l.quantity),
          remaining: l.remaining,
        }));
        const discount = makeDiscount({
          target: d.target,
          value_type: d.value_type,
          value: d.value_type === 'fixed' ? d.fixed : d.percent,
          maximum_discount: d.cap,
        });
        const result = computeItemDiscount(discount, lines);
        let total = 0;
        result.forEach((allocation, i) => {
          const source = lines[i]!;
          expect(allocation.key).toBe(source.key);
          expect(allocation.amount).toBeGreaterThanOrEqual(0);
          expect(allocation.amount).toBeLessThanOrEqual(source.remaining);
          total += allocation.amount;
        });
        if (d.cap !== null) expect(total).toBeLessThanOrEqual(d.cap);
        if (d.target === 'order' && d.value_type === 'fixed') expect(total).toBeLessThanOrEqual(d.fixed);
      }),
    );
  });
});
