import { deriveFulfillmentStatus } from '../fulfillments/fulfillment-status';
import { isAwaitingPayment } from '../payments/awaiting-payment';
import { derivePaymentStatus } from '../payments/payment-status';
import type { PaymentStatus } from '../payments/vocabulary';
import type { OrderAggregate, Scope } from '../ports/storage';
import { completedRefundTotal, restockTotalsByLine } from '../refunds/refund-ledger';
import { CommerceError } from '../shared/errors';
import type { Work } from '../shared/unit-of-work';
import { allUnitsShipped, fulfillableQuantity } from './line-units';
import { automaticOrderPath } from './order-automation';
import { releaseOrderReservations } from './order-inventory';
import type { FulfillmentStatus, OrderStatus } from './vocabulary';
import { orderToWire } from './wire';

/** The order columns that follow its payments, refunds and fulfillments. */
export interface OrderProgressColumns {
  paid_total: number;
  refunded_total: number;
  payment_status: PaymentStatus;
  fulfillment_status: FulfillmentStatus;
}

/** What the automatic status moves need to know beyond the derived columns. */
export interface DerivedProgress extends OrderProgressColumns {
  /** Every fulfillable unit is in a shipped or delivered fulfillment (`allUnitsShipped`). */
  shipped: boolean;
}

/**
 * Derives the money and fulfillment columns of an order from its parts (docs/contract.md#payment-status, #fulfillment-status):
 * - `paid_total`: payments that took money (`completed`, and `refunded` ones, which were
 *   completed before refunds covered them);
 * - `refunded_total`: `completed` refunds;
 * - `payment_status` by `derivePaymentStatus`, `fulfillment_status` by `deriveFulfillmentStatus`
 *   on each line's fulfillable units (quantity minus units cancelled by restocking refunds) and
 *   its returned units, both from its refunds' restock movements;
 * - `shipped`: every fulfillable unit has shipped (`allUnitsShipped`).
 */
export function deriveProgress(
  order: Pick<OrderAggregate, 'total' | 'lines' | 'payments' | 'refunds'>,
): DerivedProgress {
  let paid_total = 0;
  for (const p of order.payments)
    if (p.status === 'completed' || p.status === 'refunded') paid_total += p.amount;
  const refunded_total = completedRefundTotal(order.refunds);
  const restocked = restockTotalsByLine(order);
  const lines = order.lines.map((line) => {
    const totals = restocked.get(line.id);
    return {
      fulfillable_quantity: fulfillableQuantity(line, totals?.cancelled_quantity ?? 0),
      fulfilled_quantity: line.fulfilled_quantity,
      shipped_quantity: line.shipped_quantity,
      // Shipped units back through restocking refunds and through completed returns (decisions §18).
      returned_quantity: (totals?.returned_quantity ?? 0) + line.returned_quantity,
    };
  });
  return {
    paid_total,
    refunded_total,
    payment_status: derivePaymentStatus({
      total: order.total,
      paid: paid_total,
      refunded: refunded_total,
      awaiting: order.payments.some(isAwaitingPayment),
    }),
    fulfillment_status: deriveFulfillmentStatus(lines),
    shipped: allUnitsShipped(lines),
  };
}

/**
 * The statuses an order moves through automatically from `status` (none for drafts and closed
 * orders), from its derived `progress`.
 */
export function automaticPath(status: OrderStatus, progress: DerivedProgress): OrderStatus[] {
  if (status === 'draft' || status === 'cancelled' || status === 'completed') return [];
  return automaticOrderPath(status, progress);
}

/** The events an order status step raises. */
export type OrderStatusEvent = 'order.confirmed' | 'order.completed' | 'order.cancelled';

/** The event an order status step raises, if any (spec: `order.confirmed`, `order.completed`). */
export function statusEvent(status: OrderStatus): OrderStatusEvent | undefined {
  if (status === 'confirmed') return 'order.confirmed';
  if (status === 'completed') return 'order.completed';
  if (status === 'cancelled') return 'order.cancelled';
  return undefined;
}

/**
 * Applies a settled order in memory: derived columns, then the automatic status moves
 * (payment in full: pending → confirmed; first fulfillment: confirmed → processing; paid —
 * `paid`, `partially_refunded` or `refunded` — and every fulfillable unit shipped or delivered:
 * processing → completed, setting `completed_at` — a fulfillment that is only created never
 * completes an order). Returns the new order and the statuses it passed through (for events).
 * Pure.
 */
export function settleOrder(
  order: OrderAggregate,
  now: number,
): { order: OrderAggregate; path: OrderStatus[] } {
  const { shipped, ...progress } = deriveProgress(order);
  const path = automaticPath(order.status, { ...progress, shipped });
  const status = path.at(-1) ?? order.status;
  return {
    order: {
      ...order,
      ...progress,
      status,
      completed_at: status === 'completed' && order.status !== 'completed' ? now : order.completed_at,
      // Set when the order passes through `confirmed` here (payment in full); a manual confirm sets it itself.
      confirmed_at: path.includes('confirmed') ? (order.confirmed_at ?? now) : order.confirmed_at,
    },
    path,
  };
}

/**
 * Persists an order whose parts changed in this transaction (the caller holds the order row
 * locked, see `requireOrder(..., { forUpdate: true })`): writes the derived columns and automatic
 * status moves with a compare-and-set on the status it read, and emits `order.confirmed` /
 * `order.completed` for each step passed, with the order as it stands at the end. Returns the
 * saved order. `extra` carries columns the caller changes at the same time (e.g. a manual status
 * move that happens before the automatic ones).
 *
 * An order that ends here (`completed` or `cancelled`) while it still holds reservations
 * releases them (docs/contract.md#reservations: no order ends with units reserved) and no longer
 * holds any (`inventory_reserved: false`): when it completed by itself every fulfillable unit
 * shipped and nothing is left; when the admin completed it, its unshipped units will not ship
 * from the reservation (a pending fulfillment that still ships takes its units from `on_hand`).
 */
export async function saveOrderProgress(
  work: Work,
  scope: Scope,
  before: OrderAggregate,
  changed: OrderAggregate,
  extraEvents: readonly OrderStatusEvent[] = [],
): Promise<OrderAggregate> {
  const settled = settleOrder(changed, work.now);
  const { path } = settled;
  let { order } = settled;
  if ((order.status === 'completed' || order.status === 'cancelled') && order.inventory_reserved) {
    await releaseOrderReservations(work, scope, order);
    order = { ...order, inventory_reserved: false };
  }
  const saved = await work.tx.orders.update(
    scope,
    order.id,
    {
      status: order.status,
      payment_status: order.payment_status,
      fulfillment_status: order.fulfillment_status,
      paid_total: order.paid_total,
      refunded_total: order.refunded_total,
      completed_at: order.completed_at,
      confirmed_at: order.confirmed_at,
      cancelled_at: order.cancelled_at,
      cancel_reason: order.cancel_reason,
      inventory_reserved: order.inventory_reserved,
      updated_at: work.now,
    },
    { expect_status: before.status },
  );
  if (!saved) {
    throw new CommerceError(
      'invalid_state_transition',
      'The order changed while this request ran; retry it',
      {
        data: { status: before.status },
      },
    );
  }
  const result: OrderAggregate = { ...order, ...saved };
  const types = [...extraEvents, ...path.map(statusEvent).filter((t) => t !== undefined)];
  if (types.length > 0) {
    const wire = orderToWire(result);
    for (const type of types) work.emit(scope, type, wire);
  }
  return result;
}
