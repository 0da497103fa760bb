/**
 * Private rounding for refunds: `numerator / denominator` rounded half away from zero, exactly,
 * on `bigint` (decisions §11's policy). Duplicates the money module's rounding on purpose so the
 * two folders could be written in parallel; the lead may replace it with `money/rounding`.
 *
 * @throws RangeError when `denominator` is not positive.
 */
export function divideRoundHalfAwayFromZero(numerator: bigint, denominator: bigint): bigint {
  if (denominator <= 0n) throw new RangeError('denominator must be positive');
  const quotient = numerator / denominator; // truncates toward zero
  const remainder = numerator % denominator; // has the sign of the numerator
  const twice = (remainder < 0n ? -remainder : remainder) * 2n;
  if (twice < denominator) return quotient;
  return numerator < 0n ? quotient - 1n : quotient + 1n;
}
