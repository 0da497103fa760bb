import type { PaymentResult } from '../ports/payment-provider';
import type { JsonObject, PaymentRecord } from '../ports/storage';
import type { EngineConfig } from '../shared/context';

/**
 * Payments the storefront confirms in the browser (docs/payments.md#browser-confirmation): a
 * checkout with a provider that answered `awaiting_payment` — Stripe without `payment_method_id`
 * creates an unconfirmed PaymentIntent — records its payment `pending` with the `client_secret`
 * and this marker in the payment's internal metadata (never shown: see `orders/wire.ts`), which
 * holds the deadline. Until then the order is `pending` with `payment_status`
 * `awaiting_payment`; the provider's webhook or reconciliation settles it, and past the deadline
 * reconciliation cancels it (`payment-expiry.ts`).
 */
export const AWAITING_PAYMENT_KEY = '_cartwright_awaiting_payment';

/** The order's `cancel_reason` and the payment's `failure_reason` when the deadline passed. */
export const PAYMENT_EXPIRED = 'payment_expired';

/** Default of `EngineConfig.payment_timeout_ms` (`COMMERCE_PAYMENT_TIMEOUT_MINUTES`, 30). */
export const DEFAULT_PAYMENT_TIMEOUT_MS = 30 * 60 * 1000;

/**
 * The provider fields a payment record takes from the provider's answer at checkout: the
 * `client_secret` while the customer must act (`requires_action`: 3-D Secure;
 * `awaiting_payment`: confirmation in the browser), and for `awaiting_payment` the marker with
 * its deadline, `timeout_ms` after `created_at` (the checkout's claim).
 */
export function providerFieldsOf(
  result: PaymentResult,
  created_at: number,
  config: Pick<EngineConfig, 'payment_timeout_ms'>,
  metadata: JsonObject = {},
): Pick<PaymentRecord, 'client_secret' | 'metadata'> {
  const client_secret =
    result.status === 'requires_action' || result.status === 'awaiting_payment'
      ? (result.client_secret ?? null)
      : null;
  if (result.status !== 'awaiting_payment') return { client_secret, metadata };
  return {
    client_secret,
    metadata: { ...metadata, [AWAITING_PAYMENT_KEY]: { expires_at: created_at + config.payment_timeout_ms } },
  };
}

/**
 * When a payment's browser confirmation expires (epoch ms), or null when it is not one that
 * awaits the customer in the browser (or no longer `pending`).
 */
export function awaitingDeadline(payment: Pick<PaymentRecord, 'status' | 'metadata'>): number | null {
  if (payment.status !== 'pending') return null;
  const marker = payment.metadata[AWAITING_PAYMENT_KEY];
  if (marker === null || typeof marker !== 'object' || Array.isArray(marker)) return null;
  const expires_at = (marker as JsonObject).expires_at;
  return typeof expires_at === 'number' ? expires_at : null;
}

/** Whether a payment is `pending` and awaits the customer's confirmation in the browser. */
export function isAwaitingPayment(payment: Pick<PaymentRecord, 'status' | 'metadata'>): boolean {
  return awaitingDeadline(payment) !== null;
}
