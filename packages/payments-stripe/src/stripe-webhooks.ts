import { CommerceError } from '@cartwright/core';
import Stripe from 'stripe';
import { failureCode, isStripeError } from './stripe-errors';

/**
 * What a Stripe webhook means for our payment, reduced to a closed set (Medusa style):
 * - `succeeded` — `payment_intent.succeeded`: the money is taken;
 * - `failed` — `payment_intent.payment_failed`: declined or authentication failed;
 * - `requires_action` — `payment_intent.requires_action`: the customer must authenticate;
 * - `canceled` — `payment_intent.canceled`;
 * - `not_supported` — any other event (acknowledge it with 2xx and ignore it).
 */
export type StripeWebhookAction = 'succeeded' | 'failed' | 'requires_action' | 'canceled' | 'not_supported';

/** A verified Stripe webhook, reduced to what the order services act on. */
export interface StripeWebhookResult {
  action: StripeWebhookAction;
  /** The PaymentIntent id (`pi_…`), or `null` when the event is not about a PaymentIntent. */
  provider_id: string | null;
  /** Our payment id from the intent's metadata, to find the payment even before `provider_id` was stored. */
  payment_id: string | null;
  /** The event id (`evt_…`): Stripe delivers at least once, so this is the de-duplication key. */
  event_id: string;
  event_type: string;
  /** The intent's amount (minor units) and currency, to check against the payment on record. */
  amount: number | null;
  currency: string | null;
  failure_code?: string | null;
  failure_message?: string | null;
  /** Our store and mode, from the intent's metadata (set by `createPayment`). */
  store_id?: string | null;
  mode?: 'test' | 'live' | null;
}

/** Options of `parseStripeWebhook`. */
export interface ParseStripeWebhookOptions {
  /** Accepted age of the signature's timestamp, in seconds. Default 300 (Stripe's). */
  toleranceSeconds?: number | undefined;
  /** The time of receipt in epoch milliseconds (as stripe-node takes it), for tests. Default now. */
  receivedAt?: number | undefined;
}

const INTENT_ACTIONS: Record<string, StripeWebhookAction> = {
  'payment_intent.succeeded': 'succeeded',
  'payment_intent.payment_failed': 'failed',
  'payment_intent.requires_action': 'requires_action',
  'payment_intent.canceled': 'canceled',
};

/**
 * Verifies a Stripe webhook delivery with stripe-node's `webhooks.constructEvent` (HMAC-SHA256
 * of `"<t>.<raw body>"` with the endpoint secret, compared in constant time, timestamp within
 * the tolerance) and reduces it to a `StripeWebhookResult`.
 *
 * `rawBody` must be the exact bytes received (not re-serialised JSON). A missing
 * `Stripe-Signature` header → `parameter_missing`; a bad, tampered, foreign or stale
 * signature → `parameter_invalid`, both with `param: 'Stripe-Signature'`.
 */
export function parseStripeWebhook(
  rawBody: string | Uint8Array,
  signatureHeader: string | null | undefined,
  webhookSecret: string,
  options: ParseStripeWebhookOptions = {},
): StripeWebhookResult {
  if (!signatureHeader) {
    throw new CommerceError('parameter_missing', 'The Stripe-Signature header is required', {
      param: 'Stripe-Signature',
    });
  }
  let event: Stripe.Event;
  try {
    event = Stripe.webhooks.constructEvent(
      rawBody,
      signatureHeader,
      webhookSecret,
      options.toleranceSeconds,
      undefined,
      options.receivedAt,
    );
  } catch (error) {
    if (isStripeError(error, 'StripeSignatureVerificationError') || error instanceof SyntaxError) {
      throw new CommerceError(
        'parameter_invalid',
        'The Stripe-Signature header does not verify this payload',
        {
          param: 'Stripe-Signature',
          cause: error,
        },
      );
    }
    throw error;
  }
  return webhookResult(event);
}

/** The reduction of a verified event (exported for callers that verify elsewhere). */
export function webhookResult(event: Stripe.Event): StripeWebhookResult {
  const object = event.data.object as { object?: string; id?: string };
  const base = { event_id: event.id, event_type: event.type };
  if (object.object !== 'payment_intent') {
    return {
      ...base,
      action: 'not_supported',
      provider_id: null,
      payment_id: null,
      amount: null,
      currency: null,
    };
  }
  const intent = event.data.object as Stripe.PaymentIntent;
  const action = INTENT_ACTIONS[event.type] ?? 'not_supported';
  const result: StripeWebhookResult = {
    ...base,
    action,
    provider_id: intent.id,
    payment_id: intent.metadata?.payment_id ?? null,
    amount: intent.amount,
    currency: intent.currency,
    store_id: intent.metadata?.store_id ?? null,
    mode: intent.metadata?.mode === 'live' ? 'live' : intent.metadata?.mode === 'test' ? 'test' : null,
  };
  if (action === 'failed') {
    const error = intent.last_payment_error ?? null;
    result.failure_code = error ? failureCode(error.code, error.decline_code) : null;
    result.failure_message = error?.message ?? 'The payment failed';
  }
  return result;
}
