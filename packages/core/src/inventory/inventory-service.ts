import type { InventoryChange, PageRequest, Repositories, Scope } from '../ports/storage';
import type { ServiceContext } from '../shared/context';
import { CommerceError, errors } from '../shared/errors';
import { read, write } from '../shared/unit-of-work';
import { emitInventoryCrossings } from './inventory-events';
import { adjustInventory, updateInventory } from './inventory-writes';
import type { InventoryAdjust, InventoryUpdate } from './schemas';
import { LOW_STOCK_FILTER } from './thresholds';
import { inventoryItemToWire } from './wire';

/** Filters of `GET /v1/admin/inventory` (docs/contract.md#list-filters). */
export interface InventoryListFilter {
  /** `true`: only records with available (on_hand − reserved) ≤ safety_stock. */
  low_stock?: boolean | undefined;
}

const belowReserved = (param: 'on_hand' | 'quantity') =>
  new CommerceError('insufficient_inventory', 'on_hand cannot go below the reserved quantity', { param });

/** The change of a guarded storage update, or the domain error for its refusal / absence. */
function changeOrThrow(
  result: InventoryChange | { refused: 'below_reserved' } | null,
  id: string,
  param: 'on_hand' | 'quantity',
): InventoryChange {
  if (result === null) throw errors.notFound('inventory item', id);
  if ('refused' in result) throw belowReserved(param);
  return result;
}

/** The item as stored now (this transaction's writes included), as `/v1/admin/inventory` shows it. */
async function storedItem(tx: Repositories, scope: Scope, id: string) {
  const item = await tx.inventory.getItem(scope, id);
  if (!item) throw errors.notFound('inventory item', id);
  return inventoryItemToWire(item);
}

/**
 * Inventory administration (docs/contract.md#inventory): the admin view of every variant's stock record,
 * as the InventoryItem of decisions §22 (with the variant's `sku` and the item's `levels`).
 * Stock levels move through core's rules written by the storage's compare-and-set
 * (inventory-writes.ts), so `on_hand` never goes below `reserved` even under concurrent checkouts (422 `insufficient_inventory`). Every
 * change emits `inventory.low` / `inventory.out_of_stock` when it crosses a threshold, in its
 * own transaction.
 */
export function createInventoryService(ctx: ServiceContext) {
  return {
    /** `GET /v1/admin/inventory`, newest first; `low_stock=true` keeps available ≤ safety_stock. */
    async list(scope: Scope, filter: InventoryListFilter, page: PageRequest<'created_at'>) {
      const levels = filter.low_stock === true ? LOW_STOCK_FILTER : {};
      const result = await read(ctx, (tx) => tx.inventory.list(scope, levels, page));
      return { ...result, data: result.data.map(inventoryItemToWire) };
    },

    /** `GET /v1/admin/inventory/{id}`. */
    async get(scope: Scope, id: string) {
      return read(ctx, (tx) => storedItem(tx, scope, id));
    },

    /**
     * `PATCH /v1/admin/inventory/{id}`: settings and an absolute `on_hand`. An `on_hand` below
     * `reserved` → 422 `insufficient_inventory` (param `on_hand`), nothing changed.
     */
    async update(scope: Scope, id: string, input: InventoryUpdate) {
      return write(ctx, scope, async (work) => {
        const result = await updateInventory(work.tx, scope, id, {
          updated_at: work.now,
          ...(input.track_inventory !== undefined && { track_inventory: input.track_inventory }),
          ...(input.allow_backorder !== undefined && { allow_backorder: input.allow_backorder }),
          ...(input.safety_stock !== undefined && { safety_stock: input.safety_stock }),
          ...(input.on_hand !== undefined && { on_hand: input.on_hand }),
          ...(input.metadata !== undefined && { metadata: input.metadata }),
        });
        const change = changeOrThrow(result, id, 'on_hand');
        emitInventoryCrossings(work, scope, [change]);
        return storedItem(work.tx, scope, id);
      });
    },

    /**
     * `POST /v1/admin/inventory/{id}/adjust`: `on_hand += quantity` (a signed delta) on the
     * locked row, written by compare-and-set, so concurrent adjustments never lose one another. Going below `reserved`
     * → 422 `insufficient_inventory` (param `quantity`), nothing changed.
     *
     * Decision: `reason` is accepted and validated but not stored — the storage port keeps no
     * movement log yet; it is the natural field of one when it comes.
     */
    async adjust(scope: Scope, id: string, input: InventoryAdjust) {
      return write(ctx, scope, async (work) => {
        const result = await adjustInventory(work.tx, scope, id, input.quantity, work.now);
        const change = changeOrThrow(result, id, 'quantity');
        emitInventoryCrossings(work, scope, [change]);
        return storedItem(work.tx, scope, id);
      });
    },
  };
}

export type InventoryService = ReturnType<typeof createInventoryService>;
