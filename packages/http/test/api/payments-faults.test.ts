import { expect, test } from 'vitest';
import type { TestApi } from './support/harness';
import {
  checkout,
  createCart,
  createCodeDiscount,
  createProduct,
  expectError,
  expectStatus,
  inventoryOf,
} from './support/order-fixtures';
import {
  allOrders,
  barrier,
  crashBeforeOrderCommit,
  describeStripeApi,
  expectEveryChargeAccountedFor,
  type FakeStripe,
} from './support/stripe-fixtures';

function payWith(api: TestApi, cartId: string, paymentMethod = 'pm_card_visa') {
  return checkout(api, cartId, {
    email: 'faults@example.com',
    payment_provider: 'stripe',
    payment_method_id: paymentMethod,
  });
}

/** Reconciles every pending payment now (no age threshold). */
function reconcileNow(api: TestApi) {
  return api.engine.orders.payments.reconcile({ olderThanMs: 0 });
}

function chargesFor(fake: FakeStripe, cartId: string) {
  return fake.charges().filter((c) => c.metadata.cart_id === cartId);
}

describeStripeApi('payments: faults and reconciliation', (ctx) => {
  /**
   * A crash at each step of checkout, then reconciliation: afterwards the cart's one charge
   * belongs to exactly one paid order (and nothing was charged twice).
   */
  test.each([
    ['before the provider call', 'before'],
    ['after the provider charged', 'after'],
  ] as const)(
    'killed %s: the attempt stays open (409 for a retry); reconcile writes the one paid order',
    async (_label, crash) => {
      const { api, fake, plan } = ctx();
      const item = await createProduct(api, { price: 2100, on_hand: 5 });
      const cart = await createCart(api, [{ variant_id: item.variant_id, quantity: 2 }]);
      plan.crash = crash;
      const res = await payWith(api, cart.id);
      expect(res.status).toBe(500);
      expect(chargesFor(fake, cart.id)).toHaveLength(crash === 'after' ? 1 : 0);
      // The units stay reserved and a retry cannot start a second payment while the attempt is open.
      expect(await inventoryOf(api, item.inventory_id)).toMatchObject({ reserved: 2 });
      expectError(await payWith(api, cart.id), 409, 'cart_not_active');

      const report = await reconcileNow(api);
      const mine = report.results.filter((r) => r.outcome === 'order_created');
      expect(mine).toHaveLength(1);
      const order = expectStatus(await api.get(`/v1/admin/orders/${mine[0]?.order_id}`), 200).body;
      expect(order).toMatchObject({ status: 'confirmed', payment_status: 'paid', total: { amount: 4200 } });
      expect(chargesFor(fake, cart.id)).toHaveLength(1);
      expect(order.payments[0].provider_id).toBe(chargesFor(fake, cart.id)[0]?.payment_intent);
      // The replay used the attempt's own key: Stripe answered it idempotently, no second intent.
      const creations = fake.requests.filter(
        (r) => r.path === '/v1/payment_intents' && r.idempotency_key === `checkout_${cart.id}_1`,
      );
      expect(new Set(creations.map((r) => r.idempotency_key)).size).toBe(1);
      expect(fake.intents().filter((i) => i.metadata.cart_id === cart.id)).toHaveLength(1);
      expect(expectStatus(await api.storefront.get(`/v1/storefront/carts/${cart.id}`), 200).body.status).toBe(
        'completed',
      );
      expect(await inventoryOf(api, item.inventory_id)).toMatchObject({ reserved: 2 });

      // Reconciling again changes nothing.
      const second = await reconcileNow(api);
      expect(second.results.filter((r) => r.outcome === 'order_created')).toHaveLength(0);
      await expectEveryChargeAccountedFor(api, fake);
    },
  );

  test('killed before the order transaction committed: nothing of the order remains; reconcile writes it once', async () => {
    const { api, fake } = ctx();
    const item = await createProduct(api, { price: 1200 });
    const cart = await createCart(api, [{ variant_id: item.variant_id }]);
    const ordersBefore = (await allOrders(api)).length;
    const restore = crashBeforeOrderCommit(api.engine);
    let res: Awaited<ReturnType<typeof payWith>>;
    try {
      res = await payWith(api, cart.id);
    } finally {
      restore();
    }
    expect(res.status).toBe(500);
    expect(chargesFor(fake, cart.id)).toHaveLength(1);
    expect(await allOrders(api)).toHaveLength(ordersBefore);

    const report = await reconcileNow(api);
    expect(report.results.map((r) => r.outcome)).toContain('order_created');
    expect(await allOrders(api)).toHaveLength(ordersBefore + 1);
    expect(chargesFor(fake, cart.id)).toHaveLength(1);
    await expectEveryChargeAccountedFor(api, fake);
  });

  test('Stripe’s answer lost on the wire: the client retries with the same key; one charge, one order', async () => {
    const { api, fake } = ctx();
    const item = await createProduct(api, { price: 900 });
    const cart = await createCart(api, [{ variant_id: item.variant_id }]);
    fake.setNetworkFailure('drop-next');
    const order = expectStatus(await payWith(api, cart.id), 201).body;
    expect(order.payment_status).toBe('paid');
    const creations = fake.requests.filter(
      (r) => r.path === '/v1/payment_intents' && r.idempotency_key === `checkout_${cart.id}_1`,
    );
    expect(creations.map((r) => r.outcome)).toEqual(['dropped', 'answered']);
    expect(creations[1]?.replayed).toBe(true);
    expect(chargesFor(fake, cart.id)).toHaveLength(1);
    await expectEveryChargeAccountedFor(api, fake);
  });

  test.each([
    ['charged but never answered', 'drop-all', 1],
    ['never reached', 'refuse-all', 0],
  ] as const)(
    'Stripe %s: 502 payment_provider_unavailable; reconcile settles it to one paid order',
    async (_label, mode, chargedBefore) => {
      const { api, fake } = ctx();
      const item = await createProduct(api, { price: 1700 });
      const cart = await createCart(api, [{ variant_id: item.variant_id }]);
      fake.setNetworkFailure(mode);
      let res: Awaited<ReturnType<typeof payWith>>;
      try {
        res = await payWith(api, cart.id);
      } finally {
        fake.setNetworkFailure('none');
      }
      expectError(res, 502, 'payment_provider_unavailable');
      expect(chargesFor(fake, cart.id)).toHaveLength(chargedBefore);

      const report = await reconcileNow(api);
      expect(report.results.filter((r) => r.outcome === 'order_created')).toHaveLength(1);
      expect(chargesFor(fake, cart.id)).toHaveLength(1);
      await expectEveryChargeAccountedFor(api, fake);
    },
  );

  test('Stripe unreachable during reconciliation: the attempt stays open and the next run settles it', async () => {
    const { api, fake, plan } = ctx();
    const item = await createProduct(api, { price: 1100 });
    const cart = await createCart(api, [{ variant_id: item.variant_id }]);
    plan.crash = 'after';
    expect((await payWith(api, cart.id)).status).toBe(500);
    fake.setNetworkFailure('refuse-all');
    let first: Awaited<ReturnType<typeof reconcileNow>>;
    try {
      first = await reconcileNow(api);
    } finally {
      fake.setNetworkFailure('none');
    }
    expect(first.results.map((r) => r.outcome)).toContain('error');
    const second = await reconcileNow(api);
    expect(second.results.filter((r) => r.outcome === 'order_created')).toHaveLength(1);
    expect(chargesFor(fake, cart.id)).toHaveLength(1);
    await expectEveryChargeAccountedFor(api, fake);
  });

  test('charged, then the order is refused (the discount ran out meanwhile): the money is refunded at once (422)', async () => {
    const { api, fake, plan } = ctx();
    const item = await createProduct(api, { price: 2000, on_hand: 10 });
    const discount = await createCodeDiscount(api, { prefix: 'ONCE', usage_limit: 1 });
    const { code } = discount;
    const carts = [
      await createCart(api, [{ variant_id: item.variant_id }]),
      await createCart(api, [{ variant_id: item.variant_id }]),
    ];
    for (const cart of carts) {
      expectStatus(await api.storefront.post(`/v1/storefront/carts/${cart.id}/discounts`, { code }), 200);
    }
    // Both checkouts pass their claim, then meet at the provider: both are charged.
    plan.beforeCall = barrier(2);
    let responses: Array<Awaited<ReturnType<typeof payWith>>>;
    try {
      responses = await Promise.all(carts.map((cart) => payWith(api, cart.id)));
    } finally {
      plan.beforeCall = null;
    }
    expect(responses.map((r) => r.status).sort()).toEqual([201, 422]);
    const lost = responses.findIndex((r) => r.status === 422);
    expectError(responses[lost]!, 422, 'discount_usage_limit_reached');
    const loser = carts[lost]!;
    const charge = chargesFor(fake, loser.id)[0];
    expect(charge?.amount).toBe(1500);
    expect(
      fake
        .refunds()
        .filter((r) => r.payment_intent === charge?.payment_intent)
        .map((r) => r.amount),
    ).toEqual([1500]);
    expect(expectStatus(await api.storefront.get(`/v1/storefront/carts/${loser.id}`), 200).body.status).toBe(
      'active',
    );
    expect(expectStatus(await api.get(`/v1/admin/discounts/${discount.id}`), 200).body.usage_count).toBe(1);
    expect(await inventoryOf(api, item.inventory_id)).toMatchObject({ reserved: 1 });
    await expectEveryChargeAccountedFor(api, fake);
  });

  test('killed after the charge, and the cart can no longer be checked out by reconciliation time: reconcile refunds', async () => {
    const { api, fake, plan } = ctx();
    const item = await createProduct(api, { price: 2600, on_hand: 10 });
    const { code } = await createCodeDiscount(api, { prefix: 'SOLO', amount: 600, usage_limit: 1 });
    const crashed = await createCart(api, [{ variant_id: item.variant_id }]);
    const other = await createCart(api, [{ variant_id: item.variant_id }]);
    for (const cart of [crashed, other]) {
      expectStatus(await api.storefront.post(`/v1/storefront/carts/${cart.id}/discounts`, { code }), 200);
    }
    plan.crash = 'after';
    expect((await payWith(api, crashed.id)).status).toBe(500);
    expectStatus(await payWith(api, other.id), 201); // takes the discount's only use

    const report = await reconcileNow(api);
    expect(report.results.map((r) => r.outcome)).toContain('refunded');
    const charge = chargesFor(fake, crashed.id)[0];
    expect(
      fake
        .refunds()
        .filter((r) => r.payment_intent === charge?.payment_intent)
        .map((r) => r.amount),
    ).toEqual([2000]);
    expect(await inventoryOf(api, item.inventory_id)).toMatchObject({ reserved: 1 });
    expect(
      expectStatus(await api.storefront.get(`/v1/storefront/carts/${crashed.id}`), 200).body.status,
    ).toBe('active');
    await expectEveryChargeAccountedFor(api, fake);
  });

  test('a declined card found by reconciliation releases the units; an attempt Stripe never saw is replayed once', async () => {
    const { api, fake, plan } = ctx();
    const item = await createProduct(api, { price: 700, on_hand: 2 });
    const cart = await createCart(api, [{ variant_id: item.variant_id, quantity: 2 }]);
    plan.crash = 'after';
    expect((await payWith(api, cart.id, 'pm_card_chargeDeclined')).status).toBe(500);
    expect(await inventoryOf(api, item.inventory_id)).toMatchObject({ reserved: 2, available: 0 });
    const report = await reconcileNow(api);
    expect(report.results.map((r) => r.outcome)).toContain('declined');
    expect(await inventoryOf(api, item.inventory_id)).toMatchObject({ reserved: 0, available: 2 });
    expect(chargesFor(fake, cart.id)).toHaveLength(0);
    expect(expectStatus(await api.storefront.get(`/v1/storefront/carts/${cart.id}`), 200).body.status).toBe(
      'active',
    );
    expectStatus(await payWith(api, cart.id), 201);
    await expectEveryChargeAccountedFor(api, fake);
  });

  test('reconcile leaves young attempts alone (olderThanMs) and reports what it did', async () => {
    const { api, fake, plan } = ctx();
    const item = await createProduct(api, { price: 500 });
    const cart = await createCart(api, [{ variant_id: item.variant_id }]);
    plan.crash = 'before';
    expect((await payWith(api, cart.id)).status).toBe(500);
    const young = await api.engine.orders.payments.reconcile({ olderThanMs: 60_000 });
    expect(young.results.some((r) => r.outcome === 'order_created')).toBe(false);
    expectError(await payWith(api, cart.id), 409, 'cart_not_active');
    const now = await reconcileNow(api);
    const created = now.results.find((r) => r.outcome === 'order_created');
    expect(created).toMatchObject({ provider: 'stripe', mode: 'test', store_id: api.scope.store_id });
    const order = expectStatus(await api.get(`/v1/admin/orders/${created?.order_id}`), 200).body;
    const intent = fake.intents().find((i) => i.metadata.cart_id === cart.id);
    expect(order.payments[0].provider_id).toBe(intent?.id);
  });
});
