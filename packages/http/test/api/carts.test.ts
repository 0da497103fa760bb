import type { CartItem } from '@cartwright/core';
import { expect, test } from 'vitest';
import {
  createCart,
  createCustomerWithToken,
  createDiscount,
  createProduct,
  createShippingMethod,
  insertUsedUpDiscount,
  itemAt,
  usd,
} from './support/catalog-fixtures';
import { describeApi } from './support/harness';

const ADDRESS = {
  name: 'Ada Lovelace',
  line1: '1 Main St',
  city: 'New York',
  postal_code: '10001',
  country: 'us',
};

describeApi('carts', (api) => {
  // ---------------------------------------------------------------- create and read

  test('POST /v1/storefront/carts creates an empty guest cart with the full wire shape', async () => {
    const res = await api().storefront.post('/v1/storefront/carts', {
      session_id: 'sess-empty',
      metadata: { a: 1 },
    });
    expect(res.status).toBe(200);
    const cart = res.body;
    expect(cart.id).toMatch(/^cart_/);
    expect(cart).toMatchObject({
      status: 'active',
      session_id: 'sess-empty',
      customer_id: null,
      items: [],
      shipping_address: null,
      billing_address: null,
      shipping_method_id: null,
      discount_codes: [],
      applied_discounts: [],
      metadata: { a: 1 },
      summary: {
        subtotal: usd(0),
        discount_total: usd(0),
        shipping_total: usd(0),
        tax_total: usd(0),
        total: usd(0),
        item_count: 0,
        total_quantity: 0,
      },
    });
    expect(Date.parse(cart.created_at)).not.toBeNaN();
    expect(cart.updated_at).toBe(cart.created_at);
  });

  test('an empty body counts as {}', async () => {
    const res = await api().storefront.post('/v1/storefront/carts');
    expect(res.status).toBe(200);
    expect(res.body.session_id).toBeNull();
  });

  test('create with items: priced lines, the same variant twice becomes one item, addresses kept', async () => {
    const p = await createProduct(api(), { price: 1250, on_hand: 10 });
    const q = await createProduct(api(), { price: 499, on_hand: 10 });
    const cart = await createCart(api(), {
      items: [
        { variant_id: p.variant_id, quantity: 2 },
        { variant_id: q.variant_id },
        { variant_id: p.variant_id, quantity: 1, metadata: { gift: true } },
      ],
      shipping_address: ADDRESS,
    });
    expect(cart.items).toHaveLength(2);
    const first = itemAt(cart, 0);
    const second = itemAt(cart, 1);
    expect(first.id).toMatch(/^item_/);
    expect(first).toMatchObject({
      variant_id: p.variant_id,
      product_id: p.product_id,
      quantity: 3,
      unit_price: usd(1250),
      line_discount: usd(0),
      line_total: usd(3750),
      metadata: { gift: true },
    });
    expect(typeof first.product_name).toBe('string');
    expect(first.variant_name).toBe(first.product_name);
    expect(typeof first.sku).toBe('string');
    expect(second).toMatchObject({ variant_id: q.variant_id, quantity: 1, line_total: usd(499) });
    expect(cart.summary).toMatchObject({
      subtotal: usd(4249),
      total: usd(4249),
      item_count: 2,
      total_quantity: 4,
    });
    expect(cart.shipping_address).toEqual({
      name: 'Ada Lovelace',
      first_name: null,
      last_name: null,
      company: null,
      line1: '1 Main St',
      line2: null,
      city: 'New York',
      state: null,
      postal_code: '10001',
      country: 'US',
      phone: null,
      label: null,
      receiver_name: null,
    });
  });

  test('create refuses unknown variants (404), unavailable products (422) and short stock (422)', async () => {
    const unknown = await api().storefront.post('/v1/storefront/carts', {
      items: [{ variant_id: 'var_nope' }],
    });
    expect(unknown.status).toBe(404);
    expect(unknown.body.error).toMatchObject({ code: 'not_found', param: 'items[0][variant_id]' });

    const draft = await createProduct(api(), { status: 'draft' });
    const res = await api().storefront.post('/v1/storefront/carts', {
      items: [{ variant_id: draft.variant_id }],
    });
    expect(res.status).toBe(422);
    expect(res.body.error).toMatchObject({ code: 'product_unavailable', param: 'items[0][variant_id]' });

    const few = await createProduct(api(), { on_hand: 3 });
    const short = await api().storefront.post('/v1/storefront/carts', {
      items: [
        { variant_id: few.variant_id, quantity: 2 },
        { variant_id: few.variant_id, quantity: 2 },
      ],
    });
    expect(short.status).toBe(422);
    expect(short.body.error).toMatchObject({ code: 'insufficient_inventory', param: 'items[0][quantity]' });
  });

  test('clients can never set prices, totals or status (400 parameter_unknown)', async () => {
    const p = await createProduct(api());
    const status = await api().storefront.post('/v1/storefront/carts', { status: 'completed' });
    expect(status.status).toBe(400);
    expect(status.body.error).toMatchObject({ code: 'parameter_unknown', param: 'status' });
    const price = await api().storefront.post('/v1/storefront/carts', {
      items: [{ variant_id: p.variant_id, unit_price: 1 }],
    });
    expect(price.status).toBe(400);
    expect(price.body.error.code).toBe('parameter_unknown');
    const cart = await createCart(api());
    const summary = await api().storefront.patch(`/v1/storefront/carts/${cart.id}`, {
      summary: { total: 0 },
    });
    expect(summary.status).toBe(400);
    expect(summary.body.error).toMatchObject({ code: 'parameter_unknown', param: 'summary' });
    const itemPrice = await api().storefront.post(`/v1/storefront/carts/${cart.id}/items`, {
      variant_id: p.variant_id,
      line_total: 0,
    });
    expect(itemPrice.status).toBe(400);
    expect(itemPrice.body.error.code).toBe('parameter_unknown');
  });

  test('GET /v1/storefront/carts/{id}: 200 with publishable and secret keys; unknown and live-mode ids → 404', async () => {
    const cart = await createCart(api(), { session_id: 'sess-get' });
    const pk = await api().storefront.get(`/v1/storefront/carts/${cart.id}`);
    expect(pk.status).toBe(200);
    expect(pk.body).toEqual(cart);
    const sk = await api().get(`/v1/storefront/carts/${cart.id}`);
    expect(sk.status).toBe(200);

    const missing = await api().storefront.get('/v1/storefront/carts/cart_unknown');
    expect(missing.status).toBe(404);
    expect(missing.body.error).toMatchObject({ code: 'not_found', type: 'not_found_error' });

    const live = await api().post('/v1/storefront/carts', {}, { key: api().keys.livePublishable });
    expect(live.status).toBe(200);
    expect((await api().storefront.get(`/v1/storefront/carts/${live.body.id}`)).status).toBe(404);
    expect((await api().get(`/v1/storefront/carts/${cart.id}`, { key: api().keys.liveSecret })).status).toBe(
      404,
    );

    const noKey = await api().get(`/v1/storefront/carts/${cart.id}`, { key: null });
    expect(noKey.status).toBe(401);
  });

  test('GET /v1/storefront/carts/by-session/{session_id}: the newest active cart of the session, else 404', async () => {
    const session = `sess-${Date.now()}`;
    await createCart(api(), { session_id: session });
    const newer = await createCart(api(), { session_id: session });
    const res = await api().storefront.get(`/v1/storefront/carts/by-session/${session}`);
    expect(res.status).toBe(200);
    expect(res.body.id).toBe(newer.id);
    const none = await api().storefront.get('/v1/storefront/carts/by-session/no-such-session');
    expect(none.status).toBe(404);
    expect(none.body.error.code).toBe('not_found');
  });

  // ---------------------------------------------------------------- PATCH

  test('PATCH sets and clears addresses, shipping method and metadata', async () => {
    const p = await createProduct(api(), { price: 2000 });
    const ship = await createShippingMethod(api(), { price: 500 });
    const cart = await createCart(api(), { items: [{ variant_id: p.variant_id }], metadata: { x: 1 } });
    const res = await api().storefront.patch(`/v1/storefront/carts/${cart.id}`, {
      shipping_address: ADDRESS,
      billing_address: { ...ADDRESS, company: 'Analytical Engines', line2: 'Floor 2' },
      shipping_method_id: ship,
      metadata: { y: 2 },
    });
    expect(res.status).toBe(200);
    expect(res.body.shipping_method_id).toBe(ship);
    expect(res.body.billing_address).toMatchObject({ company: 'Analytical Engines', line2: 'Floor 2' });
    expect(res.body.metadata).toEqual({ y: 2 });
    expect(res.body.summary).toMatchObject({ shipping_total: usd(500), total: usd(2500) });
    expect(Date.parse(res.body.updated_at)).toBeGreaterThanOrEqual(Date.parse(cart.updated_at));

    const cleared = await api().storefront.patch(`/v1/storefront/carts/${cart.id}`, {
      shipping_address: null,
      shipping_method_id: null,
    });
    expect(cleared.status).toBe(200);
    expect(cleared.body.shipping_address).toBeNull();
    expect(cleared.body.shipping_method_id).toBeNull();
    expect(cleared.body.summary.shipping_total).toEqual(usd(0));
    expect(cleared.body.billing_address).not.toBeNull();
  });

  test('PATCH with an unknown or inactive shipping method → 422 shipping_method_unavailable', async () => {
    const cart = await createCart(api());
    const unknown = await api().storefront.patch(`/v1/storefront/carts/${cart.id}`, {
      shipping_method_id: 'ship_nope',
    });
    expect(unknown.status).toBe(422);
    expect(unknown.body.error).toMatchObject({
      code: 'shipping_method_unavailable',
      param: 'shipping_method_id',
    });
    const inactive = await createShippingMethod(api(), { price: 100, is_active: false });
    const res = await api().storefront.patch(`/v1/storefront/carts/${cart.id}`, {
      shipping_method_id: inactive,
    });
    expect(res.status).toBe(422);
    expect(res.body.error.code).toBe('shipping_method_unavailable');
    const bad = await api().storefront.patch(`/v1/storefront/carts/${cart.id}`, {
      shipping_address: { name: 'x' },
    });
    expect(bad.status).toBe(400);
    const missing = await api().storefront.patch('/v1/storefront/carts/cart_nope', { metadata: {} });
    expect(missing.status).toBe(404);
  });

  // ---------------------------------------------------------------- items

  test('POST items: quantity defaults to 1, the same variant adds to its quantity', async () => {
    const p = await createProduct(api(), { price: 300, on_hand: 5 });
    const cart = await createCart(api());
    const one = await api().storefront.post(`/v1/storefront/carts/${cart.id}/items`, {
      variant_id: p.variant_id,
    });
    expect(one.status).toBe(200);
    expect(one.body.items).toHaveLength(1);
    expect(one.body.items[0]).toMatchObject({ quantity: 1, line_total: usd(300) });
    const more = await api().storefront.post(`/v1/storefront/carts/${cart.id}/items`, {
      variant_id: p.variant_id,
      quantity: 3,
      metadata: { engraving: 'A' },
    });
    expect(more.status).toBe(200);
    expect(more.body.items).toHaveLength(1);
    expect(more.body.items[0]).toMatchObject({
      id: one.body.items[0].id,
      quantity: 4,
      line_total: usd(1200),
      metadata: { engraving: 'A' },
    });
    expect(more.body.summary).toMatchObject({ subtotal: usd(1200), item_count: 1, total_quantity: 4 });
  });

  test('POST items checks the whole quantity of the variant against stock; untracked and backorder pass', async () => {
    const p = await createProduct(api(), { on_hand: 5 });
    const cart = await createCart(api(), { items: [{ variant_id: p.variant_id, quantity: 4 }] });
    const over = await api().storefront.post(`/v1/storefront/carts/${cart.id}/items`, {
      variant_id: p.variant_id,
      quantity: 2,
    });
    expect(over.status).toBe(422);
    expect(over.body.error).toMatchObject({ code: 'insufficient_inventory', param: 'quantity' });
    const exact = await api().storefront.post(`/v1/storefront/carts/${cart.id}/items`, {
      variant_id: p.variant_id,
    });
    expect(exact.status).toBe(200);
    expect(exact.body.items[0].quantity).toBe(5);

    const untracked = await createProduct(api(), {
      variants: [{ price: 100, inventory: { track_inventory: false, on_hand: 0 } }],
    });
    const backorder = await createProduct(api(), {
      variants: [{ price: 100, inventory: { track_inventory: true, allow_backorder: true, on_hand: 0 } }],
    });
    for (const variant_id of [untracked.variant_id, backorder.variant_id]) {
      const res = await api().storefront.post(`/v1/storefront/carts/${cart.id}/items`, {
        variant_id,
        quantity: 50,
      });
      expect(res.status).toBe(200);
    }
  });

  test('POST items: archived product or inactive variant → 422 product_unavailable; unknown variant → 404', async () => {
    const cart = await createCart(api());
    const archived = await createProduct(api(), { status: 'archived' });
    const a = await api().storefront.post(`/v1/storefront/carts/${cart.id}/items`, {
      variant_id: archived.variant_id,
    });
    expect(a.status).toBe(422);
    expect(a.body.error).toMatchObject({ code: 'product_unavailable', param: 'variant_id' });

    const inactive = await createProduct(api(), {
      variants: [
        { price: 100, inventory: { on_hand: 5 } },
        { price: 100, is_active: false, inventory: { on_hand: 5 } },
      ],
    });
    const b = await api().storefront.post(`/v1/storefront/carts/${cart.id}/items`, {
      variant_id: inactive.variant_ids[1],
    });
    expect(b.status).toBe(422);
    expect(b.body.error.code).toBe('product_unavailable');

    const c = await api().storefront.post(`/v1/storefront/carts/${cart.id}/items`, {
      variant_id: 'var_nope',
    });
    expect(c.status).toBe(404);
    expect(c.body.error).toMatchObject({ code: 'not_found', param: 'variant_id' });

    const zero = await api().storefront.post(`/v1/storefront/carts/${cart.id}/items`, {
      variant_id: archived.variant_id,
      quantity: 0,
    });
    expect(zero.status).toBe(400);
    expect(zero.body.error.param).toBe('quantity');
    const missing = await api().storefront.post(`/v1/storefront/carts/${cart.id}/items`, {});
    expect(missing.status).toBe(400);
    expect(missing.body.error).toMatchObject({ code: 'parameter_missing', param: 'variant_id' });
  });

  test('PATCH items/{item_id} sets the quantity; over stock → 422; < 1 → 400; unknown item → 404', async () => {
    const p = await createProduct(api(), { price: 250, on_hand: 6 });
    const cart = await createCart(api(), { items: [{ variant_id: p.variant_id, quantity: 2 }] });
    const item = itemAt(cart, 0).id;
    const res = await api().storefront.patch(`/v1/storefront/carts/${cart.id}/items/${item}`, {
      quantity: 6,
    });
    expect(res.status).toBe(200);
    expect(res.body.items[0]).toMatchObject({ quantity: 6, line_total: usd(1500) });

    const over = await api().storefront.patch(`/v1/storefront/carts/${cart.id}/items/${item}`, {
      quantity: 7,
    });
    expect(over.status).toBe(422);
    expect(over.body.error).toMatchObject({ code: 'insufficient_inventory', param: 'quantity' });
    expect(over.body.error.message).toMatch(/6 available/);

    const zero = await api().storefront.patch(`/v1/storefront/carts/${cart.id}/items/${item}`, {
      quantity: 0,
    });
    expect(zero.status).toBe(400);
    expect(zero.body.error).toMatchObject({ code: 'parameter_invalid', param: 'quantity' });
    const missingQty = await api().storefront.patch(`/v1/storefront/carts/${cart.id}/items/${item}`, {});
    expect(missingQty.status).toBe(400);
    expect(missingQty.body.error).toMatchObject({ code: 'parameter_missing', param: 'quantity' });

    const unknown = await api().storefront.patch(`/v1/storefront/carts/${cart.id}/items/item_nope`, {
      quantity: 1,
    });
    expect(unknown.status).toBe(404);
    expect(unknown.body.error.code).toBe('not_found');
  });

  test('lowering a quantity works even when stock fell below it', async () => {
    const p = await createProduct(api(), { on_hand: 5 });
    const cart = await createCart(api(), { items: [{ variant_id: p.variant_id, quantity: 5 }] });
    const product = await api().get(`/v1/admin/products/${p.product_id}`);
    const inventoryId = product.body.variants[0].inventory.id;
    const adjust = await api().post(`/v1/admin/inventory/${inventoryId}/adjust`, { quantity: -3 });
    expect(adjust.status).toBe(200);
    const lower = await api().storefront.patch(
      `/v1/storefront/carts/${cart.id}/items/${itemAt(cart, 0).id}`,
      {
        quantity: 4,
      },
    );
    expect(lower.status).toBe(200);
    expect(lower.body.items[0].quantity).toBe(4);
  });

  test('DELETE items/{item_id} returns the updated cart; unknown item → 404', async () => {
    const p = await createProduct(api(), { price: 100 });
    const q = await createProduct(api(), { price: 200 });
    const cart = await createCart(api(), {
      items: [{ variant_id: p.variant_id }, { variant_id: q.variant_id }],
    });
    const res = await api().storefront.delete(`/v1/storefront/carts/${cart.id}/items/${itemAt(cart, 0).id}`);
    expect(res.status).toBe(200);
    expect(res.body.items.map((i: CartItem) => i.variant_id)).toEqual([q.variant_id]);
    expect(res.body.summary).toMatchObject({ subtotal: usd(200), item_count: 1 });
    const again = await api().storefront.delete(
      `/v1/storefront/carts/${cart.id}/items/${itemAt(cart, 0).id}`,
    );
    expect(again.status).toBe(404);
  });

  // ---------------------------------------------------------------- discount codes

  test('POST discounts applies a code (case-insensitively); DELETE removes it', async () => {
    const p = await createProduct(api(), { price: 4000 });
    const d = await createDiscount(api(), { value_type: 'fixed', value: 750 });
    const cart = await createCart(api(), { items: [{ variant_id: p.variant_id }] });
    const res = await api().storefront.post(`/v1/storefront/carts/${cart.id}/discounts`, {
      code: (d.code as string).toLowerCase(),
    });
    expect(res.status).toBe(200);
    expect(res.body.discount_codes).toEqual([d.code]);
    expect(res.body.applied_discounts).toEqual([
      {
        discount_id: d.id,
        code: d.code,
        name: expect.any(String),
        value_type: 'fixed',
        value: 750,
        saved: usd(750),
      },
    ]);
    expect(res.body.summary).toMatchObject({ discount_total: usd(750), total: usd(3250) });
    expect(res.body.items[0]).toMatchObject({ line_discount: usd(750), line_total: usd(3250) });

    const again = await api().storefront.post(`/v1/storefront/carts/${cart.id}/discounts`, { code: d.code });
    expect(again.status).toBe(200);
    expect(again.body.discount_codes).toEqual([d.code]);

    const removed = await api().storefront.delete(`/v1/storefront/carts/${cart.id}/discounts/${d.code}`);
    expect(removed.status).toBe(200);
    expect(removed.body.discount_codes).toEqual([]);
    expect(removed.body.applied_discounts).toEqual([]);
    expect(removed.body.summary.total).toEqual(usd(4000));

    const notOnCart = await api().storefront.delete(`/v1/storefront/carts/${cart.id}/discounts/${d.code}`);
    expect(notOnCart.status).toBe(404);
    expect(notOnCart.body.error).toMatchObject({ code: 'not_found', param: 'code' });
  });

  test('code errors: discount_not_found, discount_expired, discount_not_applicable, discount_usage_limit_reached', async () => {
    const p = await createProduct(api(), { price: 1000 });
    const cart = await createCart(api(), { items: [{ variant_id: p.variant_id }] });
    const apply = (code: string) =>
      api().storefront.post(`/v1/storefront/carts/${cart.id}/discounts`, { code });

    const unknown = await apply('NO-SUCH-CODE');
    expect(unknown.status).toBe(422);
    expect(unknown.body.error).toMatchObject({ code: 'discount_not_found', param: 'code' });

    const inactive = await createDiscount(api(), { value_type: 'fixed', value: 100, is_active: false });
    expect((await apply(inactive.code as string)).body.error).toMatchObject({
      code: 'discount_expired',
      param: 'code',
    });

    const future = await createDiscount(api(), {
      value_type: 'fixed',
      value: 100,
      starts_at: '2999-01-01T00:00:00Z',
    });
    const f = await apply(future.code as string);
    expect(f.status).toBe(422);
    expect(f.body.error.code).toBe('discount_expired');

    const past = await createDiscount(api(), {
      value_type: 'fixed',
      value: 100,
      starts_at: '2000-01-01T00:00:00Z',
      ends_at: '2000-12-31T00:00:00Z',
    });
    expect((await apply(past.code as string)).body.error.code).toBe('discount_expired');

    const minimum = await createDiscount(api(), { value_type: 'fixed', value: 100, minimum_amount: 5000 });
    const m = await apply(minimum.code as string);
    expect(m.status).toBe(422);
    expect(m.body.error).toMatchObject({ code: 'discount_not_applicable', param: 'code' });

    const otherProduct = await createDiscount(api(), {
      value_type: 'percentage',
      value: 10,
      conditions: [{ type: 'product', values: ['prod_other'] }],
    });
    expect((await apply(otherProduct.code as string)).body.error.code).toBe('discount_not_applicable');

    const vip = await createDiscount(api(), {
      value_type: 'percentage',
      value: 10,
      conditions: [{ type: 'customer_tag', values: ['vip'] }],
    });
    expect((await apply(vip.code as string)).body.error.code).toBe('discount_not_applicable');

    const usedUp = await insertUsedUpDiscount(api());
    const u = await apply(usedUp);
    expect(u.status).toBe(422);
    expect(u.body.error).toMatchObject({ code: 'discount_usage_limit_reached', param: 'code' });

    const automatic = await createDiscount(api(), {
      type: 'automatic',
      value_type: 'fixed',
      value: 1,
      is_active: false,
    });
    expect(automatic.code).toBeNull();

    const after = await api().storefront.get(`/v1/storefront/carts/${cart.id}`);
    expect(after.body.discount_codes).toEqual([]);

    const empty = await api().storefront.post(`/v1/storefront/carts/${cart.id}/discounts`, {});
    expect(empty.status).toBe(400);
    expect(empty.body.error).toMatchObject({ code: 'parameter_missing', param: 'code' });
  });

  test('a customer_tag code applies for a tagged customer with a token', async () => {
    const p = await createProduct(api(), { price: 1000 });
    const { token } = await createCustomerWithToken(api(), { tags: ['vip'] });
    const vip = await createDiscount(api(), {
      value_type: 'percentage',
      value: 10,
      conditions: [{ type: 'customer_tag', values: ['vip'] }],
    });
    const cart = await createCart(api(), { items: [{ variant_id: p.variant_id }] }, { customerToken: token });
    const res = await api().storefront.post(
      `/v1/storefront/carts/${cart.id}/discounts`,
      { code: vip.code },
      { customerToken: token },
    );
    expect(res.status).toBe(200);
    expect(res.body.summary.discount_total).toEqual(usd(100));
  });

  // ---------------------------------------------------------------- ownership (docs/contract.md#cart-ownership)

  test("a customer's cart needs that customer's token with a publishable key (404 otherwise); a secret key may act", async () => {
    const p = await createProduct(api());
    const alice = await createCustomerWithToken(api());
    const bob = await createCustomerWithToken(api());
    const cart = await createCart(api(), {}, { customerToken: alice.token });
    expect(cart.customer_id).toBe(alice.customer_id);

    const path = `/v1/storefront/carts/${cart.id}`;
    expect((await api().storefront.get(path)).status).toBe(404);
    expect((await api().storefront.get(path, { customerToken: bob.token })).status).toBe(404);
    expect((await api().storefront.get(path, { customerToken: alice.token })).status).toBe(200);
    expect((await api().get(path)).status).toBe(200);

    const add = await api().storefront.post(`${path}/items`, { variant_id: p.variant_id });
    expect(add.status).toBe(404);
    const patch = await api().storefront.patch(path, { metadata: { x: 1 } }, { customerToken: bob.token });
    expect(patch.status).toBe(404);
    const ok = await api().storefront.post(
      `${path}/items`,
      { variant_id: p.variant_id },
      { customerToken: alice.token },
    );
    expect(ok.status).toBe(200);
    const bySk = await api().post(`${path}/items`, { variant_id: p.variant_id });
    expect(bySk.status).toBe(200);
    expect(bySk.body.items[0].quantity).toBe(2);

    const bad = await api().storefront.get(path, { customerToken: 'ct_not_a_real_token_000000000000' });
    expect(bad.status).toBe(401);
    expect(bad.body.error.code).toBe('invalid_customer_token');
  });

  test('setting customer_id with a publishable key needs that customer’s token (403 forbidden); a secret key may set any', async () => {
    const alice = await createCustomerWithToken(api());
    const bob = await createCustomerWithToken(api());

    const noToken = await api().storefront.post('/v1/storefront/carts', { customer_id: alice.customer_id });
    expect(noToken.status).toBe(403);
    expect(noToken.body.error).toMatchObject({
      code: 'forbidden',
      param: 'customer_id',
      type: 'permission_error',
    });
    const wrongToken = await api().storefront.post(
      '/v1/storefront/carts',
      { customer_id: alice.customer_id },
      { customerToken: bob.token },
    );
    expect(wrongToken.status).toBe(403);
    const own = await api().storefront.post(
      '/v1/storefront/carts',
      { customer_id: alice.customer_id },
      { customerToken: alice.token },
    );
    expect(own.status).toBe(200);
    expect(own.body.customer_id).toBe(alice.customer_id);

    const bySecret = await api().post('/v1/storefront/carts', { customer_id: bob.customer_id });
    expect(bySecret.status).toBe(200);
    expect(bySecret.body.customer_id).toBe(bob.customer_id);
    const unknownCustomer = await api().post('/v1/storefront/carts', { customer_id: 'cus_nope' });
    expect(unknownCustomer.status).toBe(404);
    expect(unknownCustomer.body.error).toMatchObject({ code: 'not_found', param: 'customer_id' });

    const guest = await createCart(api());
    const patchNoToken = await api().storefront.patch(`/v1/storefront/carts/${guest.id}`, {
      customer_id: alice.customer_id,
    });
    expect(patchNoToken.status).toBe(403);
    expect(patchNoToken.body.error).toMatchObject({ code: 'forbidden', param: 'customer_id' });
    const patchOwn = await api().storefront.patch(
      `/v1/storefront/carts/${guest.id}`,
      { customer_id: alice.customer_id },
      { customerToken: alice.token },
    );
    expect(patchOwn.status).toBe(200);
    expect(patchOwn.body.customer_id).toBe(alice.customer_id);
    // the cart is now Alice's: without her token it is hidden
    expect((await api().storefront.get(`/v1/storefront/carts/${guest.id}`)).status).toBe(404);
    const patchBySecret = await api().patch(`/v1/storefront/carts/${guest.id}`, {
      customer_id: bob.customer_id,
    });
    expect(patchBySecret.status).toBe(200);
    expect(patchBySecret.body.customer_id).toBe(bob.customer_id);
  });

  test('by-session hides a customer-owned cart from a publishable key without the token', async () => {
    const alice = await createCustomerWithToken(api());
    const session = `sess-owned-${Date.now()}`;
    await createCart(api(), { session_id: session }, { customerToken: alice.token });
    const hidden = await api().storefront.get(`/v1/storefront/carts/by-session/${session}`);
    expect(hidden.status).toBe(404);
    const shown = await api().storefront.get(`/v1/storefront/carts/by-session/${session}`, {
      customerToken: alice.token,
    });
    expect(shown.status).toBe(200);
  });

  // ---------------------------------------------------------------- merge (docs/contract.md#cart-merge)

  test('merge requires a customer token (401 customer_token_required)', async () => {
    const cart = await createCart(api());
    const res = await api().storefront.post(`/v1/storefront/carts/${cart.id}/merge`);
    expect(res.status).toBe(401);
    expect(res.body.error.code).toBe('customer_token_required');
  });

  test('merge without another active customer cart gives the guest cart to the customer', async () => {
    const p = await createProduct(api(), { price: 700 });
    const alice = await createCustomerWithToken(api());
    const guest = await createCart(api(), {
      session_id: 'sess-merge-give',
      items: [{ variant_id: p.variant_id }],
    });
    // An unknown body field is refused (decisions §22: the body is read now), and nothing changes.
    const unknown = await api().storefront.post(
      `/v1/storefront/carts/${guest.id}/merge`,
      { ignored: true },
      { customerToken: alice.token },
    );
    expect(unknown.status).toBe(400);
    expect(unknown.body.error).toMatchObject({ code: 'parameter_unknown', param: 'ignored' });
    expect((await api().storefront.get(`/v1/storefront/carts/${guest.id}`)).body.customer_id).toBeNull();
    const res = await api().storefront.post(
      `/v1/storefront/carts/${guest.id}/merge`,
      {},
      { customerToken: alice.token },
    );
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({ id: guest.id, customer_id: alice.customer_id, status: 'active' });
    expect(res.body.items).toHaveLength(1);
  });

  test('merge into the customer’s cart: quantities summed and capped, valid codes carried, guest abandoned', async () => {
    const shared = await createProduct(api(), { price: 1000, on_hand: 5 });
    const only = await createProduct(api(), { price: 200, on_hand: 10 });
    const archived = await createProduct(api(), { price: 300, on_hand: 10 });
    const alice = await createCustomerWithToken(api());
    const valid = await createDiscount(api(), { value_type: 'fixed', value: 100 });
    // qualifies on the guest cart (no customer), not on Alice's cart: not carried over
    const notAlice = await createDiscount(api(), {
      value_type: 'fixed',
      value: 50,
      conditions: [{ type: 'customer', operator: 'not_in', values: [alice.customer_id] }],
    });

    const mine = await createCart(
      api(),
      { items: [{ variant_id: shared.variant_id, quantity: 3 }] },
      {
        customerToken: alice.token,
      },
    );
    const session = `sess-merge-${Date.now()}`;
    const guest = await createCart(api(), {
      session_id: session,
      items: [
        { variant_id: shared.variant_id, quantity: 4 },
        { variant_id: only.variant_id, quantity: 2 },
        { variant_id: archived.variant_id, quantity: 1 },
      ],
      shipping_address: ADDRESS,
    });
    const applied = await api().storefront.post(`/v1/storefront/carts/${guest.id}/discounts`, {
      code: valid.code,
    });
    expect(applied.status).toBe(200);
    const second = await api().storefront.post(`/v1/storefront/carts/${guest.id}/discounts`, {
      code: notAlice.code,
    });
    expect(second.status).toBe(200);
    expect(second.body.discount_codes).toEqual([valid.code, notAlice.code]);
    await api().patch(`/v1/admin/products/${archived.product_id}`, { status: 'archived' });

    const res = await api().storefront.post(`/v1/storefront/carts/${guest.id}/merge`, undefined, {
      customerToken: alice.token,
    });
    expect(res.status).toBe(200);
    expect(res.body.id).toBe(mine.id);
    expect(res.body.customer_id).toBe(alice.customer_id);
    const byVariant = Object.fromEntries(res.body.items.map((i: CartItem) => [i.variant_id, i.quantity]));
    expect(byVariant).toEqual({ [shared.variant_id]: 5, [only.variant_id]: 2 });
    expect(res.body.items[0].variant_id).toBe(shared.variant_id);
    expect(res.body.discount_codes).toEqual([valid.code]);
    expect(res.body.summary).toMatchObject({
      subtotal: usd(5400),
      discount_total: usd(100),
      total: usd(5300),
    });
    expect(res.body.shipping_address).toMatchObject({ line1: '1 Main St' });

    const old = await api().storefront.get(`/v1/storefront/carts/${guest.id}`);
    expect(old.status).toBe(200);
    expect(old.body.status).toBe('abandoned');
    expect((await api().storefront.get(`/v1/storefront/carts/by-session/${session}`)).status).toBe(404);

    // a non-active cart cannot change (409 cart_not_active)
    const path = `/v1/storefront/carts/${guest.id}`;
    const changes = [
      api().storefront.patch(path, { metadata: {} }),
      api().storefront.post(`${path}/items`, { variant_id: only.variant_id }),
      api().storefront.patch(`${path}/items/${itemAt(guest, 1).id}`, { quantity: 1 }),
      api().storefront.delete(`${path}/items/${itemAt(guest, 1).id}`),
      api().storefront.post(`${path}/discounts`, { code: valid.code }),
      api().storefront.delete(`${path}/discounts/${valid.code}`),
      api().storefront.post(`${path}/merge`, {}, { customerToken: alice.token }),
    ];
    for (const change of await Promise.all(changes)) {
      expect(change.status).toBe(409);
      expect(change.body.error).toMatchObject({ code: 'cart_not_active', type: 'conflict_error' });
    }
  });

  test('merge of another customer’s cart is 404 with a publishable key; a codes-only guest cart carries valid codes', async () => {
    const alice = await createCustomerWithToken(api());
    const bob = await createCustomerWithToken(api());
    const bobs = await createCart(api(), {}, { customerToken: bob.token });
    const res = await api().storefront.post(
      `/v1/storefront/carts/${bobs.id}/merge`,
      {},
      { customerToken: alice.token },
    );
    expect(res.status).toBe(404);

    const p = await createProduct(api(), { price: 100 });
    const mine = await createCart(
      api(),
      { items: [{ variant_id: p.variant_id }] },
      { customerToken: alice.token },
    );
    const code = await createDiscount(api(), {
      value_type: 'free_shipping',
    });
    const guest = await createCart(api());
    const applied = await api().storefront.post(`/v1/storefront/carts/${guest.id}/discounts`, {
      code: code.code,
    });
    expect(applied.status).toBe(200);
    const merged = await api().storefront.post(
      `/v1/storefront/carts/${guest.id}/merge`,
      {},
      {
        customerToken: alice.token,
      },
    );
    expect(merged.status).toBe(200);
    expect(merged.body.id).toBe(mine.id);
    expect(merged.body.discount_codes).toEqual([code.code]);
  });
});
