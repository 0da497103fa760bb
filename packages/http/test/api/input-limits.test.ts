import {
  INT4_MAX,
  MAX_AMOUNT,
  MAX_CART_LINES,
  MAX_METADATA_KEY_LENGTH,
  MAX_METADATA_KEYS,
  MAX_METADATA_VALUE_LENGTH,
  MAX_QUANTITY,
  MAX_TAX_RATE,
  WORST_CASE_TOTAL,
} from '@cartwright/core/schemas';
import fc from 'fast-check';
import { expect, test } from 'vitest';
import { createProduct, createShippingMethod } from './support/catalog-fixtures';
import { type ApiResponse, describeApi, type TestApi } from './support/harness';
import { createCustomer } from './support/order-fixtures';

/**
 * The input layer of docs/contract.md#input-limits: strings and numbers no supported engine can
 * store are refused before any query runs, with the same answer on SQLite and PostgreSQL (where
 * each of these was a 500): NUL characters and unpaired surrogates anywhere (values, metadata
 * keys, query, path), integers beyond their column, strings too long for an index, metadata over
 * its limits, carts over 250 lines; a path id that cannot exist is a 404; metadata keys such as
 * `__proto__` round-trip; and no cart within the limits can total more than a safe integer, so
 * reading it never fails. Every refusal is checked for its status, code and param, and for leaving
 * the data as it was.
 */

let counter = 0;
const unique = (prefix: string) => `${prefix}-${Date.now().toString(36)}-${(counter++).toString(36)}`;

/** `param: null` leaves the param unchecked (a 404 from the service names none). */
function expectRefused(res: ApiResponse, param: string | null, code = 'parameter_invalid', status = 400) {
  expect(res.status, JSON.stringify(res.body).slice(0, 500)).toBe(status);
  expect(res.body.error.code).toBe(code);
  if (param !== null) expect(res.body.error.param).toBe(param);
}

async function productCount(api: TestApi): Promise<number> {
  const res = await api.get('/v1/admin/products?limit=1');
  expect(res.status).toBe(200);
  return res.body.total_count;
}

async function customerCount(api: TestApi): Promise<number> {
  const res = await api.get('/v1/admin/customers?limit=1');
  expect(res.status).toBe(200);
  return res.body.total_count;
}

describeApi('input limits (decisions §15)', (api) => {
  test('NUL in a path id, a query value or a body string → 404 / 400, nothing written', async () => {
    const before = await productCount(api());
    // path: an id that cannot exist → 404 not_found (admin and storefront, ids and slugs)
    expectRefused(await api().get('/v1/admin/products/prod_1%00x'), 'id', 'not_found', 404);
    expectRefused(await api().storefront.get('/v1/storefront/products/prod_%00'), 'id', 'not_found', 404);
    expectRefused(
      await api().storefront.get('/v1/storefront/products/by-slug/a%00b'),
      'slug',
      'not_found',
      404,
    );
    expectRefused(
      await api().storefront.get('/v1/storefront/carts/by-session/s%00'),
      'session_id',
      'not_found',
      404,
    );
    expectRefused(await api().patch('/v1/admin/inventory/inv_%00', { on_hand: 1 }), 'id', 'not_found', 404);
    // query
    expectRefused(await api().storefront.get('/v1/storefront/products?q=a%00'), 'q');
    expectRefused(await api().get('/v1/admin/customers?q=%00'), 'q');
    expectRefused(await api().get('/v1/admin/orders?email=a%00%40example.com'), 'email');
    expectRefused(await api().get('/v1/admin/products?starting_after=prod_%00'), 'starting_after');
    // body
    expectRefused(await api().post('/v1/admin/products', { name: 'Shirt\u0000' }), 'name');
    expectRefused(
      await api().post('/v1/admin/products', { name: 'Shirt', metadata: { note: 'a\u0000b' } }),
      'metadata[note]',
    );
    expectRefused(
      await api().storefront.post('/v1/storefront/carts', { session_id: `sess\u0000${unique('s')}` }),
      'session_id',
    );
    expect(await productCount(api())).toBe(before);
  });

  test('an unpaired surrogate in a body value, a metadata key, a query or a path → 400 / 404, nothing written', async () => {
    const before = await productCount(api());
    const customersBefore = await customerCount(api());
    expectRefused(await api().post('/v1/admin/products', { name: 'Shirt \ud800' }), 'name');
    expectRefused(
      await api().post('/v1/admin/products', { name: 'Shirt', tags: ['ok', 'x\udc00y'] }),
      'tags[1]',
    );
    // a metadata KEY: the param is the object holding it
    const key = await api().post('/v1/admin/customers', {
      email: `${unique('c')}@example.com`,
      metadata: { 'k\ud800': 'v' },
    });
    expectRefused(key, 'metadata');
    expect(key.body.error.message).toContain('unpaired UTF-16 surrogate');
    expectRefused(
      await api().storefront.post('/v1/storefront/carts', { metadata: { nested: { '\udfff': 1 } } }),
      'metadata[nested]',
    );
    // The raw JSON escape, as a hostile client sends it (not through JSON.stringify).
    expectRefused(
      await api().request('POST', '/v1/admin/products', {
        rawBody: '{"name":"\\ud83d","metadata":{}}',
        headers: { 'content-type': 'application/json' },
      }),
      'name',
    );
    // A query or a path cannot carry a lone surrogate over HTTP (percent-encoding is UTF-8:
    // %ED%A0%80 is not valid UTF-8); such requests are still answered, never with a 5xx.
    const query = await api().storefront.get('/v1/storefront/products?q=%ED%A0%80');
    expect(query.status).toBe(200);
    const path = await api().get('/v1/admin/products/prod_%ED%A0%80');
    expect(path.status).toBe(404);
    // The engine API refuses the same inputs (same validator), e.g. a query value in process.
    const store = api().engine.forStore(api().scope);
    await expect(store.products.listStorefront({ q: 'a\ud800' })).rejects.toMatchObject({
      code: 'parameter_invalid',
      param: 'q',
    });
    await expect(store.products.create({ name: 'x\u0000' })).rejects.toMatchObject({
      code: 'parameter_invalid',
      param: 'name',
    });
    expect(await productCount(api())).toBe(before);
    expect(await customerCount(api())).toBe(customersBefore);
  });

  test('integers beyond their column (int4) or limit → 400 with the param; stored values unchanged', async () => {
    const product = await createProduct(api(), { on_hand: 5 });
    const inventory = (await api().get(`/v1/admin/products/${product.product_id}`)).body.variants[0]
      .inventory;
    // safety_stock: 2147483648, the finding
    expectRefused(
      await api().patch(`/v1/admin/inventory/${inventory.id}`, { safety_stock: INT4_MAX + 1 }),
      'safety_stock',
    );
    expectRefused(
      await api().patch(`/v1/admin/inventory/${inventory.id}`, { on_hand: 2 ** 53 + 2 }),
      'on_hand',
    );
    expectRefused(
      await api().post(`/v1/admin/inventory/${inventory.id}/adjust`, { quantity: INT4_MAX + 1 }),
      'quantity',
    );
    const after = (await api().get(`/v1/admin/inventory/${inventory.id}`)).body;
    expect(after).toMatchObject({ on_hand: 5, safety_stock: inventory.safety_stock });
    // quantities
    const cart = await api().storefront.post('/v1/storefront/carts', {});
    expectRefused(
      await api().storefront.post(`/v1/storefront/carts/${cart.body.id}/items`, {
        variant_id: product.variant_id,
        quantity: MAX_QUANTITY + 1,
      }),
      'quantity',
    );
    expectRefused(
      await api().storefront.post('/v1/storefront/carts', {
        items: [{ variant_id: product.variant_id, quantity: INT4_MAX + 1 }],
      }),
      'items[0][quantity]',
    );
    expect((await api().storefront.get(`/v1/storefront/carts/${cart.body.id}`)).body.items).toEqual([]);
    // money amounts, positions, sizes, weights, limits, counts
    const before = await productCount(api());
    expectRefused(
      await api().post(`/v1/admin/products/${product.product_id}/variants`, { price: MAX_AMOUNT + 1 }),
      'price',
    );
    expectRefused(
      await api().post(`/v1/admin/products/${product.product_id}/variants`, { price: 1, weight: 1e12 }),
      'weight',
    );
    expectRefused(
      await api().post(`/v1/admin/products/${product.product_id}/images`, {
        url: 'https://example.com/a.png',
        width: INT4_MAX + 1,
      }),
      'width',
    );
    expectRefused(
      await api().post(`/v1/admin/products/${product.product_id}/images`, {
        url: 'https://example.com/a.png',
        position: INT4_MAX + 1,
      }),
      'position',
    );
    expectRefused(
      await api().post('/v1/admin/shipping-methods', { name: 'Slow', price: 1, position: INT4_MAX + 1 }),
      'position',
    );
    expectRefused(
      await api().post('/v1/admin/discounts', {
        name: 'Many',
        code: unique('MANY'),
        value_type: 'percentage',
        value: 10,
        usage_limit: INT4_MAX + 1,
      }),
      'usage_limit',
    );
    expectRefused(await api().patch('/v1/admin/store', { tax_rate: MAX_TAX_RATE + 0.5 }), 'tax_rate');
    expectRefused(await api().get('/v1/admin/products?limit=2147483648'), 'limit');
    expectRefused(
      await api().get('/v1/storefront/orders/lookup?number=99999999999999999999&email=a%40example.com', {
        key: api().keys.publishable,
      }),
      'number',
    );
    const customer = await api().post('/v1/admin/customers', { email: `${unique('t')}@example.com` });
    expectRefused(
      await api().post(`/v1/admin/customers/${customer.body.id}/token`, { expires_in: INT4_MAX + 1 }),
      'expires_in',
    );
    expect(await productCount(api())).toBe(before);
    expect((await api().get(`/v1/admin/products/${product.product_id}`)).body.variants).toHaveLength(1);
  });

  test('identifiers, names and e-mails over 255 characters (and far over an index entry) → 400, nothing written', async () => {
    const before = await productCount(api());
    const customersBefore = await customerCount(api());
    for (const length of [256, 3_000]) {
      const long = 'a'.repeat(length);
      expectRefused(await api().post('/v1/admin/products', { name: 'Shirt', slug: long }), 'slug');
      expectRefused(await api().post('/v1/admin/products', { name: long }), 'name');
      expectRefused(await api().post('/v1/admin/products', { name: 'Shirt', tags: [long] }), 'tags[0]');
      expectRefused(
        await api().post('/v1/admin/products', { name: 'Shirt', variants: [{ price: 1, sku: long }] }),
        'variants[0][sku]',
      );
      expectRefused(
        await api().post('/v1/admin/products', { name: 'Shirt', variants: [{ price: 1, barcode: long }] }),
        'variants[0][barcode]',
      );
      expectRefused(await api().post('/v1/admin/customers', { email: `${long}@example.com` }), 'email');
      expectRefused(await api().storefront.post('/v1/storefront/carts', { session_id: long }), 'session_id');
      expectRefused(
        await api().post('/v1/admin/discounts', { name: 'D', code: long, value_type: 'fixed', value: 1 }),
        'code',
      );
    }
    // 255 is fine, on both engines (indexed columns included)
    const edge = 'b'.repeat(255);
    const created = await api().post('/v1/admin/products', {
      name: edge,
      slug: `${unique('s').toLowerCase()}-${'c'.repeat(200)}`,
      tags: [edge],
      variants: [{ price: 1, sku: edge, barcode: edge }],
    });
    expect(created.status, JSON.stringify(created.body)).toBe(200);
    expect(created.body.variants[0].sku).toBe(edge);
    // a path value that no resource can have is 404, not 400
    expectRefused(
      await api().storefront.get(`/v1/storefront/carts/by-session/${'s'.repeat(256)}`),
      'session_id',
      'not_found',
      404,
    );
    expect(await productCount(api())).toBe(before + 1);
    expect(await customerCount(api())).toBe(customersBefore);
  });

  test('metadata: 51 keys, a 41-character key or a 501-character string → 400 with its param; 50 / 40 / 500 pass', async () => {
    const customer = await api().post('/v1/admin/customers', {
      email: `${unique('m')}@example.com`,
      metadata: { keep: 'me' },
    });
    expect(customer.status).toBe(200);
    const path = `/v1/admin/customers/${customer.body.id}`;
    const many = Object.fromEntries(Array.from({ length: MAX_METADATA_KEYS + 1 }, (_, i) => [`k${i}`, i]));
    expectRefused(await api().patch(path, { metadata: many }), 'metadata');
    const longKey = 'k'.repeat(MAX_METADATA_KEY_LENGTH + 1);
    expectRefused(await api().patch(path, { metadata: { [longKey]: 1 } }), `metadata[${longKey}]`);
    expectRefused(
      await api().patch(path, { metadata: { note: 'v'.repeat(MAX_METADATA_VALUE_LENGTH + 1) } }),
      'metadata[note]',
    );
    expect((await api().get(path)).body.metadata).toEqual({ keep: 'me' });
    const full = Object.fromEntries(
      Array.from({ length: MAX_METADATA_KEYS }, (_, i) => [
        `${i}`.padEnd(MAX_METADATA_KEY_LENGTH, 'k'),
        'v'.repeat(MAX_METADATA_VALUE_LENGTH),
      ]),
    );
    expect((await api().patch(path, { metadata: full })).status).toBe(200);
    expect((await api().get(path)).body.metadata).toEqual(full);
    // the storefront too (publishable key)
    expectRefused(await api().storefront.post('/v1/storefront/carts', { metadata: many }), 'metadata');
  });

  test('__proto__ and constructor metadata keys are stored and returned like any other key', async () => {
    const metadata = JSON.parse('{"__proto__":{"polluted":true},"constructor":"c","prototype":1,"a":"b"}');
    const body = (extra: string) =>
      `{"name":"Proto ${extra}","metadata":{"__proto__":{"polluted":true},"constructor":"c","prototype":1,"a":"b"}}`;
    const created = await api().request('POST', '/v1/admin/products', {
      rawBody: body(unique('p')),
      headers: { 'content-type': 'application/json' },
    });
    expect(created.status, JSON.stringify(created.body)).toBe(200);
    expect(created.body.metadata).toEqual(metadata);
    const read = await api().get(`/v1/admin/products/${created.body.id}`);
    // (PostgreSQL's jsonb orders keys its own way: compare them as a set)
    expect(Object.keys(read.body.metadata).sort()).toEqual(['__proto__', 'a', 'constructor', 'prototype']);
    expect(read.body.metadata).toEqual(metadata);
    expect(({} as Record<string, unknown>).polluted).toBeUndefined();
    // a storefront cart and a customer
    const cart = await api().request('POST', '/v1/storefront/carts', {
      key: api().keys.publishable,
      rawBody: '{"metadata":{"__proto__":{"x":1},"constructor":{"prototype":2}}}',
      headers: { 'content-type': 'application/json' },
    });
    expect(cart.status, JSON.stringify(cart.body)).toBe(200);
    const cartRead = await api().storefront.get(`/v1/storefront/carts/${cart.body.id}`);
    expect(cartRead.body.metadata).toEqual(JSON.parse('{"__proto__":{"x":1},"constructor":{"prototype":2}}'));
    const customer = await api().request('POST', '/v1/admin/customers', {
      rawBody: `{"email":"${unique('proto')}@example.com","metadata":{"__proto__":"p"}}`,
      headers: { 'content-type': 'application/json' },
    });
    expect(customer.status, JSON.stringify(customer.body)).toBe(200);
    const customerRead = await api().get(`/v1/admin/customers/${customer.body.id}`);
    expect(customerRead.body.metadata).toEqual(JSON.parse('{"__proto__":"p"}'));
    // the engine API keeps them too
    const store = api().engine.forStore(api().scope);
    const inProcess = await store.products.create({
      name: unique('Proto'),
      metadata: JSON.parse('{"__proto__":1}'),
    });
    expect(JSON.stringify((await store.products.get(inProcess.id)).metadata)).toBe('{"__proto__":1}');
  });

  test('a path id with a wrong prefix or bad characters → 404 not_found, on admin and storefront routes', async () => {
    for (const path of [
      '/v1/admin/products/nope',
      '/v1/admin/products/prod-1',
      '/v1/admin/products/prod_1.2',
      '/v1/admin/products/PROD_1',
      '/v1/admin/orders/ord_1%20or%201=1',
      '/v1/admin/customers/cus_%27%3B--',
      `/v1/admin/discounts/disc_${'x'.repeat(300)}`,
    ]) {
      expectRefused(await api().get(path), 'id', 'not_found', 404);
    }
    for (const path of ['/v1/storefront/carts/cart%2F..%2Fx', '/v1/storefront/products/%F0%9F%98%80']) {
      expectRefused(await api().storefront.get(path), 'id', 'not_found', 404);
    }
    // the right shape with another resource's prefix: not found by the lookup, still 404
    expectRefused(await api().get('/v1/admin/products/cus_1'), null, 'not_found', 404);
    expectRefused(await api().storefront.get('/v1/storefront/carts/ord_1'), null, 'not_found', 404);
    expectRefused(
      await api().storefront.post('/v1/storefront/carts/nope/items', { variant_id: 'var_1' }),
      'id',
      'not_found',
      404,
    );
  });

  test('a cart holds at most 250 lines: 251 items at creation or a 251st added → 400, cart unchanged', async () => {
    const values = Array.from({ length: MAX_CART_LINES }, (_, i) => `V${i}`);
    const first = await api().post('/v1/admin/products', {
      name: unique('Wide'),
      status: 'active',
      options: [{ name: 'Version', values }],
      variants: values.map((value) => ({
        price: 1,
        options: { Version: value },
        inventory: { track_inventory: false },
      })),
    });
    expect(first.status, JSON.stringify(first.body)).toBe(200);
    const extra = await createProduct(api(), { on_hand: 10 });
    const ids: string[] = first.body.variants.map((variant: { id: string }) => variant.id);
    const items = ids.map((variant_id) => ({ variant_id }));
    expectRefused(
      await api().storefront.post('/v1/storefront/carts', {
        items: [...items, { variant_id: extra.variant_id }],
      }),
      'items',
    );
    const full = await api().storefront.post('/v1/storefront/carts', { items });
    expect(full.status, JSON.stringify(full.body)).toBe(200);
    expect(full.body.items).toHaveLength(MAX_CART_LINES);
    const added = await api().storefront.post(`/v1/storefront/carts/${full.body.id}/items`, {
      variant_id: extra.variant_id,
    });
    expect(added.status, JSON.stringify(added.body.error ?? added.body.items.length)).toBe(400);
    expect(added.body.error.code).toBe('parameter_invalid');
    // more of a variant already in the cart is not a new line, and within MAX_QUANTITY it is fine
    const more = await api().storefront.post(`/v1/storefront/carts/${full.body.id}/items`, {
      variant_id: ids[0],
      quantity: 2,
    });
    expect(more.status, JSON.stringify(more.body)).toBe(200);
    const after = await api().storefront.get(`/v1/storefront/carts/${full.body.id}`);
    expect(after.body.items).toHaveLength(MAX_CART_LINES);
    expect(after.body.summary.total_quantity).toBe(MAX_CART_LINES + 2);
  });

  test('repeated adds of one variant cannot take its line past MAX_QUANTITY → 400, line unchanged', async () => {
    const product = await createProduct(api(), {
      variants: [{ price: 1, inventory: { track_inventory: false } }],
    });
    const cart = await api().storefront.post('/v1/storefront/carts', {
      items: [{ variant_id: product.variant_id, quantity: MAX_QUANTITY }],
    });
    expect(cart.status, JSON.stringify(cart.body.error)).toBe(200);
    const again = await api().storefront.post(`/v1/storefront/carts/${cart.body.id}/items`, {
      variant_id: product.variant_id,
      quantity: 1,
    });
    expect(again.status, JSON.stringify(again.body.error ?? again.body.items[0].quantity)).toBe(400);
    expect(again.body.error.code).toBe('parameter_invalid');
    const read = await api().storefront.get(`/v1/storefront/carts/${cart.body.id}`);
    expect(read.body.items[0].quantity).toBe(MAX_QUANTITY);
  });

  test('a merge that would take a line past MAX_QUANTITY → 400; both carts unchanged, the guest cart still active', async () => {
    const a = api();
    const product = await createProduct(a, {
      variants: [{ price: 1, inventory: { track_inventory: false } }],
    });
    const customer = await createCustomer(a);
    const own = await a.storefront.post(
      '/v1/storefront/carts',
      { items: [{ variant_id: product.variant_id, quantity: MAX_QUANTITY - 10 }] },
      { customerToken: customer.token },
    );
    expect(own.status).toBe(200);
    const guest = await a.storefront.post('/v1/storefront/carts', {
      items: [{ variant_id: product.variant_id, quantity: 11 }],
    });
    const merged = await a.storefront.post(`/v1/storefront/carts/${guest.body.id}/merge`, undefined, {
      customerToken: customer.token,
    });
    expectRefused(merged, 'quantity');
    const ownAfter = await a.storefront.get(`/v1/storefront/carts/${own.body.id}`, {
      customerToken: customer.token,
    });
    expect(ownAfter.body.items[0].quantity).toBe(MAX_QUANTITY - 10);
    const guestAfter = await a.storefront.get(`/v1/storefront/carts/${guest.body.id}`);
    expect(guestAfter.body).toMatchObject({ status: 'active', items: [{ quantity: 11 }] });
  });

  test('the largest cart the limits allow still reads after the tax rate goes to 100 %: total = WORST_CASE_TOTAL', async () => {
    const values = Array.from({ length: MAX_CART_LINES }, (_, i) => `P${i}`);
    const product = await api().post('/v1/admin/products', {
      name: unique('Dear'),
      status: 'active',
      options: [{ name: 'Edition', values }],
      variants: values.map((value) => ({
        price: MAX_AMOUNT,
        options: { Edition: value },
        inventory: { track_inventory: false },
      })),
    });
    expect(product.status, JSON.stringify(product.body)).toBe(200);
    const items = product.body.variants.map((variant: { id: string }) => ({
      variant_id: variant.id,
      quantity: MAX_QUANTITY,
    }));
    const shipping = await createShippingMethod(api(), { price: MAX_AMOUNT });
    const cart = await api().storefront.post('/v1/storefront/carts', { items });
    expect(cart.status, JSON.stringify(cart.body)).toBe(200);
    const patched = await api().storefront.patch(`/v1/storefront/carts/${cart.body.id}`, {
      shipping_method_id: shipping,
    });
    expect(patched.status, JSON.stringify(patched.body)).toBe(200);
    const store = (await api().get('/v1/admin/store')).body;
    try {
      expect(
        (await api().patch('/v1/admin/store', { tax_rate: MAX_TAX_RATE, prices_include_tax: false })).status,
      ).toBe(200);
      const read = await api().storefront.get(`/v1/storefront/carts/${cart.body.id}`);
      expect(read.status, JSON.stringify(read.body)).toBe(200);
      expect(read.body.summary.total.amount).toBe(WORST_CASE_TOTAL);
      expect(Number.isSafeInteger(read.body.summary.total.amount)).toBe(true);
      // nothing can push it further: a price, a quantity or a tax rate beyond the limits is refused
      expectRefused(
        await api().patch(`/v1/admin/variants/${product.body.variants[0].id}`, { price: MAX_AMOUNT + 1 }),
        'price',
      );
      expectRefused(
        await api().storefront.patch(`/v1/storefront/carts/${cart.body.id}/items/${read.body.items[0].id}`, {
          quantity: MAX_QUANTITY + 1,
        }),
        'quantity',
      );
      expectRefused(await api().patch('/v1/admin/store', { tax_rate: MAX_TAX_RATE + 1 }), 'tax_rate');
      expectRefused(
        await api().patch(`/v1/admin/shipping-methods/${shipping}`, { price: MAX_AMOUNT + 1 }),
        'price',
      );
      const again = await api().storefront.get(`/v1/storefront/carts/${cart.body.id}`);
      expect(again.body.summary.total.amount).toBe(WORST_CASE_TOTAL);
    } finally {
      await api().patch('/v1/admin/store', {
        tax_rate: store.tax_rate,
        prices_include_tax: store.prices_include_tax,
      });
    }
  });
});

// ---------------------------------------------------------------- fuzz

/** Text a hostile client sends: NUL, lone surrogates, over-long, SQL-ish, prototype keys, any code unit. */
const hostileText = fc.oneof(
  fc.constantFrom(
    '\u0000',
    'a\u0000b',
    '\ud800',
    'x\udfff',
    '\udc00\ud800',
    '💥',
    '__proto__',
    'constructor',
    "' or 1=1 --",
    '%00',
    '../../etc',
    '',
    ' ',
    'a'.repeat(256),
    'b'.repeat(3_000),
    'prod_',
    'var_0',
  ),
  fc.string({
    unit: fc.integer({ min: 0, max: 0xffff }).map((code) => String.fromCharCode(code)),
    maxLength: 40,
  }),
  fc.string({ unit: 'binary', maxLength: 300 }),
);

/** Numbers at and beyond every column's edge. */
const hostileNumber = fc.oneof(
  fc.constantFrom(
    INT4_MAX,
    INT4_MAX + 1,
    -INT4_MAX - 2,
    2 ** 53,
    2 ** 53 + 2,
    Number.MAX_SAFE_INTEGER,
    -Number.MAX_SAFE_INTEGER,
    1e308,
    -1,
    0,
    1,
    1.5,
    1e-7,
    MAX_AMOUNT,
    MAX_AMOUNT + 1,
    MAX_QUANTITY + 1,
  ),
  fc.integer(),
  fc.double({ noNaN: true, noDefaultInfinity: true }),
);

const hostileScalar = fc.oneof(hostileText, hostileNumber, fc.boolean(), fc.constant(null));
const hostileValue = fc.letrec((tie) => ({
  value: fc.oneof(
    { depthSize: 'small', withCrossShrink: true },
    hostileScalar,
    fc.array(tie('value'), { maxLength: 4 }),
    fc.dictionary(hostileText, tie('value'), { maxKeys: 4 }),
  ),
})).value;
const hostileMetadata = fc.oneof(
  fc.dictionary(hostileText, hostileValue, { maxKeys: 6 }),
  fc.dictionary(fc.string({ maxLength: 45 }), hostileText, { minKeys: 48, maxKeys: 53 }),
);
/** A field that is sometimes sane, sometimes hostile. */
const maybe = <T>(sane: fc.Arbitrary<T>) => fc.oneof(sane, hostileScalar);

/** `encodeURIComponent`, except that lone surrogates (which it cannot encode) become CESU bytes. */
function encodeSegment(text: string): string {
  try {
    return encodeURIComponent(text);
  } catch {
    return text
      .split('')
      .map((unit) => {
        const code = unit.charCodeAt(0);
        if (code < 0xd800 || code > 0xdfff) return encodeURIComponent(unit);
        return [0xe0 | (code >> 12), 0x80 | ((code >> 6) & 0x3f), 0x80 | (code & 0x3f)]
          .map((byte) => `%${byte.toString(16).toUpperCase()}`)
          .join('');
      })
      .join('');
  }
}

interface FuzzIds {
  product: string;
  variant: string;
  inventory: string;
  cart: string;
  customer: string;
}

interface FuzzRequest {
  method: string;
  path: string;
  body?: unknown;
  storefront: boolean;
}

function fuzzRequests(ids: FuzzIds): fc.Arbitrary<FuzzRequest> {
  const id = (real: string) => fc.oneof(fc.constant(real), hostileText).map(encodeSegment);
  const query = (names: string[]) =>
    fc
      .array(fc.tuple(fc.constantFrom(...names), maybe(fc.string())), { maxLength: 4 })
      .map((pairs) =>
        pairs.length === 0 ? '' : `?${pairs.map(([k, v]) => `${k}=${encodeSegment(String(v))}`).join('&')}`,
      );
  const line = fc.record(
    {
      variant_id: maybe(fc.constant(ids.variant)),
      quantity: maybe(fc.integer({ min: 1, max: 5 })),
      metadata: hostileMetadata,
    },
    { requiredKeys: ['variant_id'] },
  );
  const address = fc.record(
    {
      name: maybe(fc.constant('A')),
      line1: hostileText,
      city: hostileText,
      postal_code: hostileText,
      country: maybe(fc.constant('US')),
    },
    { requiredKeys: [] },
  );
  const storefront: fc.Arbitrary<FuzzRequest>[] = [
    query(['q', 'tag', 'price_min', 'price_max', 'limit', 'starting_after', 'sort', 'order']).map((q) => ({
      method: 'GET',
      path: `/v1/storefront/products${q}`,
      storefront: true,
    })),
    id(ids.product).map((p) => ({ method: 'GET', path: `/v1/storefront/products/${p}`, storefront: true })),
    hostileText.map((s) => ({
      method: 'GET',
      path: `/v1/storefront/products/by-slug/${encodeSegment(s)}`,
      storefront: true,
    })),
    hostileText.map((s) => ({
      method: 'GET',
      path: `/v1/storefront/carts/by-session/${encodeSegment(s)}`,
      storefront: true,
    })),
    fc
      .record(
        {
          session_id: hostileText,
          items: fc.array(line, { maxLength: 3 }),
          metadata: hostileMetadata,
          shipping_address: address,
        },
        { requiredKeys: [] },
      )
      .map((body) => ({ method: 'POST', path: '/v1/storefront/carts', body, storefront: true })),
    fc.tuple(id(ids.cart), line).map(([c, body]) => ({
      method: 'POST',
      path: `/v1/storefront/carts/${c}/items`,
      body,
      storefront: true,
    })),
    fc
      .tuple(
        id(ids.cart),
        fc.record({ metadata: hostileMetadata, billing_address: address }, { requiredKeys: [] }),
      )
      .map(([c, body]) => ({ method: 'PATCH', path: `/v1/storefront/carts/${c}`, body, storefront: true })),
    fc.tuple(id(ids.cart), hostileText).map(([c, code]) => ({
      method: 'POST',
      path: `/v1/storefront/carts/${c}/discounts`,
      body: { code },
      storefront: true,
    })),
    fc.tuple(id(ids.cart), hostileText).map(([c, code]) => ({
      method: 'DELETE',
      path: `/v1/storefront/carts/${c}/discounts/${encodeSegment(code)}`,
      storefront: true,
    })),
    query(['number', 'email']).map((q) => ({
      method: 'GET',
      path: `/v1/storefront/orders/lookup${q}`,
      storefront: true,
    })),
  ];
  const admin: fc.Arbitrary<FuzzRequest>[] = [
    fc
      .record(
        {
          name: maybe(fc.constant('Fuzz')),
          slug: hostileText,
          description: hostileText,
          tags: fc.array(hostileText, { maxLength: 3 }),
          metadata: hostileMetadata,
          attributes: hostileMetadata,
          variants: fc.array(
            fc.record(
              {
                price: maybe(fc.integer({ min: 0, max: 10_000 })),
                sku: hostileText,
                barcode: hostileText,
                weight: hostileNumber,
                inventory: fc.record(
                  { on_hand: hostileNumber, safety_stock: hostileNumber },
                  { requiredKeys: [] },
                ),
              },
              { requiredKeys: ['price'] },
            ),
            { maxLength: 2 },
          ),
        },
        { requiredKeys: ['name'] },
      )
      .map((body) => ({ method: 'POST', path: '/v1/admin/products', body, storefront: false })),
    query(['q', 'tag', 'status', 'limit', 'starting_after']).map((q) => ({
      method: 'GET',
      path: `/v1/admin/products${q}`,
      storefront: false,
    })),
    fc
      .tuple(
        id(ids.inventory),
        fc.record(
          { on_hand: hostileNumber, safety_stock: hostileNumber, metadata: hostileMetadata },
          { requiredKeys: [] },
        ),
      )
      .map(([i, body]) => ({ method: 'PATCH', path: `/v1/admin/inventory/${i}`, body, storefront: false })),
    fc.tuple(id(ids.inventory), hostileNumber, hostileText).map(([i, quantity, reason]) => ({
      method: 'POST',
      path: `/v1/admin/inventory/${i}/adjust`,
      body: { quantity, reason },
      storefront: false,
    })),
    fc
      .record(
        {
          email: maybe(fc.emailAddress()),
          first_name: hostileText,
          external_id: hostileText,
          tags: fc.array(hostileText),
          metadata: hostileMetadata,
        },
        { requiredKeys: ['email'] },
      )
      .map((body) => ({ method: 'POST', path: '/v1/admin/customers', body, storefront: false })),
    fc
      .tuple(
        id(ids.customer),
        fc.record({ metadata: hostileMetadata, phone: hostileText }, { requiredKeys: [] }),
      )
      .map(([c, body]) => ({ method: 'PATCH', path: `/v1/admin/customers/${c}`, body, storefront: false })),
    query(['q', 'tag', 'status']).map((q) => ({
      method: 'GET',
      path: `/v1/admin/customers${q}`,
      storefront: false,
    })),
    query(['q', 'email', 'customer_id', 'status', 'created_after']).map((q) => ({
      method: 'GET',
      path: `/v1/admin/orders${q}`,
      storefront: false,
    })),
    fc
      .record(
        {
          name: maybe(fc.constant('D')),
          code: hostileText,
          value_type: maybe(fc.constantFrom('fixed', 'percentage')),
          value: hostileNumber,
          usage_limit: hostileNumber,
          minimum_amount: hostileNumber,
          metadata: hostileMetadata,
        },
        { requiredKeys: ['name'] },
      )
      .map((body) => ({ method: 'POST', path: '/v1/admin/discounts', body, storefront: false })),
    fc
      .record(
        {
          name: maybe(fc.constant('Ship')),
          price: hostileNumber,
          position: hostileNumber,
          free_shipping_threshold: hostileNumber,
        },
        { requiredKeys: ['name'] },
      )
      .map((body) => ({ method: 'POST', path: '/v1/admin/shipping-methods', body, storefront: false })),
    fc
      .record(
        {
          lines: fc.array(line, { maxLength: 2 }),
          email: maybe(fc.constant('f@example.com')),
          note: hostileText,
          metadata: hostileMetadata,
        },
        { requiredKeys: ['lines'] },
      )
      .map((body) => ({ method: 'POST', path: '/v1/admin/orders', body, storefront: false })),
    fc
      .tuple(
        fc.constantFrom('products', 'orders', 'customers', 'discounts', 'variants', 'fulfillments'),
        hostileText,
      )
      .map(([kind, raw]) => ({
        method: 'GET',
        path: `/v1/admin/${kind}/${encodeSegment(raw)}`,
        storefront: false,
      })),
  ];
  return fc.oneof(...storefront, ...admin);
}

describeApi('input fuzz: hostile requests never get a 5xx', (api) => {
  test('300 generated requests over storefront and admin routes', async () => {
    const product = await createProduct(api(), { on_hand: 50 });
    const inventory = (await api().get(`/v1/admin/products/${product.product_id}`)).body.variants[0].inventory
      .id;
    const cart = (await api().storefront.post('/v1/storefront/carts', {})).body.id;
    const customer = (await api().post('/v1/admin/customers', { email: `${unique('fuzz')}@example.com` }))
      .body.id;
    const ids: FuzzIds = {
      product: product.product_id,
      variant: product.variant_id,
      inventory,
      cart,
      customer,
    };
    const statuses = new Map<number, number>();
    await fc.assert(
      fc.asyncProperty(fuzzRequests(ids), async (request) => {
        const res = await api().request(request.method, request.path, {
          key: request.storefront ? api().keys.publishable : api().keys.secret,
          ...(request.body !== undefined && { body: request.body }),
        });
        statuses.set(res.status, (statuses.get(res.status) ?? 0) + 1);
        expect(
          res.status,
          `${request.method} ${request.path} → ${JSON.stringify(res.body).slice(0, 300)}`,
        ).toBeLessThan(500);
        if (res.status >= 400) expect(typeof res.body.error.code).toBe('string');
      }),
      { numRuns: 300 },
    );
    // the run exercised refusals and successes alike
    expect([...statuses.keys()].some((status) => status >= 400)).toBe(true);
    expect([...statuses.keys()].some((status) => status < 300)).toBe(true);
  }, 120_000);
});
