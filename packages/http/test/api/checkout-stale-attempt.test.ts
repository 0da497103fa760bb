import { expect, test } from 'vitest';
import type { TestApi } from './support/harness';
import {
  checkout,
  createCart,
  createProduct,
  expectError,
  expectStatus,
  inventoryOf,
} from './support/order-fixtures';
import {
  allOrders,
  describeStripeApi,
  expectEveryChargeAccountedFor,
  type FakeStripe,
} from './support/stripe-fixtures';

/**
 * docs/payments.md#stale-attempts: an open checkout attempt claimed at least this long ago
 * (core's `ATTEMPT_LEASE_MS`: Stripe's 30 s timeout, retried once, + 5 s) is stale, and a
 * retried checkout of its cart settles it with Stripe at once instead of answering 409.
 */
const LEASE_MS = 65_000;

function payWith(api: TestApi, cartId: string, paymentMethod = 'pm_card_visa', idempotencyKey?: string) {
  return checkout(
    api,
    cartId,
    { email: 'stale@example.com', payment_provider: 'stripe', payment_method_id: paymentMethod },
    idempotencyKey === undefined ? {} : { idempotencyKey },
  );
}

function chargesFor(fake: FakeStripe, cartId: string) {
  return fake.charges().filter((c) => c.metadata.cart_id === cartId);
}

function cartStatus(api: TestApi, cartId: string) {
  return api.storefront.get(`/v1/storefront/carts/${cartId}`).then((r) => expectStatus(r, 200).body.status);
}

describeStripeApi('checkout: a retry settles the stale attempt of a crashed checkout', (ctx) => {
  test.each([
    ['after Stripe charged, retried without a key', 'after', false],
    ['after Stripe charged, retried with the same Idempotency-Key', 'after', true],
    ['before Stripe was called, retried without a key', 'before', false],
  ] as const)(
    'killed %s: 409 while in flight, then the retry answers 201 with the one paid order',
    async (_label, crash, sameKey) => {
      const { api, fake, plan, advance } = ctx();
      const item = await createProduct(api, { price: 2300, on_hand: 5 });
      const cart = await createCart(api, [{ variant_id: item.variant_id, quantity: 2 }]);
      const key = sameKey ? `stale-${cart.id}` : undefined;
      const ordersBefore = (await allOrders(api)).length;
      plan.crash = crash;
      expect((await payWith(api, cart.id, 'pm_card_visa', key)).status).toBe(500);
      expect(await cartStatus(api, cart.id)).toBe('active');

      // Still within the attempt's lease: it may be in flight, a second checkout is refused.
      advance(LEASE_MS - 1_000);
      expectError(await payWith(api, cart.id), 409, 'cart_not_active');

      // Stale now: the retry asks Stripe about that attempt and writes its order.
      advance(1_000);
      const res = await payWith(api, cart.id, 'pm_card_visa', key);
      const order = expectStatus(res, 201).body;
      expect(order).toMatchObject({
        status: 'confirmed',
        payment_status: 'paid',
        total: { amount: 4600 },
      });
      expect(order.payment).toMatchObject({ payment_intent_id: expect.stringMatching(/^pi_/) });
      expect(chargesFor(fake, cart.id)).toHaveLength(1);
      expect(fake.intents().filter((i) => i.metadata.cart_id === cart.id)).toHaveLength(1);
      expect(order.payments[0].provider_id).toBe(chargesFor(fake, cart.id)[0]?.payment_intent);
      expect(await cartStatus(api, cart.id)).toBe('completed');
      expect(await inventoryOf(api, item.inventory_id)).toMatchObject({ reserved: 2, available: 3 });
      expect((await allOrders(api)).length).toBe(ordersBefore + 1);

      // A replay of the retry (same key) answers the same order; reconciliation has nothing left.
      if (key !== undefined) {
        expect(expectStatus(await payWith(api, cart.id, 'pm_card_visa', key), 201).body.id).toBe(order.id);
      }
      const report = await api.engine.orders.payments.reconcile({ olderThanMs: 0 });
      expect(report.results.filter((r) => r.outcome === 'order_created')).toHaveLength(0);
      await expectEveryChargeAccountedFor(api, fake);
    },
  );

  test('declined at Stripe before the crash: the retry releases the attempt and pays with its own card', async () => {
    const { api, fake, plan, advance } = ctx();
    const item = await createProduct(api, { price: 800, on_hand: 2 });
    const cart = await createCart(api, [{ variant_id: item.variant_id, quantity: 2 }]);
    plan.crash = 'after';
    expect((await payWith(api, cart.id, 'pm_card_chargeDeclined')).status).toBe(500);
    expect(await inventoryOf(api, item.inventory_id)).toMatchObject({ reserved: 2, available: 0 });
    advance(LEASE_MS);

    const order = expectStatus(await payWith(api, cart.id, 'pm_card_visa'), 201).body;
    expect(order).toMatchObject({ status: 'confirmed', payment_status: 'paid' });
    expect(order.payments).toHaveLength(1);
    expect(chargesFor(fake, cart.id)).toHaveLength(1);
    // The stale attempt's units were released and the new attempt reserved them again: 2, not 4.
    expect(await inventoryOf(api, item.inventory_id)).toMatchObject({ reserved: 2, available: 0 });
    const keys = fake.requests
      .filter(
        (r) => r.path === '/v1/payment_intents' && r.idempotency_key?.startsWith(`checkout_${cart.id}_`),
      )
      .map((r) => r.idempotency_key);
    expect(new Set(keys)).toEqual(new Set([`checkout_${cart.id}_1`, `checkout_${cart.id}_2`]));
    await expectEveryChargeAccountedFor(api, fake);
  });

  test('two concurrent retries of a stale attempt: one order, one charge', async () => {
    const { api, fake, plan, advance } = ctx();
    const item = await createProduct(api, { price: 1500, on_hand: 3 });
    const cart = await createCart(api, [{ variant_id: item.variant_id }]);
    const ordersBefore = new Set((await allOrders(api)).map((o) => o.id));
    plan.crash = 'after';
    expect((await payWith(api, cart.id)).status).toBe(500);
    advance(LEASE_MS);

    // Both retries find the stale attempt and ask Stripe about it at the same time.
    const answers = await Promise.all([payWith(api, cart.id), payWith(api, cart.id, 'pm_card_visa', 'x')]);
    const ids = new Set<string>();
    for (const res of answers) {
      if (res.status === 409) expectError(res, 409, 'cart_not_active');
      else ids.add(expectStatus(res, 201).body.id);
    }
    expect(ids.size).toBe(1);
    const orders = (await allOrders(api)).filter((o) => !ordersBefore.has(o.id));
    expect(orders.map((o) => o.id)).toEqual([...ids]);
    expect(chargesFor(fake, cart.id)).toHaveLength(1);
    expect(fake.intents().filter((i) => i.metadata.cart_id === cart.id)).toHaveLength(1);
    expect(await inventoryOf(api, item.inventory_id)).toMatchObject({ reserved: 1, available: 2 });
    await expectEveryChargeAccountedFor(api, fake);
  });
});
