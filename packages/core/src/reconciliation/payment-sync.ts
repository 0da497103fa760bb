import { cancelOrderParts } from '../orders/order-cancellation';
import { saveOrderProgress } from '../orders/order-progress';
import { isAwaitingPayment } from '../payments/awaiting-payment';
import { paymentToWire } from '../payments/wire';
import type { PaymentProvider, PaymentResult } from '../ports/payment-provider';
import type { OrderAggregate, PaymentRecord, Scope } from '../ports/storage';
import type { ServiceContext } from '../shared/context';
import { write } from '../shared/unit-of-work';

/** What {@link syncOrderPayment} did. */
export type PaymentSyncOutcome =
  | 'payment_completed'
  | 'payment_failed'
  | 'late_payment_refunded'
  | 'unchanged';

/** The `failure_reason` that marks a payment whose late money was given back. */
export const LATE_PAYMENT_REFUNDED = 'late_payment_refunded';

type Decision =
  | { kind: 'done'; outcome: PaymentSyncOutcome }
  | { kind: 'late'; payment: PaymentRecord; amount: number };

/** Whether the order still counts on this payment, i.e. no other payment took or may take money. */
function onlyHope(order: OrderAggregate, paymentId: string): boolean {
  return !order.payments.some(
    (p) =>
      p.id !== paymentId && (p.status === 'pending' || p.status === 'completed' || p.status === 'refunded'),
  );
}

/**
 * Applies what the provider says about a payment that belongs to an order — from its webhook or
 * from reconciliation's `lookupPayment` — in one transaction with the order row locked:
 *
 * - `succeeded` on a `pending` payment → `completed` (`payment.completed`), and the order follows
 *   (paid in full: `pending → confirmed`, `order.confirmed`);
 * - `failed` on a payment that awaits the customer's confirmation in the browser
 *   (`isAwaitingPayment`) → nothing: the customer may retry with another card until the
 *   order's deadline, when reconciliation cancels it (`payment-expiry.ts`);
 * - `failed` / `cancelled` on a `pending` payment → `failed` / `cancelled` (`payment.failed`);
 *   a `pending` order with no other payment is then cancelled (`order.cancelled`): its
 *   reservations are released. Decision: a failed 3-D Secure ends the order — the storefront
 *   checks out a new cart to try again — rather than leaving stock reserved for an order nobody
 *   may pay;
 * - `succeeded` on a payment that is no longer pending (it failed, or its order was cancelled
 *   meanwhile): the money arrived for nothing, so it is refunded in full through the provider
 *   (idempotency key `<payment id>_late_refund`) and the payment's `failure_reason` says
 *   `late_payment_refunded`;
 * - anything else (already applied, `requires_action`, `pending`, an amount or provider id that
 *   does not match the payment) changes nothing. Repeated deliveries are therefore harmless.
 */
export async function syncOrderPayment(
  ctx: ServiceContext,
  scope: Scope,
  paymentId: string,
  provider: PaymentProvider,
  observed: PaymentResult,
): Promise<PaymentSyncOutcome> {
  const decision = await write(ctx, scope, async (work): Promise<Decision> => {
    const { tx, now } = work;
    const found = await tx.orders.getPayment(scope, paymentId);
    if (!found || found.order_id === null) return { kind: 'done', outcome: 'unchanged' };
    const order = await tx.orders.get(scope, found.order_id, { forUpdate: true });
    if (!order) return { kind: 'done', outcome: 'unchanged' };
    const payment = order.payments.find((p) => p.id === paymentId) ?? found;
    if (observed.provider_id && payment.provider_id && observed.provider_id !== payment.provider_id) {
      return { kind: 'done', outcome: 'unchanged' };
    }
    const replace = (updated: PaymentRecord) =>
      order.payments.map((p) => (p.id === updated.id ? updated : p));

    if (observed.status === 'succeeded') {
      if (observed.amount !== undefined && observed.amount !== payment.amount) {
        return { kind: 'done', outcome: 'unchanged' };
      }
      if (payment.status === 'pending' && order.status !== 'cancelled') {
        const updated = await tx.orders.updatePayment(
          scope,
          payment.id,
          {
            status: 'completed',
            provider_id: observed.provider_id ?? payment.provider_id,
            client_secret: null,
            updated_at: now,
          },
          { expect_status: 'pending' },
        );
        if (!updated) return { kind: 'done', outcome: 'unchanged' };
        work.emit(scope, 'payment.completed', paymentToWire(updated));
        await saveOrderProgress(work, scope, order, { ...order, payments: replace(updated) });
        return { kind: 'done', outcome: 'payment_completed' };
      }
      if (
        (payment.status === 'failed' || payment.status === 'cancelled' || payment.status === 'pending') &&
        payment.failure_reason !== LATE_PAYMENT_REFUNDED
      ) {
        return { kind: 'late', payment, amount: observed.amount ?? payment.amount };
      }
      return { kind: 'done', outcome: 'unchanged' };
    }

    // A payment the storefront confirms in the browser stays open after a failed attempt (a
    // declined card, a failed 3-D Secure): the customer may try again with another card on the
    // same PaymentIntent until the order's deadline (payment-expiry.ts).
    if (observed.status === 'failed' && isAwaitingPayment(payment)) {
      return { kind: 'done', outcome: 'unchanged' };
    }
    if ((observed.status === 'failed' || observed.status === 'cancelled') && payment.status === 'pending') {
      const updated = await tx.orders.updatePayment(
        scope,
        payment.id,
        {
          status: observed.status,
          failure_reason: observed.failure_code ?? observed.failure_message ?? observed.status,
          client_secret: null,
          updated_at: now,
        },
        { expect_status: 'pending' },
      );
      if (!updated) return { kind: 'done', outcome: 'unchanged' };
      work.emit(scope, 'payment.failed', paymentToWire(updated));
      const changed: OrderAggregate = { ...order, payments: replace(updated) };
      if (order.status === 'pending' && onlyHope(order, payment.id)) {
        const cancelled = await cancelOrderParts(
          work,
          scope,
          { ...changed, status: 'cancelled' },
          'payment_failed',
        );
        await saveOrderProgress(work, scope, order, cancelled, ['order.cancelled']);
      } else {
        await saveOrderProgress(work, scope, order, changed);
      }
      return { kind: 'done', outcome: 'payment_failed' };
    }
    return { kind: 'done', outcome: 'unchanged' };
  });

  if (decision.kind === 'done') return decision.outcome;
  const { payment, amount } = decision;
  if (payment.provider_id === null) return 'unchanged';
  const refund = await provider.refundPayment({
    provider_id: payment.provider_id,
    amount,
    currency: payment.currency,
    idempotency_key: `${payment.id}_late_refund`,
    reason: null,
  });
  if (refund.status === 'failed') return 'unchanged';
  await write(ctx, scope, async ({ tx, now }) => {
    await tx.orders.updatePayment(
      scope,
      payment.id,
      { failure_reason: LATE_PAYMENT_REFUNDED, updated_at: now },
      { expect_status: payment.status },
    );
  });
  return 'late_payment_refunded';
}
