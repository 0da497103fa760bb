import type { InventoryChange, Scope } from '../ports/storage';
import type { Work } from '../shared/unit-of-work';
import { detectThresholdCrossings } from './thresholds';
import { inventoryToWire } from './wire';

/**
 * Emits `inventory.low` / `inventory.out_of_stock` for every change that crosses a threshold
 * (docs/contract.md#inventory-events), in the transaction of the change. Every use case that moves stock calls this.
 */
export function emitInventoryCrossings(work: Work, scope: Scope, changes: readonly InventoryChange[]): void {
  for (const { before, after } of changes) {
    if (!after.track_inventory) continue;
    for (const type of detectThresholdCrossings(before, after)) {
      work.emit(scope, type, inventoryToWire(after));
    }
  }
}
