import { CommerceError } from '@cartwright/core';
import type {
  CreatePaymentInput,
  LookupPaymentInput,
  PaymentProvider,
  PaymentResult,
  PaymentWebhookInput,
  RefundPaymentInput,
  RefundResult,
} from '@cartwright/core/providers';
import Stripe from 'stripe';
import { paymentIntentToResult } from './payment-intent-result';
import { failureCode, isStripeError, toCommerceError } from './stripe-errors';
import { parseStripeWebhook, refundStatusOf } from './stripe-webhooks';

/** Options of `stripeProvider`. */
export interface StripeProviderOptions {
  /** The Stripe secret key (`sk_test_…` / `sk_live_…`). Ignored when `client` is given. */
  secretKey: string;
  /**
   * Where the client sends requests, e.g. `http://127.0.0.1:12111` for stripe-mock or the fake
   * server (`STRIPE_API_BASE`). Default: Stripe's own API.
   */
  apiBase?: string | undefined;
  /** A ready Stripe client to use instead of building one (its own settings then apply). */
  client?: Stripe | undefined;
  /**
   * Automatic network retries of the client. Default **1**: every POST the provider sends
   * carries our idempotency key, so a retry can never charge twice; one retry absorbs a
   * transient failure (reset connection, 409 lock, 5xx) while keeping the checkout request
   * short; anything beyond is left to reconciliation (`lookupPayment`). Note that stripe-node
   * retries a reset connection once even at 0.
   */
  maxNetworkRetries?: number | undefined;
  /** Request timeout in ms. Default 30 000 (stripe-node's own default, 80 s, is long for a checkout). */
  timeout?: number | undefined;
  /**
   * `automatic` (default): confirming takes the money. `manual`: confirming only authorises it
   * (`createPayment` reports `pending`) and the caller captures with `capturePayment` or
   * releases with `cancelPayment`.
   */
  captureMethod?: 'automatic' | 'manual' | undefined;
  /** Default `return_url` for redirect-based 3-D Secure, when the payment input has none. */
  returnUrl?: string | undefined;
  /**
   * The signing secret of your Stripe webhook endpoint (`whsec_…`, `STRIPE_WEBHOOK_SECRET`).
   * With it the provider verifies and parses deliveries to `POST /v1/webhooks/stripe`; without
   * it, that endpoint answers 404.
   */
  webhookSecret?: string | undefined;
}

/** The provider's name, the value of checkout's `payment_provider`. */
export const STRIPE_PROVIDER_NAME = 'stripe';

const STRIPE_REFUND_REASONS = new Set(['duplicate', 'fraudulent', 'requested_by_customer']);

/**
 * The Stripe payment provider, built on the official `stripe` client and PaymentIntents.
 *
 * - `createPayment` with a `payment_method_id` creates and confirms a card PaymentIntent in one
 *   call, with the caller's idempotency key, the amount and currency the server computed (never
 *   the client's), and our ids in `metadata` (`payment_id`, `cart_id`, `order_id`, `store_id`,
 *   `mode`). Without one it creates the same intent unconfirmed and answers `awaiting_payment`
 *   with its `client_secret`: the storefront confirms it with Stripe.js (3-D Secure included),
 *   and `payment_intent.succeeded` (or a lookup) settles it. Declines come back
 *   as `failed` results; an unknown `payment_method_id` throws 400 `parameter_invalid`; when
 *   Stripe cannot be reached it throws `payment_provider_unavailable` (the payment may or may
 *   not exist: reconcile with `lookupPayment`). A zero amount succeeds without calling Stripe
 *   (Stripe cannot charge nothing), with `provider_id: null`.
 * - `lookupPayment` retrieves by `provider_id`; without one it replays the creation with the
 *   same idempotency key and the `original` input, which Stripe answers with the original
 *   outcome (for 24 hours), then retrieves the intent's current state. If Stripe never received
 *   the original, this replay performs it, once: the attempt's intended payment completes.
 *   If Stripe rejects the replay as invalid, nothing was ever created, and lookup returns `null`.
 * - `refundPayment` creates a Refund on the intent under the caller's idempotency key, with our
 *   ids in its `metadata` (`refundMetadata`); Stripe may answer `pending` (payment methods that
 *   refund asynchronously), settled later by its refund webhooks or by `lookupRefund`
 *   (`refunds.retrieve`; `null` for an id Stripe does not know).
 */
export function stripeProvider(options: StripeProviderOptions): PaymentProvider {
  const stripe = options.client ?? createStripeClient(options);
  const captureMethod = options.captureMethod ?? 'automatic';

  const createParams = (input: CreatePaymentInput): Stripe.PaymentIntentCreateParams => {
    const metadata: Record<string, string> = {
      payment_id: input.reference.payment_id,
      store_id: input.reference.store_id,
      mode: input.reference.mode,
    };
    if (input.reference.cart_id) metadata.cart_id = input.reference.cart_id;
    if (input.reference.order_id) metadata.order_id = input.reference.order_id;
    const params: Stripe.PaymentIntentCreateParams = {
      amount: input.amount,
      currency: input.currency.toLowerCase(),
      allowed_payment_method_types: ['card'],
      capture_method: captureMethod,
      metadata,
    };
    if (input.email) params.receipt_email = input.email;
    // Without a payment method the intent is left for the storefront to confirm (Stripe.js).
    if (!input.payment_method_id) return params;
    params.payment_method = input.payment_method_id;
    params.confirm = true;
    const returnUrl = input.return_url ?? options.returnUrl;
    if (returnUrl) params.return_url = returnUrl;
    return params;
  };

  const create = async (input: CreatePaymentInput): Promise<Stripe.PaymentIntent> =>
    stripe.paymentIntents.create(createParams(input), { idempotencyKey: input.idempotency_key });

  const webhookSecret = options.webhookSecret;
  return {
    name: STRIPE_PROVIDER_NAME,
    requiresPaymentMethod: false,
    ...(webhookSecret && {
      parseWebhook: ({ raw_body, headers }: PaymentWebhookInput) =>
        parseStripeWebhook(raw_body, headers.get('stripe-signature'), webhookSecret),
    }),

    async createPayment(input) {
      assertAmount(input.amount, 'amount');
      if (input.amount === 0) return { status: 'succeeded', provider_id: null, amount: 0 };
      try {
        return paymentIntentToResult(await create(input));
      } catch (error) {
        if (isStripeError(error, 'StripeCardError')) {
          return {
            status: 'failed',
            provider_id: error.payment_intent?.id ?? null,
            amount: input.amount,
            failure_code: failureCode(error.code, error.decline_code),
            failure_message: error.message,
          };
        }
        if (isStripeError(error, 'StripeInvalidRequestError') && error.param === 'payment_method') {
          throw new CommerceError('parameter_invalid', `payment_method_id is not usable: ${error.message}`, {
            param: 'payment_method_id',
            data: { provider: STRIPE_PROVIDER_NAME, code: error.code ?? null },
          });
        }
        throw toCommerceError(error, 'create the payment');
      }
    },

    async capturePayment(input) {
      assertAmount(input.amount, 'amount');
      try {
        const intent = await stripe.paymentIntents.capture(
          input.provider_id,
          { amount_to_capture: input.amount },
          { idempotencyKey: input.idempotency_key },
        );
        return paymentIntentToResult(intent);
      } catch (error) {
        throw (
          stateError(error, input.provider_id, 'capture') ?? toCommerceError(error, 'capture the payment')
        );
      }
    },

    async cancelPayment(input) {
      try {
        const intent = await stripe.paymentIntents.cancel(
          input.provider_id,
          {},
          { idempotencyKey: input.idempotency_key },
        );
        return paymentIntentToResult(intent);
      } catch (error) {
        throw stateError(error, input.provider_id, 'cancel') ?? toCommerceError(error, 'cancel the payment');
      }
    },

    async refundPayment(input: RefundPaymentInput): Promise<RefundResult> {
      assertAmount(input.amount, 'amount');
      if (input.provider_id === null) {
        return {
          status: 'failed',
          provider_refund_id: null,
          failure_message: 'The payment has no Stripe PaymentIntent to refund',
        };
      }
      const params: Stripe.RefundCreateParams = { payment_intent: input.provider_id, amount: input.amount };
      const metadata = refundMetadata(input);
      if (input.reason && STRIPE_REFUND_REASONS.has(input.reason)) {
        params.reason = input.reason as Stripe.RefundCreateParams.Reason;
      }
      if (Object.keys(metadata).length > 0) params.metadata = metadata;
      try {
        const refund = await stripe.refunds.create(params, { idempotencyKey: input.idempotency_key });
        return refundToResult(refund);
      } catch (error) {
        if (isStripeError(error, 'StripeInvalidRequestError')) {
          return { status: 'failed', provider_refund_id: null, failure_message: error.message };
        }
        throw toCommerceError(error, 'refund the payment');
      }
    },

    async lookupRefund(input: { provider_refund_id: string }): Promise<RefundResult | null> {
      try {
        return refundToResult(await stripe.refunds.retrieve(input.provider_refund_id));
      } catch (error) {
        if (isStripeError(error, 'StripeInvalidRequestError') && error.code === 'resource_missing')
          return null;
        throw toCommerceError(error, 'look the refund up');
      }
    },

    async lookupPayment(input: LookupPaymentInput): Promise<PaymentResult | null> {
      if (input.provider_id) return retrieve(stripe, input.provider_id);
      const original = input.original;
      if (!original) {
        throw new CommerceError(
          'internal_error',
          'stripe lookupPayment needs the provider_id or the original createPayment input',
        );
      }
      if (original.amount === 0) return { status: 'succeeded', provider_id: null, amount: 0 };
      let intentId: string | null;
      try {
        intentId = (await create({ ...original, idempotency_key: input.idempotency_key })).id;
      } catch (error) {
        if (isStripeError(error, 'StripeCardError')) {
          intentId = error.payment_intent?.id ?? null;
          if (intentId === null) {
            return {
              status: 'failed',
              provider_id: null,
              failure_code: failureCode(error.code, error.decline_code),
              failure_message: error.message,
            };
          }
        } else if (isStripeError(error, 'StripeInvalidRequestError')) {
          return null;
        } else {
          throw toCommerceError(error, 'look the payment up');
        }
      }
      return retrieve(stripe, intentId);
    },
  };
}

/** Builds the client: `apiBase` gives protocol, host and port; see the options for retries and timeout. */
export function createStripeClient(options: StripeProviderOptions): Stripe {
  const config: Stripe.StripeConfig = {
    maxNetworkRetries: options.maxNetworkRetries ?? 1,
    timeout: options.timeout ?? 30_000,
    telemetry: false,
    appInfo: { name: 'Cartwright', url: 'https://github.com/cartwright' },
  };
  if (options.apiBase) {
    const base = new URL(options.apiBase);
    if (base.protocol !== 'http:' && base.protocol !== 'https:') {
      throw new CommerceError('parameter_invalid', `STRIPE_API_BASE must be an http(s) URL`, {
        param: 'apiBase',
      });
    }
    config.protocol = base.protocol === 'http:' ? 'http' : 'https';
    config.host = base.hostname;
    config.port = base.port || (base.protocol === 'http:' ? 80 : 443);
  }
  return new Stripe(options.secretKey, config);
}

async function retrieve(stripe: Stripe, id: string): Promise<PaymentResult | null> {
  try {
    return paymentIntentToResult(await stripe.paymentIntents.retrieve(id));
  } catch (error) {
    if (isStripeError(error, 'StripeInvalidRequestError') && error.code === 'resource_missing') return null;
    throw toCommerceError(error, 'look the payment up');
  }
}

/**
 * The metadata of a Stripe Refund: our ids from `reference`, named as `createPayment` names its
 * intent's (`refund_id`, `order_id`, `store_id`, `mode`), so that `refund.updated` /
 * `refund.failed` / `charge.refund.updated` deliveries find the refund; and the merchant's
 * `reason` text (at most 500 characters, Stripe's limit for a metadata value).
 */
export function refundMetadata(
  input: Pick<RefundPaymentInput, 'reason' | 'reference'>,
): Record<string, string> {
  const metadata: Record<string, string> = {};
  if (input.reference) {
    metadata.refund_id = input.reference.refund_id;
    metadata.order_id = input.reference.order_id;
    metadata.store_id = input.reference.store_id;
    metadata.mode = input.reference.mode;
  }
  if (input.reason) metadata.reason = input.reason.slice(0, 500);
  return metadata;
}

/** A Refund as `RefundResult`: its status reduced by `refundStatusOf`, and for a failed or canceled one the reason. */
export function refundToResult(
  refund: Pick<Stripe.Refund, 'id' | 'status' | 'failure_reason'>,
): RefundResult {
  const status = refundStatusOf(refund.status);
  if (status !== 'failed') return { status, provider_refund_id: refund.id };
  return {
    status,
    provider_refund_id: refund.id,
    failure_message:
      refund.failure_reason ?? `The refund ${refund.status === 'failed' ? 'failed' : 'was canceled'}`,
  };
}

/** Capture/cancel of an intent in the wrong state → 409 `invalid_state_transition`; unknown id → 404. */
function stateError(error: unknown, id: string, action: string): CommerceError | null {
  if (!isStripeError(error, 'StripeInvalidRequestError')) return null;
  if (error.code === 'payment_intent_unexpected_state') {
    return new CommerceError('invalid_state_transition', `Stripe cannot ${action} ${id}: ${error.message}`, {
      data: { provider: STRIPE_PROVIDER_NAME },
    });
  }
  if (error.code === 'resource_missing')
    return new CommerceError('not_found', `No such Stripe payment: '${id}'`);
  return null;
}

function assertAmount(amount: number, param: string): void {
  if (!Number.isSafeInteger(amount) || amount < 0) {
    throw new CommerceError('parameter_invalid', `${param} must be a non-negative integer in minor units`, {
      param,
    });
  }
}
