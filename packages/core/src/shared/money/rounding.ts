/**
 * The one rounding policy of Cartwright: every division of money that needs an integer result
 * goes through {@link roundHalfAwayFromZero} (docs/contract.md#tax: "rounded half away from zero to the
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

const MAX_SAFE = BigInt(Number.MAX_SAFE_INTEGER);
const MIN_SAFE = BigInt(Number.MIN_SAFE_INTEGER);

/**
 * Converts a `bigint` result back to a `number`.
 *
 * @throws RangeError when the value lies outside ±(2^53 − 1), where a number would lose precision.
 */
export function toSafeNumber(value: bigint, label = 'value'): number {
  if (value > MAX_SAFE || value < MIN_SAFE) {
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
  if (typeof numerator === 'number' && typeof denominator === 'number') {
    const exact = roundSmallQuotient(numerator, denominator);
    if (exact !== undefined) return exact;
  }
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

/**
 * Magnitude up to which integer arithmetic on numbers is exact with room to spare: products of
 * money and rational parts below it are computed on numbers, larger ones on `bigint`.
 */
export const EXACT_NUMBER_LIMIT = 2 ** 52;

/**
 * `floor(numerator / denominator)` and the remainder, on numbers: exact for integers with
 * `0 ≤ numerator ≤ 2^52` and `0 < denominator ≤ 2^52` (the quotient is estimated in floating
 * point — off by at most one there — and corrected with the exact remainder).
 */
export function divideSmall(numerator: number, denominator: number): { quotient: number; remainder: number } {
  let quotient = Math.floor(numerator / denominator);
  let remainder = numerator - quotient * denominator;
  if (remainder < 0) {
    quotient -= 1;
    remainder += denominator;
  } else if (remainder >= denominator) {
    quotient += 1;
    remainder -= denominator;
  }
  return { quotient, remainder };
}

/**
 * {@link roundHalfAwayFromZero} on numbers without `bigint`, the same result whenever it answers:
 * integers of magnitude ≤ {@link EXACT_NUMBER_LIMIT} and a non-zero denominator; `undefined`
 * otherwise (the caller falls back to `bigint`). Pricing rounds several times per line on every
 * request, and `bigint` division is far slower than this.
 */
export function roundSmallQuotient(numerator: number, denominator: number): number | undefined {
  if (
    !Number.isInteger(numerator) ||
    !Number.isInteger(denominator) ||
    denominator === 0 ||
    Math.abs(numerator) > EXACT_NUMBER_LIMIT ||
    Math.abs(denominator) > EXACT_NUMBER_LIMIT
  ) {
    return undefined;
  }
  const negative = numerator < 0 !== denominator < 0;
  const d = Math.abs(denominator);
  const { quotient, remainder } = divideSmall(Math.abs(numerator), d);
  const rounded = remainder * 2 >= d ? quotient + 1 : quotient;
  return negative && rounded !== 0 ? -rounded : rounded;
}

/**
 * `round(amount × numerator / denominator)`, half away from zero: a money amount scaled by a
 * rational (a tax rate, a percentage). On numbers when the operands and their product are small
 * enough to be exact ({@link roundSmallQuotient}: every real price and rate), else on `bigint`;
 * the same result either way.
 *
 * @throws RangeError when `amount` is not a safe integer or `denominator` is 0.
 */
export function roundScaled(
  amount: number,
  numerator: bigint,
  denominator: bigint,
  label = 'amount',
): number {
  if (Number.isSafeInteger(amount)) {
    const exact = roundSmallQuotient(amount * Number(numerator), Number(denominator));
    if (exact !== undefined) return exact;
  }
  return roundHalfAwayFromZero(toBigInt(amount, label) * numerator, denominator);
}
