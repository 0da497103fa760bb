import { CommerceError } from '../shared/errors';
import {
  computeItemDiscount,
  computeShippingDiscount,
  type DiscountableLine,
} from './discounts/discount-amounts';
import type { DiscountDefinition } from './discounts/discount-definition';
import { checkDiscount } from './discounts/discount-eligibility';
import { type OrderedDiscount, orderDiscounts } from './discounts/discount-order';
import type { AppliedDiscountResult, PricingInput, PricingResult, RejectedCode } from './price-cart-types';
import { computeTax, parseTaxRate } from './tax';

/**
 * THE pricing function of Cartwright: carts, checkout and admin orders all price through it, so a
 * cart's summary and the order made from it can never disagree (docs/contract.md#pricing).
 *
 * 1. Each line's `subtotal` is `unit_price × quantity`; `subtotal` is their sum.
 * 2. Discounts apply in {@link orderDiscounts} order, each on what the previous ones left. Each is
 *    checked with `checkDiscount` (minimum against the subtotal before discounts); automatic ones
 *    that fail are skipped, codes that fail are listed in `rejected_codes` and save nothing.
 *    Item discounts are computed first, in that order; then shipping discounts, in that order,
 *    on what remains of the shipping price (the two draw on separate amounts, so this is the
 *    same as interleaving them, and it lets the threshold below see the item discounts).
 * 3. `shipping_total` is the method's price, or 0 when `free_shipping_threshold ≤ subtotal − item
 *    discounts`. Decision: an empty cart pays no shipping (it prices to all zeros), and no method
 *    means 0.
 * 4. `line_discount` is the line's share of all item discounts, `line_total = subtotal − line_discount`;
 *    shipping discounts count in `discount_total` and `shipping_discount`, never in `shipping_total`.
 * 5. Tax per line on `line_total`, and on `shipping_total − shipping_discount`, each rounded half away
 *    from zero ({@link computeTax}). Without `prices_include_tax`:
 *    `total = subtotal − discount_total + shipping_total + tax_total`; with it the tax is the
 *    contained part and `total = subtotal − discount_total + shipping_total`.
 *
 * Decision: a qualifying discount that saves 0 (e.g. a shipping discount when shipping is already
 * free by threshold, or a discount left nothing by earlier ones) is neither applied nor rejected:
 * it is absent from both lists.
 *
 * @throws CommerceError `parameter_invalid` for lines with a negative or non-integer price or
 * quantity, duplicate line keys, an invalid tax rate, or a discount with an invalid `value`.
 */
export function priceCart(input: PricingInput): PricingResult {
  const rate = parseTaxRate(input.tax.rate);
  const lines = readLines(input);
  const subtotal = safeSum(
    lines.map((line) => line.remaining),
    'subtotal',
  );

  const ordered = orderDiscounts(input.automatic_discounts, input.code_discounts);
  const qualifying: OrderedDiscount[] = [];
  const rejected_codes: RejectedCode[] = [];
  for (const entry of ordered) {
    const verdict = checkDiscount(entry.discount, {
      now: input.now,
      subtotal,
      lines,
      customer: input.customer,
      customer_usage_count: input.usage?.per_customer[entry.discount.id],
      region_id: input.region_id,
    });
    if (verdict.ok) qualifying.push(entry);
    else if (entry.source === 'code') {
      rejected_codes.push({
        discount_id: entry.discount.id,
        code: entry.discount.code,
        reason: verdict.code,
      });
    }
  }

  const byLine = new Map(lines.map((line) => [line.key, line]));
  const itemParts = new Map<string, Array<{ key: string; amount: number }>>();
  for (const { discount } of qualifying) {
    const allocations = computeItemDiscount(discount, lines).filter((a) => a.amount > 0);
    for (const allocation of allocations) {
      const line = byLine.get(allocation.key)!;
      line.remaining -= allocation.amount;
    }
    itemParts.set(discount.id, allocations);
  }
  const itemDiscount =
    subtotal -
    safeSum(
      lines.map((line) => line.remaining),
      'subtotal',
    );

  const shipping_total = shippingTotal(input, subtotal - itemDiscount);
  let remainingShipping = shipping_total;
  const shippingParts = new Map<string, number>();
  for (const { discount } of qualifying) {
    const saved = computeShippingDiscount(discount, remainingShipping);
    remainingShipping -= saved;
    shippingParts.set(discount.id, saved);
  }
  const shipping_discount = shipping_total - remainingShipping;

  const applied_discounts: AppliedDiscountResult[] = [];
  for (const { discount } of qualifying) {
    const allocations = itemParts.get(discount.id) ?? [];
    const shipping_saved = shippingParts.get(discount.id) ?? 0;
    const saved = allocations.reduce((sum, a) => sum + a.amount, 0) + shipping_saved;
    if (saved > 0) applied_discounts.push(describeApplied(discount, allocations, shipping_saved, saved));
  }

  const includeTax = input.tax.prices_include_tax;
  const pricedLines = lines.map((line) => ({
    key: line.key,
    unit_price: line.unit_price,
    quantity: line.quantity,
    subtotal: line.subtotal,
    line_discount: line.subtotal - line.remaining,
    line_total: line.remaining,
    tax_amount: computeTax(line.remaining, rate, includeTax),
  }));
  const shipping_tax = computeTax(remainingShipping, rate, includeTax);
  const tax_total = safeSum([...pricedLines.map((line) => line.tax_amount), shipping_tax], 'tax_total');
  const discount_total = itemDiscount + shipping_discount;
  const beforeTax = subtotal - discount_total + shipping_total;

  return {
    currency: input.currency,
    lines: pricedLines,
    subtotal,
    discount_total,
    shipping_total,
    shipping_discount,
    shipping_tax,
    tax_total,
    total: includeTax ? beforeTax : safeSum([beforeTax, tax_total], 'total'),
    item_count: lines.length,
    total_quantity: safeSum(
      lines.map((line) => line.quantity),
      'total_quantity',
    ),
    applied_discounts,
    rejected_codes,
  };
}

interface WorkingLine extends DiscountableLine {
  subtotal: number;
}

/**
 * The lines with their subtotals, checked (a `param` is only spelled out for an error: this runs
 * per line on every pricing).
 */
function readLines(input: PricingInput): WorkingLine[] {
  const keys = new Set<string>();
  return input.lines.map((line, index) => {
    if (keys.has(line.key)) throw invalid(`lines[${index}][key]`, `duplicate line key '${line.key}'`);
    keys.add(line.key);
    if (!isNonNegativeInteger(line.unit_price)) throw notNonNegative(`lines[${index}][unit_price]`);
    if (!isNonNegativeInteger(line.quantity)) throw notNonNegative(`lines[${index}][quantity]`);
    const subtotal = line.unit_price * line.quantity;
    if (!Number.isSafeInteger(subtotal)) throw invalid(`lines[${index}]`, 'line subtotal is too large');
    // Written out: `{ ...line, subtotal, remaining }` adds keys after a spread, which V8 (Node 20)
    // builds on a slow path (µs per line, on every pricing).
    return {
      key: line.key,
      variant_id: line.variant_id,
      product_id: line.product_id,
      product_tags: line.product_tags,
      unit_price: line.unit_price,
      quantity: line.quantity,
      subtotal,
      remaining: subtotal,
    };
  });
}

function shippingTotal(input: PricingInput, discountedSubtotal: number): number {
  if (input.shipping === null || input.lines.length === 0) return 0;
  const { price, free_shipping_threshold } = input.shipping;
  nonNegativeInteger(price, 'shipping[price]');
  if (free_shipping_threshold !== null && free_shipping_threshold <= discountedSubtotal) return 0;
  return price;
}

function describeApplied(
  discount: DiscountDefinition,
  allocations: Array<{ key: string; amount: number }>,
  shipping_saved: number,
  saved: number,
): AppliedDiscountResult {
  return {
    discount_id: discount.id,
    code: discount.code,
    name: discount.name,
    value_type: discount.value_type,
    value: discount.value,
    target: discount.target,
    saved,
    allocations,
    shipping_saved,
  };
}

function nonNegativeInteger(value: number, param: string): void {
  if (!isNonNegativeInteger(value)) throw notNonNegative(param);
}

function isNonNegativeInteger(value: number): boolean {
  return Number.isSafeInteger(value) && value >= 0;
}

function notNonNegative(param: string): CommerceError {
  return invalid(param, `${param} must be a non-negative integer`);
}

function safeSum(values: readonly number[], param: string): number {
  const sum = values.reduce((acc, value) => acc + value, 0);
  if (!Number.isSafeInteger(sum)) throw invalid(param, `${param} is too large`);
  return sum;
}

function invalid(param: string, message: string): CommerceError {
  return new CommerceError('parameter_invalid', message, { param });
}
