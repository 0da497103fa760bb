import { checkAvailability } from './availability';
import { assertPositiveQuantity, availableOf, type InventoryLevels } from './inventory-levels';

/**
 * The outcome of a movement that can be refused: the new record, or the refusal with the
 * units asked for and the units that could be taken (never below 0). The caller turns a refusal
 * into `insufficientInventoryError(variant_id, requested, available, param)`.
 */
export type MovementResult<T extends InventoryLevels> =
  | { readonly ok: true; readonly inventory: T }
  | { readonly ok: false; readonly requested: number; readonly available: number };

/**
 * Reserves `quantity` units for an order (checkout, an admin order created or finalised as
 * `pending`). Refused when the variant is tracked, does not allow backorder, and fewer than
 * `quantity` units are available. An untracked variant reserves nothing (returned unchanged);
 * the order records per line what it reserved (`reserved_quantity`) and later gives back exactly
 * that, whatever the variant's tracking is then.
 *
 * SQL: `UPDATE inventory SET reserved = reserved + :q WHERE id = :id AND track_inventory
 * AND (allow_backorder OR on_hand - reserved >= :q)`; zero rows on a tracked record = refused.
 * `quantity` is the order's whole quantity of the variant (lines of one variant summed).
 *
 * @example reserve({ ...inv, on_hand: 10, reserved: 2 }, 3) // ok, reserved 5
 */
export function reserve<T extends InventoryLevels>(inventory: T, quantity: number): MovementResult<T> {
  assertPositiveQuantity(quantity);
  if (!inventory.track_inventory) return { ok: true, inventory };
  const check = checkAvailability(inventory, quantity);
  if (!check.ok) return { ok: false, requested: quantity, available: check.available };
  return { ok: true, inventory: { ...inventory, reserved: inventory.reserved + quantity } };
}

/**
 * Releases a reservation the caller made (order cancelled, fulfillment-free units given up):
 * `reserved −= q`, whatever `track_inventory` is now — a variant switched to untracked after the
 * order reserved gives its units back all the same. Never fails: `reserved` is
 * clamped at 0.
 *
 * SQL: `SET reserved = MAX(reserved - :q, 0) WHERE id = :id` (`GREATEST` on Postgres).
 *
 * @example release({ ...inv, on_hand: 10, reserved: 5 }, 3) // reserved 2
 */
export function release<T extends InventoryLevels>(inventory: T, quantity: number): T {
  assertPositiveQuantity(quantity);
  return { ...inventory, reserved: Math.max(0, inventory.reserved - quantity) };
}

/**
 * Ships units of a fulfillment (docs/contract.md#inventory): the `from_reserved` units the order reserved
 * leave `on_hand` and `reserved` together (`reserved` clamped at 0 like {@link release}), whatever
 * `track_inventory` is now; the other `quantity − from_reserved` units (never reserved: the
 * variant was untracked when the order reserved) leave `on_hand` only of a tracked variant.
 * Never fails: the units have physically left; with backorders `on_hand` may go negative until
 * stock is adjusted. Reserved units keep `available` unchanged.
 *
 * SQL: `SET on_hand = on_hand - :r - (CASE WHEN track_inventory THEN :q - :r ELSE 0 END),
 * reserved = MAX(reserved - :r, 0) WHERE id = :id`.
 *
 * @example ship({ ...inv, on_hand: 10, reserved: 5 }, 2) // on_hand 8, reserved 3, available 5
 */
export function ship<T extends InventoryLevels>(inventory: T, quantity: number, from_reserved = quantity): T {
  assertPositiveQuantity(quantity);
  if (!Number.isSafeInteger(from_reserved) || from_reserved < 0 || from_reserved > quantity)
    throw new RangeError('from_reserved must be an integer from 0 to quantity');
  const unreserved = inventory.track_inventory ? quantity - from_reserved : 0;
  if (from_reserved === 0 && unreserved === 0) return inventory;
  return {
    ...inventory,
    on_hand: inventory.on_hand - from_reserved - unreserved,
    reserved: Math.max(0, inventory.reserved - from_reserved),
  };
}

/** How a restocking refund returns one line's units (see `computeRefund`'s `restock_movements`). */
export interface RestockSplit {
  /** Units that had not shipped: they leave `reserved`. */
  from_reserved: number;
  /** Units that had shipped: they go back to `on_hand`. */
  to_on_hand: number;
}

/**
 * Returns a refunded line's units to stock (docs/contract.md#restock): unshipped units the order reserved
 * leave `reserved` (clamped at 0) whatever `track_inventory` is now, then shipped units go back to
 * `on_hand` of a tracked variant (a count the merchant keeps only while tracking). Never fails.
 *
 * SQL: `SET reserved = MAX(reserved - :r, 0), on_hand = on_hand + (CASE WHEN track_inventory
 * THEN :h ELSE 0 END) WHERE id = :id`.
 *
 * @example restock({ ...inv, on_hand: 8, reserved: 3 }, { from_reserved: 1, to_on_hand: 2 }) // on_hand 10, reserved 2
 * @throws RangeError when a part is negative or not an integer.
 */
export function restock<T extends InventoryLevels>(inventory: T, split: RestockSplit): T {
  for (const label of ['from_reserved', 'to_on_hand'] as const) {
    const units = split[label];
    if (!Number.isSafeInteger(units) || units < 0)
      throw new RangeError(`${label} must be a non-negative integer`);
  }
  const to_on_hand = inventory.track_inventory ? split.to_on_hand : 0;
  if (split.from_reserved === 0 && to_on_hand === 0) return inventory;
  return {
    ...inventory,
    reserved: Math.max(0, inventory.reserved - split.from_reserved),
    on_hand: inventory.on_hand + to_on_hand,
  };
}

/**
 * Adjusts `on_hand` by a signed delta (`POST /v1/admin/inventory/{id}/adjust`, docs/contract.md#inventory).
 * Applies whether or not the variant is tracked (the count is the merchant's). Refused when the
 * delta is negative and would leave `on_hand` below `reserved` ("on_hand may not go below
 * reserved"), which also keeps an unreserved `on_hand` from going negative. A positive delta is
 * always accepted, even while backorders keep `on_hand` below `reserved`. A zero delta changes
 * nothing.
 *
 * On refusal, `requested` is the units asked to remove and `available` the units removable
 * (`on_hand − reserved`, never below 0).
 *
 * SQL: `SET on_hand = on_hand + :d WHERE id = :id AND (:d >= 0 OR on_hand + :d >= reserved)`.
 *
 * @example adjust({ ...inv, on_hand: 10, reserved: 4 }, -6) // ok, on_hand 4
 * @example adjust({ ...inv, on_hand: 10, reserved: 4 }, -7) // { ok: false, requested: 7, available: 6 }
 */
export function adjust<T extends InventoryLevels>(inventory: T, delta: number): MovementResult<T> {
  if (!Number.isSafeInteger(delta)) throw new RangeError(`delta must be an integer, got ${delta}`);
  if (delta < 0 && inventory.on_hand + delta < inventory.reserved) {
    return { ok: false, requested: -delta, available: Math.max(0, availableOf(inventory)) };
  }
  return {
    ok: true,
    inventory: delta === 0 ? inventory : { ...inventory, on_hand: inventory.on_hand + delta },
  };
}

/**
 * Sets `on_hand` to an absolute count (`PATCH /v1/admin/inventory/{id}` with `on_hand`): the
 * same rule as {@link adjust} with `delta = on_hand − current on_hand`.
 *
 * @example setOnHand({ ...inv, on_hand: 10, reserved: 4 }, 3) // { ok: false, requested: 7, available: 6 }
 */
export function setOnHand<T extends InventoryLevels>(inventory: T, on_hand: number): MovementResult<T> {
  if (!Number.isSafeInteger(on_hand)) throw new RangeError(`on_hand must be an integer, got ${on_hand}`);
  return adjust(inventory, on_hand - inventory.on_hand);
}
