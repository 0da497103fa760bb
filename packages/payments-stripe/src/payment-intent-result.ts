import type { PaymentResult } from '@cartwright/core/providers';
import type Stripe from 'stripe';
import { failureCode } from './stripe-errors';

/** The fields of a PaymentIntent the mapping reads (so tests and fakes need not build a whole one). */
export type PaymentIntentLike = Pick<
  Stripe.PaymentIntent,
  'id' | 'status' | 'amount' | 'amount_received' | 'client_secret'
> & {
  last_payment_error?: Pick<
    Stripe.PaymentIntent.LastPaymentError,
    'code' | 'decline_code' | 'message'
  > | null;
};

/**
 * Reduces a PaymentIntent to the port's closed set of outcomes. Every outcome but `failed`
 * carries the intent's `client_secret` (checkout's answer gives it to the storefront as
 * `payment.client_secret`):
 * - `succeeded` → `succeeded` (money taken);
 * - `requires_action` → `requires_action`, with the `client_secret` the storefront passes to
 *   Stripe.js to run 3-D Secure;
 * - `requires_payment_method` without a payment error → `awaiting_payment`: an intent created
 *   without a payment method (checkout without `payment_method_id`), which the storefront
 *   confirms in the browser with the `client_secret` (Stripe.js, Payment Element);
 * - `processing`, `requires_confirmation` → `pending` (Stripe will settle it; a webhook or a
 *   lookup tells the outcome);
 * - `requires_capture` → `pending`: the money is authorised, not taken. The provider never
 *   captures behind the caller's back; with `captureMethod: 'manual'` the caller captures with
 *   `capturePayment` (decided so that createPayment moves money at most once per call);
 * - `requires_payment_method` with a payment error → `failed` (a decline or failed
 *   authentication leaves the intent there), with the decline code and Stripe's customer-facing
 *   message;
 * - `canceled` → `cancelled`.
 */
export function paymentIntentToResult(intent: PaymentIntentLike): PaymentResult {
  const base = { provider_id: intent.id, amount: intent.amount, client_secret: intent.client_secret };
  const error = intent.last_payment_error ?? null;
  switch (intent.status) {
    case 'succeeded':
      return { ...base, status: 'succeeded', amount: intent.amount_received || intent.amount };
    case 'requires_action':
      return { ...base, status: 'requires_action' };
    case 'processing':
    case 'requires_confirmation':
    case 'requires_capture':
      return { ...base, status: 'pending' };
    case 'canceled':
      return { ...base, status: 'cancelled' };
    default: {
      if (intent.status === 'requires_payment_method' && error === null) {
        return { ...base, status: 'awaiting_payment' };
      }
      return {
        provider_id: intent.id,
        amount: intent.amount,
        status: 'failed',
        failure_code: error ? failureCode(error.code, error.decline_code) : 'payment_failed',
        failure_message: error?.message ?? 'The payment requires a new payment method',
      };
    }
  }
}
