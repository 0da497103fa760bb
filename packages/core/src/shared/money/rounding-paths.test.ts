import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { divideSmall, EXACT_NUMBER_LIMIT, roundHalfAwayFromZero } from './rounding';

/** The reference: sign(n/d) · floor(|n/d| + 1/2), on bigint. */
function reference(n: bigint, d: bigint): bigint {
  const negative = n < 0n !== d < 0n;
  const a = n < 0n ? -n : n;
  const b = d < 0n ? -d : d;
  const q = (2n * a + b) / (2n * b);
  return negative ? -q : q;
}

describe('roundHalfAwayFromZero on bigint operands', () => {
  it('a negative bigint denominator is the same as a negated numerator: -5n/2n = 5n/-2n = -3', () => {
    expect(roundHalfAwayFromZero(5n, -2n)).toBe(-3);
    expect(roundHalfAwayFromZero(-5n, 2n)).toBe(-3);
    expect(roundHalfAwayFromZero(-7n, -2n)).toBe(4);
  });

  it('equals the reference for any bigint numerator and non-zero denominator of either sign', () => {
    fc.assert(
      fc.property(
        fc.bigInt({ min: -(10n ** 29n), max: 10n ** 29n }),
        fc.bigInt({ min: 10n ** 14n, max: 10n ** 20n }),
        fc.boolean(),
        (n, magnitude, negate) => {
          const d = negate ? -magnitude : magnitude;
          expect(roundHalfAwayFromZero(n, d)).toBe(Number(reference(n, d)));
        },
      ),
    );
  });
});

describe('divideSmall', () => {
  it('returns the exact floor quotient and remainder for operands up to 2^52 (n = q·d + r, 0 ≤ r < d)', () => {
    fc.assert(
      fc.property(
        fc.integer({ min: 0, max: EXACT_NUMBER_LIMIT }),
        fc.integer({ min: 1, max: EXACT_NUMBER_LIMIT }),
        (n, d) => {
          const { quotient, remainder } = divideSmall(n, d);
          expect(BigInt(quotient) * BigInt(d) + BigInt(remainder)).toBe(BigInt(n));
          expect(remainder >= 0 && remainder < d).toBe(true);
        },
      ),
      { numRuns: 2000 },
    );
  });

  it('is exact at the edges of its range (quotients near 1, divisors near 2^52)', () => {
    const cases: Array<[number, number]> = [
      [EXACT_NUMBER_LIMIT - 1, 3],
      [EXACT_NUMBER_LIMIT, 2 ** 26 + 1],
      [EXACT_NUMBER_LIMIT - 1, EXACT_NUMBER_LIMIT],
      [4503599627370495, 4503599627370494],
      [4503599627370493, 1125899906842625],
    ];
    for (const [n, d] of cases) {
      const { quotient, remainder } = divideSmall(n, d);
      expect(BigInt(quotient)).toBe(BigInt(n) / BigInt(d));
      expect(BigInt(remainder)).toBe(BigInt(n) % BigInt(d));
    }
  });
});
