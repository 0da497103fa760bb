import type { OrderAggregate, Scope } from '../ports/storage';
import type { Work } from '../shared/unit-of-work';
import { releaseOrderReservations } from './order-inventory';

/**
 * What cancelling an order does besides its status (docs/contract.md#reservations, #order-status): releases the
 * reservations it still holds, cancels its pending (unshipped) fulfillments — their units no
 * longer count as fulfilled — and its pending payments. Shipped units stay shipped (a processing
 * order with shipped units cannot be cancelled at all); money already taken is returned with a
 * refund. Returns the order as it stands after, with `cancelled_at` and `cancel_reason` set; the
 * caller moves the status (`saveOrderProgress`, which emits `order.cancelled`). Used by the admin
 * `…/cancel` and when a pending order's only payment fails later (3-D Secure).
 */
export async function cancelOrderParts(
  work: Work,
  scope: Scope,
  order: OrderAggregate,
  reason: string | null,
): Promise<OrderAggregate> {
  const { tx, now } = work;
  await releaseOrderReservations(work, scope, order);

  const unfulfilled = new Map<string, number>();
  const fulfillments = await Promise.all(
    order.fulfillments.map(async (f) => {
      if (f.status !== 'pending') return f;
      for (const l of f.lines)
        unfulfilled.set(l.order_line_id, (unfulfilled.get(l.order_line_id) ?? 0) + l.quantity);
      const updated = await tx.orders.updateFulfillment(
        scope,
        f.id,
        { status: 'cancelled', updated_at: now },
        { expect_status: 'pending' },
      );
      return updated ?? { ...f, status: 'cancelled' as const, updated_at: now };
    }),
  );
  const lines = order.lines.map((line) => {
    const less = unfulfilled.get(line.id) ?? 0;
    return less > 0 ? { ...line, fulfilled_quantity: Math.max(0, line.fulfilled_quantity - less) } : line;
  });
  if (unfulfilled.size > 0) {
    await tx.orders.updateLines(
      scope,
      order.id,
      lines
        .filter((l) => unfulfilled.has(l.id))
        .map((l) => ({ id: l.id, fulfilled_quantity: l.fulfilled_quantity })),
    );
  }
  const payments = await Promise.all(
    order.payments.map(async (p) => {
      if (p.status !== 'pending') return p;
      const updated = await tx.orders.updatePayment(
        scope,
        p.id,
        { status: 'cancelled', updated_at: now },
        { expect_status: 'pending' },
      );
      return updated ?? { ...p, status: 'cancelled' as const, updated_at: now };
    }),
  );
  return {
    ...order,
    lines,
    fulfillments,
    payments,
    inventory_reserved: false,
    cancelled_at: now,
    cancel_reason: reason,
  };
}
