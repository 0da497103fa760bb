import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { roundHalfAwayFromZero, roundRational, roundSmallQuotient, toBigInt, toSafeNumber } from './rounding';

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

/** The bigint reference: round(n / d), halves away from zero. */
function referenceRound(n: bigint, d: bigint): bigint {
  const negative = n < 0n !== d < 0n;
  const m = n < 0n ? -n : n;
  const e = d < 0n ? -d : d;
  let q = m / e;
  if ((m % e) * 2n >= e) q += 1n;
  return negative ? -q : q;
}

describe('roundSmallQuotient (the number path of roundHalfAwayFromZero)', () => {
  it('rounds 17741/100 to 177, -5/2 to -3, 5/-2 to -3 and -1/3 to 0 (not -0)', () => {
    expect(roundSmallQuotient(17741, 100)).toBe(177);
    expect(roundSmallQuotient(-5, 2)).toBe(-3);
    expect(roundSmallQuotient(5, -2)).toBe(-3);
    expect(Object.is(roundSmallQuotient(-1, 3), 0)).toBe(true);
  });

  it('declines what it cannot do exactly: 2^52 + 1, non-integers and a zero denominator', () => {
    expect(roundSmallQuotient(2 ** 52 + 1, 3)).toBeUndefined();
    expect(roundSmallQuotient(3, 2 ** 52 + 1)).toBeUndefined();
    expect(roundSmallQuotient(1.5, 3)).toBeUndefined();
    expect(roundSmallQuotient(3, 0)).toBeUndefined();
  });

  it('equals the bigint reference for every numerator and denominator up to 2^52 in magnitude', () => {
    const limit = 2n ** 52n;
    fc.assert(
      fc.property(
        fc.bigInt({ min: -limit, max: limit }),
        fc.bigInt({ min: -limit, max: limit }).filter((d) => d !== 0n),
        (n, d) => {
          expect(roundSmallQuotient(Number(n), Number(d))).toBe(Number(referenceRound(n, d)));
        },
      ),
      { numRuns: 3000 },
    );
  });

  it('equals the reference near exact halves of large quotients ((2k+1)·d / 2d for d up to 2^26)', () => {
    fc.assert(
      fc.property(fc.integer({ min: 1, max: 2 ** 26 }), fc.integer({ min: 0, max: 2 ** 25 }), (d, k) => {
        const n = (2 * k + 1) * d;
        for (const delta of [-1, 0, 1]) {
          expect(roundSmallQuotient(n + delta, 2 * d)).toBe(
            Number(referenceRound(BigInt(n + delta), BigInt(2 * d))),
          );
        }
      }),
    );
  });
});
