import type { PaymentResult, PaymentWebhookEvent, PaymentWebhookInput } from '../ports/payment-provider';
import type { Repositories, Scope } from '../ports/storage';
import type { ServiceContext } from '../shared/context';
import { CommerceError } from '../shared/errors';
import { read } from '../shared/unit-of-work';
import { type PaymentSyncOutcome, syncOrderPayment } from './payment-sync';
import { type ProviderRefundSettlementOutcome, settleProviderRefund } from './provider-refund-settlement';

/** The answer to a provider webhook: 200 `{ received: true }` whenever it was verified. */
export interface PaymentWebhookAck {
  received: true;
}

/** What a verified provider webhook changed: a payment's outcome, a refund's, or `unchanged`. */
export type PaymentWebhookOutcome = PaymentSyncOutcome | ProviderRefundSettlementOutcome;

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
 * The scopes a webhook may be about: the one the provider reports (`store_id`, `mode`); a
 * provider that does not report it is answered from the installation's store in either mode
 * (ids are unique).
 */
async function scopesOf(tx: Repositories, event: PaymentWebhookEvent): Promise<Scope[]> {
  if (event.store_id && event.mode) return [{ store_id: event.store_id, mode: event.mode }];
  const store = await tx.stores.get();
  if (!store) return [];
  return [
    { store_id: store.id, mode: 'test' },
    { store_id: store.id, mode: 'live' },
  ];
}

/**
 * The first of `scopesOf(event)` in which `find` finds something, with it: the payment or order a
 * webhook is about, by our id from the provider's metadata.
 */
function findInScopes<T>(
  ctx: ServiceContext,
  event: PaymentWebhookEvent,
  find: (tx: Repositories, scope: Scope) => Promise<T | null>,
): Promise<{ scope: Scope; found: T } | null> {
  return read(ctx, async (tx) => {
    for (const scope of await scopesOf(tx, event)) {
      const found = await find(tx, scope);
      if (found) return { scope, found };
    }
    return null;
  });
}

/**
 * A `refund_updated` event: the provider settled (or reports again) a refund. It is found by our
 * order id and refund id from the provider's metadata (`RefundPaymentInput.reference`), in the
 * scope rules of payments; it must belong to an order paid through this provider, and when the
 * refund has a `provider_refund_id` the event's must be the same (a refund drawn on two provider
 * payments records only its first slice's id and is settled by that one). An event without our
 * ids (a refund made elsewhere, or before refunds carried them) is acknowledged and left to
 * reconciliation (`lookupRefund`). Settling is `settleProviderRefund`: idempotent.
 */
async function handleRefundEvent(
  ctx: ServiceContext,
  providerName: string,
  event: PaymentWebhookEvent,
): Promise<PaymentWebhookOutcome> {
  const status = event.refund_status;
  if (!event.refund_id || !event.order_id || !status) return 'unchanged';
  const orderId = event.order_id;
  const found = await findInScopes(ctx, event, (tx, scope) => tx.orders.get(scope, orderId));
  if (!found?.found.payments.some((p) => p.provider === providerName)) return 'unchanged';
  const order = found.found;
  const refund = order.refunds.find((r) => r.id === event.refund_id);
  if (!refund) return 'unchanged';
  if (
    refund.provider_refund_id !== null &&
    event.provider_refund_id &&
    refund.provider_refund_id !== event.provider_refund_id
  ) {
    return 'unchanged';
  }
  const settled = await settleProviderRefund(ctx, found.scope, order.id, refund.id, status, {
    failure_message: event.failure_message,
  });
  return settled.outcome;
}

/**
 * `POST /v1/webhooks/{provider}`: a provider tells us what became of a payment — the
 * way a 3-D Secure checkout completes. The provider verifies the delivery (`parseWebhook`:
 * signature over the exact raw body with its webhook secret; 400 when missing or wrong); a
 * provider that is not registered or takes no webhooks → 404 `not_found`.
 *
 * A verified event about a payment of an order is applied with `syncOrderPayment` (completes the
 * payment and confirms the order, or fails it and cancels the pending order). A `refund_updated`
 * event settles a refund its provider had answered `pending` (`settleProviderRefund`:
 * `refund_completed` / `refund_failed`; see `handleRefundEvent`). Everything else is
 * acknowledged and ignored: events of other kinds, payments we do not know, and checkout attempts
 * that have no order yet — those are settled by the checkout request itself or by `reconcile`,
 * never by a webhook, so the two cannot disagree. Deliveries are at least once and may come in
 * any order; applying one twice changes nothing.
 */
export async function handlePaymentWebhook(
  ctx: ServiceContext,
  providerName: string,
  input: PaymentWebhookInput,
): Promise<PaymentWebhookAck & { outcome: PaymentWebhookOutcome }> {
  const provider = ctx.payments.get(providerName);
  if (!provider?.parseWebhook) {
    throw new CommerceError('not_found', `Payment provider '${providerName}' does not receive webhooks here`);
  }
  const event = await provider.parseWebhook(input);
  if (event.action === 'refund_updated') {
    return { received: true, outcome: await handleRefundEvent(ctx, provider.name, event) };
  }
  const observed = observedOf(event);
  if (observed === null || event.payment_id === null) return { received: true, outcome: 'unchanged' };
  const paymentId = event.payment_id;
  const found = await findInScopes(ctx, event, (tx, scope) => tx.orders.getPayment(scope, paymentId));
  if (!found || found.found.provider !== provider.name || found.found.order_id === null) {
    return { received: true, outcome: 'unchanged' };
  }
  const outcome = await syncOrderPayment(ctx, found.scope, found.found.id, provider, observed);
  return { received: true, outcome };
}
