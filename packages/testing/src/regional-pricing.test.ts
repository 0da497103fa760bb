import { afterEach, describe, expect, test } from 'vitest';
import { expectCode } from './commerce-error.test-support';
import { createTestEngine, type TestEngine } from './create-test-engine';

/**
 * Carts, checkout and orders in a region (decisions §19) through the engine: the region's
 * currency, prices (own, same-currency, converted at the store → region rate, none), tax rate and
 * convention; discounts and shipping converted; the order's snapshot; admin orders, their filters,
 * payments and refunds in the order's currency; `total_spent` in the store currency. The HTTP
 * suite (packages/http/test/api/regional-pricing.test.ts) asserts the wire on every engine.
 *
 * The store sells in USD at 10 % on top. Europe (EUR, 20 % included) has a rate (1 USD = 0.92
 * EUR) and an own price for the shirt (18.00 EUR); Japan (JPY) has no rate and one own price.
 */

let t: TestEngine | undefined;
afterEach(async () => {
  await t?.close();
  t = undefined;
});

async function setup() {
  const engine = await createTestEngine({ store: { tax_rate: 10, prices_include_tax: false } });
  t = engine;
  const shirt = (await engine.fixtures.product({ name: 'Shirt', price: 2000 })).variant;
  const mug = (await engine.fixtures.product({ name: 'Mug', price: 1000 })).variant;
  const eu = await engine.store.regions.create({
    name: 'Europe',
    code: 'eu',
    currency: 'EUR',
    tax_rate: 20,
    prices_include_tax: true,
  });
  const jp = await engine.store.regions.create({ name: 'Japan', code: 'jp', currency: 'JPY' });
  await engine.store.currencyRates.upsert({ from_currency: 'USD', to_currency: 'EUR', rate: 0.92 });
  await engine.store.regionPrices.upsert(eu.id, { variant_id: shirt.id, price: 1800 });
  await engine.store.regionPrices.upsert(jp.id, { variant_id: shirt.id, price: 3000 });
  return { t: engine, shirt, mug, eu, jp };
}

const unitPrices = (cart: { items: Array<{ unit_price: { amount: number } }> }) =>
  cart.items.map((item) => item.unit_price.amount);

describe('carts in a region', () => {
  test('priced in the region: own price, converted price, its currency, tax rate and convention', async () => {
    const { t, shirt, mug, eu } = await setup();
    const cart = await t.store.carts.create({
      region_id: eu.id,
      items: [
        { variant_id: shirt.id, quantity: 1 },
        { variant_id: mug.id, quantity: 2 },
      ],
    });
    expect(cart).toMatchObject({ region_id: eu.id, currency: 'EUR' });
    expect(unitPrices(cart)).toEqual([1800, 920]);
    // 20 % included: 1800 − round(1800 / 1.2) = 300, 1840 − round(1840 / 1.2) = 307.
    expect(cart.summary).toEqual({
      subtotal: { amount: 3640, currency: 'EUR' },
      discount_total: { amount: 0, currency: 'EUR' },
      shipping_total: { amount: 0, currency: 'EUR' },
      tax_total: { amount: 607, currency: 'EUR' },
      total: { amount: 3640, currency: 'EUR' },
      item_count: 2,
      total_quantity: 3,
    });
    expect(await t.store.carts.get(cart.id)).toEqual(cart);
  });

  test('without a region: the default region, else the store settings (an inactive default is passed over)', async () => {
    const { t, mug, eu } = await setup();
    const plain = await t.store.carts.create({ items: [{ variant_id: mug.id, quantity: 1 }] });
    expect(plain).toMatchObject({
      region_id: null,
      currency: 'USD',
      summary: { tax_total: { amount: 100 } },
    });
    await t.store.regions.update(eu.id, { is_default: true });
    const defaulted = await t.store.carts.create({ items: [{ variant_id: mug.id, quantity: 1 }] });
    expect(defaulted).toMatchObject({
      region_id: eu.id,
      currency: 'EUR',
      summary: { total: { amount: 920 } },
    });
    // A cart made before keeps the store settings.
    expect(await t.store.carts.get(plain.id)).toMatchObject({ region_id: null, currency: 'USD' });
    await t.store.regions.update(eu.id, { is_active: false });
    expect(await t.store.carts.create({})).toMatchObject({ region_id: null, currency: 'USD' });
  });

  test('an unknown region is 404 (param region_id), an inactive one 422 region_unavailable; nothing changes', async () => {
    const { t, mug, eu } = await setup();
    await expectCode(t.store.carts.create({ region_id: 'reg_nope' }), 'not_found', 'region_id');
    const cart = await t.store.carts.create({ items: [{ variant_id: mug.id, quantity: 1 }] });
    await expectCode(t.store.carts.update(cart.id, { region_id: 'reg_nope' }), 'not_found', 'region_id');
    await t.store.regions.update(eu.id, { is_active: false });
    await expectCode(t.store.carts.create({ region_id: eu.id }), 'region_unavailable', 'region_id');
    await expectCode(t.store.carts.update(cart.id, { region_id: eu.id }), 'region_unavailable', 'region_id');
    expect(await t.store.carts.get(cart.id)).toEqual(cart);
  });

  test('changing the region re-prices the cart; an item without a price there → 422 product_unavailable items[i], cart unchanged', async () => {
    const { t, shirt, mug, eu, jp } = await setup();
    const cart = await t.store.carts.create({
      items: [
        { variant_id: shirt.id, quantity: 1 },
        { variant_id: mug.id, quantity: 1 },
      ],
    });
    const inEu = await t.store.carts.update(cart.id, { region_id: eu.id });
    expect(inEu).toMatchObject({ region_id: eu.id, currency: 'EUR', summary: { total: { amount: 2720 } } });
    expect(unitPrices(inEu)).toEqual([1800, 920]);
    // Japan has no rate: the mug (item 1) has no price there.
    const error = await expectCode(
      t.store.carts.update(cart.id, { region_id: jp.id }),
      'product_unavailable',
      'items[1]',
    );
    expect(error.data).toEqual({ variant_id: mug.id });
    expect(await t.store.carts.get(cart.id)).toEqual(inEu);
    await t.store.carts.removeItem(cart.id, inEu.items[1]!.id);
    const inJp = await t.store.carts.update(cart.id, { region_id: jp.id });
    expect(inJp).toMatchObject({
      region_id: jp.id,
      currency: 'JPY',
      summary: { subtotal: { amount: 3000, currency: 'JPY' } },
    });
  });

  test('adding an item not sold in the region → 422 product_unavailable; one whose price went away is refused at checkout', async () => {
    const { t, shirt, mug, eu, jp } = await setup();
    const cart = await t.store.carts.create({
      region_id: jp.id,
      items: [{ variant_id: shirt.id, quantity: 1 }],
    });
    await expectCode(
      t.store.carts.addItem(cart.id, { variant_id: mug.id, quantity: 1 }),
      'product_unavailable',
      'variant_id',
    );
    await expectCode(
      t.store.carts.create({ region_id: jp.id, items: [{ variant_id: mug.id, quantity: 1 }] }),
      'product_unavailable',
      'items[0][variant_id]',
    );
    expect(await t.store.carts.get(cart.id)).toEqual(cart);

    const euCart = await t.store.carts.create({
      region_id: eu.id,
      items: [{ variant_id: mug.id, quantity: 1 }],
    });
    const rate = (await t.store.currencyRates.list()).data[0]!;
    await t.store.currencyRates.delete(rate.id);
    await expectCode(t.checkout(euCart.id), 'product_unavailable', 'items[0][variant_id]');
  });

  test('a merge into a cart in a region keeps its region and drops the guest items not sold there', async () => {
    const { t, shirt, mug, jp } = await setup();
    const ada = await t.fixtures.customer();
    const target = await t.fixtures.cart([{ variant_id: shirt.id, quantity: 1 }], {
      customer_id: ada.id,
      region_id: jp.id,
    });
    const guest = await t.storefront().carts.create({
      items: [
        { variant_id: shirt.id, quantity: 2 },
        { variant_id: mug.id, quantity: 1 },
      ],
    });
    const merged = await t.storefront(ada.id).carts.merge(target.id, ada.id, { source_cart_id: guest.id });
    expect(merged).toMatchObject({ id: target.id, region_id: jp.id, currency: 'JPY' });
    expect(merged.items.map((item) => [item.variant_id, item.quantity])).toEqual([[shirt.id, 3]]);
    expect(merged.summary.subtotal).toEqual({ amount: 9000, currency: 'JPY' });
    expect((await t.store.carts.get(guest.id)).status).toBe('abandoned');
    // The mug was not carried over (a hidden, unsellable item would refuse the checkout).
    const order = await t.checkout(target.id);
    expect(order.lines.map((line) => [line.variant_id, line.quantity])).toEqual([[shirt.id, 3]]);
  });
});

describe('discounts and shipping in a region', () => {
  test('fixed values, minimum_amount and maximum_discount convert; percentages apply as they are', async () => {
    const { t, shirt, eu } = await setup();
    await t.fixtures.discount({ code: 'TENOFF', value_type: 'fixed', value: 1000, minimum_amount: 2000 });
    await t.fixtures.discount({ code: 'HALF', value: 50, maximum_discount: 500 });
    const cart = await t.store.carts.create({
      region_id: eu.id,
      items: [{ variant_id: shirt.id, quantity: 1 }],
    });
    // minimum 2000 USD = 1840 EUR ≤ 1800? No: the code does not apply to an 18.00 EUR cart.
    await expectCode(
      t.store.carts.applyDiscount(cart.id, { code: 'TENOFF' }),
      'discount_not_applicable',
      'code',
    );
    await t.store.carts.updateItem(cart.id, cart.items[0]!.id, { quantity: 2 });
    const fixed = await t.store.carts.applyDiscount(cart.id, { code: 'TENOFF' });
    expect(fixed.applied_discounts).toEqual([
      expect.objectContaining({ code: 'TENOFF', value: 920, saved: { amount: 920, currency: 'EUR' } }),
    ]);
    const both = await t.store.carts.applyDiscount(cart.id, { code: 'HALF' });
    // 50 % of what is left (3600 − 920 = 2680) is 1340, capped at 500 USD = 460 EUR.
    expect(both.applied_discounts.map((d) => d.saved.amount)).toEqual([920, 460]);
    expect(both.summary.discount_total).toEqual({ amount: 1380, currency: 'EUR' });
  });

  test('no rate: a code with a store-currency amount is 422 discount_not_applicable, an automatic one is skipped; percentages apply', async () => {
    const { t, shirt, jp } = await setup();
    await t.fixtures.discount({ value_type: 'fixed', value: 100 });
    await t.fixtures.discount({ code: 'FIVE', value_type: 'fixed', value: 500 });
    await t.fixtures.discount({ code: 'TEN', value: 10 });
    const cart = await t.store.carts.create({
      region_id: jp.id,
      items: [{ variant_id: shirt.id, quantity: 1 }],
    });
    expect(cart.applied_discounts).toEqual([]);
    await expectCode(
      t.store.carts.applyDiscount(cart.id, { code: 'FIVE' }),
      'discount_not_applicable',
      'code',
    );
    const ten = await t.store.carts.applyDiscount(cart.id, { code: 'TEN' });
    expect(ten.summary.discount_total).toEqual({ amount: 300, currency: 'JPY' });
  });

  test('the region condition: in / not_in over region ids, a cart without a region is in no list', async () => {
    const { t, shirt, eu } = await setup();
    await t.fixtures.discount({
      code: 'EUONLY',
      value: 10,
      conditions: [{ type: 'region', operator: 'in', values: [eu.id] }],
    });
    await t.fixtures.discount({
      code: 'NOTEU',
      value: 10,
      conditions: [{ type: 'region', operator: 'not_in', values: [eu.id] }],
    });
    const home = await t.store.carts.create({ items: [{ variant_id: shirt.id, quantity: 1 }] });
    await expectCode(
      t.store.carts.applyDiscount(home.id, { code: 'EUONLY' }),
      'discount_not_applicable',
      'code',
    );
    expect(
      (await t.store.carts.applyDiscount(home.id, { code: 'NOTEU' })).summary.discount_total.amount,
    ).toBe(200);
    const away = await t.store.carts.create({
      region_id: eu.id,
      items: [{ variant_id: shirt.id, quantity: 1 }],
    });
    await expectCode(
      t.store.carts.applyDiscount(away.id, { code: 'NOTEU' }),
      'discount_not_applicable',
      'code',
    );
    expect((await t.store.carts.applyDiscount(away.id, { code: 'EUONLY' })).summary.discount_total).toEqual({
      amount: 180,
      currency: 'EUR',
    });
  });

  test('shipping price and threshold convert; no rate → 422 shipping_method_unavailable when set', async () => {
    const { t, shirt, mug, eu, jp } = await setup();
    const method = await t.fixtures.shippingMethod({ price: 500, free_shipping_threshold: 2500 });
    const cart = await t.store.carts.create({
      region_id: eu.id,
      items: [{ variant_id: mug.id, quantity: 2 }],
    });
    const shipped = await t.store.carts.update(cart.id, { shipping_method_id: method.id });
    // 1840 EUR < 2300 EUR (25.00 USD): 5.00 USD = 4.60 EUR of shipping.
    expect(shipped.summary.shipping_total).toEqual({ amount: 460, currency: 'EUR' });
    const more = await t.store.carts.addItem(cart.id, { variant_id: mug.id, quantity: 1 });
    expect(more.summary.shipping_total.amount).toBe(0);
    const inJp = await t.store.carts.create({
      region_id: jp.id,
      items: [{ variant_id: shirt.id, quantity: 1 }],
    });
    await expectCode(
      t.store.carts.update(inJp.id, { shipping_method_id: method.id }),
      'shipping_method_unavailable',
      'shipping_method_id',
    );
    expect(await t.store.carts.get(inJp.id)).toEqual(inJp);
  });
});

describe('checkout in a region', () => {
  test('a shipping method whose price lost its rate after it was set → checkout 422 shipping_method_unavailable', async () => {
    const { t, shirt, eu } = await setup();
    const method = await t.fixtures.shippingMethod({ price: 500 });
    const cart = await t.fixtures.cart([{ variant_id: shirt.id, quantity: 1 }], {
      region_id: eu.id,
      shipping_method_id: method.id,
    });
    expect(cart.summary.shipping_total).toEqual({ amount: 460, currency: 'EUR' });
    const rate = (await t.store.currencyRates.list()).data[0]!;
    await t.store.currencyRates.delete(rate.id);
    // The shirt keeps its own price in the region; the method has none without the rate.
    expect((await t.store.carts.get(cart.id)).summary.shipping_total.amount).toBe(0);
    await expectCode(t.checkout(cart.id), 'shipping_method_unavailable', 'shipping_method_id');
    expect((await t.store.carts.get(cart.id)).status).toBe('active');
  });

  test('the order snapshots the region, its currency and tax settings; the payment is in that currency', async () => {
    const { t, shirt, mug, eu } = await setup();
    const cart = await t.store.carts.create({
      region_id: eu.id,
      items: [
        { variant_id: shirt.id, quantity: 1 },
        { variant_id: mug.id, quantity: 2 },
      ],
    });
    const order = await t.checkout(cart.id);
    expect(order).toMatchObject({
      region_id: eu.id,
      currency: 'EUR',
      subtotal: { amount: 3640, currency: 'EUR' },
      tax_total: { amount: 607, currency: 'EUR' },
      total: { amount: 3640, currency: 'EUR' },
    });
    expect(order.lines.map((line) => line.unit_price)).toEqual([
      { amount: 1800, currency: 'EUR' },
      { amount: 920, currency: 'EUR' },
    ]);
    expect(order.payments.map((p) => p.amount)).toEqual([{ amount: 3640, currency: 'EUR' }]);
    // The snapshot stays when the region changes.
    await t.store.regions.update(eu.id, { tax_rate: 5 });
    expect(await t.store.orders.get(order.id)).toMatchObject({
      region_id: eu.id,
      tax_total: { amount: 607 },
    });
  });

  test('checkout in an inactive region → 422 region_unavailable, nothing written', async () => {
    const { t, mug, eu } = await setup();
    const cart = await t.store.carts.create({
      region_id: eu.id,
      items: [{ variant_id: mug.id, quantity: 1 }],
    });
    await t.store.regions.update(eu.id, { is_active: false });
    await expectCode(t.checkout(cart.id), 'region_unavailable', 'region_id');
    expect((await t.store.carts.get(cart.id)).status).toBe('active');
    expect((await t.store.orders.list({})).data).toEqual([]);
  });

  test('a rate changed between a cart read and checkout: the order takes the NEW total, as a fresh cart read shows', async () => {
    const { t, mug, eu } = await setup();
    const cart = await t.store.carts.create({
      region_id: eu.id,
      items: [{ variant_id: mug.id, quantity: 3 }],
    });
    expect(cart.summary.total).toEqual({ amount: 2760, currency: 'EUR' });
    await t.store.currencyRates.upsert({ from_currency: 'USD', to_currency: 'EUR', rate: 0.95 });
    const fresh = await t.store.carts.get(cart.id);
    const order = await t.checkout(cart.id);
    expect(order.total).toEqual({ amount: 2850, currency: 'EUR' });
    expect(order.total).toEqual(fresh.summary.total);
    expect(order.tax_total).toEqual(fresh.summary.tax_total);
  });
});

describe('admin orders in a region', () => {
  test('create with region_id prices in it; unknown → 404, inactive → 422, unsold variant → 422', async () => {
    const { t, shirt, mug, eu, jp } = await setup();
    const order = await t.store.orders.create({
      email: 'ada@example.com',
      region_id: eu.id,
      lines: [{ variant_id: shirt.id, quantity: 1 }],
    });
    expect(order).toMatchObject({
      region_id: eu.id,
      currency: 'EUR',
      total: { amount: 1800, currency: 'EUR' },
    });
    await expectCode(
      t.store.orders.create({
        email: 'ada@example.com',
        region_id: 'reg_nope',
        lines: [{ variant_id: shirt.id }],
      }),
      'not_found',
      'region_id',
    );
    await expectCode(
      t.store.orders.create({ email: 'ada@example.com', region_id: jp.id, lines: [{ variant_id: mug.id }] }),
      'product_unavailable',
      'lines[0][variant_id]',
    );
    await t.store.regions.update(jp.id, { is_active: false });
    await expectCode(
      t.store.orders.create({
        email: 'ada@example.com',
        region_id: jp.id,
        lines: [{ variant_id: shirt.id }],
      }),
      'region_unavailable',
      'region_id',
    );
    expect((await t.store.orders.list({})).data.map((o) => o.id)).toEqual([order.id]);
  });

  test('list filters currency and region_id', async () => {
    const { t, mug, eu } = await setup();
    const home = await t.checkout(
      (await t.store.carts.create({ items: [{ variant_id: mug.id, quantity: 1 }] })).id,
    );
    const away = await t.checkout(
      (await t.store.carts.create({ region_id: eu.id, items: [{ variant_id: mug.id, quantity: 1 }] })).id,
    );
    const ids = async (query: Record<string, string>) =>
      (await t.store.orders.list(query)).data.map((o) => o.id);
    expect(await ids({ currency: 'EUR' })).toEqual([away.id]);
    expect(await ids({ currency: 'usd' })).toEqual([home.id]);
    expect(await ids({ region_id: eu.id })).toEqual([away.id]);
    expect(await ids({ region_id: eu.id, currency: 'USD' })).toEqual([]);
    await expectCode(t.store.orders.list({ currency: 'EURO' }), 'parameter_invalid', 'currency');
  });

  test('payments and refunds in another currency than the order’s → 422 currency_mismatch', async () => {
    const { t, mug, eu } = await setup();
    const order = await t.store.orders.create({
      email: 'ada@example.com',
      region_id: eu.id,
      status: 'pending',
      lines: [{ variant_id: mug.id, quantity: 1 }],
    });
    await expectCode(
      t.store.orders.payments.create(order.id, {
        provider: 'cash',
        amount: { amount: 920, currency: 'USD' },
      }),
      'currency_mismatch',
      'amount',
    );
    const paid = await t.store.orders.payments.create(order.id, {
      provider: 'cash',
      amount: { amount: 920, currency: 'EUR' },
    });
    expect(paid.amount).toEqual({ amount: 920, currency: 'EUR' });
    await expectCode(
      t.store.orders.refunds.create(order.id, { amount: { amount: 100, currency: 'USD' } }),
      'currency_mismatch',
      'amount',
    );
    const refund = await t.store.orders.refunds.create(order.id, { amount: 100 });
    expect(refund.amount).toEqual({ amount: 100, currency: 'EUR' });
  });

  test('a customer’s total_spent counts the orders in the store currency only', async () => {
    const { t, mug, eu } = await setup();
    const customer = await t.fixtures.customer();
    for (const region_id of [undefined, eu.id]) {
      const cart = await t.store.carts.create({
        customer_id: customer.id,
        ...(region_id !== undefined && { region_id }),
        items: [{ variant_id: mug.id, quantity: 1 }],
      });
      // Paid in full at checkout (the fake card provider): 11.00 USD, 9.20 EUR.
      expect((await t.checkout(cart.id)).payment_status).toBe('paid');
    }
    expect(await t.store.customers.get(customer.id)).toMatchObject({
      total_orders: 2,
      total_spent: { amount: 1100, currency: 'USD' },
    });
  });
});
