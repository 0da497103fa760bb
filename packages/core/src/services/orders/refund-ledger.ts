import type { Json, JsonObject, OrderAggregate, RefundRecord } from '../../ports/storage';
import type { RestockMovement } from '../../refunds';

/**
 * Where a refund's restocked units went, kept on the refund record (in its internal `metadata`,
 * which the Refund resource does not show) because the order line columns cannot tell it:
 * `restocked_quantity` says how many units came back, not whether they had been fulfilled
 * (`returned`, decisions §13) nor whether they left `reserved` or went to `on_hand` (§10).
 *
 * Decision: this is the audit trail of the refund's inventory movements, written once when the
 * refund is recorded. A `returned_quantity` / `released_quantity` pair of order-line columns
 * would serve as well; the storage port has none today.
 */
const KEY = 'restock_movements';

/** The metadata to store on a refund for its restock movements (empty object when none). */
export function restockMetadata(movements: readonly RestockMovement[]): JsonObject {
  if (movements.length === 0) return {};
  return {
    [KEY]: movements.map((m) => ({
      order_line_id: m.order_line_id,
      from_reserved: m.from_reserved,
      to_on_hand: m.to_on_hand,
      returned_quantity: m.returned_quantity,
    })),
  };
}

function isMovement(value: Json): value is { [k: string]: Json } & RestockMovement {
  return (
    typeof value === 'object' &&
    value !== null &&
    !Array.isArray(value) &&
    typeof value.order_line_id === 'string' &&
    typeof value.from_reserved === 'number' &&
    typeof value.to_on_hand === 'number' &&
    typeof value.returned_quantity === 'number'
  );
}

/** The restock movements recorded on a refund. */
export function restockMovementsOf(refund: Pick<RefundRecord, 'metadata'>): RestockMovement[] {
  const raw = refund.metadata[KEY];
  return Array.isArray(raw) ? raw.filter(isMovement) : [];
}

/** Per order line, what its refunds' restocks did: units released from `reserved`, units returned. */
export interface LineRestockTotals {
  from_reserved: number;
  returned_quantity: number;
}

/**
 * Sums the restock movements of an order's refunds per line. Failed refunds moved nothing and
 * are skipped.
 */
export function restockTotalsByLine(order: Pick<OrderAggregate, 'refunds'>): Map<string, LineRestockTotals> {
  const totals = new Map<string, LineRestockTotals>();
  for (const refund of order.refunds) {
    if (refund.status === 'failed') continue;
    for (const m of restockMovementsOf(refund)) {
      const t = totals.get(m.order_line_id) ?? { from_reserved: 0, returned_quantity: 0 };
      t.from_reserved += m.from_reserved;
      t.returned_quantity += m.returned_quantity;
      totals.set(m.order_line_id, t);
    }
  }
  return totals;
}
