import { expect, test } from 'vitest';
import type { ApiResponse, TestApi } from './support/harness';
import { describeApi } from './support/harness';
import {
  ADDRESS,
  checkout,
  createCart,
  createCodeDiscount,
  createCustomer,
  createProduct,
  expectError,
  expectStatus,
  tally,
} from './support/order-fixtures';
import { describeStripeApi } from './support/stripe-fixtures';

type Line = { variant_id: string; quantity: number };

/** A cart's (or an order's) lines as `variant → quantity`, whatever their order. */
function quantities(lines: readonly Line[]): Record<string, number> {
  const out: Record<string, number> = {};
  for (const line of lines) out[line.variant_id] = (out[line.variant_id] ?? 0) + line.quantity;
  return out;
}

function addItem(api: TestApi, cartId: string, variant_id: string, quantity = 1, customerToken?: string) {
  return api.storefront.post(
    `/v1/storefront/carts/${cartId}/items`,
    { variant_id, quantity },
    customerToken ? { customerToken } : {},
  );
}

async function cartOf(api: TestApi, cartId: string) {
  return expectStatus(await api.get(`/v1/storefront/carts/${cartId}`), 200).body as {
    id: string;
    status: string;
    customer_id: string | null;
    items: Array<Line & { id: string }>;
  };
}

/** A customer's active carts other than `except` (the storage's newest-active look-up, repeated). */
async function otherActiveCart(api: TestApi, customer_id: string, except: string) {
  return api.engine.context.storage.read((tx) =>
    tx.carts.getActive(api.scope, { customer_id: customer_id, except_cart_id: except }),
  );
}

/**
 * docs/contract.md#cart-concurrency: concurrent requests on one cart behave as if run one after another. Each test
 * fires its requests together against one server (SQLite and PostgreSQL); on PostgreSQL the
 * requests run on separate connections and wait on the cart's row lock.
 */
describeApi('cart concurrency', (api) => {
  test('the same variant added by two requests at once is one line with both quantities (10 carts)', async () => {
    const a = api();
    const item = await createProduct(a, { on_hand: 1000 });
    const carts = await Promise.all(Array.from({ length: 10 }, () => createCart(a, [])));
    const responses = await Promise.all(
      carts.flatMap((cart) => [
        addItem(a, cart.id, item.variant_id, 1),
        addItem(a, cart.id, item.variant_id, 2),
      ]),
    );
    expect(tally(responses)).toEqual({ 200: 20 });
    for (const cart of carts) {
      const stored = await cartOf(a, cart.id);
      expect(stored.items.map((i) => ({ variant_id: i.variant_id, quantity: i.quantity }))).toEqual([
        { variant_id: item.variant_id, quantity: 3 },
      ]);
    }
  }, 60_000);

  test('50 concurrent adds of one unit: 50 × 200 and one line of 50', async () => {
    const a = api();
    const item = await createProduct(a, { on_hand: 1000 });
    const cart = await createCart(a, []);
    const responses = await Promise.all(
      Array.from({ length: 50 }, () => addItem(a, cart.id, item.variant_id)),
    );
    expect(tally(responses)).toEqual({ 200: 50 });
    // One after another: every answer shows a different quantity, 1 … 50.
    const seen = responses.map((r) => r.body.items[0].quantity as number).sort((x, y) => x - y);
    expect(seen).toEqual(Array.from({ length: 50 }, (_, i) => i + 1));
    expect((await cartOf(a, cart.id)).items).toMatchObject([{ variant_id: item.variant_id, quantity: 50 }]);
  }, 60_000);

  test('50 concurrent adds against 10 in stock: exactly 10 × 200, 40 × 422 insufficient_inventory; the line holds 10', async () => {
    const a = api();
    const item = await createProduct(a, { on_hand: 10 });
    const cart = await createCart(a, []);
    const responses = await Promise.all(
      Array.from({ length: 50 }, () => addItem(a, cart.id, item.variant_id)),
    );
    expect(tally(responses)).toEqual({ 200: 10, 422: 40 });
    for (const r of responses)
      if (r.status === 422) expectError(r, 422, 'insufficient_inventory', 'quantity');
    expect((await cartOf(a, cart.id)).items).toMatchObject([{ variant_id: item.variant_id, quantity: 10 }]);
  }, 60_000);

  test('a PATCH of the quantity racing 20 adds: every answer and the final quantity fit one serial order', async () => {
    const a = api();
    const item = await createProduct(a, { on_hand: 1000 });
    const cart = await createCart(a, [{ variant_id: item.variant_id, quantity: 1 }]);
    const itemId = (await cartOf(a, cart.id)).items[0]!.id;
    const adds = Array.from({ length: 20 }, () => addItem(a, cart.id, item.variant_id));
    const patch = a.storefront.patch(`/v1/storefront/carts/${cart.id}/items/${itemId}`, { quantity: 100 });
    const [patched, ...added] = await Promise.all([patch, ...adds]);
    expect(expectStatus(patched!, 200).body.items[0].quantity).toBe(100);
    expect(tally(added)).toEqual({ 200: 20 });
    // Serially: the adds before the PATCH answer 2, 3, …; those after it 101, 102, ….
    const answers = added.map((r) => r.body.items[0].quantity as number).sort((x, y) => x - y);
    const before = answers.filter((q) => q < 100);
    const after = answers.filter((q) => q > 100);
    expect(before).toEqual(before.map((_, i) => i + 2));
    expect(after).toEqual(after.map((_, i) => i + 101));
    expect(before.length + after.length).toBe(20);
    expect((await cartOf(a, cart.id)).items).toMatchObject([{ id: itemId, quantity: 100 + after.length }]);
  }, 60_000);

  test('adds racing a manual checkout: each is in the order or refused 409 cart_not_active; the completed cart holds exactly the order', async () => {
    const a = api();
    const first = await createProduct(a, { on_hand: 1000 });
    const second = await createProduct(a, { on_hand: 1000 });
    for (let round = 0; round < 6; round++) {
      const cart = await createCart(a, [{ variant_id: first.variant_id, quantity: 1 }]);
      const adds = Array.from({ length: 12 }, (_, i) =>
        addItem(a, cart.id, i % 2 === 0 ? first.variant_id : second.variant_id),
      );
      // The checkout starts among the adds: some of them hold the cart's lock when it arrives.
      const paid = checkout(a, cart.id);
      const more = Array.from({ length: 12 }, (_, i) =>
        addItem(a, cart.id, i % 2 === 0 ? first.variant_id : second.variant_id),
      );
      const [order, ...answers] = await Promise.all([paid, ...adds, ...more]);
      expectStatus(order!, 201);
      for (const r of answers) {
        if (r.status === 409) expectError(r, 409, 'cart_not_active');
        else expectStatus(r, 200);
      }
      const lines = quantities(order!.body.lines);
      const stored = await cartOf(a, cart.id);
      expect(stored.status).toBe('completed');
      expect(quantities(stored.items)).toEqual(lines);
      // Every accepted add is in the order: the order holds 1 + (accepted adds) units in all.
      const acceptedCount = answers.filter((r) => r.status === 200).length;
      const units = Object.values(lines).reduce((sum, q) => sum + q, 0);
      expect(units).toBe(1 + acceptedCount);
    }
  }, 120_000);

  test('two guest carts merged into one customer at once (no cart yet): one active cart holds both (5 customers)', async () => {
    const a = api();
    const [x, y, shared] = await Promise.all([
      createProduct(a, { on_hand: 1000 }),
      createProduct(a, { on_hand: 1000 }),
      createProduct(a, { on_hand: 1000 }),
    ]);
    for (let round = 0; round < 5; round++) {
      const customer = await createCustomer(a);
      const g1 = await createCart(a, [
        { variant_id: x.variant_id },
        { variant_id: shared.variant_id, quantity: 1 },
      ]);
      const g2 = await createCart(a, [
        { variant_id: y.variant_id },
        { variant_id: shared.variant_id, quantity: 2 },
      ]);
      const [m1, m2] = await Promise.all(
        [g1, g2].map((g) =>
          a.storefront.post(`/v1/storefront/carts/${g.id}/merge`, undefined, {
            customerToken: customer.token,
          }),
        ),
      );
      expectStatus(m1!, 200);
      expectStatus(m2!, 200);
      expect(m1!.body.id).toBe(m2!.body.id);
      const kept = m1!.body.id as string;
      const carts = await Promise.all([g1, g2].map((g) => cartOf(a, g.id)));
      expect(carts.map((c) => c.status).sort()).toEqual(['abandoned', 'active']);
      const merged = await cartOf(a, kept);
      expect(merged).toMatchObject({ status: 'active', customer_id: customer.id });
      expect(quantities(merged.items)).toEqual({
        [x.variant_id]: 1,
        [y.variant_id]: 1,
        [shared.variant_id]: 3,
      });
      expect(merged.items).toHaveLength(3);
      expect(await otherActiveCart(a, customer.id, kept)).toBeNull();
    }
  }, 120_000);

  test('three guest carts merged at once into a customer’s cart: quantities summed on one line each', async () => {
    const a = api();
    const [x, shared] = await Promise.all([
      createProduct(a, { on_hand: 1000 }),
      createProduct(a, { on_hand: 1000 }),
    ]);
    for (let round = 0; round < 3; round++) {
      const customer = await createCustomer(a);
      const own = await createCart(a, [{ variant_id: shared.variant_id }], { customerToken: customer.token });
      const guests = await Promise.all([
        createCart(a, [{ variant_id: shared.variant_id, quantity: 2 }]),
        createCart(a, [{ variant_id: x.variant_id }, { variant_id: shared.variant_id, quantity: 3 }]),
        createCart(a, [{ variant_id: x.variant_id, quantity: 2 }]),
      ]);
      const merges = await Promise.all(
        guests.map((g) =>
          a.storefront.post(`/v1/storefront/carts/${g.id}/merge`, undefined, {
            customerToken: customer.token,
          }),
        ),
      );
      for (const m of merges) expect(expectStatus(m, 200).body.id).toBe(own.id);
      const merged = await cartOf(a, own.id);
      expect(merged.items).toHaveLength(2);
      expect(quantities(merged.items)).toEqual({ [shared.variant_id]: 6, [x.variant_id]: 3 });
      for (const g of guests) expect((await cartOf(a, g.id)).status).toBe('abandoned');
      expect(await otherActiveCart(a, customer.id, own.id)).toBeNull();
    }
  }, 120_000);
});

function payWithStripe(api: TestApi, cartId: string, paymentMethod = 'pm_card_visa') {
  return checkout(api, cartId, {
    email: 'attempt@example.com',
    payment_provider: 'stripe',
    payment_method_id: paymentMethod,
  });
}

/** Every cart change of the storefront, as a (label, request) pair, against one cart. */
function cartChanges(api: TestApi, cartId: string, itemId: string, variantId: string, code: string) {
  const path = `/v1/storefront/carts/${cartId}`;
  return [
    ['add item', () => addItem(api, cartId, variantId)],
    ['update item', () => api.storefront.patch(`${path}/items/${itemId}`, { quantity: 5 })],
    ['remove item', () => api.storefront.delete(`${path}/items/${itemId}`)],
    ['update cart', () => api.storefront.patch(path, { metadata: { late: true } })],
    ['apply discount', () => api.storefront.post(`${path}/discounts`, { code })],
    ['remove discount', () => api.storefront.delete(`${path}/discounts/${code}`)],
  ] as const;
}

function expectCheckoutInProgress(res: ApiResponse, label: string): void {
  expect({ label, status: res.status, code: res.body?.error?.code }).toEqual({
    label,
    status: 409,
    code: 'cart_not_active',
  });
  expect(res.body.error.message).toMatch(/checkout/i);
}

/**
 * docs/contract.md#cart-concurrency: while a provider checkout attempt of a cart is open (recorded, the provider
 * asked, no order yet), the order will be written from the attempt's snapshot: any change to the
 * cart meanwhile would be lost, so every change answers 409 `cart_not_active` instead.
 */
describeStripeApi('cart changes while a checkout attempt is open', (ctx) => {
  test('the process died after the charge: every change (items, cart, discounts, merge) is 409 until reconcile writes the order as claimed', async () => {
    const { api, plan } = ctx();
    const item = await createProduct(api, { price: 1500, on_hand: 10 });
    const extra = await createProduct(api, { price: 700, on_hand: 10 });
    const discount = await createCodeDiscount(api, { amount: 100 });
    const cart = await createCart(api, [{ variant_id: item.variant_id, quantity: 2 }]);
    const itemId = (await cartOf(api, cart.id)).items[0]!.id;
    expectStatus(
      await api.storefront.post(`/v1/storefront/carts/${cart.id}/discounts`, { code: discount.code }),
      200,
    );
    plan.crash = 'after';
    expect((await payWithStripe(api, cart.id)).status).toBe(500);

    for (const [label, change] of cartChanges(api, cart.id, itemId, extra.variant_id, discount.code)) {
      expectCheckoutInProgress(await change(), label);
    }
    const customer = await createCustomer(api);
    expectCheckoutInProgress(
      await api.storefront.post(`/v1/storefront/carts/${cart.id}/merge`, undefined, {
        customerToken: customer.token,
      }),
      'merge of the cart',
    );

    const report = await api.engine.orders.payments.reconcile({ olderThanMs: 0 });
    const created = report.results.find((r) => r.outcome === 'order_created');
    const order = expectStatus(await api.get(`/v1/admin/orders/${created?.order_id}`), 200).body;
    expect(quantities(order.lines)).toEqual({ [item.variant_id]: 2 });
    const stored = await cartOf(api, cart.id);
    expect(stored.status).toBe('completed');
    expect(quantities(stored.items)).toEqual(quantities(order.lines));
  }, 60_000);

  test('merging a guest cart into a customer cart whose checkout attempt is open is 409; the guest cart stays as it was', async () => {
    const { api, plan } = ctx();
    const item = await createProduct(api, { price: 1500, on_hand: 10 });
    const customer = await createCustomer(api);
    const own = await createCart(api, [{ variant_id: item.variant_id }], { customerToken: customer.token });
    plan.crash = 'after';
    const paid = await api.request('POST', `/v1/storefront/carts/${own.id}/checkout`, {
      key: api.keys.publishable,
      customerToken: customer.token,
      body: { payment_provider: 'stripe', payment_method_id: 'pm_card_visa' },
    });
    expect(paid.status).toBe(500);
    const guest = await createCart(api, [{ variant_id: item.variant_id, quantity: 3 }]);
    expectCheckoutInProgress(
      await api.storefront.post(`/v1/storefront/carts/${guest.id}/merge`, undefined, {
        customerToken: customer.token,
      }),
      'merge into the cart',
    );
    expect(await cartOf(api, guest.id)).toMatchObject({
      status: 'active',
      customer_id: null,
      items: [{ quantity: 3 }],
    });
    await api.engine.orders.payments.reconcile({ olderThanMs: 0 });
    expect((await cartOf(api, own.id)).status).toBe('completed');
  }, 60_000);

  test('while the provider is being asked, adds are 409; the order and the completed cart hold what was claimed', async () => {
    const { api, plan } = ctx();
    const item = await createProduct(api, { price: 1500, on_hand: 10 });
    const cart = await createCart(api, [{ variant_id: item.variant_id, quantity: 2 }]);
    let called: () => void = () => {};
    const asked = new Promise<void>((resolve) => {
      called = resolve;
    });
    let release: () => void = () => {};
    const held = new Promise<void>((resolve) => {
      release = resolve;
    });
    plan.beforeCall = () => {
      called();
      return held;
    };
    try {
      const paying = payWithStripe(api, cart.id);
      await asked;
      const adds = await Promise.all(Array.from({ length: 5 }, () => addItem(api, cart.id, item.variant_id)));
      for (const r of adds) expectCheckoutInProgress(r, 'add during the provider call');
      release();
      const order = expectStatus(await paying, 201).body;
      expect(quantities(order.lines)).toEqual({ [item.variant_id]: 2 });
      const stored = await cartOf(api, cart.id);
      expect(stored.status).toBe('completed');
      expect(quantities(stored.items)).toEqual({ [item.variant_id]: 2 });
    } finally {
      plan.beforeCall = null;
      release();
    }
  }, 60_000);

  test('after a declined attempt the cart takes changes again', async () => {
    const { api } = ctx();
    const item = await createProduct(api, { price: 1500, on_hand: 10 });
    const cart = await createCart(api, [{ variant_id: item.variant_id }]);
    expectError(await payWithStripe(api, cart.id, 'pm_card_chargeDeclined'), 402, 'payment_failed');
    const added = expectStatus(await addItem(api, cart.id, item.variant_id), 200).body;
    expect(added.items).toMatchObject([{ quantity: 2 }]);
    expectStatus(
      await api.storefront.patch(`/v1/storefront/carts/${cart.id}`, { shipping_address: ADDRESS }),
      200,
    );
  }, 60_000);
});
