import type {
  OrderAggregate,
  RefundProviderCallValue,
  RefundRecord,
  RestockMovementValue,
} from '../ports/storage';
import type { RestockMovement } from '.';

/**
 * Where a refund's restocked units went, kept on the refund record (`restock_movements`, which
 * the Refund resource does not show) because the order line columns cannot tell it:
 * `restocked_quantity` says how many units came back, not whether they had been fulfilled
 * (`returned`, docs/contract.md#fulfillment-status) nor whether they left `reserved` or went to
 * `on_hand` (docs/contract.md#restock). The audit trail of the refund's inventory movements,
 * written once when the refund is applied.
 */
export function restockMovementValues(movements: readonly RestockMovement[]): RestockMovementValue[] {
  return movements.map((m) => ({
    order_line_id: m.order_line_id,
    from_reserved: m.from_reserved,
    to_on_hand: m.to_on_hand,
    returned_quantity: m.returned_quantity,
    from_fulfillments: m.from_fulfillments.map((t) => ({
      fulfillment_id: t.fulfillment_id,
      quantity: t.quantity,
    })),
  }));
}

/**
 * The restock movements recorded on a refund. Movements recorded before `from_fulfillments`
 * existed read with an empty one (they took nothing out of fulfillments).
 */
export function restockMovementsOf(refund: Pick<RefundRecord, 'restock_movements'>): RestockMovement[] {
  return refund.restock_movements.map((m) => ({
    order_line_id: m.order_line_id,
    from_reserved: m.from_reserved,
    to_on_hand: m.to_on_hand,
    returned_quantity: m.returned_quantity,
    from_fulfillments: (m.from_fulfillments ?? []).map((t) => ({
      fulfillment_id: t.fulfillment_id,
      quantity: t.quantity,
    })),
  }));
}

/**
 * Per order line, what its refunds' restocks did: units released from `reserved`, units returned
 * (shipped units that came back), units cancelled (unshipped units that will not ship).
 */
export interface LineRestockTotals {
  from_reserved: number;
  returned_quantity: number;
  /**
   * Units a restocking refund took before they shipped (open unfulfilled units, then units of
   * pending fulfillments): they are cancelled and no longer fulfillable (docs/contract.md#restock).
   * Per movement, the refund's units of the line minus the units that came back
   * (`returned_quantity`).
   */
  cancelled_quantity: number;
}

/** The money refunds took: the sum of the `completed` ones (an order's `refunded_total`). */
export function completedRefundTotal(refunds: readonly Pick<RefundRecord, 'status' | 'amount'>[]): number {
  let total = 0;
  for (const refund of refunds) if (refund.status === 'completed') total += refund.amount;
  return total;
}

/**
 * Sums the restock movements of an order's refunds per line, over every refund that recorded
 * some. A refund that failed before its effects were applied (refused by its provider while in
 * flight) recorded none; one that failed at the provider AFTER being applied as `pending` keeps
 * its movements, because its units stay refunded and restocked (see
 * provider-refund-settlement.ts) — they still left `reserved` or came back to `on_hand`.
 */
export function restockTotalsByLine(order: Pick<OrderAggregate, 'refunds'>): Map<string, LineRestockTotals> {
  const totals = new Map<string, LineRestockTotals>();
  for (const refund of order.refunds) {
    if (refund.restock_movements.length === 0) continue;
    const units = new Map(refund.lines.map((l) => [l.order_line_id, l.quantity]));
    for (const m of restockMovementsOf(refund)) {
      const t = totals.get(m.order_line_id) ?? {
        from_reserved: 0,
        returned_quantity: 0,
        cancelled_quantity: 0,
      };
      t.from_reserved += m.from_reserved;
      t.returned_quantity += m.returned_quantity;
      t.cancelled_quantity += Math.max(0, (units.get(m.order_line_id) ?? 0) - m.returned_quantity);
      totals.set(m.order_line_id, t);
    }
  }
  return totals;
}

/**
 * Per order line, the units cancelled by restocking refunds (see `LineRestockTotals`); a line
 * without any is absent.
 */
export function cancelledUnitsByLine(order: Pick<OrderAggregate, 'refunds'>): Map<string, number> {
  const cancelled = new Map<string, number>();
  for (const [id, t] of restockTotalsByLine(order)) {
    if (t.cancelled_quantity > 0) cancelled.set(id, t.cancelled_quantity);
  }
  return cancelled;
}

/** One provider call of a refund: which payment gives back how much (minor units). */
export type RefundProviderCall = RefundProviderCallValue;

/**
 * The provider calls of a refund still waiting for its providers' answer, or null when the
 * refund is settled (completed, failed, or pending at the provider with its effects applied).
 * A refund is recorded `pending` with its calls (`provider_calls`) BEFORE the providers are
 * asked (outside any transaction), and settled after they answered (`settleRefund`, which
 * clears them), or by reconciliation when the process died in between. The calls are kept so
 * that a retry asks for exactly the same slices under the same idempotency keys.
 */
export function providerCallsInFlight(
  refund: Pick<RefundRecord, 'status' | 'provider_calls'>,
): RefundProviderCall[] | null {
  if (refund.status !== 'pending' || refund.provider_calls === null) return null;
  return refund.provider_calls.map((c) => ({ payment_id: c.payment_id, amount: c.amount }));
}

/**
 * Units per order line of the refunds still waiting for their providers: not yet in the lines'
 * `refunded_quantity`, but no longer refundable (a concurrent refund must not take them too).
 */
export function unitsInFlight(order: Pick<OrderAggregate, 'refunds'>): Map<string, number> {
  const units = new Map<string, number>();
  for (const refund of order.refunds) {
    if (providerCallsInFlight(refund) === null) continue;
    for (const line of refund.lines) {
      units.set(line.order_line_id, (units.get(line.order_line_id) ?? 0) + line.quantity);
    }
  }
  return units;
}
