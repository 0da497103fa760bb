import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { roundHalfAwayFromZero, roundRational, toBigInt, toSafeNumber } from './rounding';

describe('roundHalfAwayFromZero', () => {
  it('rounds 5/2 up to 3 and -5/2 down to -3 (halves go away from zero)', () => {
    expect(roundHalfAwayFromZero(5, 2)).toBe(3);
    expect(roundHalfAwayFromZero(-5, 2)).toBe(-3);
  });

  it('rounds 7/3 to 2, 8/3 to 3 and -8/3 to -3', () => {
    expect(roundHalfAwayFromZero(7n, 3n)).toBe(2);
    expect(roundHalfAwayFromZero(8n, 3n)).toBe(3);
    expect(roundHalfAwayFromZero(-8n, 3n)).toBe(-3);
  });

  it('treats a negative denominator like a negative numerator: 5/-2 is -3', () => {
    expect(roundHalfAwayFromZero(5, -2)).toBe(-3);
    expect(roundHalfAwayFromZero(-5, -2)).toBe(3);
  });

  it('defaults the denominator to 1 and returns integers unchanged (42 → 42)', () => {
    expect(roundHalfAwayFromZero(42)).toBe(42);
    expect(roundHalfAwayFromZero(0, 7)).toBe(0);
  });

  it('is exact beyond 2^53 in the intermediate product: 1999 × 8875 × 10^12 / 10^17 is 177', () => {
    expect(roundHalfAwayFromZero(1999n * 8875n * 10n ** 12n, 10n ** 17n)).toBe(177);
  });

  it('rounds 8.875 % of 1999 (177.41125) to 177', () => {
    expect(roundRational({ numerator: 1999n * 8875n, denominator: 100_000n })).toBe(177);
  });

  it('rejects a zero denominator, non-integer numbers and unsafe results', () => {
    expect(() => roundHalfAwayFromZero(1, 0)).toThrow(RangeError);
    expect(() => roundHalfAwayFromZero(1.5, 1)).toThrow(RangeError);
    expect(() => roundHalfAwayFromZero(2n ** 60n)).toThrow(RangeError);
  });

  it('matches the float definition sign(x)·floor(|x| + 1/2) on small values', () => {
    fc.assert(
      fc.property(fc.integer({ min: -100_000, max: 100_000 }), fc.integer({ min: 1, max: 1000 }), (n, d) => {
        const expected = Math.sign(n) * Math.floor(Math.abs(n) / d + 0.5);
        expect(roundHalfAwayFromZero(n, d)).toBe(expected === 0 ? 0 : expected);
      }),
    );
  });

  it('is never more than half a unit away from the exact quotient', () => {
    fc.assert(
      fc.property(
        fc.bigInt({ min: -(10n ** 15n), max: 10n ** 15n }),
        fc.bigInt({ min: 1n, max: 10n ** 6n }),
        (n, d) => {
          const r = BigInt(roundHalfAwayFromZero(n, d));
          const diff = r * d - n; // (r - n/d) · d
          expect(2n * (diff < 0n ? -diff : diff) <= d).toBe(true);
        },
      ),
    );
  });
});

describe('toBigInt / toSafeNumber', () => {
  it('converts 12 to 12n and back, and rejects 0.5 and 2^60', () => {
    expect(toBigInt(12)).toBe(12n);
    expect(toBigInt(12n)).toBe(12n);
    expect(toSafeNumber(12n)).toBe(12);
    expect(() => toBigInt(0.5)).toThrow(RangeError);
    expect(() => toSafeNumber(2n ** 60n)).toThrow(RangeError);
    expect(() => toSafeNumber(-(2n ** 60n))).toThrow(RangeError);
  });
});
