import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { divideRoundHalfAwayFromZero } from './refund-rounding';

describe('divideRoundHalfAwayFromZero', () => {
  it.each([
    [10n, 4n, 3n], // 2.5 → 3
    [-10n, 4n, -3n], // −2.5 → −3
    [9n, 4n, 2n], // 2.25 → 2
    [-9n, 4n, -2n],
    [11n, 4n, 3n], // 2.75 → 3
    [1000n, 3n, 333n],
    [2000n, 3n, 667n],
    [0n, 7n, 0n],
  ])('%s / %s → %s', (n, d, expected) => {
    expect(divideRoundHalfAwayFromZero(n, d)).toBe(expected);
  });

  it('refuses a non-positive denominator', () => {
    expect(() => divideRoundHalfAwayFromZero(1n, 0n)).toThrow(RangeError);
  });

  it('is within half a unit of the exact quotient, and odd-symmetric (property)', () => {
    fc.assert(
      fc.property(fc.bigInt(-(10n ** 20n), 10n ** 20n), fc.bigInt(1n, 10n ** 9n), (n, d) => {
        const q = divideRoundHalfAwayFromZero(n, d);
        const error = q * d - n; // d × (q − n/d)
        expect(2n * (error < 0n ? -error : error) <= d).toBe(true);
        expect(divideRoundHalfAwayFromZero(-n, d)).toBe(-q);
      }),
    );
  });
});
