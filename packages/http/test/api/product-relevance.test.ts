import { compareRelevance, relevanceTier } from '@cartwright/core/storage-rules';
import fc from 'fast-check';
import { expect, test } from 'vitest';
import { describeApi, type TestApi } from './support/harness';

/**
 * `sort=relevance` on `GET /v1/storefront/products` (decisions §17,
 * docs/organising-the-catalog.md#search-and-relevance) over real HTTP on every engine: the four
 * tiers ignoring case, ties by `created_at` then `id` (both newest first), cursor pages across
 * tier boundaries, the 400s; the order equals core's `compareRelevance` over random names with
 * punctuation, digits, mixed case and non-ASCII. Also the admin list's `sort=updated_at`, and
 * `include` (lists) / `expand` (details) accepted and ignored (the SDK sends them).
 */

// biome-ignore lint/suspicious/noExplicitAny: response bodies are read field by field in assertions.
type Body = any;

/** The engine's clock: each test sets the creation time of what it creates. */
let now = Date.UTC(2026, 0, 1);
const engineOptions = { clock: { now: () => now } };

let counter = 0;
/**
 * A search token of its own per test (`zq` + 4 base-36 digits, fixed length): no other test's
 * names contain it, and `z`/`q` appear in no generated name part, so it never forms by accident.
 */
function token(): string {
  counter += 1;
  return `zq${(counter + Math.floor(Math.random() * 1000) * 100).toString(36).padStart(4, '0').slice(-4)}`;
}

interface Created {
  id: string;
  name: string;
  created_at: number;
}

let slugs = 0;
const run = Math.floor(Math.random() * 36 ** 4).toString(36);

async function createActive(api: TestApi, name: string, at: number, extra: Record<string, unknown> = {}) {
  now = at;
  // Names repeat and need not make a slug: each product gets one of its own.
  const slug = `rel-${run}-${(++slugs).toString(36)}`;
  const res = await api.post('/v1/admin/products', {
    name,
    slug,
    status: 'active',
    variants: [{ price: 1000 }],
    ...extra,
  });
  expect(res.status, JSON.stringify(res.body)).toBe(200);
  return { id: res.body.id as string, name, created_at: Date.parse(res.body.created_at) } satisfies Created;
}

/** Walks a storefront list page by page (`limit`), checking the envelope; returns the ids in order. */
async function walk(api: TestApi, query: string, limit: number): Promise<string[]> {
  const ids: string[] = [];
  const totals = new Set<number>();
  let cursor: string | null = null;
  for (let page = 0; page < 200; page++) {
    const url: string = `/v1/storefront/products?${query}&limit=${limit}${cursor ? `&starting_after=${cursor}` : ''}`;
    const res: { status: number; body: Body } = await api.storefront.get(url);
    expect(res.status, JSON.stringify(res.body)).toBe(200);
    expect(res.body.data.length).toBeLessThanOrEqual(limit);
    ids.push(...res.body.data.map((item: { id: string }) => item.id));
    totals.add(res.body.total_count);
    if (!res.body.has_more) {
      expect(res.body.next_cursor).toBeNull();
      // Every page counts every match of the filter, whatever its cursor.
      expect([...totals]).toEqual([ids.length]);
      return ids;
    }
    expect(res.body.next_cursor).toBe(res.body.data[res.body.data.length - 1].id);
    cursor = res.body.next_cursor;
  }
  throw new Error('list did not end');
}

async function relevanceIds(api: TestApi, q: string, extra = ''): Promise<string[]> {
  const res = await api.storefront.get(
    `/v1/storefront/products?q=${encodeURIComponent(q)}&sort=relevance&limit=100${extra}`,
  );
  expect(res.status, JSON.stringify(res.body)).toBe(200);
  expect(res.body.total_count).toBe(res.body.data.length);
  return res.body.data.map((item: { id: string }) => item.id);
}

function expectedOrder(products: readonly Created[], q: string): string[] {
  return products
    .filter((product) => relevanceTier(product.name, q) !== null)
    .sort(compareRelevance(q))
    .map((product) => product.id);
}

describeApi(
  'product relevance',
  (api) => {
    test('four tiers ignoring case: equals, starts with, starts a word, anywhere; then newest first', async () => {
      const t = token();
      const T = t.toUpperCase();
      const base = Date.UTC(2026, 1, 1);
      // Created oldest first, so that "newest first" alone would invert the tiers.
      const anywhere = await createActive(api(), `Über${t}`, base + 1);
      const anywhere2 = await createActive(api(), `x${T}y`, base + 2);
      const word = await createActive(api(), `Big ${T}`, base + 3);
      const word2 = await createActive(api(), `T-${t}-shirt`, base + 4);
      const word3 = await createActive(api(), `Ünï_${t}`, base + 5);
      const prefix = await createActive(api(), `${T}shirt`, base + 6);
      const prefix2 = await createActive(api(), `${t} dress`, base + 7);
      const equal = await createActive(api(), T, base + 8);
      await createActive(api(), `${t.slice(0, 4)} other`, base + 9); // does not contain q
      const draft = await api().post('/v1/admin/products', { name: t, slug: `${t}-draft`, status: 'draft' });
      expect(draft.status).toBe(200);

      expect(await relevanceIds(api(), t)).toEqual([
        equal.id,
        prefix2.id,
        prefix.id,
        word3.id,
        word2.id,
        word.id,
        anywhere2.id,
        anywhere.id,
      ]);
      // The tiers ignore the case of q too; the default list (newest first) is the same set.
      expect(await relevanceIds(api(), T)).toEqual(await relevanceIds(api(), t));
      expect(await relevanceIds(api(), t, '&order=desc')).toEqual(await relevanceIds(api(), t));
      const byDate = await api().storefront.get(`/v1/storefront/products?q=${t}&limit=100`);
      expect(byDate.body.data.map((item: Body) => item.id)).toEqual(
        [equal.id, prefix2.id, prefix.id, word3.id, word2.id, word.id, anywhere2.id, anywhere.id].sort(
          (a, b) => {
            const at = (id: string) =>
              [equal, prefix2, prefix, word3, word2, word, anywhere2, anywhere].find((p) => p.id === id)!
                .created_at;
            return at(b) - at(a);
          },
        ),
      );
      // A longer q: `t-<token>` starts a word of `T-<token>-shirt`? No: it starts the name.
      expect(await relevanceIds(api(), `t-${t}`)).toEqual([word2.id]);
      expect(await relevanceIds(api(), `${t}-SH`)).toEqual([word2.id]);
      expect(await relevanceIds(api(), `g ${t}`)).toEqual([word.id]);
    });

    test('ties: the same tier and created_at are ordered by id, newest (greatest) first', async () => {
      const t = token();
      const at = Date.UTC(2026, 2, 1);
      const made: Created[] = [];
      for (const name of [`A ${t}`, `B ${t}`, `${t} c`, `${t} d`, `x${t}`, `y${t}`, t]) {
        made.push(await createActive(api(), name, at));
      }
      const ids = await relevanceIds(api(), t);
      expect(ids).toEqual(expectedOrder(made, t));
      const byId = (names: string[]) =>
        made
          .filter((p) => names.includes(p.name))
          .map((p) => p.id)
          .sort()
          .reverse();
      expect(ids).toEqual([
        ...byId([t]),
        ...byId([`${t} c`, `${t} d`]),
        ...byId([`A ${t}`, `B ${t}`]),
        ...byId([`x${t}`, `y${t}`]),
      ]);
    });

    test('cursor pages cross tier boundaries without repeating or skipping (every limit)', async () => {
      const t = token();
      const at = Date.UTC(2026, 3, 1);
      const made: Created[] = [];
      const names = [
        t,
        `${t}!`,
        `${t}2`,
        `a-${t}`,
        `b ${t}`,
        `(${t})`,
        `a${t}`,
        `9${t}`,
        `é${t}`,
        `${t} ${t}`,
      ];
      for (const [i, name] of names.entries()) made.push(await createActive(api(), name, at + (i % 3)));
      const expected = expectedOrder(made, t);
      expect(expected).toHaveLength(names.length);
      expect(await relevanceIds(api(), t)).toEqual(expected);
      for (const limit of [1, 2, 3, 4, 7]) {
        expect(await walk(api(), `q=${t}&sort=relevance`, limit), `limit ${limit}`).toEqual(expected);
      }
      // A cursor can be any shown product, even one that does not match q: its rank is computed by
      // the same SQL, where "not in tier 0-2" is tier 3; so the tier-3 matches older than it follow.
      const other = await createActive(api(), 'Unrelated teapot', at + 5);
      const after = await api().storefront.get(
        `/v1/storefront/products?q=${t}&sort=relevance&starting_after=${other.id}&limit=100`,
      );
      expect(after.status).toBe(200);
      const tier3 = expected.filter((id) => relevanceTier(made.find((p) => p.id === id)!.name, t) === 3);
      expect(tier3.length).toBeGreaterThan(0);
      expect(after.body.data.map((p: Body) => p.id)).toEqual(tier3);
    });

    test('property: the order on this engine equals sorting by core’s rule (random names)', async () => {
      const parts = [
        'a',
        'B',
        'ü',
        'É',
        'e\u0301',
        '1',
        ' ',
        '-',
        '_',
        '%',
        '\\',
        '.',
        '/',
        '日',
        '😀',
        'ж',
        'İ',
        '\u0001',
      ];
      const part = fc.constantFrom(...parts);
      await fc.assert(
        fc.asyncProperty(
          fc.array(
            fc.record({
              before: fc.array(part, { maxLength: 3 }),
              upper: fc.boolean(),
              after: fc.array(part, { maxLength: 3 }),
              tick: fc.nat({ max: 2 }),
            }),
            { minLength: 2, maxLength: 8 },
          ),
          fc.array(part, { maxLength: 1 }),
          fc.array(part, { maxLength: 1 }),
          async (specs, qBefore, qAfter) => {
            const t = token();
            let at = Date.UTC(2026, 4, 1) + counter * 1000;
            const made: Created[] = [];
            for (const spec of specs) {
              at += spec.tick;
              const name =
                `${spec.before.join('')}${spec.upper ? t.toUpperCase() : t}${spec.after.join('')}`.trim();
              made.push(await createActive(api(), name === '' ? t : name, at));
            }
            const q = `${qBefore.join('')}${t}${qAfter.join('')}`.trim();
            expect(await relevanceIds(api(), q)).toEqual(expectedOrder(made, q));
            expect(await walk(api(), `q=${encodeURIComponent(q)}&sort=relevance`, 2)).toEqual(
              expectedOrder(made, q),
            );
          },
        ),
        { numRuns: 12 },
      );
    }, 120_000);

    test('combines with tag and price filters (AND); total_count counts every match', async () => {
      const t = token();
      const at = Date.UTC(2026, 5, 1);
      const cheap = await createActive(api(), `${t} mug`, at, {
        tags: ['kitchen'],
        variants: [{ price: 500 }],
      });
      await createActive(api(), t, at + 1, { tags: ['garden'], variants: [{ price: 500 }] });
      const word = await createActive(api(), `Big ${t}`, at + 2, {
        tags: ['kitchen'],
        variants: [{ price: 900 }],
      });
      await createActive(api(), `Huge ${t}`, at + 3, { tags: ['kitchen'], variants: [{ price: 5000 }] });
      expect(await relevanceIds(api(), t, '&tag=kitchen&price_max=1000')).toEqual([cheap.id, word.id]);
      const page = await api().storefront.get(`/v1/storefront/products?q=${t}&sort=relevance&limit=1`);
      expect(page.body).toMatchObject({ total_count: 4, has_more: true });
    });

    test('400s: relevance without q (or a blank q), with order=asc; the admin list has no relevance sort', async () => {
      for (const query of ['sort=relevance', 'sort=relevance&q=', 'sort=relevance&q=%20%20']) {
        const res = await api().storefront.get(`/v1/storefront/products?${query}`);
        expect(res.status, query).toBe(400);
        expect(res.body.error).toMatchObject({
          type: 'invalid_request_error',
          code: 'parameter_invalid',
          param: 'sort',
        });
      }
      const asc = await api().storefront.get('/v1/storefront/products?q=tea&sort=relevance&order=asc');
      expect(asc.status).toBe(400);
      expect(asc.body.error).toMatchObject({ code: 'parameter_invalid', param: 'order' });
      const admin = await api().get('/v1/admin/products?q=tea&sort=relevance');
      expect(admin.status).toBe(400);
      expect(admin.body.error).toMatchObject({ code: 'parameter_invalid', param: 'sort' });
    });

    test('relevance pages and newest-first pages of one q are kept apart by the storefront read model', async () => {
      const t = token();
      const at = Date.UTC(2026, 6, 1);
      const anywhere = await createActive(api(), `x${t}`, at + 2);
      const equal = await createActive(api(), t, at + 1);
      for (let round = 0; round < 2; round++) {
        const byDate = await api().storefront.get(`/v1/storefront/products?q=${t}`);
        const byRelevance = await api().storefront.get(`/v1/storefront/products?q=${t}&sort=relevance`);
        expect(byDate.body.data.map((p: Body) => p.id)).toEqual([anywhere.id, equal.id]);
        expect(byRelevance.body.data.map((p: Body) => p.id)).toEqual([equal.id, anywhere.id]);
      }
      // A rename moves the product between tiers at once.
      now = at + 10;
      expect((await api().patch(`/v1/admin/products/${equal.id}`, { name: `y${t}` })).status).toBe(200);
      expect((await api().patch(`/v1/admin/products/${anywhere.id}`, { name: `${t}!` })).status).toBe(200);
      expect(await relevanceIds(api(), t)).toEqual([anywhere.id, equal.id]);
    });

    test('admin sort=updated_at: most recently updated first (order=asc reverses), cursor pages', async () => {
      const t = token();
      const at = Date.UTC(2026, 7, 1);
      const a = await createActive(api(), `${t} a`, at);
      const b = await createActive(api(), `${t} b`, at + 1);
      const c = await createActive(api(), `${t} c`, at + 2);
      now = at + 10;
      expect((await api().patch(`/v1/admin/products/${a.id}`, { description: 'touched' })).status).toBe(200);
      const list = async (extra: string) => {
        const res = await api().get(`/v1/admin/products?q=${t}&sort=updated_at${extra}`);
        expect(res.status, JSON.stringify(res.body)).toBe(200);
        return res.body.data.map((p: Body) => p.id);
      };
      expect(await list('')).toEqual([a.id, c.id, b.id]);
      expect(await list('&order=asc')).toEqual([b.id, c.id, a.id]);
      const first = await api().get(`/v1/admin/products?q=${t}&sort=updated_at&limit=1`);
      const second = await api().get(
        `/v1/admin/products?q=${t}&sort=updated_at&limit=2&starting_after=${first.body.next_cursor}`,
      );
      expect(first.body.data.map((p: Body) => p.id)).toEqual([a.id]);
      expect(second.body.data.map((p: Body) => p.id)).toEqual([c.id, b.id]);
    });

    test('include (lists) and expand (details) are accepted and ignored: products always carry their parts', async () => {
      const t = token();
      const product = await createActive(api(), `${t} lamp`, Date.UTC(2026, 8, 1), {
        options: [{ name: 'Size', values: ['S'] }],
        variants: [{ price: 1200, options: { Size: 'S' } }],
        images: [{ url: 'https://example.com/lamp.png' }],
      });
      const plain = await api().storefront.get(`/v1/storefront/products?q=${t}`);
      expect(plain.body.data[0].variants).toHaveLength(1);
      expect(plain.body.data[0].images).toHaveLength(1);
      expect(plain.body.data[0].options).toHaveLength(1);
      for (const include of ['variants', 'variants,images', 'options', 'nonsense']) {
        const res = await api().storefront.get(`/v1/storefront/products?q=${t}&include=${include}`);
        expect(res.status).toBe(200);
        expect(res.body).toEqual(plain.body);
        const relevance = await api().storefront.get(
          `/v1/storefront/products?q=${t}&sort=relevance&include=${include}`,
        );
        expect(relevance.body).toEqual(plain.body);
      }
      const detail = await api().storefront.get(`/v1/storefront/products/${product.id}`);
      const slug = detail.body.slug as string;
      for (const expand of ['variants', 'variants,images', 'anything']) {
        for (const path of [
          `/v1/storefront/products/${product.id}`,
          `/v1/storefront/products/by-slug/${slug}`,
        ]) {
          const res = await api().storefront.get(`${path}?expand=${expand}&include=${expand}`);
          expect(res.status, path).toBe(200);
          expect(res.body).toEqual(detail.body);
        }
        const admin = await api().get(`/v1/admin/products/${product.id}?expand=${expand}`);
        expect(admin.status).toBe(200);
        expect(admin.body.variants).toHaveLength(1);
      }
      const adminList = await api().get(`/v1/admin/products?q=${t}&include=variants`);
      expect(adminList.status).toBe(200);
      expect(adminList.body.data.map((p: Body) => p.id)).toEqual([product.id]);
    });
  },
  engineOptions,
);
