import { parseDecimal } from './decimal';
import { type Rational, roundScaled } from './rounding';

/** A percentage as given on the wire (`20`, `8.875`, `"8.875"`) or already parsed. */
export type PercentageLike = number | string | Rational;

/** Reads a {@link PercentageLike} as an exact rational (20 → 20/1). */
export function toPercentRational(percent: PercentageLike, param = 'percent'): Rational {
  return typeof percent === 'object' ? percent : parseDecimal(percent, param);
}

/**
 * `amount × percent / 100`, computed exactly and rounded half away from zero.
 *
 * @example applyPercentage(1999, 8.875) // 177 (177.41…)
 * @example applyPercentage(1000, '12.5') // 125
 * @param amount integer minor units (may be negative; rounding is symmetric)
 * @throws CommerceError `parameter_invalid` (param `percent`) when the percentage is not a valid
 * decimal; RangeError when `amount` is not a safe integer.
 */
export function applyPercentage(amount: number, percent: PercentageLike): number {
  const rate = toPercentRational(percent);
  return roundScaled(amount, rate.numerator, rate.denominator * 100n);
}
