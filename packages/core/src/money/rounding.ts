/**
 * The one rounding policy of Cartwright: every division of money that needs an integer result
 * goes through {@link roundHalfAwayFromZero} (decisions §11: "rounded half away from zero to the
 * minor unit"). Arithmetic is exact on `bigint`, so products such as `amount × 8875` never lose
 * precision, whatever their size.
 */

/** An exact rational number `numerator / denominator`; `denominator` is always positive. */
export interface Rational {
  numerator: bigint;
  denominator: bigint;
}

/** An integer operand: a `bigint`, or a `number` that is a safe integer. */
export type IntegerLike = bigint | number;

/**
 * Converts an integer operand to `bigint`.
 *
 * @throws RangeError when `value` is a number that is not a safe integer (a programming error:
 * money and rational parts are integers, never floats).
 */
export function toBigInt(value: IntegerLike, label = 'value'): bigint {
  if (typeof value === 'bigint') return value;
  if (!Number.isSafeInteger(value)) throw new RangeError(`${label} must be a safe integer, got ${value}`);
  return BigInt(value);
}

/**
 * Converts a `bigint` result back to a `number`.
 *
 * @throws RangeError when the value lies outside ±(2^53 − 1), where a number would lose precision.
 */
export function toSafeNumber(value: bigint, label = 'value'): number {
  if (value > BigInt(Number.MAX_SAFE_INTEGER) || value < BigInt(Number.MIN_SAFE_INTEGER)) {
    throw new RangeError(`${label} ${value} is outside the safe integer range`);
  }
  return Number(value);
}

/**
 * Rounds `numerator / denominator` to the nearest integer, halves away from zero
 * (2.5 → 3, −2.5 → −3, 2.4 → 2), computed exactly.
 *
 * @example roundHalfAwayFromZero(1999n * 8875n, 100_000n) // 177 (1999 × 8.875 % = 177.41…)
 * @throws RangeError on a zero denominator, a non-integer number operand or a result that is not a
 * safe integer.
 */
export function roundHalfAwayFromZero(numerator: IntegerLike, denominator: IntegerLike = 1n): number {
  let n = toBigInt(numerator, 'numerator');
  let d = toBigInt(denominator, 'denominator');
  if (d === 0n) throw new RangeError('denominator must not be zero');
  if (d < 0n) {
    n = -n;
    d = -d;
  }
  const negative = n < 0n;
  const magnitude = negative ? -n : n;
  let quotient = magnitude / d;
  if ((magnitude % d) * 2n >= d) quotient += 1n;
  return toSafeNumber(negative ? -quotient : quotient, 'rounded value');
}

/** Rounds a {@link Rational} half away from zero; see {@link roundHalfAwayFromZero}. */
export function roundRational(value: Rational): number {
  return roundHalfAwayFromZero(value.numerator, value.denominator);
}
