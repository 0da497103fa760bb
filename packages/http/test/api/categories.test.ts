import type { EventPayload } from '@cartwright/core/internal';
import type { Clock } from '@cartwright/core/providers';
import { expect, test } from 'vitest';
import { describeApi, type TestApi } from './support/harness';

// biome-ignore lint/suspicious/noExplicitAny: response bodies are read field by field in assertions.
type Body = any;

/**
 * Categories over real HTTP on every engine (decisions §17): the admin and storefront routes,
 * every tree rule and its error, membership of products (`category_ids`) and the product lists'
 * `category_id`, the events, and concurrent moves that together would make a cycle.
 */

let counter = 0;
const unique = (prefix: string) => `${prefix}-${(++counter).toString(36)}-${Date.now().toString(36)}`;

/** Distinct milliseconds, so newest-first lists are deterministic. */
function tickingClock(): Clock {
  let last = 0;
  return { now: () => (last = Math.max(Date.now(), last + 1)) };
}
const engineOptions = { clock: tickingClock() };

async function createCategory(api: TestApi, body: Record<string, unknown>): Promise<Body> {
  const res = await api.post('/v1/admin/categories', body);
  expect(res.status, JSON.stringify(res.body)).toBe(200);
  return res.body;
}

async function createProduct(api: TestApi, body: Record<string, unknown>): Promise<Body> {
  const res = await api.post('/v1/admin/products', {
    status: 'active',
    variants: [{ price: 1000 }],
    ...body,
  });
  expect(res.status, JSON.stringify(res.body)).toBe(200);
  return res.body;
}

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

function expectError(res: { status: number; body: Body }, status: number, code: string, param?: string) {
  expect(res.status, JSON.stringify(res.body)).toBe(status);
  expect(res.body.error.code).toBe(code);
  if (param !== undefined) expect(res.body.error.param).toBe(param);
}

/** Every category of the storefront tree, depth first, with its level; fails on a repeated id. */
function flatten(nodes: Body[], level = 1, out: { id: string; level: number }[] = []) {
  for (const node of nodes) {
    expect(out.some((seen) => seen.id === node.id)).toBe(false);
    out.push({ id: node.id, level });
    flatten(node.children, level + 1, out);
  }
  return out;
}

describeApi(
  'categories',
  (api) => {
    test('POST creates (defaults, derived slug, cat_ id, children: []) and emits category.created with the admin record', async () => {
      const name = unique('Summer Sale');
      let created: Body;
      const events = await eventsDuring(api(), async () => {
        created = await createCategory(api(), { name });
      });
      expect(created).toMatchObject({
        name,
        slug: name.toLowerCase().replace(' ', '-'),
        description: null,
        parent_id: null,
        position: 0,
        children: [],
        metadata: {},
      });
      expect(created.id).toMatch(/^cat_/);
      expect(created.updated_at).toBe(created.created_at);
      expect(events.map((e) => e.type)).toEqual(['category.created']);
      expect(events[0]?.data).toEqual(created);
    });

    test('slug unique per store and mode → 409 duplicate_slug; the live mode has its own', async () => {
      const slug = unique('shoes');
      const first = await createCategory(api(), { name: 'Shoes', slug });
      expectError(
        await api().post('/v1/admin/categories', { name: 'Other', slug }),
        409,
        'duplicate_slug',
        'slug',
      );
      const other = await createCategory(api(), { name: 'Other' });
      expectError(
        await api().patch(`/v1/admin/categories/${other.id}`, { slug }),
        409,
        'duplicate_slug',
        'slug',
      );
      const live = await api().post(
        '/v1/admin/categories',
        { name: 'Shoes', slug },
        { key: api().keys.liveSecret },
      );
      expect(live.status).toBe(200);
      // A live id is unknown in test mode.
      expectError(await api().get(`/v1/admin/categories/${live.body.id}`), 404, 'not_found');
      expectError(
        await api().post('/v1/admin/categories', { name: 'Child', parent_id: live.body.id }),
        404,
        'not_found',
        'parent_id',
      );
      expect((await api().get(`/v1/admin/categories/${first.id}`)).body.slug).toBe(slug);
    });

    test('bad input → 400 with the bracketed param, and nothing is created', async () => {
      const before = (await api().get('/v1/admin/categories?limit=1')).body.total_count;
      expectError(await api().post('/v1/admin/categories', {}), 400, 'parameter_missing', 'name');
      expectError(
        await api().post('/v1/admin/categories', { name: 'X', position: -1 }),
        400,
        'parameter_invalid',
        'position',
      );
      expectError(
        await api().post('/v1/admin/categories', { name: 'X', slug: 'Not A Slug' }),
        400,
        'parameter_invalid',
        'slug',
      );
      expectError(
        await api().post('/v1/admin/categories', { name: 'X', colour: 'red' }),
        400,
        'parameter_unknown',
      );
      expect((await api().get('/v1/admin/categories?limit=1')).body.total_count).toBe(before);
    });

    test('storefront tree: one request, roots with nested subtrees, siblings by position, name, id; by-slug with its subtree; 404 unknown', async () => {
      const root = await createCategory(api(), { name: unique('Root'), position: 0 });
      const b = await createCategory(api(), { name: 'B', parent_id: root.id, position: 1 });
      const a = await createCategory(api(), { name: 'A', parent_id: root.id, position: 1 });
      const z = await createCategory(api(), { name: 'Z', parent_id: root.id, position: 0 });
      const leaf = await createCategory(api(), { name: 'Leaf', parent_id: a.id, metadata: { k: 'v' } });

      const tree = await api().storefront.get('/v1/storefront/categories');
      expect(tree.status).toBe(200);
      expect(Object.keys(tree.body)).toEqual(['data']);
      const node = tree.body.data.find((n: Body) => n.id === root.id);
      expect(node.children.map((n: Body) => n.id)).toEqual([z.id, a.id, b.id]);
      expect(node.children[1].children).toEqual([leaf]);
      // Every root is a root; no category appears twice.
      expect(tree.body.data.every((n: Body) => n.parent_id === null)).toBe(true);
      flatten(tree.body.data);

      const bySlug = await api().storefront.get(`/v1/storefront/categories/by-slug/${a.slug}`);
      expect(bySlug.status).toBe(200);
      expect(bySlug.body).toEqual({ ...a, children: [leaf] });
      expectError(
        await api().storefront.get('/v1/storefront/categories/by-slug/no-such-slug'),
        404,
        'not_found',
      );
      // The admin GET shows the subtree too.
      expect((await api().get(`/v1/admin/categories/${root.id}`)).body).toEqual(node);
    });

    test('admin list: newest first with children: [], cursor paging, total_count, parent_id filter (an id, or null for roots)', async () => {
      const parent = await createCategory(api(), { name: unique('Parent') });
      const kids = [];
      for (let i = 0; i < 5; i++)
        kids.push(
          await createCategory(api(), { name: `Kid ${i}`, slug: unique('kid'), parent_id: parent.id }),
        );
      const ids: string[] = [];
      let cursor: string | null = null;
      for (let page = 0; page < 10; page++) {
        const res: { body: Body } = await api().get(
          `/v1/admin/categories?parent_id=${parent.id}&limit=2${cursor ? `&starting_after=${cursor}` : ''}`,
        );
        expect(res.body.total_count).toBe(5);
        expect(res.body.data.every((c: Body) => c.children.length === 0 && c.parent_id === parent.id)).toBe(
          true,
        );
        ids.push(...res.body.data.map((c: Body) => c.id));
        if (!res.body.has_more) {
          expect(res.body.next_cursor).toBeNull();
          break;
        }
        cursor = res.body.next_cursor;
      }
      expect(ids).toEqual(kids.map((k) => k.id).reverse());
      const roots = await api().get('/v1/admin/categories?parent_id=null&limit=100');
      expect(roots.body.data.every((c: Body) => c.parent_id === null)).toBe(true);
      expect(roots.body.data.map((c: Body) => c.id)).toContain(parent.id);
      expect(roots.body.data.map((c: Body) => c.id)).not.toContain(kids[0].id);
      // Publishable keys cannot use the admin routes.
      expect((await api().storefront.get('/v1/admin/categories')).status).toBe(403);
    });

    test('PATCH: fields replace (metadata whole), parent_id moves with the subtree, null moves to the root; emits category.updated', async () => {
      const a = await createCategory(api(), { name: unique('A'), metadata: { x: 1 } });
      const b = await createCategory(api(), { name: unique('B') });
      const c = await createCategory(api(), { name: 'C', slug: unique('c'), parent_id: a.id });
      const d = await createCategory(api(), { name: 'D', slug: unique('d'), parent_id: c.id });
      let moved: Body;
      const events = await eventsDuring(api(), async () => {
        const res = await api().patch(`/v1/admin/categories/${c.id}`, {
          parent_id: b.id,
          name: 'C2',
          description: 'moved',
          position: 4,
          metadata: { y: 2 },
        });
        expect(res.status, JSON.stringify(res.body)).toBe(200);
        moved = res.body;
      });
      expect(moved).toMatchObject({
        parent_id: b.id,
        name: 'C2',
        description: 'moved',
        position: 4,
        metadata: { y: 2 },
      });
      expect(moved.children.map((n: Body) => n.id)).toEqual([d.id]);
      expect(events.map((e) => e.type)).toEqual(['category.updated']);
      expect(events[0]?.data).toEqual({ ...moved, children: [] });
      expect((await api().get(`/v1/admin/categories/${a.id}`)).body.children).toEqual([]);
      expect((await api().get(`/v1/admin/categories/${b.id}`)).body.children[0].children[0].id).toBe(d.id);

      const toRoot = await api().patch(`/v1/admin/categories/${c.id}`, {
        parent_id: null,
        description: null,
      });
      expect(toRoot.body).toMatchObject({ parent_id: null, description: null });
      expectError(
        await api().patch('/v1/admin/categories/cat_00000000000000000000000000', { name: 'X' }),
        404,
        'not_found',
      );
    });

    test('tree rules: own parent or a descendant → 422 invalid_parent; unknown parent → 404 param parent_id; nothing changes', async () => {
      const a = await createCategory(api(), { name: unique('A') });
      const b = await createCategory(api(), { name: 'B', slug: unique('b'), parent_id: a.id });
      const c = await createCategory(api(), { name: 'C', slug: unique('c'), parent_id: b.id });
      const events = await eventsDuring(api(), async () => {
        expectError(
          await api().patch(`/v1/admin/categories/${a.id}`, { parent_id: a.id }),
          422,
          'invalid_parent',
          'parent_id',
        );
        expectError(
          await api().patch(`/v1/admin/categories/${a.id}`, { parent_id: c.id }),
          422,
          'invalid_parent',
          'parent_id',
        );
        expectError(
          await api().patch(`/v1/admin/categories/${b.id}`, { parent_id: c.id }),
          422,
          'invalid_parent',
        );
        expectError(
          await api().patch(`/v1/admin/categories/${a.id}`, { parent_id: 'cat_00000000000000000000000000' }),
          404,
          'not_found',
          'parent_id',
        );
      });
      expect(events).toEqual([]);
      expect((await api().get(`/v1/admin/categories/${a.id}`)).body).toMatchObject({
        parent_id: null,
        children: [{ id: b.id, children: [{ id: c.id }] }],
      });
    });

    test('depth ≤ 8: a 9th level → 422 invalid_parent, on create and when a moved subtree’s deepest category would pass it', async () => {
      const chain: Body[] = [await createCategory(api(), { name: unique('L1') })];
      for (let level = 2; level <= 8; level++) {
        chain.push(
          await createCategory(api(), {
            name: `L${level}`,
            slug: unique('l'),
            parent_id: chain[level - 2].id,
          }),
        );
      }
      expectError(
        await api().post('/v1/admin/categories', { name: 'L9', parent_id: chain[7].id }),
        422,
        'invalid_parent',
        'parent_id',
      );
      const x = await createCategory(api(), { name: unique('X') });
      const x2 = await createCategory(api(), { name: 'X2', slug: unique('x2'), parent_id: x.id });
      await createCategory(api(), { name: 'X3', slug: unique('x3'), parent_id: x2.id });
      // X has 3 levels: under L5 its deepest is at 8 (fine); under L6 at 9 (refused).
      expectError(
        await api().patch(`/v1/admin/categories/${x.id}`, { parent_id: chain[5].id }),
        422,
        'invalid_parent',
      );
      expect((await api().patch(`/v1/admin/categories/${x.id}`, { parent_id: chain[4].id })).status).toBe(
        200,
      );
      const tree = await api().storefront.get('/v1/storefront/categories');
      expect(Math.max(...flatten(tree.body.data).map((n) => n.level))).toBe(8);
    });

    test('DELETE: with children → 409 category_has_children; a leaf → { id, deleted: true }, category.deleted; then 404', async () => {
      const a = await createCategory(api(), { name: unique('A') });
      const b = await createCategory(api(), { name: 'B', slug: unique('b'), parent_id: a.id });
      expectError(await api().delete(`/v1/admin/categories/${a.id}`), 409, 'category_has_children');
      const events = await eventsDuring(api(), async () => {
        expect((await api().delete(`/v1/admin/categories/${b.id}`)).body).toEqual({
          id: b.id,
          deleted: true,
        });
      });
      expect(events.map((e) => e.type)).toEqual(['category.deleted']);
      expect(events[0]?.data).toMatchObject({ id: b.id, children: [] });
      expect((await api().delete(`/v1/admin/categories/${a.id}`)).status).toBe(200);
      expectError(await api().get(`/v1/admin/categories/${a.id}`), 404, 'not_found');
      expectError(await api().delete(`/v1/admin/categories/${a.id}`), 404, 'not_found');
    });

    test('products carry category_ids on admin and storefront; replaced whole; unknown → 404 category_ids[i]; > 50 or repeated → 400', async () => {
      const a = await createCategory(api(), { name: unique('A') });
      const b = await createCategory(api(), { name: unique('B') });
      const product = await createProduct(api(), { name: unique('Tee'), category_ids: [b.id, a.id] });
      expect(product.category_ids).toEqual([b.id, a.id]);
      expect((await createProduct(api(), { name: unique('Plain') })).category_ids).toEqual([]);
      const shown = await api().storefront.get(`/v1/storefront/products/${product.id}`);
      expect(shown.body.category_ids).toEqual([b.id, a.id]);
      const listed = await api().storefront.get(`/v1/storefront/products?category_id=${a.id}`);
      expect(listed.body.data.find((p: Body) => p.id === product.id).category_ids).toEqual([b.id, a.id]);

      expectError(
        await api().patch(`/v1/admin/products/${product.id}`, {
          category_ids: [a.id, 'cat_00000000000000000000000000'],
        }),
        404,
        'not_found',
        'category_ids[1]',
      );
      expectError(
        await api().post('/v1/admin/products', {
          name: 'Bad',
          category_ids: ['cat_00000000000000000000000000'],
        }),
        404,
        'not_found',
        'category_ids[0]',
      );
      expectError(
        await api().patch(`/v1/admin/products/${product.id}`, { category_ids: [a.id, a.id] }),
        400,
        'parameter_invalid',
        'category_ids[1]',
      );
      const many = Array.from({ length: 51 }, (_, i) => `cat_${String(i).padStart(26, '0')}`);
      expectError(
        await api().patch(`/v1/admin/products/${product.id}`, { category_ids: many }),
        400,
        'parameter_invalid',
        'category_ids',
      );
      expect((await api().get(`/v1/admin/products/${product.id}`)).body.category_ids).toEqual([b.id, a.id]);

      const replaced = await api().patch(`/v1/admin/products/${product.id}`, { category_ids: [a.id] });
      expect(replaced.body.category_ids).toEqual([a.id]);
      expect((await api().storefront.get(`/v1/storefront/products/${product.id}`)).body.category_ids).toEqual(
        [a.id],
      );
      const cleared = await api().patch(`/v1/admin/products/${product.id}`, { category_ids: [] });
      expect(cleared.body.category_ids).toEqual([]);
      expect((await api().storefront.get(`/v1/storefront/products?category_id=${a.id}`)).body.data).toEqual(
        [],
      );
    });

    test('deleting a category removes it from its products (storefront pages included, at once); deleting a product removes its memberships', async () => {
      const a = await createCategory(api(), { name: unique('A') });
      const b = await createCategory(api(), { name: unique('B') });
      const p = await createProduct(api(), { name: unique('P'), category_ids: [a.id, b.id] });
      const q = await createProduct(api(), { name: unique('Q'), category_ids: [b.id] });
      // Warm the storefront's kept pages.
      expect((await api().storefront.get(`/v1/storefront/products/${p.id}`)).body.category_ids).toEqual([
        a.id,
        b.id,
      ]);
      expect(
        (await api().storefront.get(`/v1/storefront/products?category_id=${b.id}`)).body.data,
      ).toHaveLength(2);
      expect((await api().delete(`/v1/admin/categories/${b.id}`)).status).toBe(200);
      expect((await api().storefront.get(`/v1/storefront/products/${p.id}`)).body.category_ids).toEqual([
        a.id,
      ]);
      expect((await api().get(`/v1/admin/products/${q.id}`)).body.category_ids).toEqual([]);
      expect((await api().storefront.get(`/v1/storefront/products?category_id=${b.id}`)).body).toMatchObject({
        data: [],
        total_count: 0,
      });
      expect(
        (await api().storefront.get(`/v1/storefront/products?category_id=${a.id}`)).body.data.map(
          (x: Body) => x.id,
        ),
      ).toEqual([p.id]);
      expect((await api().delete(`/v1/admin/products/${p.id}`)).status).toBe(200);
      expect((await api().get(`/v1/admin/products?category_id=${a.id}`)).body).toMatchObject({
        data: [],
        total_count: 0,
      });
      const remaining = await api().engine.storage.read((tx) => tx.categories.existing(api().scope, [a.id]));
      expect(remaining.has(a.id)).toBe(true);
    });

    test('category_id on both lists: the category and its descendants, ANDed with the other filters; unknown → 200 empty; paging and total_count', async () => {
      const top = await createCategory(api(), { name: unique('Top') });
      const mid = await createCategory(api(), { name: 'Mid', slug: unique('mid'), parent_id: top.id });
      const leaf = await createCategory(api(), { name: 'Leaf', slug: unique('leaf'), parent_id: mid.id });
      const tag = unique('tag');
      const inTop = await createProduct(api(), { name: 'Top thing', tags: [tag], category_ids: [top.id] });
      const inLeaf = await createProduct(api(), { name: 'Leaf thing', tags: [tag], category_ids: [leaf.id] });
      const cheap = await createProduct(api(), {
        name: 'Cheap thing',
        variants: [{ price: 100 }],
        category_ids: [mid.id],
      });
      const draft = await createProduct(api(), {
        name: 'Draft thing',
        status: 'draft',
        category_ids: [leaf.id],
      });
      await createProduct(api(), { name: 'Elsewhere', tags: [tag] });

      const ids = (res: { body: Body }) => res.body.data.map((p: Body) => p.id);
      const sf = await api().storefront.get(`/v1/storefront/products?category_id=${top.id}`);
      expect(ids(sf)).toEqual([cheap.id, inLeaf.id, inTop.id]);
      expect(sf.body.total_count).toBe(3);
      expect(ids(await api().get(`/v1/admin/products?category_id=${top.id}`))).toEqual([
        draft.id,
        cheap.id,
        inLeaf.id,
        inTop.id,
      ]);
      expect(ids(await api().get(`/v1/admin/products?category_id=${leaf.id}&status=active`))).toEqual([
        inLeaf.id,
      ]);
      expect(
        ids(await api().storefront.get(`/v1/storefront/products?category_id=${top.id}&tag=${tag}`)),
      ).toEqual([inLeaf.id, inTop.id]);
      expect(
        ids(await api().storefront.get(`/v1/storefront/products?category_id=${top.id}&price_max=500`)),
      ).toEqual([cheap.id]);
      expect(ids(await api().storefront.get(`/v1/storefront/products?category_id=${mid.id}&q=leaf`))).toEqual(
        [inLeaf.id],
      );
      const unknown = await api().storefront.get(
        '/v1/storefront/products?category_id=cat_00000000000000000000000000',
      );
      expect(unknown.status).toBe(200);
      expect(unknown.body).toEqual({ data: [], total_count: 0, has_more: false, next_cursor: null });
      expect(
        (await api().get('/v1/admin/products?category_id=cat_00000000000000000000000000')).body.data,
      ).toEqual([]);

      const walked: string[] = [];
      let cursor: string | null = null;
      for (let page = 0; page < 10; page++) {
        const res: { body: Body } = await api().storefront.get(
          `/v1/storefront/products?category_id=${top.id}&sort=name&order=asc&limit=1${cursor ? `&starting_after=${cursor}` : ''}`,
        );
        expect(res.body.total_count).toBe(3);
        walked.push(...ids(res));
        if (!res.body.has_more) break;
        cursor = res.body.next_cursor;
      }
      expect(walked).toEqual([cheap.id, inLeaf.id, inTop.id]);
    });

    test('concurrent moves that together would make a cycle never leave one (many rounds of A→under B and B→under A at once)', async () => {
      for (let round = 0; round < 25; round++) {
        const a = await createCategory(api(), { name: 'A', slug: unique('ca') });
        const b = await createCategory(api(), { name: 'B', slug: unique('cb') });
        const [ab, ba] = await Promise.all([
          api().patch(`/v1/admin/categories/${a.id}`, { parent_id: b.id }),
          api().patch(`/v1/admin/categories/${b.id}`, { parent_id: a.id }),
        ]);
        const statuses = [ab.status, ba.status].sort();
        expect(statuses, JSON.stringify([ab.body, ba.body])).toEqual([200, 422]);
        const loser = ab.status === 422 ? ab : ba;
        expect(loser.body.error.code).toBe('invalid_parent');
        const [ra, rb] = await Promise.all([
          api().get(`/v1/admin/categories/${a.id}`),
          api().get(`/v1/admin/categories/${b.id}`),
        ]);
        expect(ra.body.parent_id === b.id && rb.body.parent_id === a.id).toBe(false);
      }
      const tree = await api().storefront.get('/v1/storefront/categories');
      const all = await api().engine.storage.read((tx) => tx.categories.all(api().scope));
      // Every category is reachable from a root (a cycle would hide its members from the tree).
      expect(flatten(tree.body.data).length).toBe(all.length);
    });
  },
  engineOptions,
);
