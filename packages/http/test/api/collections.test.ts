import type { EventPayload } from '@cartwright/core/internal';
import type { Clock } from '@cartwright/core/providers';
import { expect, test } from 'vitest';
import { describeApi, type TestApi } from './support/harness';

// biome-ignore lint/suspicious/noExplicitAny: response bodies are read field by field in assertions.
type Body = any;

/**
 * Collections over real HTTP on every engine (decisions §17): the admin and storefront routes,
 * every collection rule and its error, the product lists' `collection_id` (manual order and its
 * cursor, auto rules compiled to SQL, ANDed with the other filters), the storefront detail, and
 * the events. Each block has its own database.
 */

let counter = 0;
const unique = (prefix: string) => `${prefix} ${(++counter).toString(36)}${Date.now().toString(36)}`;

/** Distinct milliseconds, so newest-first lists are deterministic. */
function tickingClock(): Clock {
  let last = 0;
  return { now: () => (last = Math.max(Date.now(), last + 1)) };
}
const engineOptions = () => ({ clock: tickingClock() });

async function createProduct(api: TestApi, body: Record<string, unknown> = {}): Promise<Body> {
  const res = await api.post('/v1/admin/products', {
    name: unique('Product'),
    status: 'active',
    variants: [{ price: 1000 }],
    ...body,
  });
  expect(res.status, JSON.stringify(res.body)).toBe(200);
  return res.body;
}

async function createCollection(api: TestApi, body: Record<string, unknown>): Promise<Body> {
  const res = await api.post('/v1/admin/collections', { name: unique('Collection'), ...body });
  expect(res.status, JSON.stringify(res.body)).toBe(200);
  return res.body;
}

async function eventsDuring(api: TestApi, fn: () => Promise<unknown>): Promise<EventPayload[]> {
  const seen: EventPayload[] = [];
  const off = api.engine.events.on('*', (event) => seen.push(event as unknown as EventPayload));
  try {
    await fn();
  } finally {
    off();
  }
  return seen;
}

function expectError(res: { status: number; body: Body }, status: number, code: string, param?: string) {
  expect(res.status, JSON.stringify(res.body)).toBe(status);
  expect(res.body.error.code).toBe(code);
  if (param !== undefined) expect(res.body.error.param).toBe(param);
}

/** Every page of a list, following `next_cursor`; checks `has_more` / `next_cursor` agree. */
async function walk(get: (after: string | undefined) => Promise<{ status: number; body: Body }>) {
  const ids: string[] = [];
  let after: string | undefined;
  for (let pages = 0; pages < 100; pages++) {
    const res = await get(after);
    expect(res.status, JSON.stringify(res.body)).toBe(200);
    ids.push(...res.body.data.map((row: Body) => row.id));
    if (!res.body.has_more) {
      expect(res.body.next_cursor).toBeNull();
      return ids;
    }
    after = res.body.next_cursor;
  }
  throw new Error('too many pages');
}

const tagRule = (values: string[]) => ({ conditions: [{ type: 'product_tag', operator: 'in', values }] });

describeApi(
  'collections: admin',
  (api) => {
    test('POST creates a manual collection (defaults, derived slug, col_ id) and emits collection.created', async () => {
      const a = await createProduct(api());
      const b = await createProduct(api());
      const name = unique('Summer Sale');
      let res: Body;
      const events = await eventsDuring(api(), async () => {
        res = await api().post('/v1/admin/collections', { name, product_ids: [b.id, a.id] });
      });
      expect(res.status).toBe(200);
      expect(res.body).toEqual({
        id: expect.stringMatching(/^col_/),
        name,
        slug: name.toLowerCase().replace(/ /g, '-'),
        description: null,
        type: 'manual',
        position: 0,
        rules: null,
        product_ids: [b.id, a.id],
        metadata: {},
        created_at: expect.any(String),
        updated_at: res.body.created_at,
      });
      expect(events.map((e) => [e.type, e.data])).toEqual([['collection.created', res.body]]);
      expect((await api().get(`/v1/admin/collections/${res.body.id}`)).body).toEqual(res.body);
    });

    test('PATCH replaces product_ids whole (emits collection.updated); DELETE → { id, deleted } and collection.deleted', async () => {
      const a = await createProduct(api());
      const b = await createProduct(api());
      const c = await createCollection(api(), { product_ids: [a.id] });
      let patched: Body;
      const events = await eventsDuring(api(), async () => {
        patched = await api().patch(`/v1/admin/collections/${c.id}`, {
          product_ids: [b.id, a.id],
          description: 'Now',
          metadata: { x: 1 },
        });
      });
      expect(patched.status).toBe(200);
      expect(patched.body).toMatchObject({
        product_ids: [b.id, a.id],
        description: 'Now',
        metadata: { x: 1 },
      });
      expect(events.map((e) => [e.type, e.data])).toEqual([['collection.updated', patched.body]]);
      const deleted = await eventsDuring(api(), async () => {
        expect((await api().delete(`/v1/admin/collections/${c.id}`)).body).toEqual({
          id: c.id,
          deleted: true,
        });
      });
      expect(deleted.map((e) => [e.type, e.data])).toEqual([['collection.deleted', patched.body]]);
      expectError(await api().get(`/v1/admin/collections/${c.id}`), 404, 'not_found');
      expectError(await api().patch(`/v1/admin/collections/${c.id}`, { name: 'x' }), 404, 'not_found');
      expectError(await api().delete(`/v1/admin/collections/${c.id}`), 404, 'not_found');
    });

    test('manual: unknown product → 404 naming product_ids[i]; duplicates / over 250 → 400; rules → 400; nothing changes', async () => {
      const a = await createProduct(api());
      const name = unique('Refused');
      expectError(
        await api().post('/v1/admin/collections', { name, product_ids: [a.id, 'prod_missing'] }),
        404,
        'not_found',
        'product_ids[1]',
      );
      expectError(
        await api().post('/v1/admin/collections', { name, product_ids: [a.id, a.id] }),
        400,
        'parameter_invalid',
        'product_ids[1]',
      );
      const many = Array.from({ length: 251 }, (_, i) => `prod_${i}`);
      expectError(
        await api().post('/v1/admin/collections', { name, product_ids: many }),
        400,
        'parameter_invalid',
        'product_ids',
      );
      expectError(
        await api().post('/v1/admin/collections', { name, rules: tagRule(['x']) }),
        400,
        'parameter_invalid',
        'rules',
      );
      const list = await api().get('/v1/admin/collections?limit=100');
      expect(list.body.data.some((c: Body) => c.name === name)).toBe(false);

      const c = await createCollection(api(), { product_ids: [a.id] });
      expectError(
        await api().patch(`/v1/admin/collections/${c.id}`, {
          product_ids: ['prod_missing'],
          name: 'Changed',
        }),
        404,
        'not_found',
        'product_ids[0]',
      );
      expectError(
        await api().patch(`/v1/admin/collections/${c.id}`, { rules: tagRule(['x']) }),
        400,
        'parameter_invalid',
        'rules',
      );
      expect((await api().get(`/v1/admin/collections/${c.id}`)).body).toEqual(c);
      // 250 is the limit.
      const two = await createProduct(api());
      const ok = await api().patch(`/v1/admin/collections/${c.id}`, { product_ids: [two.id, a.id] });
      expect(ok.body.product_ids).toEqual([two.id, a.id]);
    });

    test('slugs are unique per store and mode → 409 duplicate_slug', async () => {
      const slug = unique('new in').replace(/ /g, '-');
      const first = await createCollection(api(), { slug });
      expectError(
        await api().post('/v1/admin/collections', { name: 'x', slug }),
        409,
        'duplicate_slug',
        'slug',
      );
      const other = await createCollection(api(), {});
      expectError(
        await api().patch(`/v1/admin/collections/${other.id}`, { slug }),
        409,
        'duplicate_slug',
        'slug',
      );
      expect((await api().patch(`/v1/admin/collections/${first.id}`, { slug })).status).toBe(200);
      const live = await api().post(
        '/v1/admin/collections',
        { name: 'x', slug },
        { key: api().keys.liveSecret },
      );
      expect(live.status).toBe(200);
      expectError(await api().get(`/v1/admin/collections/${live.body.id}`), 404, 'not_found');
    });

    test('auto: rules required (parameter_missing), product_ids refused; every malformed rule → 400 with its bracketed param', async () => {
      const name = unique('Auto');
      expectError(
        await api().post('/v1/admin/collections', { name, type: 'auto' }),
        400,
        'parameter_missing',
        'rules',
      );
      expectError(
        await api().post('/v1/admin/collections', {
          name,
          type: 'auto',
          rules: tagRule(['x']),
          product_ids: [],
        }),
        400,
        'parameter_invalid',
        'product_ids',
      );
      const tag = { type: 'product_tag', operator: 'in', values: ['x'] };
      const cases: [unknown, string, string][] = [
        [{ match: 'most', conditions: [tag] }, 'parameter_invalid', 'rules[match]'],
        [{ conditions: [] }, 'parameter_invalid', 'rules[conditions]'],
        [{ match: 'any' }, 'parameter_missing', 'rules[conditions]'],
        [{ conditions: Array.from({ length: 21 }, () => tag) }, 'parameter_invalid', 'rules[conditions]'],
        [
          { conditions: [tag, tag, { ...tag, operator: 'lte' }] },
          'parameter_invalid',
          'rules[conditions][2][operator]',
        ],
        [{ conditions: [{ ...tag, type: 'vendor' }] }, 'parameter_invalid', 'rules[conditions][0][type]'],
        [
          { conditions: [{ type: 'category', operator: 'in' }] },
          'parameter_missing',
          'rules[conditions][0][values]',
        ],
        [{ conditions: [{ ...tag, values: [] }] }, 'parameter_invalid', 'rules[conditions][0][values]'],
        [
          { conditions: [{ ...tag, values: Array.from({ length: 101 }, (_, i) => `v${i}`) }] },
          'parameter_invalid',
          'rules[conditions][0][values]',
        ],
        [{ conditions: [{ ...tag, values: [1] }] }, 'parameter_invalid', 'rules[conditions][0][values][0]'],
        [
          { conditions: [{ type: 'price', operator: 'not_in', value: 5 }] },
          'parameter_invalid',
          'rules[conditions][0][operator]',
        ],
        [
          { conditions: [{ type: 'price', operator: 'gte' }] },
          'parameter_missing',
          'rules[conditions][0][value]',
        ],
        [
          { conditions: [{ type: 'price', operator: 'gte', value: 9.99 }] },
          'parameter_invalid',
          'rules[conditions][0][value]',
        ],
        [
          { conditions: [{ type: 'price', operator: 'gte', value: '100' }] },
          'parameter_invalid',
          'rules[conditions][0][value]',
        ],
        [
          { conditions: [{ type: 'price', operator: 'gte', value: 1, values: ['x'] }] },
          'parameter_invalid',
          'rules[conditions][0][values]',
        ],
        [{ conditions: [{ ...tag, value: 1 }] }, 'parameter_invalid', 'rules[conditions][0][value]'],
        [{ conditions: [{ ...tag, negate: true }] }, 'parameter_unknown', 'rules[conditions][0][negate]'],
      ];
      for (const [rules, code, param] of cases) {
        expectError(
          await api().post('/v1/admin/collections', { name, type: 'auto', rules }),
          400,
          code,
          param,
        );
      }
      const list = await api().get('/v1/admin/collections?type=auto&limit=100');
      expect(list.body.data.some((c: Body) => c.name === name)).toBe(false);
      const c = await createCollection(api(), { type: 'auto', rules: tagRule(['x']) });
      expect(c).toMatchObject({
        type: 'auto',
        product_ids: null,
        rules: { match: 'all', ...tagRule(['x']) },
      });
      for (const [rules, code, param] of cases) {
        expectError(await api().patch(`/v1/admin/collections/${c.id}`, { rules }), 400, code, param);
      }
      expectError(
        await api().patch(`/v1/admin/collections/${c.id}`, { product_ids: [] }),
        400,
        'parameter_invalid',
        'product_ids',
      );
      expect((await api().get(`/v1/admin/collections/${c.id}`)).body).toEqual(c);
    });

    test('PATCH type: to auto needs rules in the same request; to manual drops the rules (product_ids default [])', async () => {
      const a = await createProduct(api());
      const c = await createCollection(api(), { product_ids: [a.id] });
      expectError(
        await api().patch(`/v1/admin/collections/${c.id}`, { type: 'auto' }),
        400,
        'parameter_missing',
        'rules',
      );
      expect((await api().get(`/v1/admin/collections/${c.id}`)).body).toEqual(c);
      const auto = await api().patch(`/v1/admin/collections/${c.id}`, {
        type: 'auto',
        rules: tagRule(['t']),
      });
      expect(auto.body).toMatchObject({
        type: 'auto',
        product_ids: null,
        rules: { match: 'all', ...tagRule(['t']) },
      });
      const manual = await api().patch(`/v1/admin/collections/${c.id}`, { type: 'manual' });
      expect(manual.body).toMatchObject({ type: 'manual', rules: null, product_ids: [] });
      await api().patch(`/v1/admin/collections/${c.id}`, { type: 'auto', rules: tagRule(['t']) });
      const back = await api().patch(`/v1/admin/collections/${c.id}`, {
        type: 'manual',
        product_ids: [a.id],
      });
      expect(back.body).toMatchObject({ type: 'manual', rules: null, product_ids: [a.id] });
    });

    test('the admin routes need a secret key; the storefront routes take a publishable one', async () => {
      const c = await createCollection(api(), {});
      expectError(await api().storefront.get('/v1/admin/collections'), 403, 'forbidden');
      expectError(await api().storefront.post('/v1/admin/collections', { name: 'x' }), 403, 'forbidden');
      expect((await api().storefront.get(`/v1/storefront/collections/${c.id}`)).status).toBe(200);
      expectError(await api().storefront.get('/v1/storefront/collections/col_missing'), 404, 'not_found');
      expectError(await api().storefront.get('/v1/storefront/collections/by-slug/missing'), 404, 'not_found');
    });

    test('a deleted product leaves every manual collection', async () => {
      const a = await createProduct(api());
      const b = await createProduct(api());
      const c = await createCollection(api(), { product_ids: [a.id, b.id] });
      await api().delete(`/v1/admin/products/${a.id}`);
      expect((await api().get(`/v1/admin/collections/${c.id}`)).body.product_ids).toEqual([b.id]);
      expect(
        (await api().get(`/v1/admin/products?collection_id=${c.id}`)).body.data.map((p: Body) => p.id),
      ).toEqual([b.id]);
    });
  },
  engineOptions(),
);

describeApi(
  'collections: lists and order',
  (api) => {
    test('admin list: newest first, filter type, paging with total_count; storefront: position asc then newest first', async () => {
      const made: Body[] = [];
      for (const [position, type] of [
        [2, 'manual'],
        [0, 'auto'],
        [1, 'manual'],
        [0, 'manual'],
        [1, 'auto'],
      ] as const) {
        made.push(
          await createCollection(api(), {
            position,
            type,
            ...(type === 'auto' && { rules: tagRule(['z']) }),
          }),
        );
      }
      const [a, b, c, d, e] = made.map((m) => m.id);
      const admin = await api().get('/v1/admin/collections');
      expect(admin.body.data.map((m: Body) => m.id)).toEqual([e, d, c, b, a]);
      expect(admin.body.total_count).toBe(5);
      expect((await api().get('/v1/admin/collections?type=auto')).body.data.map((m: Body) => m.id)).toEqual([
        e,
        b,
      ]);
      expectError(await api().get('/v1/admin/collections?type=smart'), 400, 'parameter_invalid', 'type');
      expect(
        await walk((after) =>
          api().get(`/v1/admin/collections?limit=2${after ? `&starting_after=${after}` : ''}`),
        ),
      ).toEqual([e, d, c, b, a]);
      const front = await walk((after) =>
        api().storefront.get(`/v1/storefront/collections?limit=2${after ? `&starting_after=${after}` : ''}`),
      );
      expect(front).toEqual([d, b, e, c, a]);
      const page = await api().storefront.get('/v1/storefront/collections');
      expect(page.body).toMatchObject({ has_more: false, next_cursor: null });
    });
  },
  engineOptions(),
);

describeApi(
  'collections: products',
  (api) => {
    test('manual collection_id without sort: collection order, cursor paging, total_count; with sort: that sort', async () => {
      const products: Body[] = [];
      for (let i = 0; i < 7; i++) {
        products.push(
          await createProduct(api(), {
            tags: i % 2 === 0 ? ['even'] : ['odd'],
            variants: [{ price: 100 + i }],
          }),
        );
      }
      const order = [3, 0, 6, 1, 5, 2].map((i) => products[i].id);
      const c = await createCollection(api(), { product_ids: order });
      for (const path of ['/v1/admin/products', '/v1/storefront/products']) {
        const get = (query: string) => (after: string | undefined) =>
          api().get(
            `${path}?collection_id=${c.id}&limit=2${query}${after ? `&starting_after=${after}` : ''}`,
          );
        expect(await walk(get(''))).toEqual(order);
        const first = await get('')(undefined);
        expect(first.body.total_count).toBe(6);
        expect(await walk(get('&tag=even'))).toEqual([order[1], order[2], order[5]]);
        if (path.includes('storefront')) {
          expect(await walk(get('&price_min=103'))).toEqual([order[0], order[2], order[4]]);
        } else {
          expect(await walk(get('&status=active&type=physical'))).toEqual(order);
        }
        expect(await walk(get('&sort=created_at'))).toEqual([...order].sort().reverse());
        expect(await walk(get('&sort=price&order=desc'))).toEqual(
          [6, 5, 3, 2, 1, 0].map((i) => products[i].id),
        );
        expectError(
          await api().get(`${path}?collection_id=${c.id}&starting_after=${products[4].id}`),
          400,
          'parameter_invalid',
          'starting_after',
        );
        const none = await api().get(`${path}?collection_id=col_missing`);
        expect(none.status).toBe(200);
        expect(none.body).toEqual({ data: [], total_count: 0, has_more: false, next_cursor: null });
      }
    });

    test('a membership change and a product change show at once on the storefront list and detail', async () => {
      const a = await createProduct(api(), { name: unique('Alpha') });
      const b = await createProduct(api(), { name: unique('Beta') });
      const c = await createCollection(api(), {
        product_ids: [a.id],
        slug: unique('shown').replace(/ /g, '-'),
      });
      const list = async () =>
        (await api().storefront.get(`/v1/storefront/products?collection_id=${c.id}`)).body.data.map(
          (p: Body) => p.id,
        );
      expect(await list()).toEqual([a.id]);
      expect(await list()).toEqual([a.id]); // served from the page cache where there is one
      await api().patch(`/v1/admin/collections/${c.id}`, { product_ids: [b.id, a.id] });
      expect(await list()).toEqual([b.id, a.id]);
      await api().patch(`/v1/admin/products/${b.id}`, { status: 'draft' });
      expect(await list()).toEqual([a.id]);
      const detail = await api().storefront.get(`/v1/storefront/collections/${c.id}`);
      expect(detail.body.product_ids).toEqual([a.id]);
      expect(detail.body.products.map((p: Body) => p.id)).toEqual([a.id]);
      expect(detail.body.products[0]).toEqual(
        (await api().storefront.get(`/v1/storefront/products/${a.id}`)).body,
      );
      expect((await api().storefront.get(`/v1/storefront/collections/by-slug/${c.slug}`)).body).toEqual(
        detail.body,
      );
      expect((await api().get(`/v1/admin/collections/${c.id}`)).body.product_ids).toEqual([b.id, a.id]);
      await api().delete(`/v1/admin/collections/${c.id}`);
      expect(await list()).toEqual([]);
    });

    test('auto: tag, type, product, price and category (with descendants) conditions, all / any, evaluated when read', async () => {
      const tag = unique('tag').replace(/ /g, '');
      const root = (await api().post('/v1/admin/categories', { name: unique('Root') })).body;
      const child = (await api().post('/v1/admin/categories', { name: unique('Child'), parent_id: root.id }))
        .body;
      const cheap = await createProduct(api(), {
        tags: [tag],
        variants: [{ price: 500 }],
        category_ids: [child.id],
      });
      const dear = await createProduct(api(), { tags: [tag], variants: [{ price: 5000 }] });
      const ebook = await createProduct(api(), { type: 'digital', variants: [{ price: 900 }] });
      const none = await createProduct(api(), { tags: [tag], variants: [] });
      const ids = async (c: Body, query = '') =>
        (await api().get(`/v1/admin/products?collection_id=${c.id}&limit=100${query}`)).body.data
          .map((p: Body) => p.id)
          .sort();
      const sorted = (...list: Body[]) => list.map((p) => p.id).sort();

      const tagged = await createCollection(api(), { type: 'auto', rules: tagRule([tag]) });
      expect(await ids(tagged)).toEqual(sorted(cheap, dear, none));
      const cheapTagged = await createCollection(api(), {
        type: 'auto',
        rules: {
          match: 'all',
          conditions: [...tagRule([tag]).conditions, { type: 'price', operator: 'lte', value: 1000 }],
        },
      });
      expect(await ids(cheapTagged)).toEqual(sorted(cheap));
      const anyOf = await createCollection(api(), {
        type: 'auto',
        rules: {
          match: 'any',
          conditions: [
            { type: 'product_type', operator: 'in', values: ['digital'] },
            { type: 'price', operator: 'gte', value: 5000 },
            { type: 'category', operator: 'in', values: [root.id] },
            { type: 'product', operator: 'in', values: [none.id] },
          ],
        },
      });
      expect(await ids(anyOf)).toEqual(sorted(cheap, dear, ebook, none));
      expect(await ids(anyOf, `&tag=${tag}`)).toEqual(sorted(cheap, dear, none));
      const notTagged = await createCollection(api(), {
        type: 'auto',
        rules: {
          conditions: [
            { type: 'product_tag', operator: 'not_in', values: [tag] },
            { type: 'product', operator: 'in', values: [cheap.id, dear.id, ebook.id, none.id] },
          ],
        },
      });
      expect(await ids(notTagged)).toEqual(sorted(ebook));

      // Changes show at once and emit no collection event.
      const events = await eventsDuring(api(), async () => {
        await api().patch(`/v1/admin/products/${ebook.id}`, { tags: [tag] });
        await api().patch(`/v1/admin/variants/${dear.variants[0].id}`, { price: 800 });
      });
      expect(events.filter((e) => e.type.startsWith('collection.'))).toEqual([]);
      expect(await ids(cheapTagged)).toEqual(sorted(cheap, dear, ebook));
      expect(await ids(notTagged)).toEqual([]);
      // Storefront detail: active products, newest first.
      await api().patch(`/v1/admin/products/${dear.id}`, { status: 'archived' });
      const detail = await api().storefront.get(`/v1/storefront/collections/${cheapTagged.id}`);
      expect(detail.body.products.map((p: Body) => p.id)).toEqual([ebook.id, cheap.id]);
      expect(detail.body.product_ids).toBeNull();
      const front = await api().storefront.get(`/v1/storefront/products?collection_id=${cheapTagged.id}`);
      expect(front.body.data.map((p: Body) => p.id)).toEqual([ebook.id, cheap.id]);
    });
  },
  engineOptions(),
);
