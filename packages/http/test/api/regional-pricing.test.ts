import { CartItemAddSchema } from '@cartwright/core/schemas';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { createDiscount, createShippingMethod } from './support/catalog-fixtures';
import { describeApi, startApi, type TestApi } from './support/harness';
import {
  ADDRESS,
  checkout,
  createCustomer,
  createProduct,
  expectError,
  expectStatus,
  unique,
} from './support/order-fixtures';
import { describeStripeApi } from './support/stripe-fixtures';

/**
 * Carts, checkout and orders in a region over real HTTP on every engine (decisions §19): the
 * cart's `region_id` and `currency`, prices in the region (own, converted at the store → region
 * rate, none), its tax convention, discounts and shipping converted, the `region` condition, the
 * order's snapshot and its payment's currency, the re-pricing of a changed rate at checkout, admin
 * orders in a region with the `currency` / `region_id` filters, `currency_mismatch` on payments
 * and refunds. Every refusal is shown to change nothing. Each test makes regions of its own
 * currency (the blocks share one database per engine).
 */

// biome-ignore lint/suspicious/noExplicitAny: response bodies are read field by field in assertions.
type Body = any;

async function ok(res: Promise<{ status: number; body: Body }>, status = 200): Promise<Body> {
  const done = await res;
  expect(done.status, JSON.stringify(done.body)).toBe(status);
  return done.body;
}

/** A region in `currency` (20 % included unless told), its store → region rate when given. */
async function region(
  api: TestApi,
  currency: string,
  options: { rate?: number; tax_rate?: number; prices_include_tax?: boolean } = {},
): Promise<Body> {
  const created = await ok(
    api.post('/v1/admin/regions', {
      name: unique(`Region ${currency} `),
      code: unique('r')
        .toLowerCase()
        .replace(/[^a-z0-9_-]/g, ''),
      currency,
      tax_rate: options.tax_rate ?? 20,
      prices_include_tax: options.prices_include_tax ?? true,
    }),
  );
  if (options.rate !== undefined) {
    await ok(
      api.request('PUT', '/v1/admin/currency-rates', {
        body: { from_currency: 'USD', to_currency: currency, rate: options.rate },
      }),
    );
  }
  return created;
}

function regionPrice(api: TestApi, region_id: string, variant_id: string, price: number) {
  return ok(api.request('PUT', `/v1/admin/regions/${region_id}/prices`, { body: { variant_id, price } }));
}

const cartPath = (id: string) => `/v1/storefront/carts/${id}`;

describeApi('regional pricing: carts', (api) => {
  test('POST with region_id: region_id, currency, own and converted prices, the tax included; GET the same', async () => {
    const a = api();
    const eu = await region(a, 'EUR', { rate: 0.92 });
    const shirt = await createProduct(a, { price: 2000 });
    const mug = await createProduct(a, { price: 1000 });
    await regionPrice(a, eu.id, shirt.variant_id, 1800);
    const cart = await ok(
      a.storefront.post('/v1/storefront/carts', {
        region_id: eu.id,
        items: [
          { variant_id: shirt.variant_id, quantity: 1 },
          { variant_id: mug.variant_id, quantity: 2 },
        ],
      }),
    );
    expect(cart).toMatchObject({ region_id: eu.id, currency: 'EUR' });
    expect(cart.items.map((i: Body) => i.unit_price)).toEqual([
      { amount: 1800, currency: 'EUR' },
      { amount: 920, currency: 'EUR' },
    ]);
    expect(cart.summary).toEqual({
      subtotal: { amount: 3640, currency: 'EUR' },
      discount_total: { amount: 0, currency: 'EUR' },
      shipping_total: { amount: 0, currency: 'EUR' },
      tax_total: { amount: 607, currency: 'EUR' },
      total: { amount: 3640, currency: 'EUR' },
      item_count: 2,
      total_quantity: 3,
    });
    expect(await ok(a.storefront.get(cartPath(cart.id)))).toEqual(cart);
    // Without a region (and no default region): the store's settings.
    const plain = await ok(a.storefront.post('/v1/storefront/carts', {}));
    expect(plain).toMatchObject({ region_id: null, currency: 'USD' });
  });

  test('unknown region 404 (param region_id), inactive 422 region_unavailable, on POST and PATCH; the cart unchanged', async () => {
    const a = api();
    const off = await region(a, 'CHF', { rate: 0.88 });
    await ok(a.patch(`/v1/admin/regions/${off.id}`, { is_active: false }));
    expectError(
      await a.storefront.post('/v1/storefront/carts', { region_id: 'reg_nope' }),
      404,
      'not_found',
      'region_id',
    );
    expectError(
      await a.storefront.post('/v1/storefront/carts', { region_id: off.id }),
      422,
      'region_unavailable',
      'region_id',
    );
    const mug = await createProduct(a, { price: 1000 });
    const cart = await ok(
      a.storefront.post('/v1/storefront/carts', { items: [{ variant_id: mug.variant_id }] }),
    );
    expectError(
      await a.storefront.patch(cartPath(cart.id), { region_id: 'reg_nope' }),
      404,
      'not_found',
      'region_id',
    );
    expectError(
      await a.storefront.patch(cartPath(cart.id), { region_id: off.id }),
      422,
      'region_unavailable',
      'region_id',
    );
    expectError(
      await a.storefront.patch(cartPath(cart.id), { region_id: 42 }),
      400,
      'parameter_invalid',
      'region_id',
    );
    expect(await ok(a.storefront.get(cartPath(cart.id)))).toEqual(cart);
  });

  test('PATCH region_id re-prices; an item without a price there → 422 product_unavailable items[i], the cart unchanged', async () => {
    const a = api();
    const gb = await region(a, 'GBP', { rate: 0.8, tax_rate: 0, prices_include_tax: false });
    const jp = await region(a, 'JPY', { tax_rate: 10, prices_include_tax: false });
    const shirt = await createProduct(a, { price: 2000 });
    const mug = await createProduct(a, { price: 1000 });
    await regionPrice(a, jp.id, shirt.variant_id, 3000);
    const cart = await ok(
      a.storefront.post('/v1/storefront/carts', {
        items: [{ variant_id: shirt.variant_id }, { variant_id: mug.variant_id }],
      }),
    );
    const inGb = await ok(a.storefront.patch(cartPath(cart.id), { region_id: gb.id }));
    expect(inGb).toMatchObject({
      region_id: gb.id,
      currency: 'GBP',
      summary: { total: { amount: 2400, currency: 'GBP' } },
    });
    const refused = await a.storefront.patch(cartPath(cart.id), { region_id: jp.id });
    expectError(refused, 422, 'product_unavailable', 'items[1]');
    expect(await ok(a.storefront.get(cartPath(cart.id)))).toEqual(inGb);
    // Adding the mug to a cart in Japan is refused the same way.
    const jpCart = await ok(
      a.storefront.post('/v1/storefront/carts', {
        region_id: jp.id,
        items: [{ variant_id: shirt.variant_id }],
      }),
    );
    expect(jpCart.summary).toMatchObject({
      subtotal: { amount: 3000, currency: 'JPY' },
      tax_total: { amount: 300 },
    });
    expectError(
      await a.storefront.post(`${cartPath(jpCart.id)}/items`, { variant_id: mug.variant_id }),
      422,
      'product_unavailable',
      'variant_id',
    );
    expect(await ok(a.storefront.get(cartPath(jpCart.id)))).toEqual(jpCart);
  });

  test('discounts: fixed values converted, the region condition, no rate → 422 discount_not_applicable', async () => {
    const a = api();
    const se = await region(a, 'SEK', { rate: 10.5 });
    const no = await region(a, 'NOK');
    const shirt = await createProduct(a, { price: 2000 });
    const fixed = await createDiscount(a, { value_type: 'fixed', value: 500 });
    const local = await createDiscount(a, {
      value_type: 'percentage',
      value: 10,
      conditions: [{ type: 'region', operator: 'in', values: [se.id] }],
    });
    const elsewhere = await createDiscount(a, {
      value_type: 'percentage',
      value: 10,
      conditions: [{ type: 'region', operator: 'not_in', values: [se.id] }],
    });
    const discount = await ok(a.get(`/v1/admin/discounts/${local.id}`));
    expect(discount.conditions).toEqual([
      { id: expect.any(String), type: 'region', operator: 'in', values: [se.id] },
    ]);
    expectError(
      await a.post('/v1/admin/discounts', {
        name: 'Bad',
        code: unique('BAD'),
        value_type: 'percentage',
        value: 10,
        conditions: [{ type: 'region', operator: 'among', values: [se.id] }],
      }),
      400,
      'parameter_invalid',
    );

    const cart = await ok(
      a.storefront.post('/v1/storefront/carts', {
        region_id: se.id,
        items: [{ variant_id: shirt.variant_id }],
      }),
    );
    expect(cart.summary.subtotal).toEqual({ amount: 21000, currency: 'SEK' });
    const withFixed = await ok(a.storefront.post(`${cartPath(cart.id)}/discounts`, { code: fixed.code }));
    expect(withFixed.applied_discounts).toEqual([
      expect.objectContaining({ code: fixed.code, value: 5250, saved: { amount: 5250, currency: 'SEK' } }),
    ]);
    const withLocal = await ok(a.storefront.post(`${cartPath(cart.id)}/discounts`, { code: local.code }));
    expect(withLocal.summary.discount_total).toEqual({ amount: 5250 + 1575, currency: 'SEK' });
    expectError(
      await a.storefront.post(`${cartPath(cart.id)}/discounts`, { code: elsewhere.code }),
      422,
      'discount_not_applicable',
      'code',
    );
    // NOK has no rate: the fixed code cannot be converted; the percentage one applies.
    const noCart = await ok(a.storefront.post('/v1/storefront/carts', { region_id: no.id }));
    expectError(
      await a.storefront.post(`${cartPath(noCart.id)}/discounts`, { code: fixed.code }),
      422,
      'discount_not_applicable',
      'code',
    );
    expect(await ok(a.storefront.get(cartPath(noCart.id)))).toEqual(noCart);
    const noElsewhere = await ok(
      a.storefront.post(`${cartPath(noCart.id)}/discounts`, { code: elsewhere.code }),
    );
    expect(noElsewhere.discount_codes).toEqual([elsewhere.code]);
  });

  test('shipping: price converted; no rate → 422 shipping_method_unavailable on PATCH, the cart unchanged', async () => {
    const a = api();
    const dk = await region(a, 'DKK', { rate: 6.9 });
    const pl = await region(a, 'PLN');
    const mug = await createProduct(a, { price: 1000 });
    await regionPrice(a, pl.id, mug.variant_id, 4000);
    const method = await createShippingMethod(a, { price: 500 });
    const cart = await ok(
      a.storefront.post('/v1/storefront/carts', {
        region_id: dk.id,
        items: [{ variant_id: mug.variant_id }],
      }),
    );
    const shipped = await ok(a.storefront.patch(cartPath(cart.id), { shipping_method_id: method }));
    expect(shipped.summary.shipping_total).toEqual({ amount: 3450, currency: 'DKK' });
    const plCart = await ok(
      a.storefront.post('/v1/storefront/carts', {
        region_id: pl.id,
        items: [{ variant_id: mug.variant_id }],
      }),
    );
    expectError(
      await a.storefront.patch(cartPath(plCart.id), { shipping_method_id: method }),
      422,
      'shipping_method_unavailable',
      'shipping_method_id',
    );
    expect(await ok(a.storefront.get(cartPath(plCart.id)))).toEqual(plCart);
  });
});

describeApi('regional pricing: checkout and orders', (api) => {
  test('checkout: the order snapshots region_id, currency, tax; its payment is in that currency', async () => {
    const a = api();
    const eu = await region(a, 'EUR', { rate: 0.92 });
    const mug = await createProduct(a, { price: 1000 });
    const cart = await ok(
      a.storefront.post('/v1/storefront/carts', {
        region_id: eu.id,
        shipping_address: ADDRESS,
        items: [{ variant_id: mug.variant_id, quantity: 2 }],
      }),
    );
    const order = expectStatus(await checkout(a, cart.id), 201).body;
    expect(order).toMatchObject({
      region_id: eu.id,
      currency: 'EUR',
      subtotal: { amount: 1840, currency: 'EUR' },
      tax_total: { amount: 307, currency: 'EUR' },
      total: { amount: 1840, currency: 'EUR' },
    });
    expect(order.payments.map((p: Body) => p.amount)).toEqual([{ amount: 1840, currency: 'EUR' }]);
    expect(await ok(a.get(`/v1/admin/orders/${order.id}`))).toMatchObject({
      region_id: eu.id,
      currency: 'EUR',
    });
  });

  test('checkout in an inactive region → 422 region_unavailable; the cart stays active and no order is written', async () => {
    const a = api();
    const ch = await region(a, 'CHF', { rate: 0.88 });
    const mug = await createProduct(a, { price: 1000 });
    const cart = await ok(
      a.storefront.post('/v1/storefront/carts', {
        region_id: ch.id,
        shipping_address: ADDRESS,
        items: [{ variant_id: mug.variant_id }],
      }),
    );
    await ok(a.patch(`/v1/admin/regions/${ch.id}`, { is_active: false }));
    expectError(await checkout(a, cart.id), 422, 'region_unavailable', 'region_id');
    expect((await ok(a.storefront.get(cartPath(cart.id)))).status).toBe('active');
    expect((await ok(a.get(`/v1/admin/orders?region_id=${ch.id}`))).data).toEqual([]);
  });

  test('a rate changed between a cart read and checkout: the order has the NEW total, the one a fresh read shows', async () => {
    const a = api();
    const gb = await region(a, 'GBP', { rate: 0.8, tax_rate: 0, prices_include_tax: false });
    const mug = await createProduct(a, { price: 1000 });
    const cart = await ok(
      a.storefront.post('/v1/storefront/carts', {
        region_id: gb.id,
        shipping_address: ADDRESS,
        items: [{ variant_id: mug.variant_id, quantity: 3 }],
      }),
    );
    expect(cart.summary.total).toEqual({ amount: 2400, currency: 'GBP' });
    await ok(
      a.request('PUT', '/v1/admin/currency-rates', {
        body: { from_currency: 'USD', to_currency: 'GBP', rate: 0.85 },
      }),
    );
    const fresh = await ok(a.storefront.get(cartPath(cart.id)));
    const order = expectStatus(await checkout(a, cart.id), 201).body;
    expect(order.total).toEqual({ amount: 2550, currency: 'GBP' });
    expect(order.total).toEqual(fresh.summary.total);
  });

  test('admin orders: POST with region_id; filters currency and region_id; payments and refunds in another currency → 422', async () => {
    const a = api();
    const au = await region(a, 'AUD', { rate: 1.5, tax_rate: 10, prices_include_tax: false });
    const mug = await createProduct(a, { price: 1000 });
    const order = await ok(
      a.post('/v1/admin/orders', {
        email: 'ada@example.com',
        region_id: au.id,
        status: 'pending',
        lines: [{ variant_id: mug.variant_id, quantity: 2 }],
      }),
      201,
    );
    expect(order).toMatchObject({
      region_id: au.id,
      currency: 'AUD',
      subtotal: { amount: 3000, currency: 'AUD' },
      tax_total: { amount: 300, currency: 'AUD' },
      total: { amount: 3300, currency: 'AUD' },
    });
    expectError(
      await a.post('/v1/admin/orders', {
        email: 'ada@example.com',
        region_id: 'reg_nope',
        lines: [{ variant_id: mug.variant_id }],
      }),
      404,
      'not_found',
      'region_id',
    );
    const ids = async (query: string) =>
      (await ok(a.get(`/v1/admin/orders?${query}`))).data.map((o: Body) => o.id);
    expect(await ids(`region_id=${au.id}`)).toEqual([order.id]);
    expect(await ids('currency=aud')).toEqual([order.id]);
    expect(await ids('currency=USD')).not.toContain(order.id);
    expectError(await a.get('/v1/admin/orders?currency=AUDX'), 400, 'parameter_invalid', 'currency');

    expectError(
      await a.post(`/v1/admin/orders/${order.id}/payments`, {
        provider: 'cash',
        amount: { amount: 3300, currency: 'USD' },
      }),
      422,
      'currency_mismatch',
      'amount',
    );
    const payment = await ok(
      a.post(`/v1/admin/orders/${order.id}/payments`, {
        provider: 'cash',
        amount: { amount: 3300, currency: 'AUD' },
      }),
    );
    expect(payment.amount).toEqual({ amount: 3300, currency: 'AUD' });
    expectError(
      await a.post(`/v1/admin/orders/${order.id}/refunds`, { amount: { amount: 100, currency: 'USD' } }),
      422,
      'currency_mismatch',
      'amount',
    );
    const after = await ok(a.get(`/v1/admin/orders/${order.id}`));
    expect(after.refunds).toEqual([]);
    expect(after.payments.map((p: Body) => p.amount)).toEqual([{ amount: 3300, currency: 'AUD' }]);
  });

  test("a customer's total_spent counts the orders in the store currency only; total_orders counts them all", async () => {
    const a = api();
    const ca = await region(a, 'CAD', { rate: 1.35, tax_rate: 0, prices_include_tax: false });
    const mug = await createProduct(a, { price: 1000 });
    const customer = await createCustomer(a);
    for (const region_id of [undefined, ca.id]) {
      const order = await ok(
        a.post('/v1/admin/orders', {
          customer_id: customer.id,
          status: 'pending',
          ...(region_id !== undefined && { region_id }),
          lines: [{ variant_id: mug.variant_id }],
        }),
        201,
      );
      await ok(
        a.post(`/v1/admin/orders/${order.id}/payments`, { provider: 'cash', amount: order.total.amount }),
      );
    }
    const store = await ok(a.get('/v1/admin/store'));
    const usdTotal = (await ok(a.get(`/v1/admin/orders?customer_id=${customer.id}&currency=USD`))).data[0]
      .total;
    expect(await ok(a.get(`/v1/admin/customers/${customer.id}`))).toMatchObject({
      total_orders: 2,
      total_spent: { amount: usdTotal.amount, currency: store.currency },
    });
  });

  test('the default region prices a cart made without region_id', async () => {
    const a = api();
    const nz = await region(a, 'NZD', { rate: 1.6, tax_rate: 15, prices_include_tax: true });
    await ok(a.patch(`/v1/admin/regions/${nz.id}`, { is_default: true }));
    const mug = await createProduct(a, { price: 1000 });
    const cart = await ok(
      a.storefront.post('/v1/storefront/carts', { items: [{ variant_id: mug.variant_id }] }),
    );
    expect(cart).toMatchObject({
      region_id: nz.id,
      currency: 'NZD',
      summary: { total: { amount: 1600, currency: 'NZD' } },
    });
    await ok(a.patch(`/v1/admin/regions/${nz.id}`, { is_default: false }));
    expect(await ok(a.storefront.post('/v1/storefront/carts', {}))).toMatchObject({
      region_id: null,
      currency: 'USD',
    });
  });
});

describeStripeApi('regional pricing: a Stripe checkout in a region', (ctx) => {
  test('Stripe is asked for the order total in the region currency (JPY: no decimals); the payment is in it', async () => {
    const { api: a, fake } = ctx();
    const jp = await region(a, 'JPY', { rate: 151.37, tax_rate: 10, prices_include_tax: true });
    const mug = await createProduct(a, { price: 1999 });
    const cart = await ok(
      a.storefront.post('/v1/storefront/carts', {
        region_id: jp.id,
        shipping_address: ADDRESS,
        items: [{ variant_id: mug.variant_id }],
      }),
    );
    // 19.99 USD × 151.37 = 3025.8863 → 3026 JPY.
    expect(cart.summary.total).toEqual({ amount: 3026, currency: 'JPY' });
    const order = expectStatus(
      await checkout(a, cart.id, {
        email: 'card@example.com',
        payment_provider: 'stripe',
        payment_method_id: 'pm_card_visa',
      }),
      201,
    ).body;
    expect(order).toMatchObject({ region_id: jp.id, currency: 'JPY', payment_status: 'paid' });
    expect(order.payments.map((p: Body) => p.amount)).toEqual([{ amount: 3026, currency: 'JPY' }]);
    const created = fake.requests.filter(
      (r) =>
        r.method === 'POST' &&
        r.path === '/v1/payment_intents' &&
        r.idempotency_key?.startsWith(`checkout_${cart.id}_`),
    );
    expect(created.map((r) => [r.params.amount, r.params.currency])).toEqual([['3026', 'jpy']]);
  });
});

describe('regional pricing: round trips [postgres]', () => {
  let current: (TestApi & { close(): Promise<void> }) | undefined;
  beforeAll(async () => {
    current = await startApi('postgres');
  }, 60_000);
  afterAll(async () => {
    await current?.close();
  });

  /** Statements and round trips of one call (the adapter's counters, as round-trips.test.ts). */
  async function measure<T>(call: () => Promise<T>) {
    const storage = current!.engine.storage as unknown as {
      stats(): { statements: number; roundTrips: number };
    };
    const before = storage.stats();
    const value = await call();
    const after = storage.stats();
    return {
      value,
      traffic: {
        statements: after.statements - before.statements,
        roundTrips: after.roundTrips - before.roundTrips,
      },
    };
  }

  test('a cart in a region reads its region, rates and prices in one round trip once the cart is read: 3 statements more, 1 round trip more', async () => {
    const a = current!;
    const guest = { key_type: 'publishable', customer_id: null } as const;
    const eu = await region(a, 'EUR', { rate: 0.92 });
    const mug = await createProduct(a, { price: 1000, on_hand: 50 });
    const home = await ok(a.storefront.post('/v1/storefront/carts', {}));
    const away = await ok(a.storefront.post('/v1/storefront/carts', { region_id: eu.id }));
    const add = (cartId: string) =>
      measure(() =>
        a.engine.carts.addItem(
          a.scope,
          guest,
          cartId,
          CartItemAddSchema.parse({ variant_id: mug.variant_id }),
        ),
      );
    const plain = await add(home.id);
    const regional = await add(away.id);
    // [BEGIN, lock + cart, store, automatic discounts, variants] [touch + item insert, COMMIT]:
    // the variants are read beside the lock (round-trips.test.ts); the region's reads need the
    // cart's region_id, so a cart in a region reads them in a round trip between: [region,
    // rates, prices].
    expect(plain.traffic).toEqual({ statements: 9, roundTrips: 2 });
    expect(regional.traffic).toEqual({ statements: 12, roundTrips: 3 });
    expect(regional.value.summary.total).toEqual({ amount: 920, currency: 'EUR' });
  });
});
