import type { EventPayload } from '@cartwright/core/internal';
import type { Clock } from '@cartwright/core/providers';
import { expect, test } from 'vitest';
import { describeApi, type TestApi } from './support/harness';

/** A JSON body of the API under test (checked against the route's schema by the harness). */
// biome-ignore lint/suspicious/noExplicitAny: response bodies are read field by field in assertions.
type Body = any;

/**
 * The catalog over real HTTP (docs/contract.md#lists, #catalog): products with options, variants and
 * images; the admin list's filters, sorts and keyset pages; the storefront's hiding rules; mode
 * isolation; uniqueness of slugs and SKUs; option references; money inputs; events.
 */

let counter = 0;
/** A value unique within the run, to keep tests that share one database apart. */
const unique = (prefix: string) => `${prefix}-${(++counter).toString(36)}-${Date.now().toString(36)}`;

const usd = (amount: number) => ({ amount, currency: 'USD' });

/**
 * A clock that never returns the same millisecond twice, so products created one after another
 * have distinct `created_at` and the default sort (newest first) is deterministic.
 */
function tickingClock(): Clock {
  let last = 0;
  return { now: () => (last = Math.max(Date.now(), last + 1)) };
}
const engineOptions = { clock: tickingClock() };

/** Creates a product through the API and returns its body (fails the test on a non-200). */
async function createProduct(api: TestApi, body: Record<string, unknown>, key?: string): Promise<Body> {
  const res = await api.post('/v1/admin/products', body, key === undefined ? {} : { key });
  expect(res.status, JSON.stringify(res.body)).toBe(200);
  return res.body;
}

/** A product with one variant of the given price, tagged for a test's own lists. */
function simpleProduct(name: string, tag: string, price: number, extra: Record<string, unknown> = {}) {
  return { name, status: 'active', tags: [tag], variants: [{ price }], ...extra };
}

/** Collects the events raised while `fn` runs. */
async function eventsDuring(api: TestApi, fn: () => Promise<unknown>): Promise<EventPayload[]> {
  const seen: EventPayload[] = [];
  const off = api.engine.events.on('*', (event) => seen.push(event));
  try {
    await fn();
  } finally {
    off();
  }
  return seen;
}

/** Walks a list from its first page with `limit`, following `next_cursor`; returns the ids in order. */
async function walk(api: TestApi, path: string, limit: number, storefront = false): Promise<string[]> {
  const ids: string[] = [];
  let cursor: string | null = null;
  for (let page = 0; page < 50; page++) {
    const sep = path.includes('?') ? '&' : '?';
    const url: string = `${path}${sep}limit=${limit}${cursor ? `&starting_after=${cursor}` : ''}`;
    const res = storefront ? await api.storefront.get(url) : await api.get(url);
    expect(res.status, JSON.stringify(res.body)).toBe(200);
    ids.push(...res.body.data.map((item: { id: string }) => item.id));
    expect(res.body.data.length).toBeLessThanOrEqual(limit);
    if (!res.body.has_more) {
      expect(res.body.next_cursor).toBeNull();
      return ids;
    }
    expect(res.body.next_cursor).toBe(res.body.data[res.body.data.length - 1].id);
    cursor = res.body.next_cursor;
  }
  throw new Error('list did not end');
}

describeApi(
  'catalog: products',
  (api) => {
    test('create with options, variants and images: defaults, derived slug, inventory, representative price', async () => {
      const sku = unique('TEE');
      const events = await eventsDuring(api(), async () => {
        const res = await api().post('/v1/admin/products', {
          name: 'Organic Tee — Crème Edition!',
          description: 'Soft cotton',
          tags: ['summer', 'cotton'],
          attributes: { material: 'cotton' },
          metadata: { origin: 'PT' },
          images: [
            { url: 'https://cdn.example.com/tee-front.png', alt_text: 'Front', width: 800, height: 600 },
            { url: 'https://cdn.example.com/tee-back.png' },
          ],
          options: [
            { name: 'Colour', values: ['Red', 'Blue'] },
            { name: 'Size', values: ['S', 'M'] },
          ],
          variants: [
            {
              sku: `${sku}-RS`,
              price: 2500,
              cost_price: 900,
              compare_at_price: { amount: 3000, currency: 'USD' },
              weight: 180,
              options: { Colour: 'Red', Size: 'S' },
              inventory: { on_hand: 12, safety_stock: 2, allow_backorder: true },
              metadata: { fit: 'slim' },
            },
            { sku: `${sku}-BM`, price: { amount: 2300 }, options: { Size: 'M', Colour: 'Blue' } },
            { sku: `${sku}-BS`, price: 1000, is_active: false, options: { Colour: 'Blue', Size: 'S' } },
          ],
        });
        expect(res.status, JSON.stringify(res.body)).toBe(200);
        const product = res.body;
        expect(product.id).toMatch(/^prod_/);
        expect(product).toMatchObject({
          name: 'Organic Tee — Crème Edition!',
          slug: 'organic-tee-creme-edition',
          description: 'Soft cotton',
          type: 'physical',
          status: 'draft',
          tags: ['summer', 'cotton'],
          attributes: { material: 'cotton' },
          metadata: { origin: 'PT' },
          // cheapest ACTIVE variant: 2300 (the 1000 one is inactive)
          price: usd(2300),
        });
        expect(product.images.map((i: Body) => [i.url, i.position, i.alt_text, i.width])).toEqual([
          ['https://cdn.example.com/tee-front.png', 0, 'Front', 800],
          ['https://cdn.example.com/tee-back.png', 1, null, null],
        ]);
        expect(
          product.options.map((o: Body) => [o.name, o.position, o.values.map((v: Body) => v.value)]),
        ).toEqual([
          ['Colour', 0, ['Red', 'Blue']],
          ['Size', 1, ['S', 'M']],
        ]);
        expect(product.options[0].id).toMatch(/^opt_/);
        expect(product.options[0].values[0].id).toMatch(/^optval_/);

        const [rs, bm, bs] = product.variants;
        expect(rs).toMatchObject({
          product_id: product.id,
          sku: `${sku}-RS`,
          barcode: null,
          price: usd(2500),
          compare_at_price: usd(3000),
          cost_price: usd(900),
          weight: 180,
          is_active: true,
          metadata: { fit: 'slim' },
          images: [],
        });
        expect(rs.id).toMatch(/^var_/);
        expect(rs.option_values.map((v: Body) => v.value)).toEqual(['Red', 'S']);
        expect(rs.inventory).toMatchObject({
          variant_id: rs.id,
          track_inventory: true,
          allow_backorder: true,
          safety_stock: 2,
          on_hand: 12,
          reserved: 0,
          available: 12,
        });
        expect(rs.inventory.id).toMatch(/^inv_/);
        // Option values follow the product's option order whatever order the request used.
        expect(bm.option_values.map((v: Body) => v.value)).toEqual(['Blue', 'M']);
        // Inventory defaults (docs/contract.md#catalog).
        expect(bm.inventory).toMatchObject({
          track_inventory: true,
          allow_backorder: false,
          safety_stock: 0,
          on_hand: 0,
          reserved: 0,
          available: 0,
        });
        expect(bm.cost_price).toBeNull();
        expect(bs.is_active).toBe(false);

        const fetched = await api().get(`/v1/admin/products/${product.id}`);
        expect(fetched.status).toBe(200);
        expect(fetched.body).toEqual(product);
      });
      const created = events.filter((e) => e.type === 'product.created');
      expect(created).toHaveLength(1);
      expect(created[0]?.data).toMatchObject({ slug: 'organic-tee-creme-edition', price: usd(2300) });
      expect((created[0]?.data as Body | undefined)?.variants[0].cost_price).toEqual(usd(900));
    });

    test('minimal create: defaults physical/draft, no variants, price null', async () => {
      const name = unique('Plain Thing');
      const product = await createProduct(api(), { name });
      expect(product).toMatchObject({
        type: 'physical',
        status: 'draft',
        description: null,
        tags: [],
        attributes: {},
        metadata: {},
        images: [],
        options: [],
        variants: [],
        price: null,
      });
      expect(product.slug).toBe(name.toLowerCase().replace(' ', '-'));
    });

    test('a name without Latin characters gets an id-based slug', async () => {
      const product = await createProduct(api(), { name: '日本茶' });
      expect(product.slug).toBe(product.id.toLowerCase().replace('_', '-'));
    });

    test('duplicate slug → 409 duplicate_slug, given or derived; the same slug in live mode is fine', async () => {
      const slug = unique('dup-slug');
      await createProduct(api(), { name: 'First', slug });
      const given = await api().post('/v1/admin/products', { name: 'Second', slug });
      expect(given.status).toBe(409);
      expect(given.body.error).toMatchObject({
        type: 'conflict_error',
        code: 'duplicate_slug',
        param: 'slug',
      });

      const derived = await api().post('/v1/admin/products', {
        name: slug.toUpperCase().replaceAll('-', ' '),
      });
      expect(derived.status).toBe(409);
      expect(derived.body.error.code).toBe('duplicate_slug');

      const live = await api().post(
        '/v1/admin/products',
        { name: 'Live twin', slug },
        { key: api().keys.liveSecret },
      );
      expect(live.status).toBe(200);
    });

    test('duplicate SKU → 409 duplicate_sku on the variant at fault', async () => {
      const sku = unique('SKU');
      const inRequest = await api().post('/v1/admin/products', {
        name: 'Twins',
        variants: [
          { sku, price: 100 },
          { sku, price: 200 },
        ],
      });
      expect(inRequest.status).toBe(409);
      expect(inRequest.body.error).toMatchObject({ code: 'duplicate_sku', param: 'variants[1][sku]' });

      await createProduct(api(), { name: 'Owner', variants: [{ sku, price: 100 }] });
      const taken = await api().post('/v1/admin/products', {
        name: 'Thief',
        variants: [
          { sku: unique('OTHER'), price: 100 },
          { sku, price: 100 },
        ],
      });
      expect(taken.status).toBe(409);
      expect(taken.body.error).toMatchObject({ code: 'duplicate_sku', param: 'variants[1][sku]' });

      // Nothing of the refused product was written.
      const list = await api().get(`/v1/admin/products?q=Thief`);
      expect(list.body.data).toEqual([]);
    });

    test('bad option references → 400 with the param at fault', async () => {
      const options = [{ name: 'Size', values: ['S', 'M'] }];
      const cases: Array<[Record<string, unknown>, string, string]> = [
        [{ options: { Size: 'XL' } }, 'parameter_invalid', 'variants[0][options][Size]'],
        [{ options: { Size: 'S', Material: 'Wool' } }, 'parameter_invalid', 'variants[0][options][Material]'],
        [{ options: {} }, 'parameter_missing', 'variants[0][options][Size]'],
        [{}, 'parameter_missing', 'variants[0][options]'],
        [{ option_value_ids: ['optval_x'] }, 'parameter_invalid', 'variants[0][option_value_ids]'],
      ];
      for (const [reference, code, param] of cases) {
        const res = await api().post('/v1/admin/products', {
          name: 'Bad options',
          options,
          variants: [{ price: 100, ...reference }],
        });
        expect(res.status, JSON.stringify(reference)).toBe(400);
        expect(res.body.error).toMatchObject({ code, param });
      }
      const twins = await api().post('/v1/admin/products', {
        name: 'Twin options',
        options,
        variants: [
          { price: 100, options: { Size: 'S' } },
          { price: 200, options: { Size: 'S' } },
        ],
      });
      expect(twins.status).toBe(400);
      expect(twins.body.error).toMatchObject({ code: 'parameter_invalid', param: 'variants[1][options]' });
      const noOptions = await api().post('/v1/admin/products', {
        name: 'No options',
        variants: [{ price: 100, options: { Size: 'S' } }],
      });
      expect(noOptions.status).toBe(400);
      expect(noOptions.body.error.param).toBe('variants[0][options]');
    });

    test('money in another currency → 422 currency_mismatch; a Money object in USD is accepted', async () => {
      const res = await api().post('/v1/admin/products', {
        name: 'Euro thing',
        variants: [{ price: 100 }, { price: 100, cost_price: { amount: 50, currency: 'EUR' } }],
      });
      expect(res.status).toBe(422);
      expect(res.body.error).toMatchObject({
        type: 'invalid_request_error',
        code: 'currency_mismatch',
        param: 'variants[1][cost_price]',
      });
      const ok = await createProduct(api(), {
        name: 'Dollar thing',
        variants: [{ price: { amount: 100, currency: 'usd' } }],
      });
      expect(ok.variants[0].price).toEqual(usd(100));
    });

    test('validation: unknown field, missing name, bad slug, bad enum, negative price → 400', async () => {
      const cases: Array<[Record<string, unknown>, string, string]> = [
        [{ name: 'X', colour: 'red' }, 'parameter_unknown', 'colour'],
        [{ description: 'no name' }, 'parameter_missing', 'name'],
        [{ name: 'X', slug: 'Not A Slug' }, 'parameter_invalid', 'slug'],
        [{ name: 'X', type: 'furniture' }, 'parameter_invalid', 'type'],
        [{ name: 'X', status: 'published' }, 'parameter_invalid', 'status'],
        [{ name: 'X', variants: [{ price: -1 }] }, 'parameter_invalid', 'variants[0][price]'],
        [{ name: 'X', variants: [{ price: 10.5 }] }, 'parameter_invalid', 'variants[0][price]'],
        [
          { name: 'X', variants: [{ price: 1, inventory: { on_hand: 1, reserved: 3 } }] },
          'parameter_unknown',
          'variants[0][inventory][reserved]',
        ],
        [{ name: 'X', images: [{ url: 'not a url' }] }, 'parameter_invalid', 'images[0][url]'],
      ];
      for (const [body, code, param] of cases) {
        const res = await api().post('/v1/admin/products', body);
        expect(res.status, JSON.stringify(body)).toBe(400);
        expect(res.body.error).toMatchObject({ code, param });
      }
    });

    test('GET unknown id → 404; a test product is 404 to the live key and vice versa', async () => {
      const missing = await api().get('/v1/admin/products/prod_doesnotexist');
      expect(missing.status).toBe(404);
      expect(missing.body.error).toMatchObject({ type: 'not_found_error', code: 'not_found' });

      const testProduct = await createProduct(api(), {
        name: unique('Test only'),
        status: 'active',
        variants: [{ price: 5 }],
      });
      const live = api().keys.liveSecret;
      expect((await api().get(`/v1/admin/products/${testProduct.id}`, { key: live })).status).toBe(404);
      expect(
        (await api().patch(`/v1/admin/products/${testProduct.id}`, { name: 'x' }, { key: live })).status,
      ).toBe(404);
      expect((await api().delete(`/v1/admin/products/${testProduct.id}`, { key: live })).status).toBe(404);
      expect((await api().get(`/v1/admin/products/${testProduct.id}/variants`, { key: live })).status).toBe(
        404,
      );
      expect(
        (await api().patch(`/v1/admin/variants/${testProduct.variants[0].id}`, { price: 1 }, { key: live }))
          .status,
      ).toBe(404);
      expect(
        (await api().get(`/v1/storefront/products/${testProduct.id}`, { key: api().keys.livePublishable }))
          .status,
      ).toBe(404);

      const liveProduct = await createProduct(api(), { name: unique('Live only') }, live);
      expect((await api().get(`/v1/admin/products/${liveProduct.id}`)).status).toBe(404);
      expect((await api().get(`/v1/admin/products/${liveProduct.id}`, { key: live })).status).toBe(200);
    });

    test('PATCH replaces given fields, metadata as a whole, clears description; emits product.updated', async () => {
      const product = await createProduct(api(), {
        name: unique('Patchable'),
        description: 'old',
        metadata: { a: 1, b: 2 },
        attributes: { x: 'y' },
        tags: ['one'],
      });
      const events = await eventsDuring(api(), async () => {
        const res = await api().patch(`/v1/admin/products/${product.id}`, {
          name: 'Renamed',
          status: 'active',
          description: null,
          metadata: { c: 3 },
          tags: ['two', 'three'],
          type: 'digital',
        });
        expect(res.status).toBe(200);
        expect(res.body).toMatchObject({
          id: product.id,
          name: 'Renamed',
          slug: product.slug, // not re-derived
          status: 'active',
          description: null,
          metadata: { c: 3 },
          attributes: { x: 'y' },
          tags: ['two', 'three'],
          type: 'digital',
        });
        expect(Date.parse(res.body.updated_at)).toBeGreaterThanOrEqual(Date.parse(product.updated_at));
      });
      expect(events.map((e) => e.type)).toEqual(['product.updated']);
      expect(events[0]?.data).toMatchObject({ id: product.id, name: 'Renamed' });

      const other = await createProduct(api(), { name: unique('Other') });
      const clash = await api().patch(`/v1/admin/products/${product.id}`, { slug: other.slug });
      expect(clash.status).toBe(409);
      expect(clash.body.error).toMatchObject({ code: 'duplicate_slug', param: 'slug' });

      const unknownField = await api().patch(`/v1/admin/products/${product.id}`, { variants: [] });
      expect(unknownField.status).toBe(400);
      expect(unknownField.body.error).toMatchObject({ code: 'parameter_unknown', param: 'variants' });

      const missing = await api().patch('/v1/admin/products/prod_nope', { name: 'x' });
      expect(missing.status).toBe(404);
    });

    test('DELETE → { id, deleted: true }, emits product.deleted, then 404 everywhere', async () => {
      const product = await createProduct(api(), simpleProduct(unique('Doomed'), unique('doomed'), 100));
      const events = await eventsDuring(api(), async () => {
        const res = await api().delete(`/v1/admin/products/${product.id}`);
        expect(res.status).toBe(200);
        expect(res.body).toEqual({ id: product.id, deleted: true });
      });
      expect(events.map((e) => e.type)).toEqual(['product.deleted']);
      expect(events[0]?.data).toMatchObject({ id: product.id, name: product.name });
      expect((await api().get(`/v1/admin/products/${product.id}`)).status).toBe(404);
      expect((await api().storefront.get(`/v1/storefront/products/${product.id}`)).status).toBe(404);
      expect((await api().delete(`/v1/admin/products/${product.id}`)).status).toBe(404);
      expect((await api().patch(`/v1/admin/variants/${product.variants[0].id}`, { price: 5 })).status).toBe(
        404,
      );
      const list = await api().get(`/v1/admin/products?tag=${product.tags[0]}`);
      expect(list.body).toMatchObject({ data: [], total_count: 0 });
    });

    test('a publishable key gets 403 forbidden on every admin catalog route; no key → 401', async () => {
      const pk = api().keys.publishable;
      const calls = [
        api().post('/v1/admin/products', { name: 'x' }, { key: pk }),
        api().get('/v1/admin/products', { key: pk }),
        api().get('/v1/admin/products/prod_x', { key: pk }),
        api().patch('/v1/admin/products/prod_x', { name: 'x' }, { key: pk }),
        api().delete('/v1/admin/products/prod_x', { key: pk }),
        api().get('/v1/admin/products/prod_x/variants', { key: pk }),
        api().post('/v1/admin/products/prod_x/variants', { price: 1 }, { key: pk }),
        api().patch('/v1/admin/variants/var_x', { price: 1 }, { key: pk }),
        api().delete('/v1/admin/variants/var_x', { key: pk }),
        api().post('/v1/admin/products/prod_x/images', { url: 'https://x.test/a.png' }, { key: pk }),
        api().delete('/v1/admin/products/prod_x/images/img_x', { key: pk }),
      ];
      for (const res of await Promise.all(calls)) {
        expect(res.status).toBe(403);
        expect(res.body.error).toMatchObject({ type: 'permission_error', code: 'forbidden' });
      }
      const anonymous = await api().get('/v1/storefront/products', { key: null });
      expect(anonymous.status).toBe(401);
      expect(anonymous.body.error.code).toBe('unauthenticated');
    });
  },
  engineOptions,
);

describeApi(
  'catalog: admin product list',
  (api) => {
    test('filters status, type, q (case-insensitive partial), tag (AND); total_count counts all matches', async () => {
      const tag = unique('flt');
      const a = await createProduct(api(), {
        name: 'Alpha Lamp',
        status: 'active',
        type: 'physical',
        tags: [tag, 'red'],
      });
      const b = await createProduct(api(), {
        name: 'Beta lamp',
        status: 'draft',
        type: 'digital',
        tags: [tag, 'red', 'big'],
      });
      const c = await createProduct(api(), {
        name: 'Gamma Chair',
        status: 'archived',
        type: 'physical',
        tags: [tag, 'big'],
      });

      const ids = async (query: string) => {
        const res = await api().get(`/v1/admin/products?tag=${tag}${query}`);
        expect(res.status, JSON.stringify(res.body)).toBe(200);
        expect(res.body.total_count).toBe(res.body.data.length);
        return res.body.data.map((p: { id: string }) => p.id).sort();
      };
      expect(await ids('')).toEqual([a.id, b.id, c.id].sort());
      expect(await ids('&status=active')).toEqual([a.id]);
      expect(await ids('&status=archived')).toEqual([c.id]);
      expect(await ids('&type=digital')).toEqual([b.id]);
      expect(await ids('&type=physical')).toEqual([a.id, c.id].sort());
      expect(await ids('&q=LAMP')).toEqual([a.id, b.id].sort());
      expect(await ids('&q=mma%20ch')).toEqual([c.id]);
      expect(await ids(',red')).toEqual([a.id, b.id].sort());
      expect(await ids(',red,big')).toEqual([b.id]);
      expect(await ids(',red&status=archived')).toEqual([]);
      // The admin list shows cost prices (admin view).
      const withCost = await createProduct(api(), {
        name: 'Costly',
        tags: [tag, 'cost'],
        variants: [{ price: 10, cost_price: 4 }],
      });
      const list = await api().get(`/v1/admin/products?tag=${tag},cost`);
      expect(list.body.data[0].id).toBe(withCost.id);
      expect(list.body.data[0].variants[0].cost_price).toEqual(usd(4));
      expect(list.body.data[0].variants[0].inventory.on_hand).toBe(0);
    });

    test('sorts: created_at desc by default, name (case-insensitive), price asc/desc', async () => {
      const tag = unique('srt');
      const banana = await createProduct(api(), simpleProduct('Banana', tag, 300));
      const apple = await createProduct(api(), simpleProduct('apple', tag, 100));
      const cherry = await createProduct(api(), simpleProduct('Cherry', tag, 200));

      const order = async (query: string) => {
        const res = await api().get(`/v1/admin/products?tag=${tag}${query}`);
        expect(res.status, JSON.stringify(res.body)).toBe(200);
        return res.body.data.map((p: { name: string }) => p.name);
      };
      expect(await order('')).toEqual(['Cherry', 'apple', 'Banana']);
      expect(await order('&order=asc')).toEqual(['Banana', 'apple', 'Cherry']);
      expect(await order('&sort=name')).toEqual(['apple', 'Banana', 'Cherry']);
      expect(await order('&sort=name&order=desc')).toEqual(['Cherry', 'Banana', 'apple']);
      expect(await order('&sort=price')).toEqual(['apple', 'Cherry', 'Banana']);
      expect(await order('&sort=price&order=desc')).toEqual(['Banana', 'Cherry', 'apple']);
      expect([banana.price, apple.price, cherry.price]).toEqual([usd(300), usd(100), usd(200)]);
    });

    test('starting_after walks every page once, for every sort', async () => {
      const tag = unique('walk');
      const created: string[] = [];
      for (let i = 0; i < 7; i++) {
        const product = await createProduct(
          api(),
          simpleProduct(`Walker ${String.fromCharCode(70 - i)}`, tag, (i % 3) * 100 + 50),
        );
        created.push(product.id);
      }
      for (const query of [
        '',
        '&sort=name',
        '&sort=price',
        '&sort=price&order=desc',
        '&sort=created_at&order=asc',
      ]) {
        const full = await api().get(`/v1/admin/products?tag=${tag}${query}&limit=100`);
        expect(full.body.total_count).toBe(7);
        const expected = full.body.data.map((p: { id: string }) => p.id);
        const walked = await walk(api(), `/v1/admin/products?tag=${tag}${query}`, 3);
        expect(walked).toEqual(expected);
        expect([...walked].sort()).toEqual([...created].sort());
      }
      const first = await api().get(`/v1/admin/products?tag=${tag}&limit=3`);
      expect(first.body).toMatchObject({ total_count: 7, has_more: true });
      expect(first.body.data).toHaveLength(3);
      const last = await api().get(`/v1/admin/products?tag=${tag}&limit=7`);
      expect(last.body).toMatchObject({ has_more: false, next_cursor: null });
    });

    test('bad query values → 400 parameter_invalid on the parameter', async () => {
      const cases: Array<[string, string]> = [
        ['status=published', 'status'],
        ['type=furniture', 'type'],
        ['sort=popularity', 'sort'],
        ['order=sideways', 'order'],
        ['limit=0', 'limit'],
        ['limit=101', 'limit'],
        ['limit=ten', 'limit'],
        ['starting_after=prod_unknown', 'starting_after'],
      ];
      for (const [query, param] of cases) {
        const res = await api().get(`/v1/admin/products?${query}`);
        expect(res.status, query).toBe(400);
        expect(res.body.error).toMatchObject({ code: 'parameter_invalid', param });
      }
    });
  },
  engineOptions,
);

describeApi(
  'catalog: variants and images',
  (api) => {
    async function sizedProduct() {
      return createProduct(api(), {
        name: unique('Sized'),
        status: 'active',
        options: [
          { name: 'Size', values: ['S', 'M', 'L'] },
          { name: 'Colour', values: ['Red', 'Blue'] },
        ],
        variants: [{ sku: unique('S-RED'), price: 2000, options: { Size: 'S', Colour: 'Red' } }],
      });
    }

    test('POST variants: by option names or option_value_ids; gets inventory; product price and updated event follow', async () => {
      const product = await sizedProduct();
      const sizeM = product.options[0].values[1].id;
      const blue = product.options[1].values[1].id;
      let variant: Body;
      const events = await eventsDuring(api(), async () => {
        const res = await api().post(`/v1/admin/products/${product.id}/variants`, {
          sku: unique('M-BLUE'),
          price: 1500,
          cost_price: 700,
          option_value_ids: [blue, sizeM],
          inventory: { on_hand: 4, track_inventory: false },
        });
        expect(res.status, JSON.stringify(res.body)).toBe(200);
        variant = res.body;
      });
      expect(variant).toMatchObject({
        product_id: product.id,
        price: usd(1500),
        cost_price: usd(700),
        is_active: true,
      });
      expect(variant.option_values.map((v: Body) => v.value)).toEqual(['M', 'Blue']);
      expect(variant.inventory).toMatchObject({
        track_inventory: false,
        on_hand: 4,
        available: 4,
        variant_id: variant.id,
      });
      expect(events.map((e) => e.type)).toEqual(['product.updated']);
      expect(events[0]?.data).toMatchObject({ id: product.id, price: usd(1500) });
      expect((events[0]?.data as Body | undefined)?.variants).toHaveLength(2);

      const byName = await api().post(`/v1/admin/products/${product.id}/variants`, {
        price: 2500,
        options: { Colour: 'Blue', Size: 'L' },
      });
      expect(byName.status).toBe(200);
      expect(byName.body.option_values.map((v: Body) => v.value)).toEqual(['L', 'Blue']);
      expect(byName.body.sku).toBeNull();

      const reread = await api().get(`/v1/admin/products/${product.id}`);
      expect(reread.body.variants.map((v: Body) => v.id)).toEqual([
        product.variants[0].id,
        variant.id,
        byName.body.id,
      ]);
      expect(reread.body.price).toEqual(usd(1500));
    });

    test('POST variants errors: bad option references → 400, duplicate combination → 400, duplicate SKU → 409, currency → 422, unknown product → 404', async () => {
      const product = await sizedProduct();
      const url = `/v1/admin/products/${product.id}/variants`;
      const cases: Array<[Record<string, unknown>, number, string, string]> = [
        [{ price: 1, options: { Size: 'XL', Colour: 'Red' } }, 400, 'parameter_invalid', 'options[Size]'],
        [
          { price: 1, options: { Size: 'M', Colour: 'Red', Fabric: 'Silk' } },
          400,
          'parameter_invalid',
          'options[Fabric]',
        ],
        [{ price: 1, options: { Size: 'M' } }, 400, 'parameter_missing', 'options[Colour]'],
        [{ price: 1 }, 400, 'parameter_missing', 'options'],
        [
          { price: 1, option_value_ids: ['optval_nope', product.options[1].values[0].id] },
          400,
          'parameter_invalid',
          'option_value_ids[0]',
        ],
        [
          { price: 1, option_value_ids: [product.options[0].values[0].id] },
          400,
          'parameter_missing',
          'option_value_ids',
        ],
        [{ price: 1, options: { Size: 'S', Colour: 'Red' } }, 400, 'parameter_invalid', 'options'],
        [
          { price: 1, sku: product.variants[0].sku, options: { Size: 'M', Colour: 'Red' } },
          409,
          'duplicate_sku',
          'sku',
        ],
        [
          { price: { amount: 1, currency: 'GBP' }, options: { Size: 'M', Colour: 'Red' } },
          422,
          'currency_mismatch',
          'price',
        ],
        [{ price: 1, options: { Size: 'M', Colour: 'Red' }, stock: 3 }, 400, 'parameter_unknown', 'stock'],
        [{ options: { Size: 'M', Colour: 'Red' } }, 400, 'parameter_missing', 'price'],
      ];
      for (const [body, status, code, param] of cases) {
        const res = await api().post(url, body);
        expect(res.status, JSON.stringify(body)).toBe(status);
        expect(res.body.error).toMatchObject({ code, param });
      }
      // Option values written by another product are unknown here.
      const other = await sizedProduct();
      const foreign = await api().post(url, {
        price: 1,
        option_value_ids: [other.options[0].values[1].id, other.options[1].values[0].id],
      });
      expect(foreign.status).toBe(400);
      expect(foreign.body.error.param).toBe('option_value_ids[0]');
      expect((await api().get(`/v1/admin/products/${product.id}`)).body.variants).toHaveLength(1);
      expect((await api().post('/v1/admin/products/prod_nope/variants', { price: 1 })).status).toBe(404);
    });

    test('GET variants: all variants (inactive too), position order by default (decisions §22), created_at sort newest first, starting_after walk', async () => {
      const product = await createProduct(api(), {
        name: unique('Many'),
        options: [{ name: 'N', values: ['1', '2', '3', '4', '5'] }],
        variants: ['1', '2', '3', '4'].map((n) => ({
          price: 100 * Number(n),
          options: { N: n },
          is_active: n !== '2',
        })),
      });
      const added = await api().post(`/v1/admin/products/${product.id}/variants`, {
        price: 50,
        options: { N: '5' },
      });
      const base = `/v1/admin/products/${product.id}/variants`;
      const all = await api().get(base);
      expect(all.status).toBe(200);
      expect(all.body).toMatchObject({ total_count: 5, has_more: false, next_cursor: null });
      // Position order; the variant added later goes last.
      const createdIds = product.variants.map((v: Body) => v.id);
      expect(all.body.data.map((v: Body) => v.id)).toEqual([...createdIds, added.body.id]);
      const byPosition = await api().get(`${base}?sort=position`);
      expect(byPosition.body.data.map((v: Body) => v.id)).toEqual([...createdIds, added.body.id]);
      // Newest first; the four created together come in reverse position order.
      const newest = await api().get(`${base}?sort=created_at`);
      expect(newest.body.data.map((v: Body) => v.id)).toEqual([added.body.id, ...[...createdIds].reverse()]);
      expect(await walk(api(), base, 2)).toEqual([...createdIds, added.body.id]);
      expect(await walk(api(), `${base}?sort=created_at`, 2)).toEqual(
        newest.body.data.map((v: Body) => v.id),
      );
      expect(byPosition.body.data[1].is_active).toBe(false);
      expect(byPosition.body.data[0].cost_price).toBeNull();

      const bad = await api().get(`${base}?sort=price`);
      expect(bad.status).toBe(400);
      expect(bad.body.error.param).toBe('sort');
      const badCursor = await api().get(`${base}?starting_after=var_unknown`);
      expect(badCursor.status).toBe(400);
      expect(badCursor.body.error.param).toBe('starting_after');
      expect((await api().get('/v1/admin/products/prod_nope/variants')).status).toBe(404);
    });

    test('PATCH variant: fields, nulls, options; price changes move the product price; errors', async () => {
      const product = await sizedProduct();
      const [first] = product.variants;
      const second = (
        await api().post(`/v1/admin/products/${product.id}/variants`, {
          price: 3000,
          compare_at_price: 3500,
          options: { Size: 'M', Colour: 'Red' },
        })
      ).body;

      const events = await eventsDuring(api(), async () => {
        const res = await api().patch(`/v1/admin/variants/${first.id}`, {
          price: 4000,
          barcode: '4006381333931',
          weight: 250.5,
          metadata: { only: true },
          options: { Size: 'L', Colour: 'Blue' },
        });
        expect(res.status, JSON.stringify(res.body)).toBe(200);
        expect(res.body).toMatchObject({
          id: first.id,
          price: usd(4000),
          barcode: '4006381333931',
          weight: 250.5,
          metadata: { only: true },
          sku: first.sku,
        });
        expect(res.body.option_values.map((v: Body) => v.value)).toEqual(['L', 'Blue']);
      });
      expect(events.map((e) => e.type)).toEqual(['product.updated']);
      // Representative price is now the other variant's 3000.
      expect((await api().get(`/v1/admin/products/${product.id}`)).body.price).toEqual(usd(3000));

      const cleared = await api().patch(`/v1/admin/variants/${second.id}`, {
        compare_at_price: null,
        sku: null,
      });
      expect(cleared.body).toMatchObject({ compare_at_price: null, sku: null, price: usd(3000) });

      const deactivated = await api().patch(`/v1/admin/variants/${second.id}`, { is_active: false });
      expect(deactivated.body.is_active).toBe(false);
      expect((await api().get(`/v1/admin/products/${product.id}`)).body.price).toEqual(usd(4000));

      const byIds = await api().patch(`/v1/admin/variants/${second.id}`, {
        option_value_ids: [product.options[0].values[0].id, product.options[1].values[1].id],
      });
      expect(byIds.status).toBe(200);
      expect(byIds.body.option_values.map((v: Body) => v.value)).toEqual(['S', 'Blue']);

      const clash = await api().patch(`/v1/admin/variants/${second.id}`, {
        options: { Size: 'L', Colour: 'Blue' },
      });
      expect(clash.status).toBe(400);
      expect(clash.body.error).toMatchObject({ code: 'parameter_invalid', param: 'options' });
      // Its own combination is not a clash.
      expect(
        (await api().patch(`/v1/admin/variants/${first.id}`, { options: { Size: 'L', Colour: 'Blue' } }))
          .status,
      ).toBe(200);

      const otherSku = (
        await createProduct(api(), {
          name: unique('SkuOwner'),
          variants: [{ sku: unique('TAKEN'), price: 1 }],
        })
      ).variants[0].sku;
      const dupSku = await api().patch(`/v1/admin/variants/${second.id}`, { sku: otherSku });
      expect(dupSku.status).toBe(409);
      expect(dupSku.body.error).toMatchObject({ code: 'duplicate_sku', param: 'sku' });

      const euro = await api().patch(`/v1/admin/variants/${second.id}`, {
        cost_price: { amount: 5, currency: 'EUR' },
      });
      expect(euro.status).toBe(422);
      expect(euro.body.error).toMatchObject({ code: 'currency_mismatch', param: 'cost_price' });

      const unknownField = await api().patch(`/v1/admin/variants/${second.id}`, {
        inventory: { on_hand: 5 },
      });
      expect(unknownField.status).toBe(400);
      expect(unknownField.body.error).toMatchObject({ code: 'parameter_unknown', param: 'inventory' });

      expect((await api().patch('/v1/admin/variants/var_nope', { price: 1 })).status).toBe(404);
    });

    test('DELETE variant → { id, deleted: true }; product price and variants follow; then 404', async () => {
      const product = await sizedProduct();
      const cheap = (
        await api().post(`/v1/admin/products/${product.id}/variants`, {
          price: 10,
          options: { Size: 'M', Colour: 'Red' },
        })
      ).body;
      expect((await api().get(`/v1/admin/products/${product.id}`)).body.price).toEqual(usd(10));
      const events = await eventsDuring(api(), async () => {
        const res = await api().delete(`/v1/admin/variants/${cheap.id}`);
        expect(res.status).toBe(200);
        expect(res.body).toEqual({ id: cheap.id, deleted: true });
      });
      expect(events.map((e) => e.type)).toEqual(['product.updated']);
      const after = await api().get(`/v1/admin/products/${product.id}`);
      expect(after.body.price).toEqual(usd(2000));
      expect(after.body.variants.map((v: Body) => v.id)).toEqual([product.variants[0].id]);
      expect((await api().delete(`/v1/admin/variants/${cheap.id}`)).status).toBe(404);
      expect((await api().patch(`/v1/admin/variants/${cheap.id}`, { price: 1 })).status).toBe(404);
      // Its combination is free again.
      expect(
        (
          await api().post(`/v1/admin/products/${product.id}/variants`, {
            price: 11,
            options: { Size: 'M', Colour: 'Red' },
          })
        ).status,
      ).toBe(200);
    });

    test('images: add (position after the last, attached to variants), delete, errors', async () => {
      const product = await createProduct(api(), {
        name: unique('Pictured'),
        images: [{ url: 'https://cdn.example.com/1.png' }],
        variants: [{ price: 100 }, { price: 200 }],
      });
      const [v1, v2] = product.variants;
      let image: Body;
      const events = await eventsDuring(api(), async () => {
        const res = await api().post(`/v1/admin/products/${product.id}/images`, {
          url: 'https://cdn.example.com/2.png',
          alt_text: 'Side',
          width: 640,
          height: 480,
          variant_ids: [v2.id],
        });
        expect(res.status, JSON.stringify(res.body)).toBe(200);
        image = res.body;
      });
      expect(image).toEqual({
        id: expect.stringMatching(/^img_/),
        url: 'https://cdn.example.com/2.png',
        alt_text: 'Side',
        position: 1,
        width: 640,
        height: 480,
      });
      expect(events.map((e) => e.type)).toEqual(['product.updated']);
      const reread = (await api().get(`/v1/admin/products/${product.id}`)).body;
      expect(reread.images.map((i: Body) => i.id)).toEqual([product.images[0].id, image.id]);
      expect(reread.variants.find((v: Body) => v.id === v2.id).images).toEqual([image]);
      expect(reread.variants.find((v: Body) => v.id === v1.id).images).toEqual([]);

      const explicit = await api().post(`/v1/admin/products/${product.id}/images`, {
        url: 'https://cdn.example.com/0.png',
        position: 7,
      });
      expect(explicit.body.position).toBe(7);

      const other = await createProduct(api(), { name: unique('Other'), variants: [{ price: 1 }] });
      const foreignVariant = await api().post(`/v1/admin/products/${product.id}/images`, {
        url: 'https://cdn.example.com/3.png',
        variant_ids: [v1.id, other.variants[0].id],
      });
      expect(foreignVariant.status).toBe(400);
      expect(foreignVariant.body.error).toMatchObject({ code: 'parameter_invalid', param: 'variant_ids[1]' });
      const badUrl = await api().post(`/v1/admin/products/${product.id}/images`, { url: 'ftp://x/y.png' });
      expect(badUrl.status).toBe(400);
      expect(badUrl.body.error.param).toBe('url');
      expect(
        (await api().post('/v1/admin/products/prod_nope/images', { url: 'https://x.test/a.png' })).status,
      ).toBe(404);

      const deleted = await api().delete(`/v1/admin/products/${product.id}/images/${image.id}`);
      expect(deleted.status).toBe(200);
      expect(deleted.body).toEqual({ id: image.id, deleted: true });
      const afterDelete = (await api().get(`/v1/admin/products/${product.id}`)).body;
      expect(afterDelete.images.map((i: Body) => i.id)).not.toContain(image.id);
      expect(afterDelete.variants.find((v: Body) => v.id === v2.id).images).toEqual([]);
      expect((await api().delete(`/v1/admin/products/${product.id}/images/${image.id}`)).status).toBe(404);
      // An image of one product cannot be deleted through another.
      expect(
        (await api().delete(`/v1/admin/products/${other.id}/images/${product.images[0].id}`)).status,
      ).toBe(404);
    });
  },
  engineOptions,
);

describeApi(
  'catalog: storefront',
  (api) => {
    test('only active products: draft and archived are 404 and absent from lists; archiving hides at once', async () => {
      const tag = unique('vis');
      const active = await createProduct(api(), simpleProduct('Visible', tag, 100));
      const draft = await createProduct(api(), simpleProduct('Draft', tag, 100, { status: 'draft' }));
      const archived = await createProduct(
        api(),
        simpleProduct('Archived', tag, 100, { status: 'archived' }),
      );

      const list = await api().storefront.get(`/v1/storefront/products?tag=${tag}`);
      expect(list.status).toBe(200);
      expect(list.body).toMatchObject({ total_count: 1, has_more: false, next_cursor: null });
      expect(list.body.data.map((p: Body) => p.id)).toEqual([active.id]);
      expect((await api().storefront.get(`/v1/storefront/products/${active.id}`)).status).toBe(200);
      for (const hidden of [draft, archived]) {
        const byId = await api().storefront.get(`/v1/storefront/products/${hidden.id}`);
        expect(byId.status).toBe(404);
        expect(byId.body.error.code).toBe('not_found');
        expect((await api().storefront.get(`/v1/storefront/products/by-slug/${hidden.slug}`)).status).toBe(
          404,
        );
      }
      await api().patch(`/v1/admin/products/${active.id}`, { status: 'archived' });
      expect((await api().storefront.get(`/v1/storefront/products/${active.id}`)).status).toBe(404);
      expect((await api().storefront.get(`/v1/storefront/products?tag=${tag}`)).body.total_count).toBe(0);
      // A secret key may browse the storefront too.
      await api().patch(`/v1/admin/products/${draft.id}`, { status: 'active' });
      expect((await api().get(`/v1/storefront/products/${draft.id}`)).status).toBe(200);
    });

    test('storefront view: cost_price null, stock counts null but available shown, inactive variants hidden', async () => {
      const product = await createProduct(api(), {
        name: unique('Secretive'),
        status: 'active',
        variants: [
          {
            price: 500,
            cost_price: 200,
            inventory: { on_hand: 9, safety_stock: 3 },
            metadata: { shown: true },
          },
          { price: 100, is_active: false },
        ],
      });
      for (const path of [
        `/v1/storefront/products/${product.id}`,
        `/v1/storefront/products/by-slug/${product.slug}`,
      ]) {
        const res = await api().storefront.get(path);
        expect(res.status).toBe(200);
        expect(res.body.variants).toHaveLength(1);
        const [variant] = res.body.variants;
        expect(variant).toMatchObject({
          id: product.variants[0].id,
          cost_price: null,
          price: usd(500),
          metadata: { shown: true },
        });
        expect(variant.inventory).toMatchObject({
          on_hand: null,
          reserved: null,
          safety_stock: null,
          available: 9,
        });
        expect(res.body.price).toEqual(usd(500));
      }
      const list = await api().storefront.get(
        `/v1/storefront/products?q=${encodeURIComponent(product.name)}`,
      );
      expect(list.body.data[0].variants.map((v: Body) => v.cost_price)).toEqual([null]);
    });

    test('filters: q, tag (AND), price_min/price_max inclusive on the representative price', async () => {
      const tag = unique('sf');
      const mug = await createProduct(
        api(),
        simpleProduct('Coffee Mug', tag, 1000, { tags: [tag, 'kitchen'] }),
      );
      const pot = await createProduct(
        api(),
        simpleProduct('Tea Pot', tag, 2500, { tags: [tag, 'kitchen', 'tea'] }),
      );
      const cup = await createProduct(api(), {
        ...simpleProduct('Tea Cup', tag, 4000, { tags: [tag, 'tea'] }),
        variants: [{ price: 4000 }, { price: 500, is_active: false }],
      });
      const noPrice = await createProduct(api(), {
        name: 'Tea Voucher',
        status: 'active',
        tags: [tag, 'tea'],
      });

      const ids = async (query: string) => {
        const res = await api().storefront.get(`/v1/storefront/products?tag=${tag}${query}`);
        expect(res.status, JSON.stringify(res.body)).toBe(200);
        expect(res.body.total_count).toBe(res.body.data.length);
        return res.body.data.map((p: { id: string }) => p.id).sort();
      };
      expect(await ids('')).toEqual([mug.id, pot.id, cup.id, noPrice.id].sort());
      expect(await ids('&q=tea')).toEqual([pot.id, cup.id, noPrice.id].sort());
      expect(await ids('&q=TEA%20P')).toEqual([pot.id]);
      expect(await ids(',tea')).toEqual([pot.id, cup.id, noPrice.id].sort());
      expect(await ids(',tea,kitchen')).toEqual([pot.id]);
      expect(await ids('&price_min=1000&price_max=2500')).toEqual([mug.id, pot.id].sort());
      expect(await ids('&price_min=1001')).toEqual([pot.id, cup.id].sort());
      expect(await ids('&price_max=999')).toEqual([]);
      // The inactive 500 variant does not make the cup cheap.
      expect(await ids('&price_max=3999')).toEqual([mug.id, pot.id].sort());
    });

    test('sorts and starting_after walks on the storefront', async () => {
      const tag = unique('sfs');
      for (const [name, price] of [
        ['Delta', 400],
        ['alpha', 300],
        ['Charlie', 100],
        ['Bravo', 200],
        ['Echo', 500],
      ] as const) {
        await createProduct(api(), simpleProduct(name, tag, price));
      }
      await createProduct(api(), simpleProduct('Hidden', tag, 1, { status: 'draft' }));
      const names = async (query: string) =>
        (await api().storefront.get(`/v1/storefront/products?tag=${tag}${query}`)).body.data.map(
          (p: Body) => p.name,
        );
      expect(await names('')).toEqual(['Echo', 'Bravo', 'Charlie', 'alpha', 'Delta']);
      expect(await names('&sort=name')).toEqual(['alpha', 'Bravo', 'Charlie', 'Delta', 'Echo']);
      expect(await names('&sort=price')).toEqual(['Charlie', 'Bravo', 'alpha', 'Delta', 'Echo']);
      expect(await names('&sort=price&order=desc')).toEqual(['Echo', 'Delta', 'alpha', 'Bravo', 'Charlie']);
      for (const query of ['', '&sort=name', '&sort=price&order=desc']) {
        const full = (await api().storefront.get(`/v1/storefront/products?tag=${tag}${query}`)).body.data.map(
          (p: Body) => p.id,
        );
        expect(await walk(api(), `/v1/storefront/products?tag=${tag}${query}`, 2, true)).toEqual(full);
      }
    });

    test('bad query values → 400', async () => {
      const cases: Array<[string, string]> = [
        ['price_min=abc', 'price_min'],
        ['price_max=-5', 'price_max'],
        ['price_min=1.5', 'price_min'],
        ['sort=rating', 'sort'],
        ['order=up', 'order'],
        ['limit=500', 'limit'],
      ];
      for (const [query, param] of cases) {
        const res = await api().storefront.get(`/v1/storefront/products?${query}`);
        expect(res.status, query).toBe(400);
        expect(res.body.error).toMatchObject({ code: 'parameter_invalid', param });
      }
    });

    test('by-slug and by-id: unknown → 404; live keys see only live products', async () => {
      expect((await api().storefront.get('/v1/storefront/products/prod_nope')).status).toBe(404);
      expect((await api().storefront.get('/v1/storefront/products/by-slug/no-such-slug')).status).toBe(404);
      const slug = unique('live-slug');
      const live = await createProduct(
        api(),
        { name: 'Live', slug, status: 'active', variants: [{ price: 1 }] },
        api().keys.liveSecret,
      );
      expect((await api().storefront.get(`/v1/storefront/products/by-slug/${slug}`)).status).toBe(404);
      expect((await api().storefront.get(`/v1/storefront/products/${live.id}`)).status).toBe(404);
      const asLive = await api().get(`/v1/storefront/products/by-slug/${slug}`, {
        key: api().keys.livePublishable,
      });
      expect(asLive.status).toBe(200);
      expect(asLive.body.id).toBe(live.id);
      const liveList = await api().get(`/v1/storefront/products?q=Live`, { key: api().keys.livePublishable });
      expect(liveList.body.data.map((p: Body) => p.id)).toContain(live.id);
      const testList = await api().storefront.get('/v1/storefront/products?limit=100');
      expect(testList.body.data.map((p: Body) => p.id)).not.toContain(live.id);
    });
  },
  engineOptions,
);
