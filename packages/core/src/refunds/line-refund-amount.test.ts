import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { linePaidAmount, lineRefundAmount } from './line-refund-amount';

describe('linePaidAmount (decisions §13)', () => {
  it('prices exclude tax: 3000 + 600 tax → 3600', () => {
    expect(linePaidAmount({ line_total: 3000, tax_amount: 600 }, false)).toBe(3600);
  });

  it('prices include tax: 3000 (of which 500 tax) → 3000', () => {
    expect(linePaidAmount({ line_total: 3000, tax_amount: 500 }, true)).toBe(3000);
  });
});

describe('lineRefundAmount', () => {
  const line = { paid_amount: 1000, quantity: 3 };

  it('1 of 3 units of 1000 → 333, the 2nd → 334, the 3rd → 333 (sums to 1000)', () => {
    const first = lineRefundAmount({ ...line, refunded_quantity: 0, units: 1 });
    const second = lineRefundAmount({ ...line, refunded_quantity: 1, units: 1 });
    const third = lineRefundAmount({ ...line, refunded_quantity: 2, units: 1 });
    expect([first, second, third]).toEqual([333, 334, 333]);
    expect(first + second + third).toBe(1000);
  });

  it('all 3 units at once → 1000', () => {
    expect(lineRefundAmount({ ...line, refunded_quantity: 0, units: 3 })).toBe(1000);
  });

  it('half-unit rounds away from zero: 1 of 2 units of 5 → 3, then 2', () => {
    expect(lineRefundAmount({ paid_amount: 5, quantity: 2, refunded_quantity: 0, units: 1 })).toBe(3);
    expect(lineRefundAmount({ paid_amount: 5, quantity: 2, refunded_quantity: 1, units: 1 })).toBe(2);
  });

  it('is exact when units × paid exceeds 2^53: 5 of 7 units of 9_007_199_254_740_990 → 6_433_713_753_386_421', () => {
    // 5 × 9_007_199_254_740_990 / 7 = 6_433_713_753_386_421.428…; a float product would lose the digits
    expect(
      lineRefundAmount({ paid_amount: 9_007_199_254_740_990, quantity: 7, refunded_quantity: 0, units: 5 }),
    ).toBe(6_433_713_753_386_421);
  });

  it('refunding every unit in random chunks sums exactly to the paid amount (property)', () => {
    fc.assert(
      fc.property(
        fc.nat(10_000_000),
        fc.integer({ min: 1, max: 50 }),
        fc.array(fc.integer({ min: 1, max: 10 }), { minLength: 1, maxLength: 60 }),
        (paid_amount, quantity, chunks) => {
          let refunded_quantity = 0;
          let sum = 0;
          for (const chunk of chunks) {
            if (refunded_quantity === quantity) break;
            const units = Math.min(chunk, quantity - refunded_quantity);
            const amount = lineRefundAmount({ paid_amount, quantity, refunded_quantity, units });
            expect(amount).toBeGreaterThanOrEqual(0);
            // each chunk is within one minor unit of its exact share
            expect(Math.abs(amount * quantity - units * paid_amount)).toBeLessThanOrEqual(quantity);
            sum += amount;
            refunded_quantity += units;
          }
          const rest = quantity - refunded_quantity;
          if (rest > 0) sum += lineRefundAmount({ paid_amount, quantity, refunded_quantity, units: rest });
          expect(sum).toBe(paid_amount);
        },
      ),
    );
  });
});
