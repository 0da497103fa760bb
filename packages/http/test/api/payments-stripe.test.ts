import { expect, test } from 'vitest';
import type { TestApi } from './support/harness';
import {
  ADDRESS,
  checkout,
  createCart,
  createCustomer,
  createProduct,
  expectError,
  expectStatus,
  inventoryOf,
  recordEvents,
  unique,
} from './support/order-fixtures';
import {
  deliverStripeEvent,
  describeStripeApi,
  type FakeStripe,
  WEBHOOK_SECRET,
} from './support/stripe-fixtures';

/** Checks a guest cart out with Stripe and the given test payment method. */
function payWith(api: TestApi, cartId: string, paymentMethod: string, email = 'card@example.com') {
  return checkout(api, cartId, { email, payment_provider: 'stripe', payment_method_id: paymentMethod });
}

/** The PaymentIntent creations the fake received for a cart's checkout attempts. */
function intentCreations(fake: FakeStripe, cartId: string) {
  return fake.requests.filter(
    (r) =>
      r.method === 'POST' &&
      r.path === '/v1/payment_intents' &&
      r.idempotency_key?.startsWith(`checkout_${cartId}_`),
  );
}

/** Delivers a Stripe event to the webhook endpoint, signed with `secret` (no API key). */
function deliver(api: TestApi, fake: FakeStripe, type: string, intentId: string, secret = WEBHOOK_SECRET) {
  return deliverStripeEvent(api, fake, fake.webhookEvent(type, intentId), secret);
}

describeStripeApi('payments: stripe', (ctx) => {
  test('pm_card_visa: 201 confirmed and paid; Stripe was asked for the server’s amount and currency under the attempt’s key', async () => {
    const { api, fake } = ctx();
    const events = recordEvents(api);
    try {
      const item = await createProduct(api, { price: 4200 });
      const cart = await createCart(api, [{ variant_id: item.variant_id, quantity: 2 }]);
      const order = expectStatus(await payWith(api, cart.id, 'pm_card_visa'), 201).body;

      expect(order).toMatchObject({ status: 'confirmed', payment_status: 'paid', total: { amount: 8400 } });
      expect(order.payments).toHaveLength(1);
      expect(order.payments[0]).toMatchObject({
        provider: 'stripe',
        status: 'completed',
        amount: { amount: 8400 },
      });
      expect(order.payments[0].provider_id).toMatch(/^pi_/);
      expect(order.payments[0]).not.toHaveProperty('client_secret');

      const creations = intentCreations(fake, cart.id);
      expect(creations).toHaveLength(1);
      expect(creations[0]).toMatchObject({
        idempotency_key: `checkout_${cart.id}_1`,
        params: { amount: '8400', currency: 'usd', payment_method: 'pm_card_visa', confirm: 'true' },
      });
      expect(creations[0]?.params.metadata).toMatchObject({
        payment_id: order.payments[0].id,
        cart_id: cart.id,
        order_id: order.id,
      });
      const intent = fake.intent(order.payments[0].provider_id);
      expect(intent).toMatchObject({ status: 'succeeded', amount: 8400, amount_received: 8400 });

      expect(events.typesFor(order.id)).toEqual([
        'order.created',
        'payment.created',
        'payment.completed',
        'order.confirmed',
      ]);
      expect(await inventoryOf(api, item.inventory_id)).toMatchObject({ reserved: 2 });
      expect(expectStatus(await api.storefront.get(`/v1/storefront/carts/${cart.id}`), 200).body.status).toBe(
        'completed',
      );
    } finally {
      events.stop();
    }
  });

  test('a declined card: 402 payment_failed with the decline reason; payment.failed; no order, cart active, stock and usage unchanged; the next card works', async () => {
    const { api, fake } = ctx();
    const events = recordEvents(api);
    try {
      const item = await createProduct(api, { price: 3000, on_hand: 4 });
      const code = unique('SAVE').toUpperCase();
      const discount = expectStatus(
        await api.post('/v1/admin/discounts', {
          name: 'Save 5',
          code,
          type: 'code',
          value_type: 'fixed',
          value: 500,
        }),
        200,
      ).body;
      const cart = await createCart(api, [{ variant_id: item.variant_id, quantity: 2 }]);
      expectStatus(await api.storefront.post(`/v1/storefront/carts/${cart.id}/discounts`, { code }), 200);
      const email = `${unique('declined')}@example.com`;
      const ordersBefore = expectStatus(await api.get('/v1/admin/orders?limit=1'), 200).body.total_count;

      const res = await payWith(api, cart.id, 'pm_card_chargeDeclinedInsufficientFunds', email);
      expectError(res, 402, 'payment_failed');
      expect(res.body.error.type).toBe('payment_error');
      expect(res.body.error.message).toBe('Your card has insufficient funds.');

      expect(expectStatus(await api.get('/v1/admin/orders?limit=1'), 200).body.total_count).toBe(
        ordersBefore,
      );
      expect(await inventoryOf(api, item.inventory_id)).toMatchObject({
        on_hand: 4,
        reserved: 0,
        available: 4,
      });
      expect(expectStatus(await api.get(`/v1/admin/discounts/${discount.id}`), 200).body.usage_count).toBe(0);
      expect(expectStatus(await api.storefront.get(`/v1/storefront/carts/${cart.id}`), 200).body.status).toBe(
        'active',
      );
      const failed = events.seen.filter((e) => e.type === 'payment.failed' && e.data.cart_id === cart.id);
      expect(failed).toHaveLength(1);
      expect(failed[0]?.data).toMatchObject({
        status: 'failed',
        provider: 'stripe',
        order_id: null,
        amount: { amount: 5500, currency: 'USD' },
      });
      expect(failed[0]?.data.provider_id).toMatch(/^pi_/);
      expect(events.seen.some((e) => e.type === 'order.created' && e.data.email === email)).toBe(false);

      // Another card: a new attempt with the next key; one charge in all.
      const order = expectStatus(await payWith(api, cart.id, 'pm_card_mastercard', email), 201).body;
      expect(order).toMatchObject({ status: 'confirmed', payment_status: 'paid', total: { amount: 5500 } });
      expect(intentCreations(fake, cart.id).map((r) => r.idempotency_key)).toEqual([
        `checkout_${cart.id}_1`,
        `checkout_${cart.id}_2`,
      ]);
      expect(fake.charges().filter((c) => c.metadata.cart_id === cart.id)).toHaveLength(1);
      expect(expectStatus(await api.get(`/v1/admin/discounts/${discount.id}`), 200).body.usage_count).toBe(1);
    } finally {
      events.stop();
    }
  });

  test('an unknown payment method: 400 parameter_invalid on payment_method_id, nothing kept', async () => {
    const { api } = ctx();
    const item = await createProduct(api, { on_hand: 2 });
    const cart = await createCart(api, [{ variant_id: item.variant_id }]);
    expectError(
      await payWith(api, cart.id, 'pm_card_unknown'),
      400,
      'parameter_invalid',
      'payment_method_id',
    );
    expect(await inventoryOf(api, item.inventory_id)).toMatchObject({ reserved: 0, available: 2 });
    expectStatus(await payWith(api, cart.id, 'pm_card_visa'), 201);
  });

  test('a double-submitted checkout (two concurrent requests, no Idempotency-Key) charges once', async () => {
    const { api, fake } = ctx();
    const item = await createProduct(api, { price: 1500 });
    const cart = await createCart(api, [{ variant_id: item.variant_id }]);
    const responses = await Promise.all([
      payWith(api, cart.id, 'pm_card_visa'),
      payWith(api, cart.id, 'pm_card_visa'),
    ]);
    expect(responses.map((r) => r.status).sort()).toEqual([201, 409]);
    const refused = responses.find((r) => r.status === 409);
    if (refused) expectError(refused, 409, 'cart_not_active');
    expect(intentCreations(fake, cart.id)).toHaveLength(1);
    expect(fake.charges().filter((c) => c.metadata.cart_id === cart.id)).toHaveLength(1);
    expect(await inventoryOf(api, item.inventory_id)).toMatchObject({ reserved: 1 });
  });

  test('refunds create Stripe refunds for the amounts refunded, keyed by the refund id', async () => {
    const { api, fake } = ctx();
    const item = await createProduct(api, { price: 2000 });
    const cart = await createCart(api, [{ variant_id: item.variant_id, quantity: 3 }]);
    const order = expectStatus(await payWith(api, cart.id, 'pm_card_visa'), 201).body;
    const intent = order.payments[0].provider_id;

    const partial = expectStatus(
      await api.post(`/v1/admin/orders/${order.id}/refunds`, {
        amount: 700,
        reason: 'requested_by_customer',
      }),
      200,
    ).body;
    expect(partial).toMatchObject({ status: 'completed', amount: { amount: 700 } });
    const rest = expectStatus(
      await api.post(`/v1/admin/orders/${order.id}/refunds`, { amount: 5300 }),
      200,
    ).body;
    expect(rest).toMatchObject({ status: 'completed', amount: { amount: 5300 } });

    const refunds = fake.refunds().filter((r) => r.payment_intent === intent);
    expect(refunds.map((r) => r.amount)).toEqual([700, 5300]);
    expect(refunds[0]?.reason).toBe('requested_by_customer');
    const keys = fake.requests.filter((r) => r.path === '/v1/refunds').map((r) => r.idempotency_key);
    expect(keys).toContain(`${partial.id}_${order.payments[0].id}`);
    expect(keys).toContain(`${rest.id}_${order.payments[0].id}`);

    const after = expectStatus(await api.get(`/v1/admin/orders/${order.id}`), 200).body;
    expect(after).toMatchObject({ payment_status: 'refunded', refunded_total: { amount: 6000 } });
    expect(after.payments[0].status).toBe('refunded');
    expectError(
      await api.post(`/v1/admin/orders/${order.id}/refunds`, { amount: 1 }),
      422,
      'refund_exceeds_refundable',
    );
    expect(fake.refunds().filter((r) => r.payment_intent === intent)).toHaveLength(2);
  });

  test('3-D Secure: a pending order with the client secret; the signed webhook completes it (bad or missing signature → 400)', async () => {
    const { api, fake } = ctx();
    const events = recordEvents(api);
    try {
      const customer = await createCustomer(api);
      const item = await createProduct(api, { price: 2500, on_hand: 5 });
      const cart = await createCart(api, [{ variant_id: item.variant_id }], {
        customerToken: customer.token,
      });
      const res = await checkout(
        api,
        cart.id,
        { payment_provider: 'stripe', payment_method_id: 'pm_card_authenticationRequired' },
        { customerToken: customer.token },
      );
      const order = expectStatus(res, 201).body;
      expect(order).toMatchObject({ status: 'pending', payment_status: 'unpaid' });
      const payment = order.payments[0];
      const intent = fake.intent(payment.provider_id);
      expect(intent.status).toBe('requires_action');
      expect(payment).toMatchObject({ status: 'pending', client_secret: intent.client_secret });
      expect(await inventoryOf(api, item.inventory_id)).toMatchObject({ reserved: 1 });

      // The customer's own view keeps the secret; the admin view and the events never show it.
      const mine = expectStatus(
        await api.storefront.get(`/v1/storefront/orders/${order.id}`, { customerToken: customer.token }),
        200,
      ).body;
      expect(mine.payments[0].client_secret).toBe(intent.client_secret);
      const admin = expectStatus(await api.get(`/v1/admin/orders/${order.id}`), 200).body;
      expect(admin.payments[0]).not.toHaveProperty('client_secret');
      expect(JSON.stringify(events.seen)).not.toContain(intent.client_secret);

      // The customer authenticates; Stripe tells us through the webhook.
      fake.completeAction(intent.id, 'succeed');
      const payload = JSON.stringify(fake.webhookEvent('payment_intent.succeeded', intent.id));
      const forged = await api.request('POST', '/v1/webhooks/stripe', {
        key: null,
        rawBody: payload,
        headers: {
          'content-type': 'application/json',
          'stripe-signature': fake.signWebhook(payload, 'whsec_wrong'),
        },
      });
      expectError(forged, 400, 'parameter_invalid', 'Stripe-Signature');
      const tampered = await api.request('POST', '/v1/webhooks/stripe', {
        key: null,
        rawBody: payload.replace('"amount":2500', '"amount":1'),
        headers: {
          'content-type': 'application/json',
          'stripe-signature': fake.signWebhook(payload, WEBHOOK_SECRET),
        },
      });
      expectError(tampered, 400, 'parameter_invalid', 'Stripe-Signature');
      const unsigned = await api.request('POST', '/v1/webhooks/stripe', {
        key: null,
        rawBody: payload,
        headers: { 'content-type': 'application/json' },
      });
      expectError(unsigned, 400, 'parameter_missing', 'Stripe-Signature');
      expect(expectStatus(await api.get(`/v1/admin/orders/${order.id}`), 200).body.status).toBe('pending');

      const ack = expectStatus(await deliver(api, fake, 'payment_intent.succeeded', intent.id), 200).body;
      expect(ack).toEqual({ received: true, outcome: 'payment_completed' });
      const paid = expectStatus(await api.get(`/v1/admin/orders/${order.id}`), 200).body;
      expect(paid).toMatchObject({ status: 'confirmed', payment_status: 'paid' });
      expect(paid.payments[0]).toMatchObject({ status: 'completed', provider_id: intent.id });
      expect(events.typesFor(order.id)).toEqual([
        'order.created',
        'payment.created',
        'payment.completed',
        'order.confirmed',
      ]);

      // Stripe delivers at least once: the same event again changes nothing.
      const again = expectStatus(await deliver(api, fake, 'payment_intent.succeeded', intent.id), 200).body;
      expect(again.outcome).toBe('unchanged');
      expect(events.typesFor(order.id)).toHaveLength(4);
      const after = expectStatus(
        await api.storefront.get(`/v1/storefront/orders/${order.id}`, { customerToken: customer.token }),
        200,
      ).body;
      expect(after.payments[0]).not.toHaveProperty('client_secret');
    } finally {
      events.stop();
    }
  });

  test('3-D Secure that fails: the webhook fails the payment and cancels the pending order, releasing its stock', async () => {
    const { api, fake } = ctx();
    const events = recordEvents(api);
    try {
      const item = await createProduct(api, { price: 1800, on_hand: 3 });
      const cart = await createCart(api, [{ variant_id: item.variant_id, quantity: 2 }]);
      const order = expectStatus(await payWith(api, cart.id, 'pm_card_threeDSecure2Required'), 201).body;
      expect(await inventoryOf(api, item.inventory_id)).toMatchObject({ reserved: 2 });
      const intentId = order.payments[0].provider_id;

      fake.completeAction(intentId, 'fail');
      const ack = expectStatus(await deliver(api, fake, 'payment_intent.payment_failed', intentId), 200).body;
      expect(ack.outcome).toBe('payment_failed');
      const failed = expectStatus(await api.get(`/v1/admin/orders/${order.id}`), 200).body;
      expect(failed).toMatchObject({ status: 'cancelled', payment_status: 'unpaid' });
      expect(failed.payments[0]).toMatchObject({ status: 'failed' });
      expect(await inventoryOf(api, item.inventory_id)).toMatchObject({ reserved: 0, available: 3 });
      expect(events.typesFor(order.id)).toEqual([
        'order.created',
        'payment.created',
        'payment.failed',
        'order.cancelled',
      ]);
      expect(fake.charges().filter((c) => c.payment_intent === intentId)).toHaveLength(0);
    } finally {
      events.stop();
    }
  });

  test('cancelling an order whose 3-D Secure payment is pending cancels its PaymentIntent at Stripe', async () => {
    const { api, fake } = ctx();
    const item = await createProduct(api, { price: 2700 });
    const cart = await createCart(api, [{ variant_id: item.variant_id }]);
    const order = expectStatus(await payWith(api, cart.id, 'pm_card_authenticationRequired'), 201).body;
    const intentId = order.payments[0].provider_id;
    expectStatus(await api.post(`/v1/admin/orders/${order.id}/cancel`, { reason: 'customer called' }), 200);
    expect(fake.intents().find((i) => i.id === intentId)?.status).toBe('canceled');
    const voids = fake.requests.filter((r) => r.path === `/v1/payment_intents/${intentId}/cancel`);
    expect(voids.map((r) => r.idempotency_key)).toEqual([`${order.payments[0].id}_void`]);
    const after = expectStatus(await api.get(`/v1/admin/orders/${order.id}`), 200).body;
    expect(after).toMatchObject({ status: 'cancelled', payment_status: 'unpaid' });
    expect(after.payments[0].status).toBe('cancelled');
  });

  test('money that arrives for an order cancelled meanwhile (Stripe unreachable for the void) is refunded in full', async () => {
    const { api, fake, plan } = ctx();
    const item = await createProduct(api, { price: 3300 });
    const cart = await createCart(api, [{ variant_id: item.variant_id }]);
    const order = expectStatus(await payWith(api, cart.id, 'pm_card_authenticationRequired'), 201).body;
    const intentId = order.payments[0].provider_id;
    plan.cancel = 'unavailable';
    expectStatus(await api.post(`/v1/admin/orders/${order.id}/cancel`, { reason: 'customer called' }), 200);
    expect(fake.intents().find((i) => i.id === intentId)?.status).toBe('requires_action');

    fake.completeAction(intentId, 'succeed');
    const ack = expectStatus(await deliver(api, fake, 'payment_intent.succeeded', intentId), 200).body;
    expect(ack.outcome).toBe('late_payment_refunded');
    expect(
      fake
        .refunds()
        .filter((r) => r.payment_intent === intentId)
        .map((r) => r.amount),
    ).toEqual([3300]);
    const after = expectStatus(await api.get(`/v1/admin/orders/${order.id}`), 200).body;
    expect(after).toMatchObject({ status: 'cancelled', payment_status: 'unpaid' });
    expect(after.payments[0].status).toBe('cancelled');
    // Delivered again: no second refund.
    expect(
      expectStatus(await deliver(api, fake, 'payment_intent.succeeded', intentId), 200).body.outcome,
    ).toBe('unchanged');
    expect(fake.refunds().filter((r) => r.payment_intent === intentId)).toHaveLength(1);
  });

  test('webhooks: events about unknown payments are acknowledged; a provider without webhooks is 404', async () => {
    const { api, fake } = ctx();
    const item = await createProduct(api);
    const cart = await createCart(api, [{ variant_id: item.variant_id }], { shipping_address: ADDRESS });
    const order = expectStatus(await payWith(api, cart.id, 'pm_card_visa'), 201).body;
    // An event for an intent whose metadata names no payment of ours.
    const stranger = JSON.stringify({
      ...fake.webhookEvent('payment_intent.succeeded', order.payments[0].provider_id),
      data: { object: { ...fake.intent(order.payments[0].provider_id), metadata: {} } },
    });
    const ack = await api.request('POST', '/v1/webhooks/stripe', {
      key: null,
      rawBody: stranger,
      headers: {
        'content-type': 'application/json',
        'stripe-signature': fake.signWebhook(stranger, WEBHOOK_SECRET),
      },
    });
    expect(expectStatus(ack, 200).body).toEqual({ received: true, outcome: 'unchanged' });
    expectError(
      await api.request('POST', '/v1/webhooks/manual', {
        key: null,
        rawBody: '{}',
        headers: { 'content-type': 'application/json' },
      }),
      404,
      'not_found',
    );
  });
});
