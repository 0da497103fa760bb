import Stripe from 'stripe';
import { afterAll, beforeAll, beforeEach, describe, expect, test } from 'vitest';
import { type FakeStripe, startFakeStripe } from './fake-stripe-server';

const KEY = 'sk_test_fake_4242';

let fake: FakeStripe;

function client(options: { maxNetworkRetries?: number; timeout?: number; key?: string } = {}): Stripe {
  const url = new URL(fake.url);
  return new Stripe(options.key ?? KEY, {
    protocol: 'http',
    host: url.hostname,
    port: url.port,
    maxNetworkRetries: options.maxNetworkRetries ?? 0,
    timeout: options.timeout ?? 5000,
    telemetry: false,
  });
}

/** Runs `fn` and returns the error it throws (failing the test if it does not throw). */
async function rejection(fn: () => Promise<unknown>): Promise<Stripe.errors.StripeError> {
  try {
    await fn();
  } catch (error) {
    return error as Stripe.errors.StripeError;
  }
  throw new Error('expected a rejection');
}

const pay = (stripe: Stripe, payment_method: string, extra: Partial<Stripe.PaymentIntentCreateParams> = {}) =>
  stripe.paymentIntents.create({ amount: 4200, currency: 'usd', payment_method, confirm: true, ...extra });

beforeAll(async () => {
  fake = await startFakeStripe();
});
afterAll(async () => {
  await fake.stop();
});
beforeEach(() => {
  fake.reset();
});

describe('payment intents through the real stripe client', () => {
  test('pm_card_visa, 4200 USD: succeeded pi_… with client_secret, latest_charge and one captured charge', async () => {
    const intent = await pay(client(), 'pm_card_visa', {
      currency: 'USD',
      metadata: { order_id: 'ord_1', mode: 'test' },
    });
    expect(intent).toMatchObject({
      object: 'payment_intent',
      status: 'succeeded',
      amount: 4200,
      amount_received: 4200,
      currency: 'usd',
      payment_method: 'pm_card_visa',
      metadata: { order_id: 'ord_1', mode: 'test' },
      last_payment_error: null,
    });
    expect(intent.id).toMatch(/^pi_[A-Za-z0-9]{24}$/);
    expect(intent.client_secret).toMatch(new RegExp(`^${intent.id}_secret_`));
    expect(intent.latest_charge).toMatch(/^ch_/);
    expect(fake.charges()).toEqual([
      expect.objectContaining({
        id: intent.latest_charge,
        amount: 4200,
        amount_captured: 4200,
        captured: true,
      }),
    ]);
  });

  test('the request is recorded form-decoded: method, path, params, auth header, an idempotency key', async () => {
    await pay(client(), 'pm_card_mastercard', { metadata: { order_id: 'ord_9' } });
    const [request] = fake.requests;
    expect(request).toMatchObject({
      method: 'POST',
      path: '/v1/payment_intents',
      params: {
        amount: '4200',
        currency: 'usd',
        payment_method: 'pm_card_mastercard',
        confirm: 'true',
        metadata: { order_id: 'ord_9' },
      },
      authorization: `Bearer ${KEY}`,
      status: 200,
      outcome: 'answered',
      replayed: false,
    });
    expect(request?.idempotency_key).toMatch(/^stripe-node-retry-/);
  });

  test.each([
    ['pm_card_chargeDeclined', 'card_declined', 'generic_decline', 'Your card was declined.'],
    [
      'pm_card_chargeDeclinedInsufficientFunds',
      'card_declined',
      'insufficient_funds',
      'Your card has insufficient funds.',
    ],
    ['pm_card_chargeDeclinedExpiredCard', 'expired_card', 'expired_card', 'Your card has expired.'],
    [
      'pm_card_chargeDeclinedIncorrectCvc',
      'incorrect_cvc',
      'incorrect_cvc',
      "Your card's security code is incorrect.",
    ],
  ])(
    '%s → 402 card_error %s / %s, intent left in requires_payment_method, no money taken',
    async (pm, code, decline, message) => {
      const error = await rejection(() => pay(client(), pm));
      expect(error.type).toBe('StripeCardError');
      expect(error.statusCode).toBe(402);
      expect(error).toMatchObject({ code, decline_code: decline, message });
      expect(error.payment_intent).toMatchObject({
        status: 'requires_payment_method',
        last_payment_error: { type: 'card_error', code, decline_code: decline, message },
      });
      expect(error.charge).toMatch(/^ch_/);
      expect(fake.charges()).toEqual([]);
      expect(fake.allCharges()).toEqual([expect.objectContaining({ status: 'failed', failure_code: code })]);
    },
  );

  test('an unknown payment method → 400 resource_missing on payment_method, nothing created', async () => {
    const error = await rejection(() => pay(client(), 'pm_nope'));
    expect(error.type).toBe('StripeInvalidRequestError');
    expect(error).toMatchObject({ code: 'resource_missing', param: 'payment_method', statusCode: 400 });
    expect(error.message).toBe("No such PaymentMethod: 'pm_nope'");
    expect(fake.intents()).toEqual([]);
  });

  test('missing amount → parameter_missing; amount=12.5 → parameter_invalid_integer; unknown param → parameter_unknown', async () => {
    const stripe = client();
    const missing = await rejection(() =>
      stripe.paymentIntents.create({ currency: 'usd' } as unknown as Stripe.PaymentIntentCreateParams),
    );
    expect(missing).toMatchObject({ code: 'parameter_missing', param: 'amount' });
    const fractional = await rejection(() => pay(stripe, 'pm_card_visa', { amount: 12.5 }));
    expect(fractional).toMatchObject({ code: 'parameter_invalid_integer', param: 'amount' });
    const unknown = await rejection(() =>
      pay(stripe, 'pm_card_visa', { colour: 'red' } as unknown as Stripe.PaymentIntentCreateParams),
    );
    expect(unknown).toMatchObject({ code: 'parameter_unknown', param: 'colour' });
  });

  test('create without confirm → requires_confirmation; POST …/confirm with a card → succeeded', async () => {
    const stripe = client();
    const created = await stripe.paymentIntents.create({
      amount: 999,
      currency: 'eur',
      payment_method: 'pm_card_visa',
    });
    expect(created.status).toBe('requires_confirmation');
    expect(fake.charges()).toEqual([]);
    const confirmed = await stripe.paymentIntents.confirm(created.id);
    expect(confirmed).toMatchObject({ id: created.id, status: 'succeeded', amount_received: 999 });
    expect(fake.charges()).toHaveLength(1);
    const again = await rejection(() => stripe.paymentIntents.confirm(created.id));
    expect(again).toMatchObject({ code: 'payment_intent_unexpected_state' });
  });

  test('GET /v1/payment_intents/:id returns the current state; an unknown id → 404 resource_missing', async () => {
    const stripe = client();
    const intent = await pay(stripe, 'pm_card_visa');
    expect(await stripe.paymentIntents.retrieve(intent.id)).toMatchObject({
      id: intent.id,
      status: 'succeeded',
    });
    const error = await rejection(() => stripe.paymentIntents.retrieve('pi_missing'));
    expect(error).toMatchObject({ statusCode: 404, code: 'resource_missing' });
  });
});

describe('3-D Secure', () => {
  test('pm_card_authenticationRequired → requires_action with use_stripe_sdk; completeAction succeed takes the money', async () => {
    const stripe = client();
    const intent = await pay(stripe, 'pm_card_authenticationRequired');
    expect(intent.status).toBe('requires_action');
    expect(intent.next_action?.type).toBe('use_stripe_sdk');
    expect(intent.client_secret).toMatch(/_secret_/);
    expect(fake.charges()).toEqual([]);
    fake.completeAction(intent.id, 'succeed');
    expect(await stripe.paymentIntents.retrieve(intent.id)).toMatchObject({
      status: 'succeeded',
      amount_received: 4200,
    });
    expect(fake.charges()).toHaveLength(1);
    expect(fake.events().map((event) => event.type)).toEqual([
      'payment_intent.created',
      'payment_intent.requires_action',
      'payment_intent.succeeded',
    ]);
  });

  test('with a return_url the next action is redirect_to_url back to it', async () => {
    const intent = await pay(client(), 'pm_card_threeDSecure2Required', {
      return_url: 'https://shop.test/back',
    });
    expect(intent.next_action).toMatchObject({
      type: 'redirect_to_url',
      redirect_to_url: { return_url: 'https://shop.test/back', url: `${fake.url}/3ds/${intent.id}` },
    });
  });

  test('completeAction fail → requires_payment_method with payment_intent_authentication_failure, no charge', async () => {
    const stripe = client();
    const intent = await pay(stripe, 'pm_card_authenticationRequired');
    fake.completeAction(intent.id, 'fail');
    const failed = await stripe.paymentIntents.retrieve(intent.id);
    expect(failed.status).toBe('requires_payment_method');
    expect(failed.last_payment_error?.code).toBe('payment_intent_authentication_failure');
    expect(fake.charges()).toEqual([]);
    expect(() => fake.completeAction(intent.id, 'succeed')).toThrow(/not requires_action/);
  });
});

describe('idempotency, as Stripe does it', () => {
  test('same key + same params → the original response replayed (Idempotent-Replayed), one charge', async () => {
    const stripe = client();
    const first = await pay(stripe, 'pm_card_visa', {});
    const a = await stripe.paymentIntents.create(
      { amount: 500, currency: 'usd', payment_method: 'pm_card_visa', confirm: true, metadata: { k: 'v' } },
      { idempotencyKey: 'key-1' },
    );
    const b = await stripe.paymentIntents.create(
      { amount: 500, currency: 'usd', payment_method: 'pm_card_visa', confirm: true, metadata: { k: 'v' } },
      { idempotencyKey: 'key-1' },
    );
    expect(b.id).toBe(a.id);
    expect(b.id).not.toBe(first.id);
    expect(b.lastResponse.headers['idempotent-replayed']).toBe('true');
    expect(fake.charges().filter((charge) => charge.payment_intent === a.id)).toHaveLength(1);
    expect(fake.requests.map((request) => request.replayed)).toEqual([false, false, true]);
  });

  test('same key + different params → 400 idempotency_error; another endpoint → idempotency_error too', async () => {
    const stripe = client();
    await stripe.paymentIntents.create(
      { amount: 500, currency: 'usd', payment_method: 'pm_card_visa', confirm: true },
      { idempotencyKey: 'key-2' },
    );
    const changed = await rejection(() =>
      stripe.paymentIntents.create(
        { amount: 501, currency: 'usd', payment_method: 'pm_card_visa', confirm: true },
        { idempotencyKey: 'key-2' },
      ),
    );
    expect(changed.type).toBe('StripeIdempotencyError');
    expect(changed.message).toMatch(/same parameters/);
    const elsewhere = await rejection(() =>
      stripe.refunds.create({ payment_intent: 'pi_x' }, { idempotencyKey: 'key-2' }),
    );
    expect(elsewhere.type).toBe('StripeIdempotencyError');
    expect(elsewhere.message).toMatch(/same endpoint/);
    expect(fake.charges()).toHaveLength(1);
  });

  test('a decline is replayed too: same key → the same 402 and the same failed intent, one failed charge', async () => {
    const stripe = client();
    const params = { amount: 700, currency: 'usd', payment_method: 'pm_card_chargeDeclined', confirm: true };
    const first = await rejection(() => stripe.paymentIntents.create(params, { idempotencyKey: 'key-3' }));
    const second = await rejection(() => stripe.paymentIntents.create(params, { idempotencyKey: 'key-3' }));
    expect(second.payment_intent?.id).toBe(first.payment_intent?.id);
    expect(second.type).toBe('StripeCardError');
    expect(fake.allCharges()).toHaveLength(1);
  });

  test('a request that failed validation stores nothing: the key can be reused with corrected params', async () => {
    const stripe = client();
    await rejection(() =>
      stripe.paymentIntents.create(
        { amount: 700, currency: 'usd', payment_method: 'pm_nope', confirm: true },
        { idempotencyKey: 'key-4' },
      ),
    );
    const ok = await stripe.paymentIntents.create(
      { amount: 700, currency: 'usd', payment_method: 'pm_card_visa', confirm: true },
      { idempotencyKey: 'key-4' },
    );
    expect(ok.status).toBe('succeeded');
  });

  test('a replay is the snapshot of the first answer, not the current state (3-D Secure completed since)', async () => {
    const stripe = client();
    const params = {
      amount: 800,
      currency: 'usd',
      payment_method: 'pm_card_authenticationRequired',
      confirm: true,
    };
    const first = await stripe.paymentIntents.create(params, { idempotencyKey: 'key-5' });
    fake.completeAction(first.id, 'succeed');
    const replay = await stripe.paymentIntents.create(params, { idempotencyKey: 'key-5' });
    expect(replay.status).toBe('requires_action');
    expect((await stripe.paymentIntents.retrieve(first.id)).status).toBe('succeeded');
  });

  test('keys are scoped to the API key: another secret key with the same idempotency key charges anew', async () => {
    const params = { amount: 900, currency: 'usd', payment_method: 'pm_card_visa', confirm: true };
    const a = await client().paymentIntents.create(params, { idempotencyKey: 'key-6' });
    const b = await client({ key: 'sk_test_other' }).paymentIntents.create(params, {
      idempotencyKey: 'key-6',
    });
    expect(b.id).not.toBe(a.id);
    expect(fake.charges()).toHaveLength(2);
  });
});

describe('capture and cancel', () => {
  test('capture_method manual → requires_capture, charge held; capture 3000 of 4200 → succeeded, 3000 received', async () => {
    const stripe = client();
    const intent = await pay(stripe, 'pm_card_visa', { capture_method: 'manual' });
    expect(intent).toMatchObject({ status: 'requires_capture', amount_capturable: 4200 });
    expect(fake.charges()).toEqual([expect.objectContaining({ captured: false, amount_captured: 0 })]);
    const over = await rejection(() => stripe.paymentIntents.capture(intent.id, { amount_to_capture: 5000 }));
    expect(over).toMatchObject({ code: 'amount_too_large' });
    const captured = await stripe.paymentIntents.capture(intent.id, { amount_to_capture: 3000 });
    expect(captured).toMatchObject({ status: 'succeeded', amount_received: 3000, amount_capturable: 0 });
    expect(fake.charges()).toEqual([expect.objectContaining({ captured: true, amount_captured: 3000 })]);
  });

  test('cancel an authorised intent → canceled and the hold released; cancel a succeeded one → unexpected state', async () => {
    const stripe = client();
    const held = await pay(stripe, 'pm_card_visa', { capture_method: 'manual' });
    const canceled = await stripe.paymentIntents.cancel(held.id, { cancellation_reason: 'abandoned' });
    expect(canceled).toMatchObject({ status: 'canceled', cancellation_reason: 'abandoned' });
    expect(fake.charges()).toEqual([expect.objectContaining({ refunded: true, amount_refunded: 4200 })]);
    const paid = await pay(stripe, 'pm_card_visa');
    const error = await rejection(() => stripe.paymentIntents.cancel(paid.id));
    expect(error).toMatchObject({ statusCode: 400, code: 'payment_intent_unexpected_state' });
  });
});

describe('refunds', () => {
  test('full refund by payment_intent (amount defaults to all) → succeeded re_…; again → charge_already_refunded', async () => {
    const stripe = client();
    const intent = await pay(stripe, 'pm_card_visa');
    const refund = await stripe.refunds.create({ payment_intent: intent.id });
    expect(refund).toMatchObject({
      object: 'refund',
      amount: 4200,
      status: 'succeeded',
      payment_intent: intent.id,
    });
    expect(refund.id).toMatch(/^re_/);
    expect(await stripe.refunds.retrieve(refund.id)).toMatchObject({ id: refund.id, amount: 4200 });
    const again = await rejection(() => stripe.refunds.create({ payment_intent: intent.id, amount: 1 }));
    expect(again).toMatchObject({ code: 'charge_already_refunded', statusCode: 400 });
    expect(fake.charges()).toEqual([expect.objectContaining({ refunded: true, amount_refunded: 4200 })]);
  });

  test('partial 1000 + 2000 of 4200, then 1201 → amount_too_large (1200 remain), then exactly 1200 → refunded', async () => {
    const stripe = client();
    const intent = await pay(stripe, 'pm_card_visa');
    await stripe.refunds.create({ payment_intent: intent.id, amount: 1000 });
    await stripe.refunds.create({ payment_intent: intent.id, amount: 2000, reason: 'requested_by_customer' });
    const over = await rejection(() => stripe.refunds.create({ payment_intent: intent.id, amount: 1201 }));
    expect(over).toMatchObject({ code: 'amount_too_large', param: 'amount' });
    expect(over.message).toBe(
      'Refund amount (12.01 USD) is greater than unrefunded amount on charge (12.00 USD)',
    );
    await stripe.refunds.create({ payment_intent: intent.id, amount: 1200 });
    expect(fake.refunds().map((refund) => refund.amount)).toEqual([1000, 2000, 1200]);
    expect(fake.refunds()[1]?.reason).toBe('requested_by_customer');
  });

  test('pm_card_pendingRefund: refunds come out pending and count in amount_refunded; settle succeeded keeps them, failed gives the amount back, with events', async () => {
    const stripe = client();
    const intent = await pay(stripe, 'pm_card_pendingRefund');
    const a = await stripe.refunds.create({ payment_intent: intent.id, amount: 3000 });
    expect(a).toMatchObject({ status: 'pending', failure_reason: null, amount: 3000 });
    // Pending money is on its way back: only 1200 of 4200 can still be refunded.
    const over = await rejection(() => stripe.refunds.create({ payment_intent: intent.id, amount: 1201 }));
    expect(over).toMatchObject({ code: 'amount_too_large' });
    const b = await stripe.refunds.create({ payment_intent: intent.id, amount: 1200 });
    expect(fake.charges()).toEqual([expect.objectContaining({ amount_refunded: 4200, refunded: true })]);

    expect(fake.settleRefund(a.id, 'succeeded')).toMatchObject({ id: a.id, status: 'succeeded' });
    expect(await stripe.refunds.retrieve(a.id)).toMatchObject({ status: 'succeeded' });
    expect(fake.settleRefund(b.id, 'failed')).toMatchObject({
      status: 'failed',
      failure_reason: 'expired_or_canceled_card',
    });
    expect(fake.charges()).toEqual([expect.objectContaining({ amount_refunded: 3000, refunded: false })]);
    // The failed 1200 can be refunded again.
    expect((await stripe.refunds.create({ payment_intent: intent.id, amount: 1200 })).status).toBe('pending');

    const refundEvents = fake
      .events()
      .filter((e) => e.type.startsWith('refund.') && e.type !== 'refund.created')
      .map((e) => [e.type, e.data.object.id, (e.data.object as { status: string }).status]);
    expect(refundEvents).toEqual([
      ['refund.updated', a.id, 'succeeded'],
      ['refund.updated', b.id, 'failed'],
      ['refund.failed', b.id, 'failed'],
    ]);
    expect(fake.refundWebhookEvent('charge.refund.updated', b.id)).toMatchObject({
      type: 'charge.refund.updated',
      data: { object: { id: b.id, object: 'refund', status: 'failed' } },
    });
    // Only a pending refund can be settled; an ordinary card's refund succeeds at once.
    expect(() => fake.settleRefund(a.id, 'failed')).toThrow(/not pending/);
    const visa = await pay(stripe, 'pm_card_visa');
    expect((await stripe.refunds.create({ payment_intent: visa.id })).status).toBe('succeeded');
  });

  test('a declined intent has no charge to refund; an unknown intent → resource_missing', async () => {
    const stripe = client();
    const declined = await rejection(() => pay(stripe, 'pm_card_chargeDeclined'));
    const error = await rejection(() =>
      stripe.refunds.create({ payment_intent: declined.payment_intent!.id }),
    );
    expect(error.message).toMatch(/does not have a successful charge/);
    const missing = await rejection(() => stripe.refunds.create({ payment_intent: 'pi_missing' }));
    expect(missing).toMatchObject({ code: 'resource_missing', param: 'payment_intent' });
  });
});

describe('authentication and routing', () => {
  test('a non-secret key → 401 (StripeAuthenticationError); with secretKey set only that key passes', async () => {
    const error = await rejection(() => pay(client({ key: 'pk_test_nope' }), 'pm_card_visa'));
    expect(error.type).toBe('StripeAuthenticationError');
    const strict = await startFakeStripe({ secretKey: 'sk_test_only' });
    try {
      const url = new URL(strict.url);
      const make = (key: string) =>
        new Stripe(key, { protocol: 'http', host: url.hostname, port: url.port, maxNetworkRetries: 0 });
      const denied = await rejection(() => pay(make('sk_test_other'), 'pm_card_visa'));
      expect(denied.statusCode).toBe(401);
      expect((await pay(make('sk_test_only'), 'pm_card_visa')).status).toBe('succeeded');
    } finally {
      await strict.stop();
    }
  });

  test('an endpoint the fake does not serve → 404 Unrecognized request URL', async () => {
    const error = await rejection(() => client().customers.create({ email: 'a@example.com' }));
    expect(error.statusCode).toBe(404);
    expect(error.message).toMatch(/^Unrecognized request URL \(POST: \/v1\/customers\)/);
  });
});

describe('network failure modes', () => {
  test('drop-next: charged, socket destroyed; stripe-node retries the reset once with the same key → replay, one charge', async () => {
    fake.setNetworkFailure('drop-next');
    const intent = await pay(client(), 'pm_card_visa');
    expect(intent.status).toBe('succeeded');
    expect(fake.requests.map((r) => [r.outcome, r.replayed])).toEqual([
      ['dropped', false],
      ['answered', true],
    ]);
    expect(fake.requests[0]?.idempotency_key).toBe(fake.requests[1]?.idempotency_key);
    expect(fake.charges()).toHaveLength(1);
  });

  test('drop-all: every answer lost → StripeConnectionError, yet the money was taken once', async () => {
    fake.setNetworkFailure('drop-all');
    const error = await rejection(() => pay(client(), 'pm_card_visa'));
    expect(error.type).toBe('StripeConnectionError');
    expect(fake.charges()).toHaveLength(1);
    expect(fake.requests.every((r) => r.outcome === 'dropped')).toBe(true);
  });

  test('refuse-all: closed before processing → StripeConnectionError and nothing charged', async () => {
    fake.setNetworkFailure('refuse-all');
    const error = await rejection(() => pay(client(), 'pm_card_visa'));
    expect(error.type).toBe('StripeConnectionError');
    expect(fake.charges()).toEqual([]);
    expect(fake.intents()).toEqual([]);
  });

  test('hang-next: processed but never answered → the client times out (StripeConnectionError), one charge', async () => {
    fake.setNetworkFailure('hang-next');
    const error = await rejection(() => pay(client({ timeout: 300 }), 'pm_card_visa'));
    expect(error.type).toBe('StripeConnectionError');
    expect(fake.requests[0]?.outcome).toBe('hung');
    expect(fake.charges()).toHaveLength(1);
  });

  test('error-next: 500 api_error without processing; not stored, so a retry with the key charges once', async () => {
    fake.setNetworkFailure('error-next');
    const stripe = client();
    const params = { amount: 100, currency: 'usd', payment_method: 'pm_card_visa', confirm: true };
    const error = await rejection(() => stripe.paymentIntents.create(params, { idempotencyKey: 'key-e' }));
    expect(error.type).toBe('StripeAPIError');
    expect(fake.charges()).toEqual([]);
    expect((await stripe.paymentIntents.create(params, { idempotencyKey: 'key-e' })).status).toBe(
      'succeeded',
    );
    expect(fake.charges()).toHaveLength(1);
  });
});
