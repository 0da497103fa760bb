import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { type FakeStripe, startFakeStripe } from '@cartwright/payments-stripe/fake-stripe';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { pnpmStart, type StartedServer as Started, stopServer as stop } from './support/pnpm-start';
import { type CallResponse, call } from './support/serve-process';

/**
 * Stripe's webhooks reach `pnpm start` (decisions §22): the command of the root `pnpm start` script
 * — `node … packages/cli/dist/bin.js serve`, the built JavaScript, read from package.json — runs
 * as a child process configured only by environment variables (`STRIPE_SECRET_KEY`,
 * `STRIPE_API_BASE` pointing at the fake Stripe, `STRIPE_WEBHOOK_SECRET`), and Stripe's events are
 * posted to `POST /v1/webhooks/stripe` signed as Stripe signs them (`Stripe-Signature`).
 *
 * The built JavaScript comes from `pnpm install` (its postinstall `build:js`) or `pnpm build`;
 * after changing the sources, `pnpm --filter @cartwright/cli build:js` (or `pnpm build:js`)
 * refreshes it.
 */

const SECRET = 'sk_test_stripeWebhookServeSecret0000001';
const PUBLISHABLE = 'pk_test_stripeWebhookServePublish000001';
const WEBHOOK_SECRET = 'whsec_cliStripeWebhookServe0000000000001';
/** What every server of this file is started with besides its database and Stripe settings. */
const SERVE_ENV = {
  COMMERCE_API_KEYS: `${SECRET},${PUBLISHABLE}`,
  COMMERCE_SEED: 'demo',
  COMMERCE_RECONCILE_INTERVAL_MS: '0',
};
const ADDRESS = { name: 'Ada Lovelace', line1: '1 St', city: 'London', postal_code: 'N1', country: 'GB' };

/** Posts `payload` to `/v1/webhooks/stripe` as Stripe does: raw JSON, no API key, `Stripe-Signature` when given. */
async function postStripeEvent(
  server: Started,
  payload: string,
  signature: string | null,
): Promise<CallResponse> {
  const res = await fetch(`${server.url}/v1/webhooks/stripe`, {
    method: 'POST',
    headers: {
      'content-type': 'application/json',
      ...(signature !== null && { 'stripe-signature': signature }),
    },
    body: payload,
  });
  const text = await res.text();
  return { status: res.status, body: text === '' ? null : JSON.parse(text), headers: res.headers };
}

/**
 * A guest checkout of one demo variant with Stripe and `pm_card_authenticationRequired`: 201, the
 * order waits for the customer's 3-D Secure step (the payment is settled by Stripe's webhook).
 */
async function checkoutNeedingAction(server: Started) {
  const products = await call(server, 'GET', '/v1/storefront/products?limit=1', PUBLISHABLE);
  const variant = products.body.data[0].variants[0];
  const cart = await call(server, 'POST', '/v1/storefront/carts', PUBLISHABLE, {
    items: [{ variant_id: variant.id, quantity: 1 }],
    shipping_address: ADDRESS,
  });
  expect(cart.status).toBe(200);
  const order = await call(server, 'POST', `/v1/storefront/carts/${cart.body.id}/checkout`, PUBLISHABLE, {
    email: 'buyer@example.com',
    payment_provider: 'stripe',
    payment_method_id: 'pm_card_authenticationRequired',
  });
  expect(order.status, JSON.stringify(order.body)).toBe(201);
  return order.body as { id: string; status: string; payments: Array<{ provider_id: string }> };
}

describe('pnpm start with STRIPE_SECRET_KEY, STRIPE_API_BASE and STRIPE_WEBHOOK_SECRET', () => {
  const dir = mkdtempSync(join(tmpdir(), 'cartwright-stripe-webhook-'));
  let fake: FakeStripe;
  let server: Started;

  beforeAll(async () => {
    fake = await startFakeStripe();
    server = await pnpmStart({
      ...SERVE_ENV,
      DATABASE_URL: join(dir, 'shop.db'),
      STRIPE_SECRET_KEY: 'sk_test_cliStripeWebhook',
      STRIPE_API_BASE: fake.url,
      STRIPE_WEBHOOK_SECRET: WEBHOOK_SECRET,
    });
  });
  afterAll(async () => {
    if (server) await stop(server.child);
    await fake?.stop();
    rmSync(dir, { recursive: true, force: true });
  });

  test('a signed event reaches /v1/webhooks/stripe (200); a badly signed, tampered or unsigned one → 400', async () => {
    const event = JSON.stringify({
      id: 'evt_cli_unrelated',
      object: 'event',
      type: 'customer.created',
      created: Math.floor(Date.now() / 1000),
      data: { object: { id: 'cus_123', object: 'customer' } },
    });
    const ack = await postStripeEvent(server, event, fake.signWebhook(event, WEBHOOK_SECRET));
    expect({ status: ack.status, body: ack.body }).toEqual({
      status: 200,
      body: { received: true, outcome: 'unchanged' },
    });

    const forged = await postStripeEvent(server, event, fake.signWebhook(event, 'whsec_wrong'));
    expect(forged.status).toBe(400);
    expect(forged.body.error).toMatchObject({ code: 'parameter_invalid', param: 'Stripe-Signature' });
    const tampered = await postStripeEvent(
      server,
      event.replace('cus_123', 'cus_456'),
      fake.signWebhook(event, WEBHOOK_SECRET),
    );
    expect(tampered.status).toBe(400);
    expect(tampered.body.error).toMatchObject({ code: 'parameter_invalid', param: 'Stripe-Signature' });
    const stale = await postStripeEvent(
      server,
      event,
      fake.signWebhook(event, WEBHOOK_SECRET, Math.floor(Date.now() / 1000) - 3600),
    );
    expect(stale.status).toBe(400);
    expect(stale.body.error).toMatchObject({ code: 'parameter_invalid', param: 'Stripe-Signature' });
    const unsigned = await postStripeEvent(server, event, null);
    expect(unsigned.status).toBe(400);
    expect(unsigned.body.error).toMatchObject({ code: 'parameter_missing', param: 'Stripe-Signature' });
  });

  test('payment_intent.succeeded settles a 3-D Secure checkout: the order becomes confirmed and paid', async () => {
    const order = await checkoutNeedingAction(server);
    expect(order.status).toBe('pending');
    const intentId = order.payments[0]?.provider_id as string;
    expect(fake.intent(intentId).status).toBe('requires_action');

    // The customer authenticates with Stripe.js; Stripe tells the server through the webhook.
    fake.completeAction(intentId, 'succeed');
    const payload = JSON.stringify(fake.webhookEvent('payment_intent.succeeded', intentId));
    const forged = await postStripeEvent(server, payload, fake.signWebhook(payload, 'whsec_wrong'));
    expect(forged.status).toBe(400);
    const pending = await call(server, 'GET', `/v1/admin/orders/${order.id}`, SECRET);
    expect(pending.body.status).toBe('pending');

    const ack = await postStripeEvent(server, payload, fake.signWebhook(payload, WEBHOOK_SECRET));
    expect({ status: ack.status, body: ack.body }).toEqual({
      status: 200,
      body: { received: true, outcome: 'payment_completed' },
    });
    const paid = await call(server, 'GET', `/v1/admin/orders/${order.id}`, SECRET);
    expect(paid.body).toMatchObject({ status: 'confirmed', payment_status: 'paid' });
    expect(paid.body.payments[0]).toMatchObject({ status: 'completed', provider_id: intentId });
  });
});

describe('pnpm start with STRIPE_SECRET_KEY but no STRIPE_WEBHOOK_SECRET', () => {
  const dir = mkdtempSync(join(tmpdir(), 'cartwright-stripe-no-webhook-'));
  let fake: FakeStripe;
  let server: Started;

  beforeAll(async () => {
    fake = await startFakeStripe();
    server = await pnpmStart({
      ...SERVE_ENV,
      DATABASE_URL: join(dir, 'shop.db'),
      STRIPE_SECRET_KEY: 'sk_test_cliStripeWebhook',
      STRIPE_API_BASE: fake.url,
      STRIPE_WEBHOOK_SECRET: '',
    });
  });
  afterAll(async () => {
    if (server) await stop(server.child);
    await fake?.stop();
    rmSync(dir, { recursive: true, force: true });
  });

  test('/v1/webhooks/stripe answers 404 (docs/payments.md): nothing can verify the event', async () => {
    const event = JSON.stringify({ id: 'evt_cli_1', object: 'event', type: 'customer.created', data: {} });
    const res = await postStripeEvent(server, event, fake.signWebhook(event, WEBHOOK_SECRET));
    expect(res.status).toBe(404);
    expect(res.body.error.code).toBe('not_found');
  });
});
