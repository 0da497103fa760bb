import { derivePaymentStatus } from '../payments/payment-status';
import type { PaymentStatus } from '../payments/vocabulary';
import type { OrderAggregate, OrderLineRecord, Scope } from '../ports/storage';
import { completedRefundTotal, restockTotalsByLine } from '../refunds/refund-ledger';
import { CommerceError } from '../shared/errors';
import type { Work } from '../shared/unit-of-work';
import { deriveFulfillmentStatus } from './fulfillment-status';
import { automaticOrderPath } from './order-automation';
import type { FulfillmentStatus, OrderStatus } from './vocabulary';
import { orderToWire } from './wire';

/** The order columns that follow its payments, refunds and fulfillments. */
export interface OrderProgressColumns {
  paid_total: number;
  refunded_total: number;
  payment_status: PaymentStatus;
  fulfillment_status: FulfillmentStatus;
}

/**
 * Derives the money and fulfillment columns of an order from its parts (docs/contract.md#payment-status, #fulfillment-status):
 * - `paid_total`: payments that took money (`completed`, and `refunded` ones, which were
 *   completed before refunds covered them);
 * - `refunded_total`: `completed` refunds;
 * - `payment_status` by `derivePaymentStatus`, `fulfillment_status` by `deriveFulfillmentStatus`
 *   with each line's returned units from its refunds' restock movements.
 */
export function deriveProgress(
  order: Pick<OrderAggregate, 'total' | 'lines' | 'payments' | 'refunds'>,
): OrderProgressColumns {
  let paid_total = 0;
  for (const p of order.payments)
    if (p.status === 'completed' || p.status === 'refunded') paid_total += p.amount;
  const refunded_total = completedRefundTotal(order.refunds);
  const restocked = restockTotalsByLine(order);
  return {
    paid_total,
    refunded_total,
    payment_status: derivePaymentStatus({ total: order.total, paid: paid_total, refunded: refunded_total }),
    fulfillment_status: deriveFulfillmentStatus(
      order.lines.map((line) => ({
        quantity: line.quantity,
        fulfilled_quantity: line.fulfilled_quantity,
        returned_quantity: restocked.get(line.id)?.returned_quantity ?? 0,
      })),
    ),
  };
}

/**
 * Whether every unit not refunded is in a fulfillment that has shipped or been delivered
 * (docs/contract.md#order-status): per line, `shipped_quantity ≥ quantity − refunded_quantity`. Units of a
 * fulfillment that is only created (`pending`) are fulfilled, not shipped.
 *
 * @example allUnitsShipped([{ quantity: 3, shipped_quantity: 2, refunded_quantity: 1 }]) // true
 */
export function allUnitsShipped(
  lines: ReadonlyArray<Pick<OrderLineRecord, 'quantity' | 'shipped_quantity' | 'refunded_quantity'>>,
): boolean {
  return lines.every((line) => line.shipped_quantity >= line.quantity - line.refunded_quantity);
}

/**
 * The statuses an order moves through automatically from `status` (none for drafts and closed
 * orders): `progress` with `shipped` from the order's lines ({@link allUnitsShipped}).
 */
export function automaticPath(
  status: OrderStatus,
  progress: OrderProgressColumns,
  lines: Parameters<typeof allUnitsShipped>[0],
): OrderStatus[] {
  if (status === 'draft' || status === 'cancelled' || status === 'completed') return [];
  return automaticOrderPath(status, { ...progress, shipped: allUnitsShipped(lines) });
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
 * (payment in full: pending → confirmed; first fulfillment: confirmed → processing; paid and
 * every unit not refunded shipped or delivered: processing → completed, setting `completed_at`
 * — a fulfillment that is only created never completes an order). Returns the new order and
 * the statuses it passed through (for events). Pure.
 */
export function settleOrder(
  order: OrderAggregate,
  now: number,
): { order: OrderAggregate; path: OrderStatus[] } {
  const progress = deriveProgress(order);
  const path = automaticPath(order.status, progress, order.lines);
  const status = path.at(-1) ?? order.status;
  return {
    order: {
      ...order,
      ...progress,
      status,
      completed_at: status === 'completed' && order.status !== 'completed' ? now : order.completed_at,
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
 */
export async function saveOrderProgress(
  work: Work,
  scope: Scope,
  before: OrderAggregate,
  changed: OrderAggregate,
  extraEvents: readonly OrderStatusEvent[] = [],
): Promise<OrderAggregate> {
  const { order, path } = settleOrder(changed, work.now);
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
