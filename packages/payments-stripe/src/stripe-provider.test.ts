import { CommerceError } from '@cartwright/core';
import type { CreatePaymentInput, PaymentProvider } from '@cartwright/core/providers';
import { afterAll, beforeAll, beforeEach, describe, expect, test } from 'vitest';
import { type FakeStripe, startFakeStripe } from './fake-stripe';
import { createStripeClient, type StripeProviderOptions, stripeProvider } from './stripe-provider';

let fake: FakeStripe;

beforeAll(async () => {
  fake = await startFakeStripe();
});
afterAll(async () => {
  await fake.stop();
});
beforeEach(() => {
  fake.reset();
});

function provider(options: Partial<StripeProviderOptions> = {}): PaymentProvider {
  return stripeProvider({ secretKey: 'sk_test_cartwright', apiBase: fake.url, timeout: 5000, ...options });
}

let counter = 0;
function input(overrides: Partial<CreatePaymentInput> = {}): CreatePaymentInput {
  counter += 1;
  return {
    amount: 4200,
    currency: 'USD',
    idempotency_key: `checkout_cart_${counter}`,
    payment_method_id: 'pm_card_visa',
    reference: {
      payment_id: `pay_${counter}`,
      cart_id: `cart_${counter}`,
      order_id: `ord_${counter}`,
      store_id: 'store_1',
      mode: 'test',
    },
    email: 'buyer@example.com',
    ...overrides,
  };
}

/** The CommerceError a call rejects with (fails the test if it resolves or throws something else). */
async function commerceError(promise: Promise<unknown>): Promise<CommerceError> {
  try {
    await promise;
  } catch (error) {
    if (CommerceError.is(error)) return error;
    throw error;
  }
  throw new Error('expected a CommerceError');
}

const creates = () => fake.requests.filter((r) => r.method === 'POST' && r.path === '/v1/payment_intents');

describe('stripeProvider: identity', () => {
  test("named 'stripe', needs no payment method (without one the storefront confirms in the browser)", () => {
    expect(provider()).toMatchObject({ name: 'stripe', requiresPaymentMethod: false });
  });

  test('apiBase must be http(s): ftp://x → parameter_invalid', () => {
    expect(() => createStripeClient({ secretKey: 'sk_test_x', apiBase: 'ftp://x' })).toThrow(/http\(s\)/);
  });
});

describe('createPayment', () => {
  test('pm_card_visa, 4200 USD → succeeded; sends amount, lower-case currency, confirm, card, metadata, key', async () => {
    const payment = input();
    const result = await provider().createPayment(payment);
    expect(result).toMatchObject({ status: 'succeeded', amount: 4200 });
    expect(result.provider_id).toMatch(/^pi_/);
    const [request] = creates();
    expect(request).toMatchObject({
      idempotency_key: payment.idempotency_key,
      authorization: 'Bearer sk_test_cartwright',
      params: {
        amount: '4200',
        currency: 'usd',
        payment_method: 'pm_card_visa',
        confirm: 'true',
        capture_method: 'automatic',
        allowed_payment_method_types: ['card'],
        receipt_email: 'buyer@example.com',
        metadata: {
          payment_id: payment.reference.payment_id,
          cart_id: payment.reference.cart_id,
          order_id: payment.reference.order_id,
          store_id: 'store_1',
          mode: 'test',
        },
      },
    });
    expect(fake.charges()).toEqual([
      expect.objectContaining({
        payment_intent: result.provider_id,
        amount: 4200,
        currency: 'usd',
        captured: true,
      }),
    ]);
  });

  test('null cart/order ids are left out of metadata; no e-mail → no receipt_email', async () => {
    await provider().createPayment(
      input({
        email: null,
        reference: { payment_id: 'pay_x', cart_id: null, order_id: null, store_id: 's', mode: 'live' },
      }),
    );
    expect(creates()[0]?.params.metadata).toEqual({ payment_id: 'pay_x', store_id: 's', mode: 'live' });
    expect(creates()[0]?.params).not.toHaveProperty('receipt_email');
  });

  test('pm_card_mastercard, 1999 EUR → succeeded for 1999 eur', async () => {
    const result = await provider().createPayment(
      input({ payment_method_id: 'pm_card_mastercard', amount: 1999, currency: 'EUR' }),
    );
    expect(result.status).toBe('succeeded');
    expect(fake.charges()[0]).toMatchObject({ amount: 1999, currency: 'eur' });
  });

  test.each([
    ['pm_card_chargeDeclined', 'card_declined', 'Your card was declined.'],
    ['pm_card_chargeDeclinedInsufficientFunds', 'insufficient_funds', 'Your card has insufficient funds.'],
    ['pm_card_chargeDeclinedLostCard', 'lost_card', 'Your card was declined.'],
    ['pm_card_chargeDeclinedStolenCard', 'stolen_card', 'Your card was declined.'],
    ['pm_card_chargeDeclinedFraudulent', 'fraudulent', 'Your card was declined.'],
    ['pm_card_chargeDeclinedExpiredCard', 'expired_card', 'Your card has expired.'],
    ['pm_card_chargeDeclinedIncorrectCvc', 'incorrect_cvc', "Your card's security code is incorrect."],
    [
      'pm_card_chargeDeclinedProcessingError',
      'processing_error',
      'An error occurred while processing your card. Try again in a little bit.',
    ],
  ])(
    '%s → failed, failure_code %s, the decline message, the intent id kept; no money taken',
    async (pm, code, message) => {
      const result = await provider().createPayment(input({ payment_method_id: pm }));
      expect(result).toMatchObject({ status: 'failed', failure_code: code, failure_message: message });
      expect(result.provider_id).toMatch(/^pi_/);
      expect(fake.charges()).toEqual([]);
    },
  );

  test('pm_card_authenticationRequired → requires_action with the client_secret; no money yet', async () => {
    const result = await provider().createPayment(
      input({ payment_method_id: 'pm_card_authenticationRequired' }),
    );
    expect(result.status).toBe('requires_action');
    expect(result.client_secret).toBe(fake.intent(result.provider_id!).client_secret);
    expect(fake.charges()).toEqual([]);
  });

  test('return_url from the input, else from the options, is sent for redirect-based 3-D Secure', async () => {
    await provider({ returnUrl: 'https://shop.test/default' }).createPayment(input());
    await provider({ returnUrl: 'https://shop.test/default' }).createPayment(
      input({ return_url: 'https://shop.test/mine' }),
    );
    expect(creates().map((r) => r.params.return_url)).toEqual([
      'https://shop.test/default',
      'https://shop.test/mine',
    ]);
  });

  test('an unknown payment method → 400 parameter_invalid on payment_method_id', async () => {
    const error = await commerceError(provider().createPayment(input({ payment_method_id: 'pm_unknown' })));
    expect(error).toMatchObject({ code: 'parameter_invalid', param: 'payment_method_id' });
  });

  test('42.5 → parameter_invalid on amount; nothing sent', async () => {
    const fractional = await commerceError(provider().createPayment(input({ amount: 42.5 })));
    expect(fractional).toMatchObject({ code: 'parameter_invalid', param: 'amount' });
    expect(fake.requests).toEqual([]);
  });

  test('no payment_method_id → an unconfirmed intent for the amount, awaiting_payment with its client_secret; the browser confirms it', async () => {
    const payment = input({ payment_method_id: undefined, return_url: 'https://shop.test/back' });
    const result = await provider({ returnUrl: 'https://shop.test/default' }).createPayment(payment);
    const intent = fake.intent(result.provider_id!);
    expect(result).toEqual({
      status: 'awaiting_payment',
      provider_id: intent.id,
      amount: 4200,
      client_secret: intent.client_secret,
    });
    expect(intent).toMatchObject({ status: 'requires_payment_method', amount: 4200, currency: 'usd' });
    const [request] = creates();
    expect(request?.idempotency_key).toBe(payment.idempotency_key);
    expect(request?.params).toMatchObject({
      amount: '4200',
      currency: 'usd',
      allowed_payment_method_types: ['card'],
      metadata: { payment_id: payment.reference.payment_id, order_id: payment.reference.order_id },
    });
    // Nothing confirmed on the server: no payment method, no confirm, no return_url (Stripe.js sends it).
    for (const param of ['payment_method', 'confirm', 'return_url'])
      expect(request?.params).not.toHaveProperty(param);
    expect(fake.charges()).toEqual([]);

    // A lookup replaying the creation under the same key finds the same intent, still awaiting.
    const replayed = await provider().lookupPayment!({
      idempotency_key: payment.idempotency_key,
      original: payment,
    });
    expect(replayed).toMatchObject({ status: 'awaiting_payment', provider_id: intent.id });

    // The storefront confirms it (Stripe.js): a declined card leaves it for another card.
    fake.confirmIntent(intent.id, 'pm_card_chargeDeclined');
    expect(await provider().lookupPayment!({ provider_id: intent.id, idempotency_key: 'x' })).toMatchObject({
      status: 'failed',
      failure_code: 'card_declined',
    });
    fake.confirmIntent(intent.id, 'pm_card_visa');
    expect(await provider().lookupPayment!({ provider_id: intent.id, idempotency_key: 'x' })).toMatchObject({
      status: 'succeeded',
      amount: 4200,
    });
    expect(fake.charges()).toEqual([expect.objectContaining({ payment_intent: intent.id, captured: true })]);
  });

  test('an awaiting intent can be cancelled (the order expired); cancelling it twice under the key is a replay', async () => {
    const created = await provider().createPayment(input({ payment_method_id: undefined }));
    const cancel = { provider_id: created.provider_id!, idempotency_key: 'pay_1_void' };
    expect(await provider().cancelPayment!(cancel)).toMatchObject({ status: 'cancelled' });
    expect(await provider().cancelPayment!(cancel)).toMatchObject({ status: 'cancelled' });
    expect(fake.intent(created.provider_id!).status).toBe('canceled');
  });

  test('a zero total succeeds without calling Stripe (provider_id null)', async () => {
    expect(await provider().createPayment(input({ amount: 0 }))).toEqual({
      status: 'succeeded',
      provider_id: null,
      amount: 0,
    });
    expect(fake.requests).toEqual([]);
  });

  test('captureMethod manual → pending (authorised), the money held not taken', async () => {
    const result = await provider({ captureMethod: 'manual' }).createPayment(input());
    expect(result.status).toBe('pending');
    expect(creates()[0]?.params.capture_method).toBe('manual');
    expect(fake.charges()).toEqual([expect.objectContaining({ captured: false })]);
  });
});

describe('idempotency', () => {
  test('the same input twice (a retried checkout) → the same intent, one charge, the second a replay', async () => {
    const payment = input();
    const first = await provider().createPayment(payment);
    const second = await provider().createPayment(payment);
    expect(second.provider_id).toBe(first.provider_id);
    expect(fake.charges()).toHaveLength(1);
    expect(creates().map((r) => r.replayed)).toEqual([false, true]);
  });

  test('the same key with another amount → idempotency_key_reused, nothing charged twice', async () => {
    const payment = input();
    await provider().createPayment(payment);
    const error = await commerceError(provider().createPayment({ ...payment, amount: 4300 }));
    expect(error.code).toBe('idempotency_key_reused');
    expect(fake.charges()).toHaveLength(1);
  });
});

describe('network failures and reconciliation', () => {
  test('drop-next: the answer is lost once, the client retry replays it → succeeded, one charge', async () => {
    fake.setNetworkFailure('drop-next');
    const result = await provider().createPayment(input());
    expect(result.status).toBe('succeeded');
    expect(fake.charges()).toHaveLength(1);
    expect(creates().map((r) => r.outcome)).toEqual(['dropped', 'answered']);
  });

  test('drop-all: money taken but never heard back → payment_provider_unavailable; lookup finds the original charge', async () => {
    const payment = input();
    fake.setNetworkFailure('drop-all');
    const error = await commerceError(provider().createPayment(payment));
    expect(error).toMatchObject({
      code: 'payment_provider_unavailable',
      data: { retryable: true, provider: 'stripe' },
    });
    expect(fake.charges()).toHaveLength(1);
    const taken = fake.charges()[0]!;

    fake.setNetworkFailure('none');
    const found = await provider().lookupPayment!({
      provider_id: null,
      idempotency_key: payment.idempotency_key,
      original: payment,
    });
    expect(found).toMatchObject({ status: 'succeeded', provider_id: taken.payment_intent, amount: 4200 });
    expect(fake.charges()).toHaveLength(1);
  });

  test('hang-next with no retries: the client times out → unavailable; lookup finds the one charge', async () => {
    const payment = input();
    fake.setNetworkFailure('hang-next');
    const impatient = provider({ timeout: 300, maxNetworkRetries: 0 });
    expect((await commerceError(impatient.createPayment(payment))).code).toBe('payment_provider_unavailable');
    const found = await provider().lookupPayment!({
      idempotency_key: payment.idempotency_key,
      original: payment,
    });
    expect(found?.status).toBe('succeeded');
    expect(found?.provider_id).toBe(fake.charges()[0]?.payment_intent);
    expect(fake.charges()).toHaveLength(1);
  });

  test('refuse-all: Stripe never saw it → unavailable, no charge; lookup then completes it exactly once', async () => {
    const payment = input();
    fake.setNetworkFailure('refuse-all');
    expect((await commerceError(provider().createPayment(payment))).code).toBe(
      'payment_provider_unavailable',
    );
    expect(fake.charges()).toEqual([]);
    fake.setNetworkFailure('none');
    const lookup = () =>
      provider().lookupPayment!({ idempotency_key: payment.idempotency_key, original: payment });
    const first = await lookup();
    const second = await lookup();
    expect(first?.status).toBe('succeeded');
    expect(second?.provider_id).toBe(first?.provider_id);
    expect(fake.charges()).toHaveLength(1);
  });

  test('error-next (500): no retries → unavailable; with the default one retry → succeeded, one charge', async () => {
    fake.setNetworkFailure('error-next');
    const error = await commerceError(provider({ maxNetworkRetries: 0 }).createPayment(input()));
    expect(error).toMatchObject({
      code: 'payment_provider_unavailable',
      data: { stripe_error_type: 'StripeAPIError' },
    });
    fake.setNetworkFailure('error-next');
    expect((await provider().createPayment(input())).status).toBe('succeeded');
    expect(fake.charges()).toHaveLength(1);
  });

  test('a rejected API key → payment_provider_unavailable, not retryable', async () => {
    const strict = await startFakeStripe({ secretKey: 'sk_test_right' });
    try {
      const wrong = stripeProvider({ secretKey: 'sk_test_wrong', apiBase: strict.url });
      const error = await commerceError(wrong.createPayment(input()));
      expect(error).toMatchObject({ code: 'payment_provider_unavailable', data: { retryable: false } });
    } finally {
      await strict.stop();
    }
  });
});

describe('lookupPayment', () => {
  test('by provider_id → the current state (requires_action, then succeeded after 3-D Secure)', async () => {
    const stripe = provider();
    const created = await stripe.createPayment(
      input({ payment_method_id: 'pm_card_authenticationRequired' }),
    );
    const lookup = () =>
      stripe.lookupPayment!({ provider_id: created.provider_id, idempotency_key: 'unused' });
    expect((await lookup())?.status).toBe('requires_action');
    fake.completeAction(created.provider_id!, 'succeed');
    expect(await lookup()).toMatchObject({
      status: 'succeeded',
      provider_id: created.provider_id,
      amount: 4200,
    });
  });

  test('3-D Secure failed → failed with payment_intent_authentication_failure', async () => {
    const stripe = provider();
    const created = await stripe.createPayment(
      input({ payment_method_id: 'pm_card_authenticationRequired' }),
    );
    fake.completeAction(created.provider_id!, 'fail');
    const found = await stripe.lookupPayment!({
      provider_id: created.provider_id,
      idempotency_key: 'unused',
    });
    expect(found).toMatchObject({ status: 'failed', failure_code: 'payment_intent_authentication_failure' });
    expect(found?.failure_message).toMatch(/failed authentication/);
  });

  test('by the original after 3-D Secure completed: the replayed snapshot is refreshed → succeeded', async () => {
    const stripe = provider();
    const payment = input({ payment_method_id: 'pm_card_authenticationRequired' });
    const created = await stripe.createPayment(payment);
    fake.completeAction(created.provider_id!, 'succeed');
    const found = await stripe.lookupPayment!({
      idempotency_key: payment.idempotency_key,
      original: payment,
    });
    expect(found).toMatchObject({ status: 'succeeded', provider_id: created.provider_id });
  });

  test('by the original of a declined attempt → failed with the decline, no new charge', async () => {
    const payment = input({ payment_method_id: 'pm_card_chargeDeclinedInsufficientFunds' });
    const created = await provider().createPayment(payment);
    const found = await provider().lookupPayment!({
      idempotency_key: payment.idempotency_key,
      original: payment,
    });
    expect(found).toMatchObject({
      status: 'failed',
      failure_code: 'insufficient_funds',
      provider_id: created.provider_id,
    });
    expect(fake.allCharges()).toHaveLength(1);
  });

  test('an unknown provider_id → null; an original Stripe rejects as invalid → null (nothing exists)', async () => {
    expect(await provider().lookupPayment!({ provider_id: 'pi_unknown', idempotency_key: 'k' })).toBeNull();
    const invalid = input({ payment_method_id: 'pm_unknown' });
    expect(
      await provider().lookupPayment!({ idempotency_key: invalid.idempotency_key, original: invalid }),
    ).toBeNull();
  });

  test('neither provider_id nor original → internal_error (a caller bug)', async () => {
    const error = await commerceError(provider().lookupPayment!({ provider_id: null, idempotency_key: 'k' }));
    expect(error.code).toBe('internal_error');
  });
});

describe('capturePayment and cancelPayment', () => {
  test('manual capture: authorise 4200, capture 4000 → succeeded for 4000', async () => {
    const stripe = provider({ captureMethod: 'manual' });
    const held = await stripe.createPayment(input());
    const captured = await stripe.capturePayment!({
      provider_id: held.provider_id!,
      amount: 4000,
      currency: 'usd',
      idempotency_key: 'capture_1',
    });
    expect(captured).toMatchObject({ status: 'succeeded', amount: 4000 });
    const request = fake.requests.at(-1);
    expect(request).toMatchObject({
      path: `/v1/payment_intents/${held.provider_id}/capture`,
      idempotency_key: 'capture_1',
    });
    expect(request?.params).toEqual({ amount_to_capture: '4000' });
    expect(fake.charges()[0]).toMatchObject({ captured: true, amount_captured: 4000 });
  });

  test('cancel an authorised payment → cancelled; cancel a succeeded one → invalid_state_transition', async () => {
    const held = await provider({ captureMethod: 'manual' }).createPayment(input());
    const cancelled = await provider().cancelPayment!({
      provider_id: held.provider_id!,
      idempotency_key: 'cancel_1',
    });
    expect(cancelled).toMatchObject({ status: 'cancelled', provider_id: held.provider_id });
    const paid = await provider().createPayment(input());
    const error = await commerceError(
      provider().cancelPayment!({ provider_id: paid.provider_id!, idempotency_key: 'c2' }),
    );
    expect(error.code).toBe('invalid_state_transition');
  });

  test('capture an unknown intent → not_found', async () => {
    const error = await commerceError(
      provider().capturePayment!({
        provider_id: 'pi_nope',
        amount: 1,
        currency: 'usd',
        idempotency_key: 'k',
      }),
    );
    expect(error.code).toBe('not_found');
  });
});

describe('refundPayment', () => {
  test('full refund of 4200 → succeeded re_…, sent with payment_intent, amount and the idempotency key', async () => {
    const paid = await provider().createPayment(input());
    const refund = await provider().refundPayment({
      provider_id: paid.provider_id,
      amount: 4200,
      currency: 'usd',
      idempotency_key: 'refund_1',
      reason: 'requested_by_customer',
    });
    expect(refund.status).toBe('succeeded');
    expect(refund.provider_refund_id).toMatch(/^re_/);
    expect(fake.requests.at(-1)).toMatchObject({
      path: '/v1/refunds',
      idempotency_key: 'refund_1',
      params: {
        payment_intent: paid.provider_id,
        amount: '4200',
        reason: 'requested_by_customer',
        metadata: { reason: 'requested_by_customer' },
      },
    });
    expect(fake.refunds()).toEqual([
      expect.objectContaining({ amount: 4200, payment_intent: paid.provider_id }),
    ]);
  });

  test('partial 1500 + 2000, then 800 (700 remain) → failed with Stripe’s message; then 700 → succeeded', async () => {
    const paid = await provider().createPayment(input());
    const refund = (amount: number, key: string) =>
      provider().refundPayment({
        provider_id: paid.provider_id,
        amount,
        currency: 'usd',
        idempotency_key: key,
      });
    expect((await refund(1500, 'r1')).status).toBe('succeeded');
    expect((await refund(2000, 'r2')).status).toBe('succeeded');
    const over = await refund(800, 'r3');
    expect(over).toEqual({
      status: 'failed',
      provider_refund_id: null,
      failure_message: 'Refund amount (8.00 USD) is greater than unrefunded amount on charge (7.00 USD)',
    });
    expect((await refund(700, 'r4')).status).toBe('succeeded');
    expect((await refund(1, 'r5')).failure_message).toMatch(/has already been refunded/);
    expect(fake.refunds().map((r) => r.amount)).toEqual([1500, 2000, 700]);
  });

  test('a free-text reason goes to metadata only (Stripe accepts three reasons)', async () => {
    const paid = await provider().createPayment(input());
    await provider().refundPayment({
      provider_id: paid.provider_id,
      amount: 100,
      currency: 'usd',
      idempotency_key: 'r-text',
      reason: 'damaged in transit',
    });
    const params = fake.requests.at(-1)?.params;
    expect(params).not.toHaveProperty('reason');
    expect(params?.metadata).toEqual({ reason: 'damaged in transit' });
  });

  test('with a reference, our ids go to the Refund’s metadata (refund_id, order_id, store_id, mode) beside the reason', async () => {
    const paid = await provider().createPayment(input());
    await provider().refundPayment({
      provider_id: paid.provider_id,
      amount: 100,
      currency: 'usd',
      idempotency_key: 'r-ref',
      reason: 'damaged in transit',
      reference: { refund_id: 'ref_7', order_id: 'ord_7', store_id: 'store_1', mode: 'live' },
    });
    expect(fake.refunds().at(-1)?.metadata).toEqual({
      refund_id: 'ref_7',
      order_id: 'ord_7',
      store_id: 'store_1',
      mode: 'live',
      reason: 'damaged in transit',
    });
  });

  test('pm_card_pendingRefund: refundPayment → pending re_…; lookupRefund follows Stripe: pending, then succeeded (or failed with the reason); unknown id → null', async () => {
    const refundOf = async (key: string) => {
      const paid = await provider().createPayment(input({ payment_method_id: 'pm_card_pendingRefund' }));
      return provider().refundPayment({
        provider_id: paid.provider_id,
        amount: 1000,
        currency: 'usd',
        idempotency_key: key,
      });
    };
    const ok = await refundOf('r-pending-ok');
    expect(ok).toMatchObject({ status: 'pending', provider_refund_id: expect.stringMatching(/^re_/) });
    const id = ok.provider_refund_id!;
    await expect(provider().lookupRefund!({ provider_refund_id: id })).resolves.toEqual({
      status: 'pending',
      provider_refund_id: id,
    });
    fake.settleRefund(id, 'succeeded');
    await expect(provider().lookupRefund!({ provider_refund_id: id })).resolves.toEqual({
      status: 'succeeded',
      provider_refund_id: id,
    });
    const bad = (await refundOf('r-pending-bad')).provider_refund_id!;
    fake.settleRefund(bad, 'failed', 'lost_or_stolen_card');
    await expect(provider().lookupRefund!({ provider_refund_id: bad })).resolves.toEqual({
      status: 'failed',
      provider_refund_id: bad,
      failure_message: 'lost_or_stolen_card',
    });
    await expect(provider().lookupRefund!({ provider_refund_id: 're_unknown' })).resolves.toBeNull();
    fake.setNetworkFailure('refuse-all');
    await expect(
      provider({ maxNetworkRetries: 0 }).lookupRefund!({ provider_refund_id: id }),
    ).rejects.toMatchObject({
      code: 'payment_provider_unavailable',
    });
  });

  test('a retried refund (same key) → the same refund, money returned once', async () => {
    const paid = await provider().createPayment(input());
    const refund = () =>
      provider().refundPayment({
        provider_id: paid.provider_id,
        amount: 1000,
        currency: 'usd',
        idempotency_key: 'r-same',
      });
    const a = await refund();
    const b = await refund();
    expect(b.provider_refund_id).toBe(a.provider_refund_id);
    expect(fake.refunds()).toHaveLength(1);
  });

  test('no provider_id → failed without calling Stripe; Stripe unreachable → payment_provider_unavailable', async () => {
    const none = await provider().refundPayment({
      provider_id: null,
      amount: 1,
      currency: 'usd',
      idempotency_key: 'k',
    });
    expect(none.status).toBe('failed');
    expect(fake.requests).toEqual([]);
    const paid = await provider().createPayment(input());
    fake.setNetworkFailure('refuse-all');
    const error = await commerceError(
      provider().refundPayment({
        provider_id: paid.provider_id,
        amount: 1,
        currency: 'usd',
        idempotency_key: 'k2',
      }),
    );
    expect(error.code).toBe('payment_provider_unavailable');
    expect(fake.refunds()).toEqual([]);
  });
});
