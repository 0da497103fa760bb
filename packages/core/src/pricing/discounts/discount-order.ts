import type { DiscountDefinition } from './discount-definition';

/** A discount in application order, with where it came from. */
export interface OrderedDiscount {
  discount: DiscountDefinition;
  source: 'automatic' | 'code';
}

/**
 * The fixed order in which discounts apply (docs/contract.md#discounts): automatic discounts by `created_at`,
 * then `id`; then code discounts in the order the codes were added. Decision: a discount that
 * appears more than once (same `id`, e.g. a code entered twice) applies once, at its first place.
 */
export function orderDiscounts(
  automatic: readonly DiscountDefinition[],
  codes: readonly DiscountDefinition[],
): OrderedDiscount[] {
  const sortedAutomatic = [...automatic].sort((a, b) =>
    a.created_at !== b.created_at ? a.created_at - b.created_at : a.id < b.id ? -1 : a.id > b.id ? 1 : 0,
  );
  const seen = new Set<string>();
  const ordered: OrderedDiscount[] = [];
  for (const [list, source] of [
    [sortedAutomatic, 'automatic'],
    [codes, 'code'],
  ] as const) {
    for (const discount of list) {
      if (seen.has(discount.id)) continue;
      seen.add(discount.id);
      ordered.push({ discount, source });
    }
  }
  return ordered;
}
