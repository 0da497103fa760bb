import type { FormObject } from './form-encoding';

/** PaymentIntent statuses, as Stripe names them. */
export type FakeIntentStatus =
  | 'requires_payment_method'
  | 'requires_confirmation'
  | 'requires_action'
  | 'processing'
  | 'requires_capture'
  | 'canceled'
  | 'succeeded';

/** The error a failed confirmation leaves on its PaymentIntent (`last_payment_error`). */
export interface FakePaymentError {
  type: 'card_error' | 'invalid_request_error';
  code: string;
  decline_code?: string;
  message: string;
  param?: string;
  charge?: string;
  doc_url: string;
  payment_method: { id: string; object: 'payment_method'; type: 'card' } | null;
}

/** What the customer must do next (3-D Secure), as Stripe's `next_action`. */
export type FakeNextAction =
  | {
      type: 'use_stripe_sdk';
      use_stripe_sdk: { type: 'three_d_secure_redirect'; stripe_js: string; source: string };
    }
  | { type: 'redirect_to_url'; redirect_to_url: { url: string; return_url: string } };

/** The PaymentIntent object, with the fields the provider and the client read. */
export interface FakePaymentIntent {
  id: string;
  object: 'payment_intent';
  amount: number;
  amount_capturable: number;
  amount_received: number;
  currency: string;
  status: FakeIntentStatus;
  capture_method: 'automatic' | 'automatic_async' | 'manual';
  confirmation_method: 'automatic';
  client_secret: string;
  created: number;
  livemode: false;
  metadata: Record<string, string>;
  payment_method: string | null;
  payment_method_types: string[];
  allowed_payment_method_types: string[] | null;
  receipt_email: string | null;
  description: string | null;
  return_url: string | null;
  last_payment_error: FakePaymentError | null;
  latest_charge: string | null;
  next_action: FakeNextAction | null;
  canceled_at: number | null;
  cancellation_reason: string | null;
  customer: null;
}

/** A Charge: one attempt to move money for a PaymentIntent. */
export interface FakeCharge {
  id: string;
  object: 'charge';
  amount: number;
  amount_captured: number;
  amount_refunded: number;
  captured: boolean;
  refunded: boolean;
  paid: boolean;
  status: 'succeeded' | 'failed';
  currency: string;
  payment_intent: string;
  payment_method: string;
  failure_code: string | null;
  failure_message: string | null;
  metadata: Record<string, string>;
  created: number;
  livemode: false;
}

/** A Refund's status in the fake (Stripe's also has `requires_action` and `canceled`). */
export type FakeRefundStatus = 'pending' | 'succeeded' | 'failed';

/**
 * A Refund of (part of) a captured charge. Test-mode refunds succeed at once, except refunds of
 * charges made with a payment method that refunds asynchronously (`pm_card_pendingRefund`):
 * those stay `pending` until the test settles them (`FakeStripe.settleRefund`).
 */
export interface FakeRefund {
  id: string;
  object: 'refund';
  amount: number;
  charge: string;
  payment_intent: string;
  currency: string;
  status: FakeRefundStatus;
  /** Why a refund failed (Stripe's codes, e.g. `expired_or_canceled_card`); null otherwise. */
  failure_reason: string | null;
  reason: 'duplicate' | 'fraudulent' | 'requested_by_customer' | null;
  metadata: Record<string, string>;
  created: number;
}

/** A Stripe Event (the body of a webhook delivery) about one object. */
export interface FakeEvent {
  id: string;
  object: 'event';
  api_version: string;
  created: number;
  type: string;
  livemode: false;
  pending_webhooks: number;
  request: { id: string | null; idempotency_key: string | null };
  data: { object: FakePaymentIntent | FakeCharge | FakeRefund };
}

/** Stripe's error body: `{ error: { type, code, decline_code, message, param, … } }`. */
export interface FakeErrorBody {
  type: 'card_error' | 'invalid_request_error' | 'idempotency_error' | 'api_error';
  message: string;
  code?: string;
  decline_code?: string;
  param?: string;
  doc_url?: string;
  charge?: string;
  payment_intent?: FakePaymentIntent;
  request_log_url?: string;
}

/** How the fake answers, or fails to answer, the next requests (see `setNetworkFailure`). */
export type NetworkFailureMode =
  /** Answer normally. */
  | 'none'
  /** Process the next request (charge included), then destroy the socket without answering. */
  | 'drop-next'
  /** As `drop-next`, for every request until the mode is reset. */
  | 'drop-all'
  /** Destroy the socket of the next request before processing it: nothing happens. */
  | 'refuse-next'
  /** As `refuse-next`, for every request until the mode is reset. */
  | 'refuse-all'
  /** Process the next request, then never answer (the client times out). */
  | 'hang-next'
  /** Answer the next request 500 `api_error` without processing it. */
  | 'error-next';

/** What became of a request on the wire. */
export type RequestOutcome = 'answered' | 'dropped' | 'refused' | 'hung';

/** One request the fake received, for tests to assert on. */
export interface RecordedRequest {
  method: string;
  /** The path without the query string, e.g. `/v1/payment_intents`. */
  path: string;
  /** The form body (POST) or query string (GET), decoded with bracket notation. */
  params: FormObject;
  idempotency_key: string | null;
  /** The raw `Authorization` header (`Bearer sk_test_…`). */
  authorization: string | null;
  stripe_version: string | null;
  /** The HTTP status answered; `null` when the request was dropped, refused or hung. */
  status: number | null;
  outcome: RequestOutcome;
  /** Whether the answer replayed a stored idempotent response. */
  replayed: boolean;
  received_at: number;
}
