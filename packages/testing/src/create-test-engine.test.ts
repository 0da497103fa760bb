import { CommerceError } from '@cartwright/core';
import { afterEach, describe, expect, test } from 'vitest';
import { createTestEngine, TEST_EMAIL, type TestEngine } from './create-test-engine';
import { DEFAULT_TEST_TIME } from './fake-clock';
import { TEST_ADDRESS } from './fixtures';

const open: TestEngine[] = [];
async function engine(options?: Parameters<typeof createTestEngine>[0]) {
  const t = await createTestEngine(options);
  open.push(t);
  return t;
}
afterEach(async () => {
  for (const t of open.splice(0)) await t.close();
});

/** The CommerceError a promise rejects with (fails the test if it resolves or throws something else). */
async function rejection(promise: Promise<unknown>): Promise<CommerceError> {
  const error = await promise.then(
    () => undefined,
    (e: unknown) => e,
  );
  if (!(error instanceof CommerceError)) throw new Error(`expected a CommerceError, got ${String(error)}`);
  return error;
}

describe('createTestEngine: a whole checkout in memory', () => {
  test('2 × 1000 with the fake visa → order confirmed, paid, total 2000 USD, stock reserved', async () => {
    const t = await engine();
    const { variant } = await t.fixtures.product({ price: 1000, on_hand: 5 });
    const cart = await t.fixtures.cart([{ variant_id: variant.id, quantity: 2 }]);
    const order = await t.checkout(cart.id);

    expect(order.status).toBe('confirmed');
    expect(order.payment_status).toBe('paid');
    expect(order.number).toBe(1001);
    expect(order.email).toBe(TEST_EMAIL);
    expect(order.total).toEqual({ amount: 2000, currency: 'USD' });
    expect(order.shipping_address?.line1).toBe(TEST_ADDRESS.line1);
    expect(order.payments).toHaveLength(1);
    expect(order.payments[0]?.status).toBe('completed');
    expect(t.payments?.charges.map((c) => [c.amount, c.payment_method_id])).toEqual([[2000, 'pm_card_visa']]);

    const inventory = await t.store.inventory.get(variant.inventory.id);
    expect([inventory.on_hand, inventory.reserved, inventory.available]).toEqual([5, 2, 3]);
    expect((await t.store.carts.get(cart.id)).status).toBe('completed');
    expect(t.events.types()).toEqual(
      expect.arrayContaining(['product.created', 'order.created', 'payment.completed', 'order.confirmed']),
    );
  });

  test('pm_card_chargeDeclined → 402 payment_failed, no order, cart still active, payment.failed recorded', async () => {
    const t = await engine();
    const { variant } = await t.fixtures.product({ price: 1500, on_hand: 1 });
    const cart = await t.fixtures.cart([{ variant_id: variant.id, quantity: 1 }]);

    const error = await rejection(t.checkout(cart.id, { payment_method_id: 'pm_card_chargeDeclined' }));
    expect(error.code).toBe('payment_failed');

    expect((await t.store.orders.list()).total_count).toBe(0);
    expect((await t.store.carts.get(cart.id)).status).toBe('active');
    expect((await t.store.inventory.get(variant.inventory.id)).reserved).toBe(0);
    expect(t.events.list('payment.failed')).toHaveLength(1);
    expect(t.events.list('order.created')).toHaveLength(0);
  });

  test('pm_card_authenticationRequired → order pending, payment pending (3-D Secure to do)', async () => {
    const t = await engine();
    const { variant } = await t.fixtures.product({ price: 700 });
    const cart = await t.fixtures.cart([{ variant_id: variant.id, quantity: 1 }]);
    const order = await t.checkout(cart.id, { payment_method_id: 'pm_card_authenticationRequired' });
    expect([order.status, order.payment_status, order.payments[0]?.status]).toEqual([
      'pending',
      'unpaid',
      'pending',
    ]);
  });

  test('manual provider → order pending and unpaid until the admin completes the payment', async () => {
    const t = await engine();
    const { variant } = await t.fixtures.product({ price: 1200 });
    const cart = await t.fixtures.cart([{ variant_id: variant.id, quantity: 1 }]);
    const order = await t.checkout(cart.id, { payment_provider: 'manual', email: 'a@b.co' });
    expect([order.status, order.payment_status, order.email]).toEqual(['pending', 'unpaid', 'a@b.co']);

    await t.store.orders.payments.complete(order.payments[0]?.id ?? '');
    const paid = await t.store.orders.get(order.id);
    expect([paid.status, paid.payment_status]).toEqual(['confirmed', 'paid']);
    expect(t.payments?.charges).toHaveLength(0);
  });

  test('payments: false → fake_card (and stripe) are 400 parameter_invalid and t.checkout falls back to manual', async () => {
    const t = await engine({ payments: false });
    expect(t.payments).toBeNull();
    expect(t.engine.paymentProviders).toEqual(['manual']);
    const { variant } = await t.fixtures.product({ price: 100 });
    const cart = await t.fixtures.cart([{ variant_id: variant.id }]);
    for (const payment_provider of ['fake_card', 'stripe']) {
      const error = await rejection(
        t.store.checkout(cart.id, { payment_provider, payment_method_id: 'pm_card_visa', email: 'a@b.co' }),
      );
      expect([error.code, error.param]).toEqual(['parameter_invalid', 'payment_provider']);
    }
    expect((await t.checkout(cart.id)).payment_status).toBe('unpaid');
  });

  test("the fake card registers as 'fake_card' (the payment's provider); payments: { name: 'stripe' } stands in for Stripe", async () => {
    const t = await engine();
    expect(t.engine.paymentProviders).toEqual(['manual', 'fake_card']);
    const { variant } = await t.fixtures.product({ price: 100 });
    const order = await t.checkout((await t.fixtures.cart([{ variant_id: variant.id }])).id);
    expect(order.payments.map((p) => [p.provider, p.status])).toEqual([['fake_card', 'completed']]);

    const asStripe = await engine({ payments: { name: 'stripe' } });
    expect(asStripe.engine.paymentProviders).toEqual(['manual', 'stripe']);
    const { variant: other } = await asStripe.fixtures.product({ price: 100 });
    const cart = await asStripe.fixtures.cart([{ variant_id: other.id }]);
    const paid = await asStripe.checkout(cart.id, { payment_provider: 'stripe' });
    expect(paid.payments.map((p) => [p.provider, p.status])).toEqual([['stripe', 'completed']]);
    expect(asStripe.payments?.charges).toHaveLength(1);
  });
});

describe('createTestEngine: store settings, clock, ids', () => {
  test('EUR store at 20 % tax: 2 × 1000 → tax 400, total 2400 EUR', async () => {
    const t = await engine({ store: { currency: 'EUR', tax_rate: 20 } });
    const { variant } = await t.fixtures.product({ price: 1000 });
    const cart = await t.fixtures.cart([{ variant_id: variant.id, quantity: 2 }]);
    expect(cart.summary.tax_total).toEqual({ amount: 400, currency: 'EUR' });
    expect((await t.checkout(cart.id)).total).toEqual({ amount: 2400, currency: 'EUR' });
  });

  test('the clock is frozen at 2025-01-01 and moves only when advanced: created_at follows it', async () => {
    const t = await engine();
    expect(t.clock.now()).toBe(DEFAULT_TEST_TIME);
    const first = await t.fixtures.customer();
    t.clock.advance('25h');
    const second = await t.fixtures.customer();
    expect(first.created_at).toBe('2025-01-01T00:00:00.000Z');
    expect(second.created_at).toBe('2025-01-02T01:00:00.000Z');
  });

  test('a discount window: the code applies before ends_at and is discount_expired after advancing past it', async () => {
    const t = await engine({ now: '2025-06-01T12:00:00Z' });
    await t.fixtures.discount({ code: 'SUMMER', value: 10, ends_at: '2025-06-02T00:00:00Z' });
    const { variant } = await t.fixtures.product({ price: 1000 });
    const cart = await t.fixtures.cart([{ variant_id: variant.id, quantity: 2 }]);
    const priced = await t.store.carts.applyDiscount(cart.id, { code: 'SUMMER' });
    expect(priced.summary.discount_total.amount).toBe(200);

    t.clock.advance('13h');
    const later = await t.fixtures.cart([{ variant_id: variant.id, quantity: 1 }]);
    const error = await rejection(t.store.carts.applyDiscount(later.id, { code: 'SUMMER' }));
    expect([error.code, error.param]).toEqual(['discount_expired', 'code']);
  });

  test('ids are deterministic: two engines doing the same work produce the same ids', async () => {
    const run = async () => {
      const t = await engine();
      const { product, variant } = await t.fixtures.product({ price: 100 });
      const cart = await t.fixtures.cart([{ variant_id: variant.id }]);
      const order = await t.checkout(cart.id);
      const token = await t.store.customers.issueToken((await t.fixtures.customer()).id);
      return [t.scope.store_id, product.id, variant.id, cart.id, order.id, token.token];
    };
    const [a, b] = [await run(), await run()];
    expect(a).toEqual(b);
    expect(a[1]).toMatch(/^prod_\d{12}$/);
    expect(a[5]).toMatch(/^ct_/);
  });

  test('engines are isolated: a product of one is not_found in the other', async () => {
    const one = await engine();
    const two = await engine();
    const { product } = await one.fixtures.product({ price: 100 });
    await one.fixtures.product({ price: 200 });
    expect((await two.store.products.list()).total_count).toBe(0);
    // Same sequential ids in both engines, so look up an id only `one` has made so far.
    const error = await rejection(two.store.products.get(product.id.replace(/\d+$/, '999999999999')));
    expect(error.code).toBe('not_found');
  });
});

describe('the facade validates like the HTTP API', () => {
  test('a cart item with quantity 0 → parameter_invalid on items[0][quantity]', async () => {
    const t = await engine();
    const { variant } = await t.fixtures.product({ price: 100 });
    const error = await rejection(t.store.carts.create({ items: [{ variant_id: variant.id, quantity: 0 }] }));
    expect([error.code, error.param]).toEqual(['parameter_invalid', 'items[0][quantity]']);
  });

  test('an unknown body field → parameter_unknown; a missing name → parameter_missing', async () => {
    const t = await engine();
    const unknown = await rejection(t.store.products.create({ name: 'x', colour: 'red' } as never));
    expect([unknown.code, unknown.param]).toEqual(['parameter_unknown', 'colour']);
    const missing = await rejection(t.store.products.create({} as never));
    expect([missing.code, missing.param]).toEqual(['parameter_missing', 'name']);
  });

  test('list queries take the HTTP forms: { status: "active", limit: "1" } pages one by one', async () => {
    const t = await engine();
    await t.fixtures.product({ price: 100 });
    await t.fixtures.product({ price: 200, status: 'draft' });
    await t.fixtures.product({ price: 300 });
    const page = await t.store.products.list({ status: 'active', limit: '1' });
    expect([page.data.length, page.total_count, page.has_more]).toEqual([1, 2, true]);
  });

  test('storefront(customer): another customer cannot see the cart (404), its owner can', async () => {
    const t = await engine();
    const [alice, bob] = [await t.fixtures.customer(), await t.fixtures.customer()];
    const { variant } = await t.fixtures.product({ price: 100 });
    const cart = await t.storefront(alice.id).carts.create({ items: [{ variant_id: variant.id }] });
    expect(cart.customer_id).toBe(alice.id);
    expect((await t.storefront(alice.id).carts.get(cart.id)).id).toBe(cart.id);
    expect((await rejection(t.storefront(bob.id).carts.get(cart.id))).code).toBe('not_found');
    expect((await rejection(t.storefront().carts.get(cart.id))).code).toBe('not_found');
  });

  test('a customer cart checks out with the customer e-mail (t.checkout adds none)', async () => {
    const t = await engine();
    const alice = await t.fixtures.customer({ email: 'alice@example.com' });
    const { variant } = await t.fixtures.product({ price: 100 });
    const cart = await t.fixtures.cart([{ variant_id: variant.id }], { customer_id: alice.id });
    const order = await t.checkout(cart.id);
    expect([order.email, order.customer_id]).toEqual(['alice@example.com', alice.id]);
  });

  test('a cart created without an address gets TEST_ADDRESS at checkout; an empty cart is cart_empty', async () => {
    const t = await engine();
    const { variant } = await t.fixtures.product({ price: 100 });
    const bare = await t.store.carts.create({ items: [{ variant_id: variant.id }] });
    expect(bare.shipping_address).toBeNull();
    expect((await t.checkout(bare.id)).shipping_address?.city).toBe(TEST_ADDRESS.city);
    const empty = await t.fixtures.cart([]);
    expect((await rejection(t.checkout(empty.id))).code).toBe('cart_empty');
  });
});

describe('engine.forStore on any engine (docs/embedding.md)', () => {
  test('a product without a SKU, 10 on hand; a cart of 2 → subtotal 5000', async () => {
    const t = await engine();
    const store = t.engine.forStore(t.scope);
    const product = await store.products.create({
      name: 'Tee',
      status: 'active',
      variants: [{ price: 2500, inventory: { on_hand: 10 } }],
    });
    const cart = await store.carts.create({
      items: [{ variant_id: product.variants[0]?.id ?? '', quantity: 2 }],
    });
    expect([product.variants[0]?.sku, cart.summary.subtotal.amount]).toEqual([null, 5000]);
  });
});

describe('fixtures', () => {
  test('product: active, numbered, one tracked variant with 100 on hand by default', async () => {
    const t = await engine();
    const { product, variant } = await t.fixtures.product({ price: 2500 });
    expect([product.name, product.status, product.type]).toEqual(['Product 1', 'active', 'physical']);
    expect([variant.sku, variant.price.amount, variant.inventory.on_hand]).toEqual(['SKU-0001', 2500, 100]);
    const second = await t.fixtures.product({
      price: 1,
      on_hand: 0,
      allow_backorder: true,
      name: 'Pre-order',
    });
    expect([second.product.name, second.variant.inventory.allow_backorder]).toEqual(['Pre-order', true]);
  });

  test('cart with a shipping method and a code: 3 × 1000, 10 % off, 500 shipping → total 3200', async () => {
    const t = await engine();
    const method = await t.fixtures.shippingMethod({ price: 500 });
    await t.fixtures.discount({ code: 'TEN' });
    const { variant } = await t.fixtures.product({ price: 1000 });
    const cart = await t.fixtures.cart([{ variant_id: variant.id, quantity: 3 }], {
      shipping_method_id: method.id,
      discount_codes: ['TEN'],
    });
    expect(cart.discount_codes).toEqual(['TEN']);
    expect(cart.summary.total.amount).toBe(3000 - 300 + 500);
  });

  test('an automatic discount (no code) applies by itself', async () => {
    const t = await engine();
    const discount = await t.fixtures.discount({ value_type: 'fixed', value: 150 });
    expect(discount.type).toBe('automatic');
    const { variant } = await t.fixtures.product({ price: 1000 });
    const cart = await t.fixtures.cart([{ variant_id: variant.id }]);
    expect(cart.summary.discount_total.amount).toBe(150);
  });
});
