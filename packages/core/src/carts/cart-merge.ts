import { availableOf } from '../inventory';
import type { CartItemRecord, PurchasableVariant } from '../ports/storage';
import { isBuyable } from './cart-pricing';

/** What merging a guest cart's items into a customer's cart changes in the customer's cart. */
export interface MergePlan {
  /** Items of the customer's cart whose quantity grows. */
  increased: Array<{ item: CartItemRecord; quantity: number }>;
  /** Guest items to copy into the customer's cart (new ids are the caller's). */
  added: Array<{ variant_id: string; quantity: number; metadata: CartItemRecord['metadata'] }>;
}

/**
 * Plans the item part of a merge (docs/contract.md#cart-merge): the same variant → quantities summed; a new
 * variant → a new item. Availability rules cap the result:
 * - guest items whose variant is unknown, deleted, inactive or of a non-active product are dropped;
 * - for a tracked variant without backorder the merged quantity is capped at `available`, but never
 *   below what the customer's cart already held (merging never takes units away); a guest item
 *   left with 0 units is dropped.
 * Pure: the caller loads `variants` (covering both carts) and writes the plan.
 */
export function planMerge(
  target: readonly CartItemRecord[],
  guest: readonly CartItemRecord[],
  variants: ReadonlyMap<string, PurchasableVariant>,
): MergePlan {
  const byVariant = new Map(target.map((item) => [item.variant_id, item]));
  const increments = new Map<string, { item: CartItemRecord; quantity: number }>();
  const added = new Map<
    string,
    { variant_id: string; quantity: number; metadata: CartItemRecord['metadata'] }
  >();

  for (const item of guest) {
    const entry = variants.get(item.variant_id);
    if (!entry || !isBuyable(entry)) continue;
    const existing = byVariant.get(item.variant_id);
    if (existing) {
      const current = increments.get(item.variant_id)?.quantity ?? existing.quantity;
      const quantity = capped(entry, current + item.quantity, existing.quantity);
      if (quantity > existing.quantity) increments.set(item.variant_id, { item: existing, quantity });
    } else {
      const current = added.get(item.variant_id);
      const quantity = capped(entry, (current?.quantity ?? 0) + item.quantity, 0);
      if (quantity > 0) {
        added.set(item.variant_id, {
          variant_id: item.variant_id,
          quantity,
          metadata: current?.metadata ?? item.metadata,
        });
      }
    }
  }
  return { increased: [...increments.values()], added: [...added.values()] };
}

/** `wanted`, capped at the variant's availability when it is tracked without backorder, never below `floor`. */
function capped(entry: PurchasableVariant, wanted: number, floor: number): number {
  const { inventory } = entry;
  if (!inventory.track_inventory || inventory.allow_backorder) return wanted;
  return Math.max(floor, Math.min(wanted, availableOf(inventory)));
}
