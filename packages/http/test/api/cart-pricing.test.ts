import type { AppliedDiscount, CartItem } from '@cartwright/core';
import { beforeAll, expect, test } from 'vitest';
import {
  createCart,
  createDiscount,
  createProduct,
  createShippingMethod,
  setTax,
  usd,
} from './support/catalog-fixtures';
import { describeApi, type TestApi } from './support/harness';

/**
 * Worked money examples of docs/contract.md#pricing through HTTP: every cart response is priced fresh.
 * Each block gets a fresh store, so tax settings and automatic discounts never leak between them.
 */

async function cartWith(
  api: TestApi,
  items: Array<{ variant_id: string; quantity?: number }>,
  shipping?: string,
) {
  const cart = await createCart(api, { items });
  if (shipping === undefined) return cart;
  const res = await api.storefront.patch(`/v1/storefront/carts/${cart.id}`, { shipping_method_id: shipping });
  expect(res.status).toBe(200);
  return res.body;
}

async function applyCode(api: TestApi, cartId: string, code: string | null) {
  const res = await api.storefront.post(`/v1/storefront/carts/${cartId}/discounts`, { code });
  expect(res.status, JSON.stringify(res.body)).toBe(200);
  return res.body;
}

const sum = (amounts: Array<{ amount: number }>) => amounts.reduce((acc, m) => acc + m.amount, 0);

describeApi('cart pricing: tax exclusive at 8.875 %', (api) => {
  beforeAll(async () => {
    await setTax(api(), 8.875, false);
  });

  test('3 × 19.99 + 5.99 shipping: tax 532 + 53 = 585, total 71.81', async () => {
    const p = await createProduct(api(), { price: 1999 });
    const ship = await createShippingMethod(api(), { price: 599 });
    const cart = await cartWith(api(), [{ variant_id: p.variant_id, quantity: 3 }], ship);
    expect(cart.items[0]).toMatchObject({
      unit_price: usd(1999),
      line_discount: usd(0),
      line_total: usd(5997),
    });
    expect(cart.summary).toEqual({
      subtotal: usd(5997),
      discount_total: usd(0),
      shipping_total: usd(599),
      tax_total: usd(585),
      total: usd(7181),
      item_count: 1,
      total_quantity: 3,
    });
  });

  test('1.00 off 10 + 20 + 40 splits by largest remainder into 14 / 29 / 57; tax per discounted line 88 + 175 + 350', async () => {
    const a = await createProduct(api(), { price: 1000 });
    const b = await createProduct(api(), { price: 2000 });
    const c = await createProduct(api(), { price: 4000 });
    const d = await createDiscount(api(), { value_type: 'fixed', value: 100 });
    const cart = await cartWith(api(), [
      { variant_id: a.variant_id },
      { variant_id: b.variant_id },
      { variant_id: c.variant_id },
    ]);
    const priced = await applyCode(api(), cart.id, d.code);
    expect(priced.items.map((i: CartItem) => i.line_discount.amount)).toEqual([14, 29, 57]);
    expect(priced.items.map((i: CartItem) => i.line_total.amount)).toEqual([986, 1971, 3943]);
    expect(sum(priced.items.map((i: CartItem) => i.line_discount))).toBe(
      priced.summary.discount_total.amount,
    );
    expect(priced.summary).toMatchObject({
      subtotal: usd(7000),
      discount_total: usd(100),
      tax_total: usd(613),
      total: usd(7513),
    });
  });

  test('a shipping-target discount counts in discount_total and shipping tax is on the rest: 20.00 + 5.99 − 3.00', async () => {
    const p = await createProduct(api(), { price: 2000 });
    const ship = await createShippingMethod(api(), { price: 599 });
    const d = await createDiscount(api(), { value_type: 'fixed', value: 300, target: 'shipping' });
    const cart = await cartWith(api(), [{ variant_id: p.variant_id }], ship);
    const priced = await applyCode(api(), cart.id, d.code);
    expect(priced.items[0].line_discount).toEqual(usd(0));
    // tax: 2000 × 8.875 % = 177.5 → 178; (599 − 300) × 8.875 % = 26.54 → 27
    expect(priced.summary).toMatchObject({
      subtotal: usd(2000),
      discount_total: usd(300),
      shipping_total: usd(599),
      tax_total: usd(205),
      total: usd(2504),
    });
    expect(priced.applied_discounts[0]).toMatchObject({ discount_id: d.id, saved: usd(300) });
  });

  test('free_shipping takes the whole shipping price off, and no shipping tax is due', async () => {
    const p = await createProduct(api(), { price: 2000 });
    const ship = await createShippingMethod(api(), { price: 599 });
    const d = await createDiscount(api(), { value_type: 'free_shipping' });
    const cart = await cartWith(api(), [{ variant_id: p.variant_id }], ship);
    const priced = await applyCode(api(), cart.id, d.code);
    expect(priced.summary).toMatchObject({
      discount_total: usd(599),
      shipping_total: usd(599),
      tax_total: usd(178),
      total: usd(2178),
    });
    expect(priced.applied_discounts).toEqual([
      {
        discount_id: d.id,
        code: d.code,
        name: expect.any(String),
        value_type: 'free_shipping',
        value: 0,
        saved: usd(599),
      },
    ]);
  });

  test('a free-shipping threshold of 50.00 compares with the discounted subtotal', async () => {
    const p = await createProduct(api(), { price: 2500 });
    const ship = await createShippingMethod(api(), { price: 599, free_shipping_threshold: 5000 });
    const cart = await cartWith(api(), [{ variant_id: p.variant_id }], ship);
    // 2500 + 599 + tax (222 + 53)
    expect(cart.summary).toMatchObject({ shipping_total: usd(599), tax_total: usd(275), total: usd(3374) });

    const two = await api().storefront.patch(`/v1/storefront/carts/${cart.id}/items/${cart.items[0].id}`, {
      quantity: 2,
    });
    expect(two.body.summary).toMatchObject({
      subtotal: usd(5000),
      shipping_total: usd(0),
      tax_total: usd(444),
      total: usd(5444),
    });

    const d = await createDiscount(api(), { value_type: 'fixed', value: 500 });
    const discounted = await applyCode(api(), cart.id, d.code);
    // 5000 − 500 = 4500 < 5000: shipping is due again; tax 399 + 53
    expect(discounted.summary).toMatchObject({
      subtotal: usd(5000),
      discount_total: usd(500),
      shipping_total: usd(599),
      tax_total: usd(452),
      total: usd(5551),
    });
  });
});

describeApi('cart pricing: tax inclusive at 8.875 %', (api) => {
  beforeAll(async () => {
    await setTax(api(), 8.875, true);
  });

  test('3 × 19.99 + 5.99 shipping: contained tax 489 + 49, total 65.96', async () => {
    const p = await createProduct(api(), { price: 1999 });
    const ship = await createShippingMethod(api(), { price: 599 });
    const cart = await cartWith(api(), [{ variant_id: p.variant_id, quantity: 3 }], ship);
    expect(cart.summary).toMatchObject({
      subtotal: usd(5997),
      shipping_total: usd(599),
      tax_total: usd(538),
      total: usd(6596),
    });
  });

  test('10 % off 59.97 = 6.00 (5.997 rounded); tax contained in 53.97 is 440', async () => {
    const p = await createProduct(api(), { price: 1999 });
    const ship = await createShippingMethod(api(), { price: 599 });
    const d = await createDiscount(api(), { value_type: 'percentage', value: 10 });
    const cart = await cartWith(api(), [{ variant_id: p.variant_id, quantity: 3 }], ship);
    const priced = await applyCode(api(), cart.id, d.code);
    expect(priced.items[0]).toMatchObject({ line_discount: usd(600), line_total: usd(5397) });
    expect(priced.summary).toMatchObject({
      subtotal: usd(5997),
      discount_total: usd(600),
      shipping_total: usd(599),
      tax_total: usd(489),
      total: usd(5996),
    });
  });
});

describeApi('cart pricing: discounts without tax', (api) => {
  test('a fixed code with a 20.00 minimum: refused at 15.00, applies at 30.00, stops qualifying when items go', async () => {
    const a = await createProduct(api(), { price: 1500 });
    const b = await createProduct(api(), { price: 1500 });
    const d = await createDiscount(api(), { value_type: 'fixed', value: 500, minimum_amount: 2000 });
    const cart = await cartWith(api(), [{ variant_id: a.variant_id }]);
    const refused = await api().storefront.post(`/v1/storefront/carts/${cart.id}/discounts`, {
      code: d.code,
    });
    expect(refused.status).toBe(422);
    expect(refused.body.error.code).toBe('discount_not_applicable');

    const more = await api().storefront.post(`/v1/storefront/carts/${cart.id}/items`, {
      variant_id: b.variant_id,
    });
    expect(more.body.summary.subtotal).toEqual(usd(3000));
    const applied = await applyCode(api(), cart.id, d.code);
    expect(applied.summary).toMatchObject({ discount_total: usd(500), total: usd(2500) });
    expect(applied.items.map((i: CartItem) => i.line_discount.amount)).toEqual([250, 250]);

    const removed = await api().storefront.delete(
      `/v1/storefront/carts/${cart.id}/items/${applied.items[1].id}`,
    );
    expect(removed.status).toBe(200);
    expect(removed.body.discount_codes).toEqual([d.code]);
    expect(removed.body.applied_discounts).toEqual([]);
    expect(removed.body.summary).toMatchObject({
      subtotal: usd(1500),
      discount_total: usd(0),
      total: usd(1500),
    });

    const back = await api().storefront.post(`/v1/storefront/carts/${cart.id}/items`, {
      variant_id: b.variant_id,
    });
    expect(back.body.applied_discounts).toHaveLength(1);
    expect(back.body.summary.total).toEqual(usd(2500));
  });

  test('15 % of 100.00 is capped at 10.00 by maximum_discount; 12.5 % of 9.99 rounds to 1.25', async () => {
    const p = await createProduct(api(), { price: 10000 });
    const capped = await createDiscount(api(), {
      value_type: 'percentage',
      value: 15,
      maximum_discount: 1000,
    });
    const cart = await cartWith(api(), [{ variant_id: p.variant_id }]);
    const priced = await applyCode(api(), cart.id, capped.code);
    expect(priced.summary).toMatchObject({ discount_total: usd(1000), total: usd(9000) });
    expect(priced.applied_discounts[0]).toMatchObject({
      value_type: 'percentage',
      value: 15,
      saved: usd(1000),
    });

    const odd = await createProduct(api(), { price: 999 });
    const pct = await createDiscount(api(), { value_type: 'percentage', value: 12.5 });
    const small = await cartWith(api(), [{ variant_id: odd.variant_id }]);
    const res = await applyCode(api(), small.id, pct.code);
    expect(res.summary).toMatchObject({ discount_total: usd(125), total: usd(874) });
  });

  test('line_item fixed: 1.50 off each unit of the eligible product only', async () => {
    const eligible = await createProduct(api(), { price: 1000 });
    const other = await createProduct(api(), { price: 500 });
    const d = await createDiscount(api(), {
      value_type: 'fixed',
      value: 150,
      target: 'line_item',
      conditions: [{ type: 'product', values: [eligible.product_id] }],
    });
    const cart = await cartWith(api(), [
      { variant_id: eligible.variant_id, quantity: 2 },
      { variant_id: other.variant_id },
    ]);
    const priced = await applyCode(api(), cart.id, d.code);
    expect(priced.items.map((i: CartItem) => i.line_discount.amount)).toEqual([300, 0]);
    expect(priced.items.map((i: CartItem) => i.line_total.amount)).toEqual([1700, 500]);
    expect(priced.summary).toMatchObject({ subtotal: usd(2500), discount_total: usd(300), total: usd(2200) });
  });

  test('line_item percentage on tagged products; a fixed value above the unit price stops at zero', async () => {
    const sale = await createProduct(api(), { price: 999, tags: ['sale'] });
    const full = await createProduct(api(), { price: 500 });
    const pct = await createDiscount(api(), {
      value_type: 'percentage',
      value: 10,
      target: 'line_item',
      conditions: [{ type: 'product_tag', values: ['sale'] }],
    });
    const cart = await cartWith(api(), [{ variant_id: sale.variant_id }, { variant_id: full.variant_id }]);
    const priced = await applyCode(api(), cart.id, pct.code);
    // 10 % of 999 = 99.9 → 100
    expect(priced.items.map((i: CartItem) => i.line_discount.amount)).toEqual([100, 0]);

    const big = await createDiscount(api(), {
      value_type: 'fixed',
      value: 800,
      target: 'line_item',
      conditions: [{ type: 'variant', values: [full.variant_id] }],
    });
    const both = await applyCode(api(), cart.id, big.code);
    expect(both.items.map((i: CartItem) => i.line_total.amount)).toEqual([899, 0]);
    expect(both.summary).toMatchObject({ subtotal: usd(1499), discount_total: usd(600), total: usd(899) });
  });

  test('discounts stack in the order added, each on what remains, and never exceed the subtotal', async () => {
    const p = await createProduct(api(), { price: 10000 });
    const first = await createDiscount(api(), { value_type: 'percentage', value: 10 });
    const second = await createDiscount(api(), { value_type: 'percentage', value: 10 });
    const cart = await cartWith(api(), [{ variant_id: p.variant_id }]);
    await applyCode(api(), cart.id, first.code);
    const priced = await applyCode(api(), cart.id, second.code);
    expect(priced.applied_discounts.map((a: AppliedDiscount) => [a.discount_id, a.saved.amount])).toEqual([
      [first.id, 1000],
      [second.id, 900],
    ]);
    expect(priced.summary.total).toEqual(usd(8100));

    const q = await createProduct(api(), { price: 3000 });
    const huge = await createDiscount(api(), { value_type: 'fixed', value: 5000 });
    const small = await cartWith(api(), [{ variant_id: q.variant_id }]);
    const zero = await applyCode(api(), small.id, huge.code);
    expect(zero.summary).toMatchObject({ discount_total: usd(3000), total: usd(0) });
  });
});

describeApi('cart pricing: automatic discounts', (api) => {
  test('automatic discounts apply by themselves, before codes; inactive or unmet ones are skipped silently', async () => {
    const p = await createProduct(api(), { price: 2000 });
    const auto = await createDiscount(api(), { type: 'automatic', value_type: 'percentage', value: 10 });
    await createDiscount(api(), { type: 'automatic', value_type: 'fixed', value: 999, is_active: false });
    await createDiscount(api(), {
      type: 'automatic',
      value_type: 'fixed',
      value: 999,
      minimum_amount: 1_000_000,
    });

    const cart = await cartWith(api(), [{ variant_id: p.variant_id }]);
    expect(cart.discount_codes).toEqual([]);
    expect(cart.applied_discounts).toEqual([
      {
        discount_id: auto.id,
        code: null,
        name: expect.any(String),
        value_type: 'percentage',
        value: 10,
        saved: usd(200),
      },
    ]);
    expect(cart.summary).toMatchObject({ discount_total: usd(200), total: usd(1800) });

    const code = await createDiscount(api(), { value_type: 'fixed', value: 500 });
    const priced = await applyCode(api(), cart.id, code.code);
    expect(priced.applied_discounts.map((a: AppliedDiscount) => a.discount_id)).toEqual([auto.id, code.id]);
    expect(priced.summary).toMatchObject({ discount_total: usd(700), total: usd(1300) });

    const off = await api().patch(`/v1/admin/discounts/${auto.id}`, { is_active: false });
    expect(off.status).toBe(200);
    const after = await api().storefront.get(`/v1/storefront/carts/${cart.id}`);
    expect(after.body.summary).toMatchObject({ discount_total: usd(500), total: usd(1500) });
  });
});
