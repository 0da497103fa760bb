import { randomBytes } from 'node:crypto';
import { docUrl, FakeStripeError, invalidRequest, noSuch } from './fake-stripe-error';
import {
  optionalBoolean,
  optionalEnum,
  optionalMetadata,
  optionalPositiveInteger,
  optionalString,
  optionalStringArray,
  rejectUnknown,
  requiredPositiveInteger,
  requiredString,
} from './fake-stripe-params';
import type { FakeCharge, FakeEvent, FakePaymentIntent, FakeRefund } from './fake-stripe-types';
import type { FormObject } from './form-encoding';
import { TEST_PAYMENT_METHODS, type TestPaymentMethod } from './test-payment-methods';

/** The API version the fake stamps on its events (the one stripe-node v23 pins). */
export const FAKE_API_VERSION = '2026-10-28.endive';

const ALPHABET = 'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789';

/** A Stripe-looking id: prefix + 24 random base-62 characters (`pi_3Pq…`). */
export function fakeId(prefix: string): string {
  const bytes = randomBytes(24);
  let id = '';
  for (const byte of bytes) id += ALPHABET[byte % ALPHABET.length];
  return `${prefix}_${id}`;
}

const CREATE_PARAMS = [
  'amount',
  'currency',
  'payment_method',
  'confirm',
  'capture_method',
  'metadata',
  'payment_method_types',
  'allowed_payment_method_types',
  'automatic_payment_methods',
  'receipt_email',
  'return_url',
  'description',
  'statement_descriptor_suffix',
  'expand',
] as const;

const AUTH_FAILURE =
  'The provided PaymentMethod has failed authentication. You can provide payment_method_data or a new ' +
  'PaymentMethod to attempt to fulfill this PaymentIntent again.';

const CANCELABLE = new Set([
  'requires_payment_method',
  'requires_confirmation',
  'requires_action',
  'requires_capture',
  'processing',
]);

/**
 * The fake's state and rules: PaymentIntents, their Charges, Refunds and the Events they cause.
 * Each method is one endpoint; it returns the response object or throws a `FakeStripeError`
 * (Stripe's status and error body). Objects handed out are copies, so a stored idempotent
 * response stays the snapshot it was, as at Stripe.
 */
export class FakeStripeLedger {
  private readonly intentsById = new Map<string, FakePaymentIntent>();
  private readonly chargesById = new Map<string, FakeCharge>();
  private readonly refundsById = new Map<string, FakeRefund>();
  private readonly eventLog: FakeEvent[] = [];

  constructor(
    private readonly now: () => number,
    private readonly baseUrl: () => string,
  ) {}

  /** POST /v1/payment_intents — creates, and with `confirm=true` confirms, a PaymentIntent. */
  createPaymentIntent(params: FormObject): FakePaymentIntent {
    rejectUnknown(params, CREATE_PARAMS);
    const amount = requiredPositiveInteger(params, 'amount');
    const currency = requiredString(params, 'currency');
    if (!/^[a-zA-Z]{3}$/.test(currency)) {
      throw invalidRequest(`Invalid currency: ${currency}.`, {
        code: 'parameter_invalid_string',
        param: 'currency',
      });
    }
    const payment_method = optionalString(params, 'payment_method') ?? null;
    const confirm = optionalBoolean(params, 'confirm') ?? false;
    const capture_method =
      optionalEnum(params, 'capture_method', ['automatic', 'automatic_async', 'manual'] as const) ??
      'automatic_async';
    const metadata = optionalMetadata(params);
    const return_url = optionalString(params, 'return_url') ?? null;
    if (return_url !== null && !confirm) {
      throw invalidRequest('You can only pass return_url when confirm=true.', { param: 'return_url' });
    }
    const typesParam =
      params.allowed_payment_method_types === undefined
        ? 'payment_method_types'
        : 'allowed_payment_method_types';
    const methodTypes = optionalStringArray(params, typesParam);
    if (methodTypes?.some((type) => type !== 'card')) {
      throw invalidRequest('The fake Stripe supports only the card payment method type.', {
        code: 'payment_intent_invalid_parameter',
        param: typesParam,
      });
    }
    if (confirm && payment_method === null) {
      throw invalidRequest(
        "You cannot confirm this PaymentIntent because it's missing a payment method. To confirm the " +
          'PaymentIntent, pass a payment method.',
        { code: 'payment_intent_unexpected_state' },
      );
    }
    const card = payment_method === null ? null : this.paymentMethod(payment_method, 'payment_method');
    const id = fakeId('pi');
    const intent: FakePaymentIntent = {
      id,
      object: 'payment_intent',
      amount,
      amount_capturable: 0,
      amount_received: 0,
      currency: currency.toLowerCase(),
      status: payment_method === null ? 'requires_payment_method' : 'requires_confirmation',
      capture_method,
      confirmation_method: 'automatic',
      client_secret: `${id}_secret_${fakeId('s').slice(2)}`,
      created: this.seconds(),
      livemode: false,
      metadata,
      payment_method,
      payment_method_types: methodTypes ?? ['card'],
      allowed_payment_method_types: methodTypes ?? null,
      receipt_email: optionalString(params, 'receipt_email') ?? null,
      description: optionalString(params, 'description') ?? null,
      return_url,
      last_payment_error: null,
      latest_charge: null,
      next_action: null,
      canceled_at: null,
      cancellation_reason: null,
      customer: null,
    };
    this.intentsById.set(id, intent);
    this.emit('payment_intent.created', intent);
    if (confirm && card !== null) this.confirm(intent, card);
    return copy(intent);
  }

  /** GET /v1/payment_intents/:id */
  retrievePaymentIntent(id: string): FakePaymentIntent {
    return copy(this.intent(id));
  }

  /** POST /v1/payment_intents/:id/confirm — optionally with a new `payment_method`. */
  confirmPaymentIntent(id: string, params: FormObject): FakePaymentIntent {
    rejectUnknown(params, ['payment_method', 'return_url', 'expand']);
    const intent = this.intent(id);
    if (!['requires_payment_method', 'requires_confirmation', 'requires_action'].includes(intent.status)) {
      throw unexpectedState('confirm', intent);
    }
    const payment_method = optionalString(params, 'payment_method') ?? intent.payment_method;
    if (payment_method === null) {
      throw invalidRequest("You cannot confirm this PaymentIntent because it's missing a payment method.", {
        code: 'payment_intent_unexpected_state',
      });
    }
    const card = this.paymentMethod(payment_method, 'payment_method');
    intent.payment_method = payment_method;
    const return_url = optionalString(params, 'return_url');
    if (return_url !== undefined) intent.return_url = return_url;
    this.confirm(intent, card);
    return copy(intent);
  }

  /** POST /v1/payment_intents/:id/capture — `amount_to_capture` defaults to all that is capturable. */
  capturePaymentIntent(id: string, params: FormObject): FakePaymentIntent {
    rejectUnknown(params, ['amount_to_capture', 'metadata', 'expand']);
    const intent = this.intent(id);
    if (intent.status !== 'requires_capture') throw unexpectedState('capture', intent);
    const amount = optionalPositiveInteger(params, 'amount_to_capture') ?? intent.amount_capturable;
    if (amount > intent.amount_capturable) {
      throw invalidRequest(
        `The amount_to_capture (${amount}) is greater than the amount capturable (${intent.amount_capturable}).`,
        { code: 'amount_too_large', param: 'amount_to_capture' },
      );
    }
    const charge = this.charge(intent.latest_charge!);
    charge.captured = true;
    charge.amount_captured = amount;
    intent.amount_received = amount;
    intent.amount_capturable = 0;
    intent.status = 'succeeded';
    Object.assign(intent.metadata, optionalMetadata(params));
    this.emit('payment_intent.succeeded', intent);
    return copy(intent);
  }

  /** POST /v1/payment_intents/:id/cancel — releases an uncaptured authorisation. */
  cancelPaymentIntent(id: string, params: FormObject): FakePaymentIntent {
    rejectUnknown(params, ['cancellation_reason', 'expand']);
    const intent = this.intent(id);
    if (!CANCELABLE.has(intent.status)) throw unexpectedState('cancel', intent);
    const reason = optionalEnum(params, 'cancellation_reason', [
      'duplicate',
      'fraudulent',
      'requested_by_customer',
      'abandoned',
    ] as const);
    if (intent.status === 'requires_capture' && intent.latest_charge !== null) {
      const charge = this.charge(intent.latest_charge);
      charge.amount_refunded = charge.amount;
      charge.refunded = true;
    }
    intent.status = 'canceled';
    intent.amount_capturable = 0;
    intent.next_action = null;
    intent.canceled_at = this.seconds();
    intent.cancellation_reason = reason ?? null;
    this.emit('payment_intent.canceled', intent);
    return copy(intent);
  }

  /**
   * POST /v1/refunds — by `payment_intent` or `charge`; `amount` defaults to what remains. The
   * refund is `succeeded`, or `pending` for a charge whose payment method refunds asynchronously
   * (`pm_card_pendingRefund`). Either way its amount counts in the charge's `amount_refunded` at
   * once (as at Stripe: a pending refund's money is on its way back and cannot be refunded twice).
   */
  createRefund(params: FormObject): FakeRefund {
    rejectUnknown(params, ['payment_intent', 'charge', 'amount', 'reason', 'metadata', 'expand']);
    const intentId = optionalString(params, 'payment_intent');
    const chargeId = optionalString(params, 'charge');
    if (intentId === undefined && chargeId === undefined) {
      throw invalidRequest(
        'One of the following params should be provided for this request: payment_intent or charge.',
        {
          code: 'parameter_missing',
        },
      );
    }
    let charge: FakeCharge;
    if (chargeId !== undefined) {
      const found = this.chargesById.get(chargeId);
      if (!found) throw noSuch('charge', chargeId, 'charge');
      charge = found;
    } else {
      const intent = this.intentsById.get(intentId!);
      if (!intent) throw noSuch('payment_intent', intentId!, 'payment_intent');
      const latest = intent.latest_charge === null ? undefined : this.chargesById.get(intent.latest_charge);
      if (latest?.status !== 'succeeded' || !latest.captured) {
        throw invalidRequest(
          `This PaymentIntent (${intent.id}) does not have a successful charge to refund.`,
          {
            param: 'payment_intent',
          },
        );
      }
      charge = latest;
    }
    if (charge.refunded || charge.amount_refunded >= charge.amount_captured) {
      throw invalidRequest(`Charge ${charge.id} has already been refunded.`, {
        code: 'charge_already_refunded',
      });
    }
    const remaining = charge.amount_captured - charge.amount_refunded;
    const amount = optionalPositiveInteger(params, 'amount') ?? remaining;
    if (amount > remaining) {
      throw invalidRequest(
        `Refund amount (${money(amount, charge.currency)}) is greater than unrefunded amount on charge ` +
          `(${money(remaining, charge.currency)})`,
        { code: 'amount_too_large', param: 'amount' },
      );
    }
    const reason = optionalEnum(params, 'reason', [
      'duplicate',
      'fraudulent',
      'requested_by_customer',
    ] as const);
    const refund: FakeRefund = {
      id: fakeId('re'),
      object: 'refund',
      amount,
      charge: charge.id,
      payment_intent: charge.payment_intent,
      currency: charge.currency,
      status:
        TEST_PAYMENT_METHODS.get(charge.payment_method)?.refunds === 'pending' ? 'pending' : 'succeeded',
      failure_reason: null,
      reason: reason ?? null,
      metadata: optionalMetadata(params),
      created: this.seconds(),
    };
    charge.amount_refunded += amount;
    charge.refunded = charge.amount_refunded === charge.amount_captured;
    this.refundsById.set(refund.id, refund);
    this.emit('refund.created', refund);
    this.emit('charge.refunded', charge);
    return copy(refund);
  }

  /**
   * Finishes a `pending` refund, as Stripe does when the payment method's network answers
   * (test helper, no endpoint): `succeeded` keeps its amount in the charge's `amount_refunded`;
   * `failed` gives it back (`amount_refunded` drops, `refunded` false) with `failure_reason`
   * (default `expired_or_canceled_card`). Emits `refund.updated`, and `refund.failed` on failure.
   */
  settleRefund(
    id: string,
    outcome: 'succeeded' | 'failed',
    failureReason = 'expired_or_canceled_card',
  ): FakeRefund {
    const refund = this.refundsById.get(id);
    if (!refund) throw new Error(`settleRefund: no such refund ${id}`);
    if (refund.status !== 'pending') throw new Error(`settleRefund: ${id} is ${refund.status}, not pending`);
    refund.status = outcome;
    if (outcome === 'failed') {
      refund.failure_reason = failureReason;
      const charge = this.charge(refund.charge);
      charge.amount_refunded -= refund.amount;
      charge.refunded = charge.amount_refunded === charge.amount_captured;
    }
    this.emit('refund.updated', refund);
    if (outcome === 'failed') this.emit('refund.failed', refund);
    return copy(refund);
  }

  /** An event about the current state of a refund, as Stripe would deliver it to a webhook. */
  eventForRefund(type: string, refundId: string): FakeEvent {
    const refund = this.refundsById.get(refundId);
    if (!refund) throw noSuch('refund', refundId);
    return this.makeEvent(type, refund);
  }

  /** GET /v1/refunds/:id */
  retrieveRefund(id: string): FakeRefund {
    const refund = this.refundsById.get(id);
    if (!refund) throw noSuch('refund', id);
    return copy(refund);
  }

  /** GET /v1/charges/:id */
  retrieveCharge(id: string): FakeCharge {
    const charge = this.chargesById.get(id);
    if (!charge) throw noSuch('charge', id);
    return copy(charge);
  }

  /**
   * Finishes the customer's 3-D Secure step of an intent in `requires_action`: `succeed` takes
   * the money (or authorises it, for manual capture); `fail` leaves the intent in
   * `requires_payment_method` with `payment_intent_authentication_failure`.
   */
  completeAction(id: string, outcome: 'succeed' | 'fail'): FakePaymentIntent {
    const intent = this.intent(id);
    if (intent.status !== 'requires_action') {
      throw new Error(`completeAction: ${id} is ${intent.status}, not requires_action`);
    }
    intent.next_action = null;
    if (outcome === 'succeed') {
      this.takeMoney(intent, this.paymentMethod(intent.payment_method!, 'payment_method'));
    } else {
      intent.status = 'requires_payment_method';
      intent.last_payment_error = {
        type: 'invalid_request_error',
        code: 'payment_intent_authentication_failure',
        message: AUTH_FAILURE,
        doc_url: docUrl('payment_intent_authentication_failure'),
        payment_method: { id: intent.payment_method!, object: 'payment_method', type: 'card' },
      };
      this.emit('payment_intent.payment_failed', intent);
    }
    return copy(intent);
  }

  /** Successful charges (money taken, or held for manual capture), oldest first. */
  charges(): FakeCharge[] {
    return [...this.chargesById.values()].filter((charge) => charge.status === 'succeeded').map(copy);
  }

  /** Every charge, declined ones included, oldest first. */
  allCharges(): FakeCharge[] {
    return [...this.chargesById.values()].map(copy);
  }

  refunds(): FakeRefund[] {
    return [...this.refundsById.values()].map(copy);
  }

  intents(): FakePaymentIntent[] {
    return [...this.intentsById.values()].map(copy);
  }

  events(): FakeEvent[] {
    return this.eventLog.map(copy);
  }

  /** An event about the current state of an intent, as Stripe would deliver it to a webhook. */
  eventFor(type: string, intentId: string): FakeEvent {
    return this.makeEvent(type, this.intent(intentId));
  }

  reset(): void {
    this.intentsById.clear();
    this.chargesById.clear();
    this.refundsById.clear();
    this.eventLog.length = 0;
  }

  private confirm(intent: FakePaymentIntent, card: TestPaymentMethod): void {
    intent.last_payment_error = null;
    intent.next_action = null;
    const behaviour = card.behaviour;
    if (behaviour.outcome === 'succeed') {
      this.takeMoney(intent, card);
      return;
    }
    if (behaviour.outcome === 'authenticate') {
      const url = `${this.baseUrl()}/3ds/${intent.id}`;
      intent.status = 'requires_action';
      intent.next_action =
        intent.return_url === null
          ? {
              type: 'use_stripe_sdk',
              use_stripe_sdk: { type: 'three_d_secure_redirect', stripe_js: url, source: fakeId('src') },
            }
          : { type: 'redirect_to_url', redirect_to_url: { url, return_url: intent.return_url } };
      this.emit('payment_intent.requires_action', intent);
      return;
    }
    const charge = this.newCharge(intent, card, 'failed');
    charge.failure_code = behaviour.code;
    charge.failure_message = behaviour.message;
    intent.status = 'requires_payment_method';
    intent.latest_charge = charge.id;
    intent.last_payment_error = {
      type: 'card_error',
      code: behaviour.code,
      decline_code: behaviour.decline_code,
      message: behaviour.message,
      charge: charge.id,
      doc_url: docUrl(behaviour.code),
      payment_method: { id: card.id, object: 'payment_method', type: 'card' },
      ...(behaviour.param === undefined ? {} : { param: behaviour.param }),
    };
    this.emit('payment_intent.payment_failed', intent);
    throw new FakeStripeError(402, {
      type: 'card_error',
      code: behaviour.code,
      decline_code: behaviour.decline_code,
      message: behaviour.message,
      doc_url: docUrl(behaviour.code),
      charge: charge.id,
      payment_intent: copy(intent),
      ...(behaviour.param === undefined ? {} : { param: behaviour.param }),
    });
  }

  private takeMoney(intent: FakePaymentIntent, card: TestPaymentMethod): void {
    const charge = this.newCharge(intent, card, 'succeeded');
    intent.latest_charge = charge.id;
    if (intent.capture_method === 'manual') {
      intent.status = 'requires_capture';
      intent.amount_capturable = intent.amount;
      this.emit('payment_intent.amount_capturable_updated', intent);
    } else {
      charge.captured = true;
      charge.amount_captured = intent.amount;
      intent.status = 'succeeded';
      intent.amount_received = intent.amount;
      this.emit('payment_intent.succeeded', intent);
    }
  }

  private newCharge(
    intent: FakePaymentIntent,
    card: TestPaymentMethod,
    status: 'succeeded' | 'failed',
  ): FakeCharge {
    const charge: FakeCharge = {
      id: fakeId('ch'),
      object: 'charge',
      amount: intent.amount,
      amount_captured: 0,
      amount_refunded: 0,
      captured: false,
      refunded: false,
      paid: status === 'succeeded',
      status,
      currency: intent.currency,
      payment_intent: intent.id,
      payment_method: card.id,
      failure_code: null,
      failure_message: null,
      metadata: { ...intent.metadata },
      created: this.seconds(),
      livemode: false,
    };
    this.chargesById.set(charge.id, charge);
    return charge;
  }

  private intent(id: string): FakePaymentIntent {
    const intent = this.intentsById.get(id);
    if (!intent) throw noSuch('payment_intent', id, 'intent');
    return intent;
  }

  private charge(id: string): FakeCharge {
    const charge = this.chargesById.get(id);
    if (!charge) throw noSuch('charge', id);
    return charge;
  }

  private paymentMethod(id: string, param: string): TestPaymentMethod {
    const card = TEST_PAYMENT_METHODS.get(id);
    if (!card) {
      throw new FakeStripeError(400, {
        type: 'invalid_request_error',
        code: 'resource_missing',
        doc_url: docUrl('resource_missing'),
        message: `No such PaymentMethod: '${id}'`,
        param,
      });
    }
    return card;
  }

  private emit(type: string, object: FakePaymentIntent | FakeCharge | FakeRefund): void {
    this.eventLog.push(this.makeEvent(type, object));
  }

  private makeEvent(type: string, object: FakePaymentIntent | FakeCharge | FakeRefund): FakeEvent {
    return {
      id: fakeId('evt'),
      object: 'event',
      api_version: FAKE_API_VERSION,
      created: this.seconds(),
      type,
      livemode: false,
      pending_webhooks: 1,
      request: { id: null, idempotency_key: null },
      data: { object: copy(object) },
    };
  }

  private seconds(): number {
    return Math.floor(this.now() / 1000);
  }
}

function unexpectedState(action: string, intent: FakePaymentIntent): FakeStripeError {
  return new FakeStripeError(400, {
    type: 'invalid_request_error',
    code: 'payment_intent_unexpected_state',
    doc_url: docUrl('payment_intent_unexpected_state'),
    message: `This PaymentIntent's ${action} could not be performed because it has a status of ${intent.status}.`,
    payment_intent: copy(intent),
  });
}

/** `1050 usd` → `$10.50`-style text for messages (two decimals; the fake does not know exponents). */
function money(amount: number, currency: string): string {
  const major = Math.trunc(amount / 100);
  const minor = String(amount % 100).padStart(2, '0');
  return `${major}.${minor} ${currency.toUpperCase()}`;
}

function copy<T>(value: T): T {
  return structuredClone(value);
}
