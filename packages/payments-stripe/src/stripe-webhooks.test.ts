import { CommerceError } from '@cartwright/core';
import Stripe from 'stripe';
import { afterAll, beforeAll, beforeEach, describe, expect, test } from 'vitest';
import { type FakeStripe, signWebhook, startFakeStripe } from './fake-stripe';
import { parseStripeWebhook, refundStatusOf } from './stripe-webhooks';

const SECRET = 'whsec_test_secret_123';

let fake: FakeStripe;
let stripe: Stripe;

beforeAll(async () => {
  fake = await startFakeStripe();
  const url = new URL(fake.url);
  stripe = new Stripe('sk_test_hooks', {
    protocol: 'http',
    host: url.hostname,
    port: url.port,
    maxNetworkRetries: 0,
  });
});
afterAll(async () => {
  await fake.stop();
});
beforeEach(() => {
  fake.reset();
});

const pay = (payment_method: string) =>
  stripe.paymentIntents
    .create({
      amount: 2500,
      currency: 'gbp',
      payment_method,
      confirm: true,
      metadata: { payment_id: 'pay_123', order_id: 'ord_9', store_id: 'store_1', mode: 'live' },
    })
    .catch((error: Stripe.errors.StripeError) => error.payment_intent!);

/** The CommerceError `fn` throws (fails the test otherwise). */
function thrown(fn: () => unknown): CommerceError {
  try {
    fn();
  } catch (error) {
    if (CommerceError.is(error)) return error;
    throw error;
  }
  throw new Error('expected a CommerceError');
}

describe('parseStripeWebhook: actions', () => {
  test('payment_intent.succeeded → succeeded with the intent id, our payment_id, store and mode, amount and event id', async () => {
    const intent = await pay('pm_card_visa');
    const event = fake.webhookEvent('payment_intent.succeeded', intent.id);
    const body = JSON.stringify(event);
    expect(parseStripeWebhook(body, signWebhook(body, SECRET), SECRET)).toEqual({
      action: 'succeeded',
      provider_id: intent.id,
      payment_id: 'pay_123',
      event_id: event.id,
      event_type: 'payment_intent.succeeded',
      amount: 2500,
      currency: 'gbp',
      store_id: 'store_1',
      mode: 'live',
    });
  });

  test('payment_intent.payment_failed (insufficient funds) → failed with the code and the decline message', async () => {
    const intent = await pay('pm_card_chargeDeclinedInsufficientFunds');
    const body = JSON.stringify(fake.webhookEvent('payment_intent.payment_failed', intent.id));
    expect(parseStripeWebhook(body, signWebhook(body, SECRET), SECRET)).toMatchObject({
      action: 'failed',
      provider_id: intent.id,
      failure_code: 'insufficient_funds',
      failure_message: 'Your card has insufficient funds.',
    });
  });

  test('the events the fake emitted on a 3-D Secure payment map to requires_action then succeeded', async () => {
    const intent = await pay('pm_card_authenticationRequired');
    fake.completeAction(intent.id, 'succeed');
    const actions = fake.events().map((event) => {
      const body = JSON.stringify(event);
      return parseStripeWebhook(body, signWebhook(body, SECRET), SECRET).action;
    });
    expect(actions).toEqual(['not_supported', 'requires_action', 'succeeded']);
  });

  test('payment_intent.canceled → canceled; charge.refunded and refund.created → not_supported, provider_id null', async () => {
    const held = await stripe.paymentIntents.create({
      amount: 100,
      currency: 'usd',
      payment_method: 'pm_card_visa',
      confirm: true,
      capture_method: 'manual',
    });
    await stripe.paymentIntents.cancel(held.id);
    const paid = await pay('pm_card_visa');
    await stripe.refunds.create({ payment_intent: paid.id });
    const results = fake.events().map((event) => {
      const body = JSON.stringify(event);
      return [event.type, parseStripeWebhook(body, signWebhook(body, SECRET), SECRET)] as const;
    });
    const byType = new Map(results);
    expect(byType.get('payment_intent.canceled')).toMatchObject({ action: 'canceled', provider_id: held.id });
    expect(byType.get('charge.refunded')).toMatchObject({ action: 'not_supported', provider_id: null });
    expect(byType.get('refund.created')).toMatchObject({ action: 'not_supported', provider_id: null });
  });

  test('refund.updated, refund.failed and charge.refund.updated (a Refund) → refund_updated with our ids from the refund’s metadata and its reduced status', async () => {
    const paid = await pay('pm_card_pendingRefund');
    const metadata = { refund_id: 'ref_1', order_id: 'ord_9', store_id: 'store_1', mode: 'live' };
    const pending = await stripe.refunds.create({ payment_intent: paid.id, amount: 1000, metadata });
    const parse = (event: unknown) => {
      const body = JSON.stringify(event);
      return parseStripeWebhook(body, signWebhook(body, SECRET), SECRET);
    };
    const ours = {
      action: 'refund_updated',
      provider_id: paid.id,
      payment_id: null,
      provider_refund_id: pending.id,
      refund_id: 'ref_1',
      order_id: 'ord_9',
      store_id: 'store_1',
      mode: 'live',
      amount: 1000,
      currency: 'gbp',
    };
    const stillPending = fake.refundWebhookEvent('charge.refund.updated', pending.id);
    expect(parse(stillPending)).toEqual({
      ...ours,
      event_id: stillPending.id,
      event_type: 'charge.refund.updated',
      refund_status: 'pending',
    });

    fake.settleRefund(pending.id, 'succeeded');
    const updated = fake.events().filter((e) => e.type === 'refund.updated');
    expect(updated).toHaveLength(1);
    expect(parse(updated[0])).toEqual({
      ...ours,
      event_id: updated[0]?.id,
      event_type: 'refund.updated',
      refund_status: 'succeeded',
    });

    const other = await stripe.refunds.create({ payment_intent: paid.id, amount: 500 });
    fake.settleRefund(other.id, 'failed', 'expired_or_canceled_card');
    const failed = fake.events().find((e) => e.type === 'refund.failed');
    expect(parse(failed)).toEqual({
      ...ours,
      provider_refund_id: other.id,
      // No metadata on this refund: our ids are null (the webhook leaves it to reconciliation).
      refund_id: null,
      order_id: null,
      store_id: null,
      mode: null,
      amount: 500,
      event_id: failed?.id,
      event_type: 'refund.failed',
      refund_status: 'failed',
      failure_code: 'expired_or_canceled_card',
      failure_message: 'The refund failed at Stripe (expired_or_canceled_card)',
    });
  });

  test('Stripe refund statuses reduce to three: succeeded; pending, requires_action → pending; failed, canceled → failed', () => {
    expect(['succeeded', 'pending', 'requires_action', 'failed', 'canceled'].map(refundStatusOf)).toEqual([
      'succeeded',
      'pending',
      'pending',
      'failed',
      'failed',
    ]);
  });

  test('a Buffer body (raw bytes as received) verifies the same as a string', async () => {
    const intent = await pay('pm_card_visa');
    const body = JSON.stringify(fake.webhookEvent('payment_intent.succeeded', intent.id));
    expect(parseStripeWebhook(Buffer.from(body), signWebhook(body, SECRET), SECRET).action).toBe('succeeded');
  });
});

describe('parseStripeWebhook: signature verification', () => {
  const body = JSON.stringify({
    id: 'evt_1',
    object: 'event',
    type: 'payment_intent.succeeded',
    data: { object: { id: 'pi_1', object: 'payment_intent', amount: 1, currency: 'usd', metadata: {} } },
  });

  test('signWebhook produces t=…,v1=… exactly as stripe-node’s own test header', () => {
    const timestamp = 1_700_000_000;
    expect(signWebhook(body, SECRET, timestamp)).toBe(
      Stripe.webhooks.generateTestHeaderString({ payload: body, secret: SECRET, timestamp }),
    );
  });

  test('a tampered body → parameter_invalid on Stripe-Signature', () => {
    const header = signWebhook(body, SECRET);
    const tampered = body.replace('"amount":1', '"amount":100');
    const error = thrown(() => parseStripeWebhook(tampered, header, SECRET));
    expect(error).toMatchObject({ code: 'parameter_invalid', param: 'Stripe-Signature' });
  });

  test('signed with another secret → parameter_invalid', () => {
    const error = thrown(() => parseStripeWebhook(body, signWebhook(body, 'whsec_other'), SECRET));
    expect(error).toMatchObject({ code: 'parameter_invalid', param: 'Stripe-Signature' });
  });

  test('a timestamp 301 s old → rejected (tolerance 300 s); 299 s old → accepted; tolerance is configurable', () => {
    const now = 1_800_000_000;
    const receivedAt = now * 1000;
    const old = signWebhook(body, SECRET, now - 301);
    expect(thrown(() => parseStripeWebhook(body, old, SECRET, { receivedAt })).code).toBe(
      'parameter_invalid',
    );
    const recent = signWebhook(body, SECRET, now - 299);
    expect(parseStripeWebhook(body, recent, SECRET, { receivedAt }).action).toBe('succeeded');
    expect(parseStripeWebhook(body, old, SECRET, { receivedAt, toleranceSeconds: 600 }).action).toBe(
      'succeeded',
    );
  });

  test('a stale signature by the real clock (10 minutes old) → rejected', () => {
    const old = signWebhook(body, SECRET, Math.floor(Date.now() / 1000) - 600);
    expect(thrown(() => parseStripeWebhook(body, old, SECRET)).code).toBe('parameter_invalid');
  });

  test('a malformed header → parameter_invalid; a missing one → parameter_missing', () => {
    expect(thrown(() => parseStripeWebhook(body, 'garbage', SECRET))).toMatchObject({
      code: 'parameter_invalid',
      param: 'Stripe-Signature',
    });
    expect(thrown(() => parseStripeWebhook(body, undefined, SECRET))).toMatchObject({
      code: 'parameter_missing',
      param: 'Stripe-Signature',
    });
  });
});
