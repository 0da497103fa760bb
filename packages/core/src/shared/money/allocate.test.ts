import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { allocate, allocateBig } from './allocate';

const sum = (values: number[]) => values.reduce((a, b) => a + b, 0);

describe('allocate', () => {
  it('splits 100 over [1, 1, 1] as [34, 33, 33] (leftover to the lowest index on ties)', () => {
    expect(allocate(100, [1, 1, 1])).toEqual([34, 33, 33]);
  });

  it('splits 10 over [1, 2] as [3, 7] (the leftover unit goes to the larger remainder 2/3)', () => {
    expect(allocate(10, [1, 2])).toEqual([3, 7]);
  });

  it('splits 100 over weights [333, 333, 334] as [33, 33, 34]', () => {
    expect(allocate(100, [333, 333, 334])).toEqual([33, 33, 34]);
  });

  it('gives zero weights nothing: 5 over [0, 3, 0] is [0, 5, 0], 1 over [0, 1, 1] is [0, 1, 0]', () => {
    expect(allocate(5, [0, 3, 0])).toEqual([0, 5, 0]);
    expect(allocate(1, [0, 1, 1])).toEqual([0, 1, 0]);
  });

  it('splits evenly when all weights are zero: 7 over [0, 0, 0] is [3, 2, 2]', () => {
    expect(allocate(7, [0, 0, 0])).toEqual([3, 2, 2]);
  });

  it('allocates 0 over nothing as [] and refuses to allocate 1 over nothing', () => {
    expect(allocate(0, [])).toEqual([]);
    expect(() => allocate(1, [])).toThrow(RangeError);
  });

  it('splits -100 over [1, 1, 1] as [-34, -33, -33] and -1 over [1, 1] as [-1, 0]', () => {
    expect(allocate(-100, [1, 1, 1])).toEqual([-34, -33, -33]);
    const parts = allocate(-1, [1, 1]);
    expect(parts).toEqual([-1, 0]);
    expect(Object.is(parts[1], 0)).toBe(true);
  });

  it('rejects negative or fractional weights and a fractional amount', () => {
    expect(() => allocate(10, [1, -1])).toThrow(RangeError);
    expect(() => allocate(10, [1.5])).toThrow(RangeError);
    expect(() => allocate(10.5, [1])).toThrow(RangeError);
  });

  it('handles weights whose products exceed 2^53: 2^52 over [2^52, 2^52]', () => {
    expect(allocate(2 ** 52, [2 ** 52, 2 ** 52])).toEqual([2 ** 51, 2 ** 51]);
  });

  it('allocateBig splits 3n over [1n, 1n] as [2n, 1n]', () => {
    expect(allocateBig(3n, [1n, 1n])).toEqual([2n, 1n]);
  });

  const amounts = fc.integer({ min: 0, max: 10_000_000 });
  const weightLists = fc.array(fc.integer({ min: 0, max: 1_000_000 }), { minLength: 1, maxLength: 20 });

  it('always sums exactly to the amount, each part within [0, amount]', () => {
    fc.assert(
      fc.property(amounts, weightLists, (amount, weights) => {
        const parts = allocate(amount, weights);
        expect(parts).toHaveLength(weights.length);
        expect(sum(parts)).toBe(amount);
        for (const part of parts) {
          expect(Number.isInteger(part)).toBe(true);
          expect(part).toBeGreaterThanOrEqual(0);
          expect(part).toBeLessThanOrEqual(amount);
        }
      }),
    );
  });

  it('keeps each part within one unit of its exact share, and zero weights at 0', () => {
    fc.assert(
      fc.property(amounts, weightLists, (amount, weights) => {
        const total = sum(weights);
        fc.pre(total > 0);
        allocate(amount, weights).forEach((part, i) => {
          const exact = (amount * (weights[i] ?? 0)) / total;
          expect(Math.abs(part - exact)).toBeLessThan(1 + 1e-6);
          if (weights[i] === 0) expect(part).toBe(0);
        });
      }),
    );
  });

  it('is symmetric for negative amounts: allocate(-a, w) = -allocate(a, w)', () => {
    fc.assert(
      fc.property(amounts, weightLists, (amount, weights) => {
        expect(allocate(-amount, weights)).toEqual(allocate(amount, weights).map((p) => (p === 0 ? 0 : -p)));
      }),
    );
  });
});

describe('allocate on numbers agrees with allocateBig', () => {
  it('gives the bigint parts for amounts and weights whose products stay below 2^52, negative amounts too', () => {
    fc.assert(
      fc.property(
        fc.integer({ min: -(2 ** 31), max: 2 ** 31 }),
        fc.array(fc.integer({ min: 0, max: 2 ** 20 }), { minLength: 1, maxLength: 12 }),
        (amount, weights) => {
          const big = allocateBig(BigInt(Math.abs(amount)), weights.map(BigInt)).map(Number);
          const expected = amount < 0 ? big.map((part) => (part === 0 ? 0 : -part)) : big;
          expect(allocate(amount, weights)).toEqual(expected);
        },
      ),
      { numRuns: 2000 },
    );
  });

  it('splits 2^40 over [2^20, 1] on the bigint path (product above 2^52) with the same rule', () => {
    expect(allocate(2 ** 40, [2 ** 20, 1])).toEqual(allocateBig(2n ** 40n, [2n ** 20n, 1n]).map(Number));
  });
});
