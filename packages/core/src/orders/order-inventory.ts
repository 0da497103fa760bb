import { emitInventoryCrossings } from '../inventory/inventory-events';
import { releaseInventory, reserveInventory } from '../inventory/inventory-writes';
import type {
  InventoryChange,
  InventoryMovement,
  InventoryRecord,
  OrderAggregate,
  OrderLineRecord,
  Scope,
} from '../ports/storage';
import { restockTotalsByLine } from '../refunds/refund-ledger';
import { CommerceError } from '../shared/errors';
import type { Work } from '../shared/unit-of-work';

/** Sums quantities per variant, in first-seen order, dropping zero movements. */
export function movementsByVariant(
  lines: ReadonlyArray<{ variant_id: string; quantity: number }>,
): InventoryMovement[] {
  const totals = new Map<string, number>();
  for (const line of lines) totals.set(line.variant_id, (totals.get(line.variant_id) ?? 0) + line.quantity);
  return [...totals]
    .filter(([, quantity]) => quantity > 0)
    .map(([variant_id, quantity]) => ({ variant_id, quantity }));
}

/**
 * Reserves an order's units atomically (docs/contract.md#reservations): core's rule planned on the
 * rows and written by the storage's compare-and-set (`reserveInventory`), so concurrent orders can
 * never both take the last unit. On refusal throws
 * 422 `insufficient_inventory` with `data: { variant_id, requested, available }`; the caller's
 * transaction then rolls back the movements already applied. `paramOf` names the input field of
 * the first line of the refused variant (`lines[2][quantity]` for admin orders); checkout has no
 * such field and passes nothing. `current`: the lines' inventory rows as read earlier in this same
 * transaction (the `getPurchasable` rows pricing loaded), planned on first instead of reading
 * them again (see `reserveInventory`). Returns the changes; the
 * caller emits the threshold events (`emitInventoryCrossings`) once the order's own events are
 * queued.
 *
 * The lines record what was reserved (`reserved_quantity`): `buildOrder` decides it from the
 * `current` rows (tracked → the line's quantity), so when the reservation found a variant's
 * tracking otherwise (Postgres: switched by a concurrent `PATCH /v1/admin/inventory/{id}` after
 * pricing read it), this throws 409 `invalid_state_transition` and the transaction rolls back
 * rather than record a reservation that was not made. Without `current`, the caller sets
 * `reserved_quantity` from the changes ({@link withReservedQuantities}).
 */
export async function reserveLines(
  work: Work,
  scope: Scope,
  lines: ReadonlyArray<{ variant_id: string; quantity: number }>,
  paramOf?: (index: number) => string,
  current?: readonly InventoryRecord[],
): Promise<InventoryChange[]> {
  const movements = movementsByVariant(lines);
  if (movements.length === 0) return [];
  const result = await reserveInventory(work.tx, scope, movements, work.now, current);
  if (!result.ok) {
    const { variant_id, requested, available } = result.refused;
    const index = lines.findIndex((line) => line.variant_id === variant_id);
    const left = Math.max(0, available);
    throw new CommerceError(
      'insufficient_inventory',
      `Insufficient inventory for variant '${variant_id}': ${requested} requested, ${left} available`,
      {
        ...(paramOf && index >= 0 && { param: paramOf(index) }),
        data: { variant_id, requested, available: left },
      },
    );
  }
  if (current !== undefined) assertTrackingAsRead(result.changes, current);
  return result.changes;
}

/** Refuses a reservation that found a variant's `track_inventory` other than pricing read it. */
function assertTrackingAsRead(
  changes: readonly InventoryChange[],
  current: readonly InventoryRecord[],
): void {
  const read = new Map(current.map((row) => [row.variant_id, row.track_inventory]));
  for (const { before } of changes) {
    const expected = read.get(before.variant_id);
    if (expected !== undefined && expected !== before.track_inventory) {
      throw new CommerceError(
        'invalid_state_transition',
        `The inventory settings of variant '${before.variant_id}' changed while this request ran; retry it`,
        { data: { variant_id: before.variant_id } },
      );
    }
  }
}

/** The variants a reservation's changes put units in `reserved` for (tracked when it ran). */
function reservedVariants(changes: readonly InventoryChange[]): Set<string> {
  const ids = new Set<string>();
  for (const { before } of changes) if (before.track_inventory) ids.add(before.variant_id);
  return ids;
}

/**
 * The lines with `reserved_quantity` as the reservation `changes` made it: the line's quantity
 * when its variant was tracked when reserved, else 0 (finalising a draft, whose lines were
 * written before anything was reserved).
 */
export function withReservedQuantities<L extends Pick<OrderLineRecord, 'variant_id' | 'quantity'>>(
  lines: readonly L[],
  changes: readonly InventoryChange[],
): Array<L & { reserved_quantity: number }> {
  const tracked = reservedVariants(changes);
  return lines.map((line) => ({
    ...line,
    reserved_quantity: tracked.has(line.variant_id) ? line.quantity : 0,
  }));
}

/**
 * The units one line still holds in `reserved`, given its refunds' restock totals: the units it
 * reserved (`reserved_quantity`: its quantity, or 0 when its variant was untracked when the order
 * reserved), minus units shipped (they left with `on_hand`), minus units a restocking refund
 * released from `reserved`; 0 once the order released its reservations.
 */
function heldByLine(
  order: Pick<OrderAggregate, 'inventory_reserved'>,
  line: Pick<OrderLineRecord, 'reserved_quantity' | 'shipped_quantity'>,
  releasedByRestock: number,
): number {
  if (!order.inventory_reserved) return 0;
  return Math.max(0, line.reserved_quantity - line.shipped_quantity - releasedByRestock);
}

/**
 * The units each line of an order still holds in `reserved`, per variant ({@link heldByLine}).
 * What the order reserved is what it gives back, whatever the variants' `track_inventory` is now:
 * a variant switched to untracked since still holds its units in `reserved`, and one switched to
 * tracked since holds none of the order's.
 * Units refunded without restock stay reserved: a refund without restock moves money only, and
 * those units still ship (docs/contract.md#restock). What is left is released when the order
 * ends (cancelled, or completed by the admin before everything shipped).
 */
export function heldReservations(
  order: Pick<OrderAggregate, 'lines' | 'refunds'> & Partial<Pick<OrderAggregate, 'inventory_reserved'>>,
): InventoryMovement[] {
  const restocked = restockTotalsByLine(order);
  const held = { inventory_reserved: order.inventory_reserved ?? true };
  return movementsByVariant(
    order.lines.map((line) => ({
      variant_id: line.variant_id,
      quantity: heldByLine(held, line, restocked.get(line.id)?.from_reserved ?? 0),
    })),
  );
}

/**
 * The inventory movements of shipping `units` (per order line) of an order: per variant, the
 * units that leave the order's reservation (`from_reserved`, at most what each line still holds)
 * and the rest, which the order never reserved (its variant was untracked when it reserved) and
 * which leave `on_hand` only if the variant is tracked now (`planShip`).
 */
export function shipMovements(
  order: Pick<OrderAggregate, 'lines' | 'refunds' | 'inventory_reserved'>,
  units: ReadonlyMap<string, number>,
): Array<{ variant_id: string; quantity: number; from_reserved: number }> {
  const restocked = restockTotalsByLine(order);
  const byVariant = new Map<string, { variant_id: string; quantity: number; from_reserved: number }>();
  for (const line of order.lines) {
    const quantity = units.get(line.id) ?? 0;
    if (quantity <= 0) continue;
    const held = heldByLine(order, line, restocked.get(line.id)?.from_reserved ?? 0);
    const entry = byVariant.get(line.variant_id) ?? {
      variant_id: line.variant_id,
      quantity: 0,
      from_reserved: 0,
    };
    entry.quantity += quantity;
    entry.from_reserved += Math.min(quantity, held);
    byVariant.set(line.variant_id, entry);
  }
  return [...byVariant.values()];
}

/**
 * Releases every reservation the order still holds (cancellation, completion: no order ends
 * holding units, docs/contract.md#reservations), emitting threshold events. The caller records
 * that the order no longer holds any (`inventory_reserved: false`).
 */
export async function releaseOrderReservations(
  work: Work,
  scope: Scope,
  order: OrderAggregate,
): Promise<void> {
  if (!order.inventory_reserved) return;
  const movements = heldReservations(order);
  if (movements.length === 0) return;
  const changes = await releaseInventory(work.tx, scope, movements, work.now);
  emitInventoryCrossings(work, scope, changes);
}
