import { CommerceError } from '../../errors';
import type { PaymentResult, PaymentWebhookEvent, PaymentWebhookInput } from '../../ports/payment-provider';
import type { PaymentRecord, Scope } from '../../ports/storage';
import type { ServiceContext } from '../context';
import { read } from '../unit-of-work';
import { type PaymentSyncOutcome, syncOrderPayment } from './payment-sync';

/** The answer to a provider webhook: 200 `{ received: true }` whenever it was verified. */
export interface PaymentWebhookAck {
  received: true;
}

/** A webhook's action as a provider outcome; `not_supported` has none. */
function observedOf(event: PaymentWebhookEvent): PaymentResult | null {
  const base = {
    provider_id: event.provider_id,
    ...(event.amount !== null && event.amount !== undefined && { amount: event.amount }),
  };
  switch (event.action) {
    case 'succeeded':
      return { ...base, status: 'succeeded' };
    case 'failed':
      return {
        ...base,
        status: 'failed',
        failure_code: event.failure_code ?? null,
        failure_message: event.failure_message ?? null,
      };
    case 'canceled':
      return { ...base, status: 'cancelled' };
    default:
      return null;
  }
}

/**
 * Finds the payment a webhook is about, by our payment id from the provider's metadata. The
 * scope is the one the provider reports (`store_id`, `mode`); a provider that does not report it
 * is answered from the installation's store in either mode (payment ids are unique).
 */
async function findPayment(
  ctx: ServiceContext,
  event: PaymentWebhookEvent,
  paymentId: string,
): Promise<{ scope: Scope; payment: PaymentRecord } | null> {
  return read(ctx, async (tx) => {
    let scopes: Scope[];
    if (event.store_id && event.mode) scopes = [{ store_id: event.store_id, mode: event.mode }];
    else {
      const store = await tx.stores.getFirst();
      if (!store) return null;
      scopes = [
        { store_id: store.id, mode: 'test' },
        { store_id: store.id, mode: 'live' },
      ];
    }
    for (const scope of scopes) {
      const payment = await tx.orders.getPayment(scope, paymentId);
      if (payment) return { scope, payment };
    }
    return null;
  });
}

/**
 * `POST /v1/webhooks/{provider}` (issue 6): a provider tells us what became of a payment — the
 * way a 3-D Secure checkout completes. The provider verifies the delivery (`parseWebhook`:
 * signature over the exact raw body with its webhook secret; 400 when missing or wrong); a
 * provider that is not registered or takes no webhooks → 404 `not_found`.
 *
 * A verified event about a payment of an order is applied with `syncOrderPayment` (completes the
 * payment and confirms the order, or fails it and cancels the pending order). Everything else is
 * acknowledged and ignored: events of other kinds, payments we do not know, and checkout attempts
 * that have no order yet — those are settled by the checkout request itself or by `reconcile`,
 * never by a webhook, so the two cannot disagree. Deliveries are at least once and may come in
 * any order; applying one twice changes nothing.
 */
export async function handlePaymentWebhook(
  ctx: ServiceContext,
  providerName: string,
  input: PaymentWebhookInput,
): Promise<PaymentWebhookAck & { outcome: PaymentSyncOutcome }> {
  const provider = ctx.payments.get(providerName);
  if (!provider?.parseWebhook) {
    throw new CommerceError('not_found', `Payment provider '${providerName}' does not receive webhooks here`);
  }
  const event = await provider.parseWebhook(input);
  const observed = observedOf(event);
  if (observed === null || event.payment_id === null) return { received: true, outcome: 'unchanged' };
  const found = await findPayment(ctx, event, event.payment_id);
  if (!found || found.payment.provider !== provider.name || found.payment.order_id === null) {
    return { received: true, outcome: 'unchanged' };
  }
  const outcome = await syncOrderPayment(ctx, found.scope, found.payment.id, provider, observed);
  return { received: true, outcome };
}
