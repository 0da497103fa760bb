import { CommerceError } from '../../errors';
import type {
  InventoryChange,
  InventoryMovement,
  InventoryRecord,
  OrderAggregate,
  Scope,
} from '../../ports/storage';
import { emitInventoryCrossings } from '../inventory-events';
import type { Work } from '../unit-of-work';
import { restockTotalsByLine } from './refund-ledger';

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
 * Reserves an order's units atomically (decisions §10): one conditional update per variant whose
 * WHERE is the guard, so concurrent orders can never both take the last unit. On refusal throws
 * 422 `insufficient_inventory` with `data: { variant_id, requested, available }`; the caller's
 * transaction then rolls back the movements already applied. `paramOf` names the input field of
 * the first line of the refused variant (`lines[2].quantity` for admin orders); checkout has no
 * such field and passes nothing. `current`: the lines' inventory rows as read earlier in this same
 * transaction and not moved since (the `getPurchasable` rows pricing loaded), which a storage may
 * use instead of reading them again (see `InventoryRepository.reserve`). Returns the changes; the
 * caller emits the threshold events (`emitInventoryCrossings`) once the order's own events are
 * queued.
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
  const result = await work.tx.inventory.reserve(
    scope,
    movements,
    work.now,
    current === undefined ? undefined : { current },
  );
  if (!result.ok) {
    const { variant_id, available } = result.refused;
    const requested = movements.find((m) => m.variant_id === variant_id)?.quantity ?? 0;
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
  return result.changes;
}

/**
 * The units each line of an order still holds in `reserved`: ordered units, minus units shipped
 * (they left with `on_hand`), minus units a restocking refund released from `reserved`.
 * Decision: units refunded without restock stay reserved until the order is cancelled — "no
 * restock" leaves inventory exactly as it was.
 */
export function heldReservations(order: Pick<OrderAggregate, 'lines' | 'refunds'>): InventoryMovement[] {
  const restocked = restockTotalsByLine(order);
  return movementsByVariant(
    order.lines.map((line) => ({
      variant_id: line.variant_id,
      quantity: Math.max(
        0,
        line.quantity - line.shipped_quantity - (restocked.get(line.id)?.from_reserved ?? 0),
      ),
    })),
  );
}

/** Releases every reservation the order still holds (cancellation), emitting threshold events. */
export async function releaseOrderReservations(
  work: Work,
  scope: Scope,
  order: OrderAggregate,
): Promise<void> {
  if (!order.inventory_reserved) return;
  const movements = heldReservations(order);
  if (movements.length === 0) return;
  const changes = await work.tx.inventory.release(scope, movements, work.now);
  emitInventoryCrossings(work, scope, changes);
}
