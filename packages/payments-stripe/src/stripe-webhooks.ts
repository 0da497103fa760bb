import { CommerceError } from '@cartwright/core';
import Stripe from 'stripe';
import { failureCode, isStripeError } from './stripe-errors';

/**
 * What a Stripe webhook means for our payment, reduced to a closed set (Medusa style):
 * - `succeeded` — `payment_intent.succeeded`: the money is taken;
 * - `failed` — `payment_intent.payment_failed`: declined or authentication failed;
 * - `requires_action` — `payment_intent.requires_action`: the customer must authenticate;
 * - `canceled` — `payment_intent.canceled`;
 * - `refund_updated` — `refund.updated`, `refund.failed`, `charge.refund.updated`: a Refund's
 *   status changed (see `refund_status`);
 * - `not_supported` — any other event (acknowledge it with 2xx and ignore it).
 */
export type StripeWebhookAction =
  | 'succeeded'
  | 'failed'
  | 'requires_action'
  | 'canceled'
  | 'refund_updated'
  | 'not_supported';

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
  /** Our store and mode, from the intent's (or the refund's) metadata (set by `createPayment` / `refundPayment`). */
  store_id?: string | null;
  mode?: 'test' | 'live' | null;
  /** `refund_updated`: the Refund id (`re_…`). */
  provider_refund_id?: string | null;
  /** `refund_updated`: our refund id, from the Refund's metadata (set by `refundPayment`). */
  refund_id?: string | null;
  /**
   * `refund_updated`: the Refund's status reduced — `succeeded` → succeeded; `pending`,
   * `requires_action` → pending; `failed`, `canceled` → failed.
   */
  refund_status?: 'succeeded' | 'pending' | 'failed' | null;
  /** `refund_updated`: our order id, from the Refund's metadata. */
  order_id?: string | null;
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

/** The events about a Refund object whose status may have changed. */
const REFUND_EVENTS = new Set(['refund.updated', 'refund.failed', 'charge.refund.updated']);

/** A Refund's status reduced as `RefundResult.status` (unknown statuses read as still pending). */
export function refundStatusOf(status: string | null | undefined): 'succeeded' | 'pending' | 'failed' {
  if (status === 'succeeded') return 'succeeded';
  if (status === 'failed' || status === 'canceled') return 'failed';
  return 'pending';
}

function modeOf(metadata: Record<string, string> | null | undefined): 'test' | 'live' | null {
  const mode = metadata?.mode;
  return mode === 'live' ? 'live' : mode === 'test' ? 'test' : null;
}

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
  if (object.object === 'refund' && REFUND_EVENTS.has(event.type)) return refundResult(event);
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
    mode: modeOf(intent.metadata),
  };
  if (action === 'failed') {
    const error = intent.last_payment_error ?? null;
    result.failure_code = error ? failureCode(error.code, error.decline_code) : null;
    result.failure_message = error?.message ?? 'The payment failed';
  }
  return result;
}

/**
 * A Refund event reduced (`refund_updated`): the refund's id and status, our ids from its metadata
 * (`refund_id`, `order_id`, `store_id`, `mode`: `null` when absent), the intent it refunds, its
 * amount and currency, and for a failed or canceled refund Stripe's `failure_reason` as
 * `failure_code` and in `failure_message`.
 */
function refundResult(event: Stripe.Event): StripeWebhookResult {
  const refund = event.data.object as Stripe.Refund;
  const metadata = refund.metadata ?? {};
  const intent = refund.payment_intent;
  const refund_status = refundStatusOf(refund.status);
  const result: StripeWebhookResult = {
    event_id: event.id,
    event_type: event.type,
    action: 'refund_updated',
    provider_id: typeof intent === 'string' ? intent : (intent?.id ?? null),
    payment_id: null,
    amount: refund.amount,
    currency: refund.currency,
    store_id: metadata.store_id ?? null,
    mode: modeOf(metadata),
    provider_refund_id: refund.id,
    refund_id: metadata.refund_id ?? null,
    refund_status,
    order_id: metadata.order_id ?? null,
  };
  if (refund_status === 'failed') {
    result.failure_code = refund.failure_reason ?? null;
    result.failure_message = refund.failure_reason
      ? `The refund failed at Stripe (${refund.failure_reason})`
      : `The refund ${refund.status === 'canceled' ? 'was canceled' : 'failed'} at Stripe`;
  }
  return result;
}
