import type { PaymentStatus } from '../payments/vocabulary';
import type { FulfillmentStatus, OrderStatus } from './vocabulary';

/** The derived statuses that drive the automatic order moves. */
export interface OrderProgress {
  payment_status: PaymentStatus;
  fulfillment_status: FulfillmentStatus;
  /**
   * Every fulfillable unit is in a fulfillment that has shipped or been delivered (per line:
   * `shipped_quantity ≥ quantity − units cancelled by restocking refunds`; units refunded without
   * restock still ship). A fulfillment that is only created (`pending`) counts toward
   * `fulfillment_status`, not here.
   */
  shipped: boolean;
}

/**
 * The payment statuses that count as paid for completion (docs/contract.md#order-status): paid in
 * full, possibly refunded since, in part or in full.
 */
const PAID_STATUSES: readonly PaymentStatus[] = ['paid', 'partially_refunded', 'refunded'];

/**
 * One automatic move, or `undefined` when none applies (docs/contract.md#order-status):
 * - payment in full moves `pending → confirmed`;
 * - the first fulfillment moves `confirmed → processing`;
 * - paid (`paid`, `partially_refunded` or `refunded`), and every fulfillable unit shipped (or
 *   delivered), moves `processing → completed`.
 */
function nextAutomaticStatus(status: OrderStatus, progress: OrderProgress): OrderStatus | undefined {
  switch (status) {
    case 'pending':
      return progress.payment_status === 'paid' ? 'confirmed' : undefined;
    case 'confirmed':
      return progress.fulfillment_status === 'unfulfilled' ? undefined : 'processing';
    case 'processing':
      return progress.shipped && PAID_STATUSES.includes(progress.payment_status) ? 'completed' : undefined;
    default:
      return undefined;
  }
}

/**
 * The statuses an order passes through, in order, when the automatic moves are applied until
 * none holds (the start status excluded; empty when nothing moves). Every step is a move of
 * `orderMachine`, so the caller can emit one event per step (`order.confirmed`,
 * `order.completed`) and set `completed_at`.
 *
 * Decisions:
 * - The moves chain: a pending order that was shipped before it was paid goes
 *   `confirmed → processing → completed` the moment the payment completes it.
 * - A created fulfillment (`pending`) moves an order to `processing` only; the order completes
 *   when every fulfillable unit has shipped (docs/contract.md#order-status).
 * - A fully shipped but unpaid (or partially paid) order stays `processing`; it completes
 *   automatically when payment in full arrives, or by the admin's `POST …/complete`.
 * - "Paid" means paid in full, refunded since or not: `payment_status` `paid`,
 *   `partially_refunded` or `refunded`. A refund moves money only; units refunded without restock
 *   still have to ship before the order completes, units cancelled by a restocking refund do not.
 * - `draft`, `completed` and `cancelled` never move automatically.
 *
 * @example automaticOrderPath('pending', { payment_status: 'paid', fulfillment_status: 'fulfilled', shipped: true })
 * // ['confirmed', 'processing', 'completed']
 */
export function automaticOrderPath(status: OrderStatus, progress: OrderProgress): OrderStatus[] {
  const path: OrderStatus[] = [];
  let current = status;
  for (
    let next = nextAutomaticStatus(current, progress);
    next;
    next = nextAutomaticStatus(current, progress)
  ) {
    path.push(next);
    current = next;
  }
  return path;
}

/** The order status once every automatic move has been applied (the last step of the path). */
export function settleOrderStatus(status: OrderStatus, progress: OrderProgress): OrderStatus {
  return automaticOrderPath(status, progress).at(-1) ?? status;
}

/**
 * The order status after a payment changed its `payment_status`: payment in full moves
 * `pending → confirmed`, and onward when fulfillments already exist (see
 * {@link automaticOrderPath}).
 *
 * @example orderStatusAfterPayment('pending', 'paid') // 'confirmed'
 * @example orderStatusAfterPayment('pending', 'partially_paid') // 'pending'
 */
export function orderStatusAfterPayment(
  status: OrderStatus,
  paymentStatus: PaymentStatus,
  fulfillmentStatus: FulfillmentStatus = 'unfulfilled',
  shipped = false,
): OrderStatus {
  return settleOrderStatus(status, {
    payment_status: paymentStatus,
    fulfillment_status: fulfillmentStatus,
    shipped,
  });
}

/**
 * The order status after a fulfillment was created, shipped (or cancelled): the first
 * fulfillment moves `confirmed → processing`; paid with every fulfillable unit shipped moves on
 * to `completed`. A created but unshipped fulfillment never completes an order, and a shipped but
 * unpaid order stays `processing` (see {@link automaticOrderPath}).
 *
 * @example orderStatusAfterFulfillment('confirmed', 'partially_fulfilled', 'paid') // 'processing'
 * @example orderStatusAfterFulfillment('confirmed', 'fulfilled', 'paid') // 'processing' (not shipped)
 * @example orderStatusAfterFulfillment('confirmed', 'fulfilled', 'paid', true) // 'completed'
 * @example orderStatusAfterFulfillment('confirmed', 'fulfilled', 'partially_paid', true) // 'processing'
 */
export function orderStatusAfterFulfillment(
  status: OrderStatus,
  fulfillmentStatus: FulfillmentStatus,
  paymentStatus: PaymentStatus,
  shipped = false,
): OrderStatus {
  return settleOrderStatus(status, {
    payment_status: paymentStatus,
    fulfillment_status: fulfillmentStatus,
    shipped,
  });
}
