import { releaseDiscountUsage } from '../discounts/discount-usage';
import { cancelOrderParts } from '../orders/order-cancellation';
import { saveOrderProgress } from '../orders/order-progress';
import { awaitingDeadline, PAYMENT_EXPIRED } from '../payments/awaiting-payment';
import { paymentToWire } from '../payments/wire';
import type { PaymentProvider, PaymentResult } from '../ports/payment-provider';
import type { OrderAggregate, PaymentRecord, Scope } from '../ports/storage';
import type { ServiceContext } from '../shared/context';
import { write } from '../shared/unit-of-work';
import { type PaymentSyncOutcome, syncOrderPayment } from './payment-sync';

/** What {@link expireAwaitingPayment} did. */
export type PaymentExpiryOutcome = 'payment_expired' | PaymentSyncOutcome;

/** The provider's view of a payment, or null when it cannot be asked (no lookup, no provider id). */
async function lookUp(provider: PaymentProvider, payment: PaymentRecord): Promise<PaymentResult | null> {
  if (!provider.lookupPayment || payment.provider_id === null) return null;
  return provider.lookupPayment({
    provider_id: payment.provider_id,
    idempotency_key: payment.idempotency_key ?? payment.id,
  });
}

/**
 * The cancellation itself, in one transaction with the order row locked (`forUpdate`), guarded:
 * only an order still `pending` whose payment is still `pending`, awaiting the customer, and past
 * its deadline is cancelled — so of several processes (or a webhook settling it at the same
 * moment) exactly one acts, and a payment settled first is never cancelled. It cancels the
 * payment (`failure_reason` and the order's `cancel_reason` `payment_expired`; its client secret
 * dropped; `payment.failed`), releases the order's reservations (`cancelOrderParts`), gives back
 * its discount uses, and saves the order `cancelled` (`order.cancelled`). Returns the cancelled
 * payment, or null when there was nothing (left) to do.
 */
function cancelExpired(ctx: ServiceContext, scope: Scope, payment: PaymentRecord) {
  return write(ctx, scope, async (work): Promise<PaymentRecord | null> => {
    const { tx, now } = work;
    if (payment.order_id === null) return null;
    const order = await tx.orders.get(scope, payment.order_id, { forUpdate: true });
    if (order?.status !== 'pending') return null;
    const current = order.payments.find((p) => p.id === payment.id);
    const deadline = current ? awaitingDeadline(current) : null;
    if (!current || deadline === null || deadline > now) return null;
    const updated = await tx.orders.updatePayment(
      scope,
      current.id,
      { status: 'cancelled', failure_reason: PAYMENT_EXPIRED, client_secret: null, updated_at: now },
      { expect_status: 'pending' },
    );
    if (!updated) return null;
    work.emit(scope, 'payment.failed', paymentToWire(updated));
    const changed: OrderAggregate = {
      ...order,
      status: 'cancelled',
      payments: order.payments.map((p) => (p.id === updated.id ? updated : p)),
    };
    const cancelled = await cancelOrderParts(work, scope, changed, PAYMENT_EXPIRED);
    await releaseDiscountUsage(work, scope, { order_id: order.id, discounts: order.applied_discounts });
    await saveOrderProgress(work, scope, order, cancelled, ['order.cancelled']);
    return updated;
  });
}

/**
 * Ends an order whose payment the storefront was to confirm in the browser and did not in time
 * (decisions §22, `COMMERCE_PAYMENT_TIMEOUT_MINUTES`): reconciliation calls it for such a
 * payment once its deadline (`awaitingDeadline`) has passed.
 *
 * 1. The provider is asked first (`lookupPayment`): money taken → the payment is settled as its
 *    webhook would have settled it (`syncOrderPayment`: `payment_completed`, order `confirmed`)
 *    — a customer who paid is never cancelled because a webhook was late or lost; still
 *    processing (`pending`) → `unchanged`, asked again on the next run. A provider that cannot be
 *    asked throws: `error` for this run, retried on the next.
 * 2. Otherwise the order is cancelled in one guarded transaction (`cancelExpired`): reservations
 *    released, discount uses given back, `cancel_reason` `payment_expired`. If a webhook settled
 *    the payment in between, nothing happens (`unchanged`).
 * 3. After that committed, the payment is voided at the provider (`cancelPayment`, key
 *    `<payment id>_void`, as an admin cancel does) so the customer can no longer pay for it. If
 *    that fails because the customer paid in the same moment, the money is refunded in full at
 *    once (`syncOrderPayment`: `late_payment_refunded`); if the provider cannot be reached,
 *    money that arrives later is refunded by the payment webhook.
 */
export async function expireAwaitingPayment(
  ctx: ServiceContext,
  scope: Scope,
  payment: PaymentRecord,
  provider: PaymentProvider,
): Promise<PaymentExpiryOutcome> {
  const observed = await lookUp(provider, payment);
  if (observed?.status === 'succeeded') {
    return syncOrderPayment(ctx, scope, payment.id, provider, observed);
  }
  if (observed?.status === 'pending') return 'unchanged';

  const expired = await cancelExpired(ctx, scope, payment);
  if (expired === null) return 'unchanged';

  if (provider.cancelPayment && expired.provider_id !== null && observed?.status !== 'cancelled') {
    try {
      await provider.cancelPayment({
        provider_id: expired.provider_id,
        idempotency_key: `${expired.id}_void`,
      });
    } catch {
      // Paid in the same moment? Then the money goes back now; otherwise the webhook refunds it.
      const late = await lookUp(provider, expired).catch(() => null);
      if (late?.status === 'succeeded') {
        const outcome = await syncOrderPayment(ctx, scope, expired.id, provider, late);
        if (outcome === 'late_payment_refunded') return outcome;
      }
    }
  }
  return 'payment_expired';
}
