import { CommerceError } from '../../shared/errors';
import { allocate } from '../../shared/money/allocate';
import { parseDecimal } from '../../shared/money/decimal';
import { applyPercentage } from '../../shared/money/percentage';
import { eligibleLines } from './discount-conditions';
import { type DiscountDefinition, type DiscountLine, isShippingDiscount } from './discount-definition';

/** A cart line as discounts see it, with what is left of it after the discounts applied before. */
export interface DiscountableLine extends DiscountLine {
  unit_price: number;
  quantity: number;
  /** The line's subtotal minus the discounts already taken off it (≥ 0). */
  remaining: number;
}

/** One discount's share of one line. */
export interface LineAllocation {
  key: string;
  amount: number;
}

/**
 * What one item discount (target `order` or `line_item`, value type `fixed` or `percentage`) takes
 * off each eligible line, given what remains of the lines (docs/contract.md#discounts):
 *
 * - `order` + `fixed`: `min(value, base)`, `base` = Σ remaining of the eligible lines;
 *   `order` + `percentage`: `round(base × value / 100)`; either is spread over the eligible lines
 *   by largest remainder, weighted by each line's remaining amount;
 * - `line_item` + `fixed`: `min(value, unit_price)` off each eligible unit, never more than what
 *   remains of the line; `line_item` + `percentage`: `round(remaining × value / 100)` per line;
 * - `maximum_discount` caps the discount's total, which is then allocated over the lines by
 *   largest remainder, weighted by their uncapped amounts.
 *
 * Every amount lies in `[0, remaining]` of its line. Returns one entry per eligible line, in cart
 * order (amounts may be 0); shipping discounts take nothing from lines and return `[]`.
 *
 * @throws CommerceError `parameter_invalid` (param `value`) when `value` is not a non-negative
 * integer (fixed) or a non-negative decimal with at most 6 places (percentage).
 */
export function computeItemDiscount(
  discount: DiscountDefinition,
  lines: readonly DiscountableLine[],
): LineAllocation[] {
  if (isShippingDiscount(discount)) return [];
  const eligible = eligibleLines(lines, discount.conditions);
  let amounts: number[];
  if (discount.target === 'order') {
    const base = eligible.reduce((sum, line) => sum + line.remaining, 0);
    const raw = discount.value_type === 'fixed' ? fixedValue(discount) : percentOf(base, discount);
    const total = capTotal(Math.min(raw, base), discount);
    amounts = allocate(
      total,
      eligible.map((line) => line.remaining),
    );
  } else {
    const perLine = eligible.map((line) => {
      const raw =
        discount.value_type === 'fixed'
          ? Math.min(fixedValue(discount), line.unit_price) * line.quantity
          : percentOf(line.remaining, discount);
      return Math.min(raw, line.remaining);
    });
    const total = perLine.reduce((sum, amount) => sum + amount, 0);
    const capped = capTotal(total, discount);
    amounts = capped === total ? perLine : allocate(capped, perLine);
  }
  return eligible.map((line, index) => ({ key: line.key, amount: amounts[index] ?? 0 }));
}

/**
 * What a shipping discount (target `shipping`, or value type `free_shipping`) takes off the
 * shipping price that remains: `free_shipping` → all of it, `fixed` → `min(value, remaining)`,
 * `percentage` → `round(remaining × value / 100)`; then capped by `maximum_discount`.
 * Item discounts return 0.
 */
export function computeShippingDiscount(discount: DiscountDefinition, remainingShipping: number): number {
  if (!isShippingDiscount(discount)) return 0;
  let raw: number;
  if (discount.value_type === 'free_shipping') raw = remainingShipping;
  else if (discount.value_type === 'fixed') raw = fixedValue(discount);
  else raw = percentOf(remainingShipping, discount);
  return capTotal(Math.min(raw, remainingShipping), discount);
}

function fixedValue(discount: DiscountDefinition): number {
  if (!Number.isSafeInteger(discount.value) || discount.value < 0) {
    throw invalidValue('a fixed discount value must be a non-negative integer of minor units');
  }
  return discount.value;
}

function percentOf(amount: number, discount: DiscountDefinition): number {
  const percent = parseDecimal(discount.value, 'value');
  if (percent.numerator < 0n) throw invalidValue('a percentage discount value must not be negative');
  return applyPercentage(amount, percent);
}

function capTotal(total: number, discount: DiscountDefinition): number {
  if (discount.maximum_discount === null) return total;
  return Math.max(0, Math.min(total, discount.maximum_discount));
}

function invalidValue(message: string): CommerceError {
  return new CommerceError('parameter_invalid', message, { param: 'value' });
}
