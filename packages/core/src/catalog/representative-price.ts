import type { VariantRecord } from '../ports/storage';

/**
 * The representative price (docs/contract.md#representative-price): the cheapest price among a
 * product's live variants that are active, or null when it has none. Core decides it and writes
 * it as `products.price` (the record handed to `insert`, then `products.update(..., { price })`
 * after every variant change); the storage only stores, filters and sorts by it.
 *
 * `variants` must be the product's live variants (the aggregate never holds deleted ones);
 * inactive variants do not count.
 *
 * @example representativePrice([{ price: 900, is_active: true }, { price: 500, is_active: false }]) // 900
 */
export function representativePrice(
  variants: readonly Pick<VariantRecord, 'price' | 'is_active'>[],
): number | null {
  return representativeVariant(variants)?.price ?? null;
}

/**
 * The representative variant itself (docs/contract.md#representative-price): the cheapest live
 * active variant, or null. Of several at the cheapest price, the first of `variants` — give them
 * in display order (position, then id; the aggregate's order) and it is the first one shown.
 * Products show its `compare_at_price` beside {@link representativePrice} (decisions §22).
 *
 * @example representativeVariant([{ price: 900, is_active: true, compare_at_price: 1200 }])?.compare_at_price // 1200
 */
export function representativeVariant<T extends Pick<VariantRecord, 'price' | 'is_active'>>(
  variants: readonly T[],
): T | null {
  let cheapest: T | null = null;
  for (const variant of variants) {
    if (variant.is_active && (cheapest === null || variant.price < cheapest.price)) cheapest = variant;
  }
  return cheapest;
}

/** What the representative price reads of a variant. */
export type PricedVariant = Pick<VariantRecord, 'id' | 'price' | 'is_active'>;

/** A product's live variants after one variant changed: `changed` replaces (or is added as) its `id`. */
export function withVariant(variants: readonly PricedVariant[], changed: PricedVariant): PricedVariant[] {
  let found = false;
  const next = variants.map((variant): PricedVariant => {
    if (variant.id !== changed.id) return variant;
    found = true;
    return changed;
  });
  if (!found) next.push(changed);
  return next;
}

/** A product's live variants after the variant `id` was deleted. */
export function withoutVariant(variants: readonly PricedVariant[], id: string): PricedVariant[] {
  return variants.filter((variant) => variant.id !== id);
}
