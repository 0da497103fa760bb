import { roundHalfAwayFromZero } from '../shared/money/rounding';

/** What a line cost, as the order recorded it (minor units). */
export interface LinePaidInput {
  /** Discounted line total, before tax (docs/contract.md#tax). */
  line_total: number;
  tax_amount: number;
}

/**
 * What the customer paid for a whole line (docs/contract.md#refunds): the discounted total plus its tax when
 * prices exclude tax; the discounted total alone when prices include it (the tax is inside).
 *
 * @example linePaidAmount({ line_total: 3000, tax_amount: 600 }, false) // 3600
 * @example linePaidAmount({ line_total: 3000, tax_amount: 500 }, true) // 3000
 */
export function linePaidAmount(line: LinePaidInput, prices_include_tax: boolean): number {
  return prices_include_tax ? line.line_total : line.line_total + line.tax_amount;
}

/** The units of a line a refund covers, and how many of its units earlier refunds covered. */
export interface LineUnitsRefund {
  /** What the whole line cost ({@link linePaidAmount}). */
  paid_amount: number;
  /** Ordered units. */
  quantity: number;
  /** Units refunded before this refund. */
  refunded_quantity: number;
  /** Units this refund covers. */
  units: number;
}

/**
 * The default refund for some units of a line: the line's paid amount apportioned per unit so
 * that refunding the line in several partial refunds sums exactly to its paid amount:
 *
 * `round((refunded + units) × paid / quantity) − round(refunded × paid / quantity)`
 *
 * with exact rational arithmetic, rounded half away from zero. Refunding every unit, in any
 * chunks, telescopes to `round(quantity × paid / quantity) = paid`.
 *
 * @example lineRefundAmount({ paid_amount: 1000, quantity: 3, refunded_quantity: 0, units: 1 }) // 333
 * @example lineRefundAmount({ paid_amount: 1000, quantity: 3, refunded_quantity: 1, units: 1 }) // 334 (667 − 333)
 * @throws RangeError when quantity is not positive.
 */
export function lineRefundAmount({
  paid_amount,
  quantity,
  refunded_quantity,
  units,
}: LineUnitsRefund): number {
  const paid = BigInt(paid_amount);
  const total = BigInt(quantity);
  const through = roundHalfAwayFromZero(BigInt(refunded_quantity + units) * paid, total);
  const before = roundHalfAwayFromZero(BigInt(refunded_quantity) * paid, total);
  return through - before;
}
