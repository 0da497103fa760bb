import type { InventoryLevelFilter } from '../ports/storage';
import { availableOf, type InventoryLevels } from './inventory-levels';

/** The inventory events of the spec. */
export type InventoryEventType = 'inventory.low' | 'inventory.out_of_stock';

type ThresholdFields = Pick<InventoryLevels, 'on_hand' | 'reserved' | 'safety_stock'>;

/**
 * At or below safety stock: `available ≤ safety_stock` — the `inventory.low` threshold and the
 * admin `low_stock=true` filter (docs/contract.md#list-filters), which the storage applies as
 * {@link LOW_STOCK_FILTER}.
 *
 * Decision: literal to the decisions, the rule does not look at `track_inventory` (an untracked
 * variant's numbers only move when the merchant sets them).
 */
export function isLowStock(inventory: ThresholdFields): boolean {
  return availableOf(inventory) <= inventory.safety_stock;
}

/**
 * {@link isLowStock} as the storage's list filter: `available ≤ safety_stock` is
 * `on_hand ≤ safety_stock + reserved` (integers, far from overflow), a comparison of each row's own
 * columns the storage evaluates (index-backed) without knowing what "low" means.
 */
export const LOW_STOCK_FILTER = {
  on_hand_at_most: ['safety_stock', 'reserved'],
} as const satisfies InventoryLevelFilter;

/**
 * The events a change of one inventory record fires (docs/contract.md#inventory-events), in this order:
 * - `inventory.low` when `available` moves from above `safety_stock` to at or below it;
 * - `inventory.out_of_stock` when `available` moves from above 0 to 0 or less.
 *
 * Each side is judged with its own `safety_stock`, so raising the safety stock over the
 * available count fires `inventory.low` too. Staying low, or going lower, fires nothing; events
 * fire again only after the record has come back above the threshold.
 *
 * @example detectThresholdCrossings({ on_hand: 10, reserved: 0, safety_stock: 2 }, { on_hand: 10, reserved: 10, safety_stock: 2 })
 * // ['inventory.low', 'inventory.out_of_stock']
 */
export function detectThresholdCrossings(
  before: ThresholdFields,
  after: ThresholdFields,
): InventoryEventType[] {
  const events: InventoryEventType[] = [];
  if (!isLowStock(before) && isLowStock(after)) events.push('inventory.low');
  if (availableOf(before) > 0 && availableOf(after) <= 0) events.push('inventory.out_of_stock');
  return events;
}
