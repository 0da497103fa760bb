import { StorefrontProductListQuerySchema } from '@cartwright/core/schemas';
import { expect, test } from 'vitest';
import { describeApi, type TestApi } from './support/harness';

/**
 * The storefront in a region over real HTTP on every engine (decisions §19): `region_id` on the
 * product list and detail (404 `param: region_id` when unknown or inactive), the default region,
 * prices in the region currency (`price: null` where a variant is not sold), `price_min` /
 * `price_max` / `sort=price` on the region's representative prices; the served text (the
 * storefront read model, with its page cache on SQLite and PostgreSQL) byte for byte the object
 * path's serialisation, and never stale after a region, region price, rate or catalog write.
 */

// biome-ignore lint/suspicious/noExplicitAny: response bodies are read field by field in assertions.
type Body = any;

let counter = 0;
const unique = (prefix: string) => `${prefix}${(++counter).toString(36)}${Date.now().toString(36)}`;

async function ok(res: Promise<{ status: number; body: Body }>, status = 200): Promise<Body> {
  const done = await res;
  expect(done.status, JSON.stringify(done.body)).toBe(status);
  return done.body;
}

/** The served body of a storefront list and the object path's serialisation of the same query. */
async function listBoth(api: TestApi, query: Record<string, string>) {
  const search = new URLSearchParams(query).toString();
  const res = await fetch(`${api.baseUrl}/v1/storefront/products?${search}`, {
    headers: { authorization: `Bearer ${api.keys.publishable}` },
  });
  const text = await res.text();
  expect(res.status, text).toBe(200);
  const objects = await api.engine.products.listStorefront(
    api.scope,
    StorefrontProductListQuerySchema.parse(query),
  );
  expect(text).toBe(JSON.stringify(objects));
  return JSON.parse(text) as Body;
}

/** The served body of one storefront product, checked against the object path. */
async function getBoth(api: TestApi, id: string, region?: string) {
  const res = await fetch(
    `${api.baseUrl}/v1/storefront/products/${id}${region === undefined ? '' : `?region_id=${region}`}`,
    { headers: { authorization: `Bearer ${api.keys.publishable}` } },
  );
  const text = await res.text();
  expect(res.status, text).toBe(200);
  const object = await api.engine.products.getStorefront(api.scope, id, undefined, region);
  expect(text).toBe(JSON.stringify(object));
  return JSON.parse(text) as Body;
}

async function product(api: TestApi, tag: string, name: string, prices: number[]): Promise<Body> {
  return ok(
    api.post('/v1/admin/products', {
      name,
      status: 'active',
      tags: [tag],
      options: [{ name: 'Size', values: prices.map((_, i) => `S${i}`) }],
      variants: prices.map((price, i) => ({
        sku: unique(`${name}-`),
        price,
        ...(i === 0 && { compare_at_price: price + 500 }),
        options: { Size: `S${i}` },
        inventory: { on_hand: 3 },
      })),
    }),
  );
}

const ids = (page: Body) => page.data.map((p: Body) => p.id);

describeApi('storefront: products in a region', (api) => {
  test('region_id: prices in its currency (rate, region prices, null), filters and sort on them, cursors; bytes equal the object path', async () => {
    const tag = unique('rg');
    const a = await product(api(), tag, 'Alpha', [1000, 1500]);
    const b = await product(api(), tag, 'Beta', [2000]);
    const c = await product(api(), tag, 'Gamma', [3000]);
    const region = await ok(
      api().post('/v1/admin/regions', { name: 'Kuwait', code: unique('kw'), currency: 'KWD' }),
    );
    // Before any rate: only region prices sell; Gamma gets one.
    await ok(
      api().request('PUT', `/v1/admin/regions/${region.id}/prices`, {
        body: { variant_id: c.variants[0].id, price: 123, compare_at_price: null },
      }),
    );
    let page = await listBoth(api(), { tag, region_id: region.id, sort: 'price', order: 'asc' });
    expect(ids(page)).toEqual([c.id, a.id, b.id]);
    expect(page.data[0].price).toEqual({ amount: 123, currency: 'KWD' });
    expect(page.data[1].price).toBeNull();
    expect(page.data[1].variants.map((v: Body) => v.price)).toEqual([null, null]);

    // USD → KWD at 0.30712 (KWD has 3 decimals): 10.00 USD = 3.0712 KWD → 3071.
    await ok(
      api().request('PUT', '/v1/admin/currency-rates', {
        body: { from_currency: 'USD', to_currency: 'KWD', rate: 0.30712 },
      }),
    );
    page = await listBoth(api(), { tag, region_id: region.id, sort: 'price', order: 'asc' });
    expect(ids(page)).toEqual([c.id, a.id, b.id]);
    expect(page.data.map((p: Body) => p.price.amount)).toEqual([123, 3071, 6142]);
    expect(page.data[1].compare_at_price).toEqual({ amount: 4607, currency: 'KWD' });
    expect(page.data[1].variants.map((v: Body) => v.price)).toEqual([
      { amount: 3071, currency: 'KWD' },
      { amount: 4607, currency: 'KWD' },
    ]);
    const desc = await listBoth(api(), { tag, region_id: region.id, sort: 'price', order: 'desc' });
    expect(ids(desc)).toEqual([b.id, a.id, c.id]);
    const bounded = await listBoth(api(), { tag, region_id: region.id, price_min: '200', price_max: '5000' });
    expect(ids(bounded)).toEqual([a.id]);
    // Cursor pages in the region's order.
    const first = await listBoth(api(), {
      tag,
      region_id: region.id,
      sort: 'price',
      order: 'asc',
      limit: '2',
    });
    expect(first).toMatchObject({ total_count: 3, has_more: true, next_cursor: a.id });
    const next = await listBoth(api(), {
      tag,
      region_id: region.id,
      sort: 'price',
      order: 'asc',
      limit: '2',
      starting_after: a.id,
    });
    expect(ids(next)).toEqual([b.id]);
    // Detail by id and by slug.
    const detail = await getBoth(api(), a.id, region.id);
    expect(detail.price).toEqual({ amount: 3071, currency: 'KWD' });
    const bySlug = await ok(
      api().storefront.get(`/v1/storefront/products/by-slug/${a.slug}?region_id=${region.id}`),
    );
    expect(bySlug).toEqual(detail);
    // Without region_id (no default region): today's answer in the store currency.
    const plain = await getBoth(api(), a.id);
    expect(plain.price).toEqual({ amount: 1000, currency: 'USD' });
  });

  test('unknown or inactive region → 404 param region_id; the default region applies; writes are seen at once (page cache)', async () => {
    const tag = unique('rd');
    const a = await product(api(), tag, 'Delta', [800]);
    const res = await api().storefront.get(`/v1/storefront/products?region_id=reg_missing`);
    expect(res.status).toBe(404);
    expect(res.body.error).toMatchObject({ code: 'not_found', param: 'region_id' });
    const missing = await api().storefront.get(`/v1/storefront/products/${a.id}?region_id=reg_missing`);
    expect(missing.status).toBe(404);
    expect(missing.body.error.param).toBe('region_id');

    const region = await ok(
      api().post('/v1/admin/regions', { name: 'Japan', code: unique('jp'), currency: 'JPY' }),
    );
    await ok(
      api().request('PUT', '/v1/admin/currency-rates', {
        body: { from_currency: 'USD', to_currency: 'JPY', rate: 150 },
      }),
    );
    // Read (and cache) the store-currency page, then make the region the default: the next read
    // is in JPY (the `regions` trigger moved the catalog version).
    expect((await listBoth(api(), { tag })).data[0].price).toEqual({ amount: 800, currency: 'USD' });
    await ok(api().patch(`/v1/admin/regions/${region.id}`, { is_default: true }));
    expect((await listBoth(api(), { tag })).data[0].price).toEqual({ amount: 1200, currency: 'JPY' });
    // A rate change is seen at once.
    await ok(
      api().request('PUT', '/v1/admin/currency-rates', {
        body: { from_currency: 'USD', to_currency: 'JPY', rate: 151.5 },
      }),
    );
    expect((await listBoth(api(), { tag })).data[0].price).toEqual({ amount: 1212, currency: 'JPY' });
    expect((await getBoth(api(), a.id)).price).toEqual({ amount: 1212, currency: 'JPY' });
    // A region price is seen at once.
    await ok(
      api().request('PUT', `/v1/admin/regions/${region.id}/prices`, {
        body: { variant_id: a.variants[0].id, price: 999 },
      }),
    );
    expect((await getBoth(api(), a.id)).variants[0].price).toEqual({ amount: 999, currency: 'JPY' });
    expect((await listBoth(api(), { tag, price_max: '999' })).data.map((p: Body) => p.id)).toEqual([a.id]);
    // A variant price change moves the list filters (the product's region row is rewritten).
    await ok(api().request('DELETE', `/v1/admin/regions/${region.id}/prices/${a.variants[0].id}`));
    await ok(api().patch(`/v1/admin/variants/${a.variants[0].id}`, { price: 100 }));
    expect((await listBoth(api(), { tag, price_max: '200' })).data.map((p: Body) => p.price)).toEqual([
      { amount: 152, currency: 'JPY' },
    ]);
    // Deactivated: 404 with region_id, and the default no longer applies.
    await ok(api().patch(`/v1/admin/regions/${region.id}`, { is_active: false }));
    const inactive = await api().storefront.get(`/v1/storefront/products?region_id=${region.id}`);
    expect(inactive.status).toBe(404);
    expect(inactive.body.error.param).toBe('region_id');
    expect((await listBoth(api(), { tag })).data[0].price).toEqual({ amount: 100, currency: 'USD' });
  });
});
