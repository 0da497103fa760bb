import type { CollectionRules } from '@cartwright/core/storage';
import { compileRules, matchesRules } from '@cartwright/core/storage-rules';
import fc from 'fast-check';
import { afterEach, describe, expect, test } from 'vitest';
import { expectCode } from './commerce-error.test-support';
import { createTestEngine, type TestEngine } from './create-test-engine';

/**
 * Collections (decisions §17) through the engine: admin CRUD and its events, every validation
 * rule, the storefront list and detail, the product lists' `collection_id`, and the SQL of auto
 * collections against core's reference evaluation (`matchesRules`). The HTTP suites assert the
 * wire on every engine.
 */

let t: TestEngine | undefined;
afterEach(async () => {
  await t?.close();
  t = undefined;
});

async function engine(): Promise<TestEngine> {
  t = await createTestEngine();
  return t;
}

async function product(
  e: TestEngine,
  name: string,
  fields: {
    status?: 'draft' | 'active' | 'archived';
    tags?: string[];
    price?: number;
    type?: 'physical' | 'digital';
  } = {},
) {
  e.clock.advance(1000);
  return e.store.products.create({
    name,
    status: fields.status ?? 'active',
    tags: fields.tags ?? [],
    ...(fields.type !== undefined && { type: fields.type }),
    variants: fields.price === undefined ? [] : [{ price: fields.price }],
  });
}

describe('manual collections', () => {
  test('create, read, update, delete; product_ids in display order; events carry the admin record', async () => {
    const e = await engine();
    const a = await product(e, 'A');
    const b = await product(e, 'B');
    const created = await e.store.collections.create({
      name: 'Summer Sale!',
      product_ids: [b.id, a.id],
    });
    expect(created).toMatchObject({
      name: 'Summer Sale!',
      slug: 'summer-sale',
      description: null,
      type: 'manual',
      position: 0,
      rules: null,
      product_ids: [b.id, a.id],
      metadata: {},
    });
    expect(created.id).toMatch(/^col_/);
    expect(await e.store.collections.get(created.id)).toEqual(created);

    e.clock.advance(1000);
    const updated = await e.store.collections.update(created.id, {
      product_ids: [a.id],
      description: 'Hot',
      position: 3,
      metadata: { k: 'v' },
    });
    expect(updated).toMatchObject({
      product_ids: [a.id],
      description: 'Hot',
      position: 3,
      metadata: { k: 'v' },
    });
    expect(updated.updated_at > created.updated_at).toBe(true);

    expect(await e.store.collections.delete(created.id)).toEqual({ id: created.id, deleted: true });
    await expectCode(e.store.collections.get(created.id), 'not_found');
    await expectCode(e.store.collections.delete(created.id), 'not_found');

    const events = e.events.list().filter((event) => event.type.startsWith('collection.'));
    expect(events.map((event) => event.type)).toEqual([
      'collection.created',
      'collection.updated',
      'collection.deleted',
    ]);
    expect(events[0]?.data).toEqual(created);
    expect(events[1]?.data).toEqual(updated);
    expect(events[2]?.data).toEqual(updated);
  });

  test('product_ids: unknown or deleted → 404 naming the element; duplicates and > 250 → 400; nothing changes', async () => {
    const e = await engine();
    const a = await product(e, 'A');
    const gone = await product(e, 'Gone');
    await e.store.products.delete(gone.id);
    await expectCode(
      e.store.collections.create({ name: 'X', product_ids: [a.id, 'prod_nope'] }),
      'not_found',
      'product_ids[1]',
    );
    await expectCode(
      e.store.collections.create({ name: 'X', product_ids: [gone.id] }),
      'not_found',
      'product_ids[0]',
    );
    await expectCode(
      e.store.collections.create({ name: 'X', product_ids: [a.id, a.id] }),
      'parameter_invalid',
      'product_ids[1]',
    );
    const many = Array.from({ length: 251 }, (_, i) => `prod_${i}`);
    await expectCode(
      e.store.collections.create({ name: 'X', product_ids: many }),
      'parameter_invalid',
      'product_ids',
    );
    expect((await e.store.collections.list()).data).toEqual([]);

    const c = await e.store.collections.create({ name: 'X', product_ids: [a.id] });
    await expectCode(
      e.store.collections.update(c.id, { product_ids: ['prod_nope'], name: 'Y' }),
      'not_found',
      'product_ids[0]',
    );
    expect(await e.store.collections.get(c.id)).toEqual(c);
    expect(e.events.types().filter((type) => type.startsWith('collection.'))).toEqual(['collection.created']);
  });

  test('rules on a manual collection → 400 parameter_invalid (null is fine)', async () => {
    const e = await engine();
    const rules = { conditions: [{ type: 'product_tag' as const, operator: 'in' as const, values: ['x'] }] };
    await expectCode(e.store.collections.create({ name: 'X', rules }), 'parameter_invalid', 'rules');
    const c = await e.store.collections.create({ name: 'X', rules: null });
    expect(c.rules).toBeNull();
    await expectCode(e.store.collections.update(c.id, { rules }), 'parameter_invalid', 'rules');
  });

  test('slug: derived, unique per store and mode → 409 duplicate_slug on create and update', async () => {
    const e = await engine();
    const first = await e.store.collections.create({ name: 'New In' });
    await expectCode(e.store.collections.create({ name: 'New in' }), 'duplicate_slug', 'slug');
    await expectCode(e.store.collections.create({ name: 'Other', slug: 'new-in' }), 'duplicate_slug', 'slug');
    const other = await e.store.collections.create({ name: 'Other' });
    await expectCode(e.store.collections.update(other.id, { slug: 'new-in' }), 'duplicate_slug', 'slug');
    expect((await e.store.collections.update(first.id, { slug: 'new-in' })).slug).toBe('new-in');
    await expectCode(
      e.store.collections.create({ name: 'Bad', slug: 'Not A Slug' }),
      'parameter_invalid',
      'slug',
    );
    const live = e.engine.forStore({ ...e.scope, mode: 'live' });
    expect((await live.collections.create({ name: 'New In' })).slug).toBe('new-in');
  });

  test('a deleted product leaves every manual collection', async () => {
    const e = await engine();
    const a = await product(e, 'A');
    const b = await product(e, 'B');
    const one = await e.store.collections.create({ name: 'One', product_ids: [a.id, b.id] });
    const two = await e.store.collections.create({ name: 'Two', product_ids: [b.id] });
    await e.store.products.delete(b.id);
    expect((await e.store.collections.get(one.id)).product_ids).toEqual([a.id]);
    expect((await e.store.collections.get(two.id)).product_ids).toEqual([]);
    expect((await e.store.products.list({ collection_id: one.id })).data.map((p) => p.id)).toEqual([a.id]);
  });
});

describe('auto collections: validation', () => {
  const tag = { type: 'product_tag' as const, operator: 'in' as const, values: ['x'] };

  test('rules required (parameter_missing), product_ids refused; match defaults to all', async () => {
    const e = await engine();
    await expectCode(e.store.collections.create({ name: 'A', type: 'auto' }), 'parameter_missing', 'rules');
    await expectCode(
      e.store.collections.create({ name: 'A', type: 'auto', rules: null }),
      'parameter_missing',
      'rules',
    );
    await expectCode(
      e.store.collections.create({
        name: 'A',
        type: 'auto',
        rules: { conditions: [tag] },
        product_ids: [],
      }),
      'parameter_invalid',
      'product_ids',
    );
    const c = await e.store.collections.create({
      name: 'A',
      type: 'auto',
      rules: { conditions: [tag] },
    });
    expect(c).toMatchObject({ type: 'auto', product_ids: null, rules: { match: 'all', conditions: [tag] } });
    await expectCode(
      e.store.collections.update(c.id, { product_ids: [] }),
      'parameter_invalid',
      'product_ids',
    );
    await expectCode(e.store.collections.update(c.id, { rules: null }), 'parameter_missing', 'rules');
  });

  const inv = 'parameter_invalid';
  test.each([
    [{ match: 'some', conditions: [tag] }, inv, 'rules[match]'],
    [{ conditions: [] }, inv, 'rules[conditions]'],
    [{}, 'parameter_missing', 'rules[conditions]'],
    [{ conditions: Array.from({ length: 21 }, () => tag) }, inv, 'rules[conditions]'],
    [{ conditions: [tag, tag, { ...tag, operator: 'gte' }] }, inv, 'rules[conditions][2][operator]'],
    [{ conditions: [{ type: 'vendor', operator: 'in', values: ['x'] }] }, inv, 'rules[conditions][0][type]'],
    [
      { conditions: [{ type: 'product_tag', values: ['x'] }] },
      'parameter_missing',
      'rules[conditions][0][operator]',
    ],
    [
      { conditions: [{ type: 'product_tag', operator: 'in' }] },
      'parameter_missing',
      'rules[conditions][0][values]',
    ],
    [
      { conditions: [{ type: 'product_tag', operator: 'in', values: [] }] },
      inv,
      'rules[conditions][0][values]',
    ],
    [
      {
        conditions: [
          { type: 'product_tag', operator: 'in', values: Array.from({ length: 101 }, (_, i) => `t${i}`) },
        ],
      },
      inv,
      'rules[conditions][0][values]',
    ],
    [
      { conditions: [{ type: 'product_type', operator: 'in', values: [7] }] },
      inv,
      'rules[conditions][0][values][0]',
    ],
    [
      { conditions: [{ type: 'product', operator: 'in', values: ['x'], value: 3 }] },
      inv,
      'rules[conditions][0][value]',
    ],
    [{ conditions: [{ type: 'price', operator: 'in', value: 100 }] }, inv, 'rules[conditions][0][operator]'],
    [
      { conditions: [{ type: 'price', operator: 'gte' }] },
      'parameter_missing',
      'rules[conditions][0][value]',
    ],
    [{ conditions: [{ type: 'price', operator: 'gte', value: 1.5 }] }, inv, 'rules[conditions][0][value]'],
    [{ conditions: [{ type: 'price', operator: 'lte', value: -1 }] }, inv, 'rules[conditions][0][value]'],
    [
      { conditions: [{ type: 'price', operator: 'lte', value: 5, values: ['x'] }] },
      inv,
      'rules[conditions][0][values]',
    ],
    [{ conditions: [{ ...tag, extra: 1 }] }, 'parameter_unknown', 'rules[conditions][0][extra]'],
    [{ conditions: [tag], sort: 'x' }, 'parameter_unknown', 'rules[sort]'],
    ['all', inv, 'rules'],
  ])('rules %j → 400 %s naming %s; nothing stored', async (rules, code, param) => {
    const e = await engine();
    // biome-ignore lint/suspicious/noExplicitAny: deliberately malformed input
    const input = { name: 'A', type: 'auto', rules: rules as any } as const;
    await expectCode(e.store.collections.create(input), code, param);
    const c = await e.store.collections.create({
      name: 'B',
      type: 'auto',
      rules: { conditions: [tag] },
    });
    await expectCode(e.store.collections.update(c.id, { rules: rules as never }), code, param);
    expect((await e.store.collections.get(c.id)).rules).toEqual({ match: 'all', conditions: [tag] });
    expect((await e.store.collections.list()).total_count).toBe(1);
  });

  test('PATCH type: to auto needs rules in the same request; to manual drops rules (product_ids default [])', async () => {
    const e = await engine();
    const a = await product(e, 'A', { tags: ['x'] });
    const manual = await e.store.collections.create({ name: 'M', product_ids: [a.id] });
    await expectCode(e.store.collections.update(manual.id, { type: 'auto' }), 'parameter_missing', 'rules');
    await expectCode(
      e.store.collections.update(manual.id, {
        type: 'auto',
        rules: { conditions: [tag] },
        product_ids: [a.id],
      }),
      'parameter_invalid',
      'product_ids',
    );
    expect(await e.store.collections.get(manual.id)).toEqual(manual);
    const auto = await e.store.collections.update(manual.id, {
      type: 'auto',
      rules: { conditions: [tag] },
    });
    expect(auto).toMatchObject({
      type: 'auto',
      product_ids: null,
      rules: { match: 'all', conditions: [tag] },
    });
    // Its former member rows are gone: back to manual, it has none unless given.
    const back = await e.store.collections.update(manual.id, { type: 'manual' });
    expect(back).toMatchObject({ type: 'manual', rules: null, product_ids: [] });
    const again = await e.store.collections.update(manual.id, {
      type: 'auto',
      rules: { conditions: [tag] },
    });
    const withIds = await e.store.collections.update(again.id, { type: 'manual', product_ids: [a.id] });
    expect(withIds).toMatchObject({ type: 'manual', rules: null, product_ids: [a.id] });
    await expectCode(
      e.store.collections.update(manual.id, { type: 'manual', rules: { conditions: [tag] } }),
      'parameter_invalid',
      'rules',
    );
  });
});

describe('auto collections: membership when read', () => {
  test('tag, type, product and price conditions; all / any; not_in; a product change shows at once', async () => {
    const e = await engine();
    const cheapTee = await product(e, 'Cheap tee', { tags: ['tee', 'sale'], price: 900 });
    const dearTee = await product(e, 'Dear tee', { tags: ['tee'], price: 5000 });
    const ebook = await product(e, 'Ebook', { tags: ['book'], price: 1500, type: 'digital' });
    const noPrice = await product(e, 'No price', { tags: ['tee'] });
    const ids = async (collection_id: string) =>
      (await e.store.products.list({ collection_id })).data.map((p) => p.name).sort();

    const tees = await e.store.collections.create({
      name: 'Tees under 20',
      type: 'auto',
      rules: {
        conditions: [
          { type: 'product_tag', operator: 'in', values: ['tee'] },
          { type: 'price', operator: 'lte', value: 2000 },
        ],
      },
    });
    expect(await ids(tees.id)).toEqual(['Cheap tee']);
    const any = await e.store.collections.create({
      name: 'Any',
      type: 'auto',
      rules: {
        match: 'any',
        conditions: [
          { type: 'product_type', operator: 'in', values: ['digital'] },
          { type: 'price', operator: 'gte', value: 5000 },
          { type: 'product', operator: 'in', values: [noPrice.id] },
        ],
      },
    });
    expect(await ids(any.id)).toEqual(['Dear tee', 'Ebook', 'No price']);
    const notSale = await e.store.collections.create({
      name: 'Not on sale',
      type: 'auto',
      rules: { conditions: [{ type: 'product_tag', operator: 'not_in', values: ['sale', 'book'] }] },
    });
    expect(await ids(notSale.id)).toEqual(['Dear tee', 'No price']);

    // A product change shows at once, and emits no collection event.
    e.events.clear();
    await e.store.products.update(dearTee.id, { tags: ['tee', 'sale'] });
    await e.store.products.updateVariant(dearTee.variants[0]?.id as string, { price: 1000 });
    expect(await ids(tees.id)).toEqual(['Cheap tee', 'Dear tee']);
    expect(await ids(notSale.id)).toEqual(['No price']);
    expect(e.events.types().filter((type) => type.startsWith('collection.'))).toEqual([]);
    void cheapTee;
    void ebook;
  });

  test('category includes descendants (and not_in excludes them)', async () => {
    const e = await engine();
    const clothing = await e.store.categories.create({ name: 'Clothing' });
    const shirts = await e.store.categories.create({ name: 'Shirts', parent_id: clothing.id });
    const tees = await e.store.categories.create({ name: 'Tees', parent_id: shirts.id });
    const books = await e.store.categories.create({ name: 'Books' });
    e.clock.advance(1000);
    const tee = await e.store.products.create({ name: 'Tee', status: 'active', category_ids: [tees.id] });
    e.clock.advance(1000);
    const novel = await e.store.products.create({
      name: 'Novel',
      status: 'active',
      category_ids: [books.id],
    });
    e.clock.advance(1000);
    const loose = await e.store.products.create({ name: 'Loose', status: 'active' });
    const inClothing = await e.store.collections.create({
      name: 'Clothing',
      type: 'auto',
      rules: { conditions: [{ type: 'category', operator: 'in', values: [clothing.id] }] },
    });
    const notClothing = await e.store.collections.create({
      name: 'Not clothing',
      type: 'auto',
      rules: { conditions: [{ type: 'category', operator: 'not_in', values: [clothing.id] }] },
    });
    const names = async (collection_id: string) =>
      (await e.store.products.list({ collection_id })).data.map((p) => p.name);
    expect(await names(inClothing.id)).toEqual(['Tee']);
    expect(await names(notClothing.id)).toEqual(['Loose', 'Novel']);
    // Moving a category moves its products with it, at once.
    await e.store.categories.update(shirts.id, { parent_id: books.id });
    expect(await names(inClothing.id)).toEqual([]);
    void tee;
    void novel;
    void loose;
  });

  test('the SQL agrees with the reference evaluation over random products and rules', async () => {
    const e = await engine();
    const root = await e.store.categories.create({ name: 'Root' });
    const child = await e.store.categories.create({ name: 'Child', parent_id: root.id });
    const other = await e.store.categories.create({ name: 'Other' });
    const categories = [root.id, child.id, other.id];
    const TAGS = ['a', 'b', 'c', 'd'];
    const products = await fc.sample(
      fc.record({
        tags: fc.subarray(TAGS),
        type: fc.constantFrom('physical', 'digital', 'service'),
        price: fc.option(
          fc.integer({ min: 0, max: 40 }).map((n) => n * 100),
          { nil: undefined },
        ),
        category_ids: fc.subarray(categories),
      }),
      { numRuns: 40, seed: 17 },
    );
    for (const [i, p] of products.entries()) {
      e.clock.advance(1000);
      await e.store.products.create({
        name: `P${i}`,
        status: 'active',
        tags: p.tags,
        type: p.type as 'physical',
        category_ids: p.category_ids,
        variants: p.price === undefined ? [] : [{ price: p.price }],
      });
    }
    const all = (await e.store.products.list({ limit: 100 })).data;
    const productIds = all.map((p) => p.id);
    const tree = (await e.store.categories.list({ limit: 100 })).data.map((c) => ({
      id: c.id,
      parent_id: c.parent_id,
    }));

    const condition = fc.oneof(
      fc.record({
        type: fc.constantFrom('product_tag' as const),
        operator: fc.constantFrom('in' as const, 'not_in' as const),
        values: fc.subarray([...TAGS, 'zz'], { minLength: 1 }),
      }),
      fc.record({
        type: fc.constantFrom('product_type' as const),
        operator: fc.constantFrom('in' as const, 'not_in' as const),
        values: fc.subarray(['physical', 'digital', 'bundle'], { minLength: 1 }),
      }),
      fc.record({
        type: fc.constantFrom('product' as const),
        operator: fc.constantFrom('in' as const, 'not_in' as const),
        values: fc.subarray(productIds.slice(0, 8), { minLength: 1 }),
      }),
      fc.record({
        type: fc.constantFrom('category' as const),
        operator: fc.constantFrom('in' as const, 'not_in' as const),
        values: fc.subarray(categories, { minLength: 1 }),
      }),
      fc.record({
        type: fc.constantFrom('price' as const),
        operator: fc.constantFrom('gte' as const, 'lte' as const),
        value: fc.integer({ min: 0, max: 40 }).map((n) => n * 100),
      }),
    );
    const rulesArb = fc.record({
      match: fc.constantFrom('all' as const, 'any' as const),
      conditions: fc.array(condition, { minLength: 1, maxLength: 4 }),
    });

    await fc.assert(
      fc.asyncProperty(rulesArb, async (rules) => {
        const collection = await e.store.collections.create({ name: 'Prop', type: 'auto', rules });
        try {
          const listed = (await e.store.products.list({ collection_id: collection.id, limit: 100 })).data
            .map((p) => p.id)
            .sort();
          const filter = compileRules(rules as CollectionRules, tree);
          const expected = all
            .filter((p) => matchesRules(filter, { ...p, price: p.price?.amount ?? null }))
            .map((p) => p.id)
            .sort();
          expect(listed).toEqual(expected);
        } finally {
          await e.store.collections.delete(collection.id);
        }
      }),
      { numRuns: 60, seed: 42 },
    );
  });
});

describe('product lists with collection_id', () => {
  test('manual without sort: the collection order, cursor paging; with sort: that sort; ANDed with filters', async () => {
    const e = await engine();
    const made: Awaited<ReturnType<typeof product>>[] = [];
    for (let i = 0; i < 7; i++)
      made.push(await product(e, `P${i}`, { tags: i % 2 === 0 ? ['even'] : [], price: 100 * (7 - i) }));
    const order = [made[3], made[0], made[6], made[1], made[5], made[2]].map((p) => p?.id as string);
    const c = await e.store.collections.create({ name: 'Picked', product_ids: order });

    const walk = async (query: Record<string, unknown>) => {
      const seen: string[] = [];
      let after: string | undefined;
      for (;;) {
        const page = await e.store.products.list({
          collection_id: c.id,
          limit: 2,
          ...query,
          starting_after: after,
        });
        expect(page.total_count).toBe(query.tag ? 3 : 6);
        seen.push(...page.data.map((p) => p.id));
        if (!page.has_more) {
          expect(page.next_cursor).toBeNull();
          break;
        }
        after = page.next_cursor as string;
      }
      return seen;
    };
    expect(await walk({})).toEqual(order);
    const storefront = await e.storefront().products.listStorefront({ collection_id: c.id, limit: 10 });
    expect(storefront.data.map((p) => p.id)).toEqual(order);
    expect(await walk({ tag: 'even' })).toEqual(
      order.filter((id) => made.findIndex((p) => p.id === id) % 2 === 0),
    );
    // An explicit sort wins.
    expect(await walk({ sort: 'created_at' })).toEqual([...order].sort().reverse());
    expect(await walk({ sort: 'price', order: 'asc' })).toEqual([...order].sort().reverse());
    // A cursor that is not a member → 400.
    await expectCode(
      e.store.products.list({ collection_id: c.id, starting_after: made[4]?.id }),
      'parameter_invalid',
      'starting_after',
    );
  });

  test('draft and archived members stay members but are never shown on the storefront', async () => {
    const e = await engine();
    const a = await product(e, 'A');
    const draft = await product(e, 'Draft', { status: 'draft' });
    const b = await product(e, 'B');
    const c = await e.store.collections.create({
      name: 'Mixed',
      slug: 'mixed',
      product_ids: [draft.id, b.id, a.id],
    });
    expect((await e.store.products.list({ collection_id: c.id })).data.map((p) => p.name)).toEqual([
      'Draft',
      'B',
      'A',
    ]);
    const shop = e.storefront();
    expect((await shop.products.listStorefront({ collection_id: c.id })).data.map((p) => p.name)).toEqual([
      'B',
      'A',
    ]);
    const detail = await shop.collections.getStorefront(c.id);
    expect(detail.product_ids).toEqual([b.id, a.id]);
    expect(detail.products.map((p) => p.name)).toEqual(['B', 'A']);
    expect(detail.products[0]).toEqual(await shop.products.getStorefront(b.id));
    expect(await shop.collections.getStorefrontBySlug('mixed')).toEqual(detail);
    await e.store.products.update(draft.id, { status: 'active' });
    expect((await shop.collections.getStorefront(c.id)).products.map((p) => p.name)).toEqual([
      'Draft',
      'B',
      'A',
    ]);
    await e.store.products.update(a.id, { status: 'archived' });
    expect((await shop.collections.getStorefront(c.id)).products.map((p) => p.name)).toEqual(['Draft', 'B']);
    expect((await e.store.collections.get(c.id)).product_ids).toEqual([draft.id, b.id, a.id]);
    await expectCode(shop.collections.getStorefront('col_nope'), 'not_found');
    await expectCode(shop.collections.getStorefrontBySlug('nope'), 'not_found');
  });

  test('an id that names no collection → an empty list', async () => {
    const e = await engine();
    await product(e, 'A');
    expect(await e.store.products.list({ collection_id: 'col_nope' })).toEqual({
      data: [],
      total_count: 0,
      has_more: false,
      next_cursor: null,
    });
    expect((await e.storefront().products.listStorefront({ collection_id: 'col_nope' })).data).toEqual([]);
  });

  test('the storefront detail shows at most 100 products; auto ones newest first', async () => {
    const e = await engine();
    for (let i = 0; i < 103; i++) {
      e.clock.advance(10);
      await e.store.products.create({ name: `P${i}`, status: 'active', tags: ['all'] });
    }
    const c = await e.store.collections.create({
      name: 'All',
      type: 'auto',
      rules: { conditions: [{ type: 'product_tag', operator: 'in', values: ['all'] }] },
    });
    const detail = await e.storefront().collections.getStorefront(c.id);
    expect(detail.products).toHaveLength(100);
    expect(detail.products[0]?.name).toBe('P102');
    expect(detail.product_ids).toBeNull();
  });
});

describe('collection lists', () => {
  test('admin: newest first, filter type, paging; storefront: position asc then newest first', async () => {
    const e = await engine();
    const made = [];
    for (const [name, position, type] of [
      ['A', 2, 'manual'],
      ['B', 0, 'auto'],
      ['C', 1, 'manual'],
      ['D', 0, 'manual'],
      ['E', 1, 'auto'],
    ] as const) {
      e.clock.advance(1000);
      made.push(
        await e.store.collections.create({
          name,
          position,
          type,
          ...(type === 'auto' && { rules: { conditions: [{ type: 'price', operator: 'gte', value: 0 }] } }),
        }),
      );
    }
    const admin = await e.store.collections.list();
    expect(admin.data.map((c) => c.name)).toEqual(['E', 'D', 'C', 'B', 'A']);
    expect(admin.total_count).toBe(5);
    expect((await e.store.collections.list({ type: 'auto' })).data.map((c) => c.name)).toEqual(['E', 'B']);
    const first = await e.store.collections.list({ limit: 2 });
    expect(first).toMatchObject({ has_more: true, total_count: 5 });
    const second = await e.store.collections.list({
      limit: 2,
      starting_after: first.next_cursor as string,
    });
    expect(second.data.map((c) => c.name)).toEqual(['C', 'B']);

    const names: string[] = [];
    let after: string | undefined;
    for (;;) {
      const page = await e.storefront().collections.listStorefront({ limit: 2, starting_after: after });
      names.push(...page.data.map((c) => c.name));
      if (!page.has_more) break;
      after = page.next_cursor as string;
    }
    expect(names).toEqual(['D', 'B', 'E', 'C', 'A']);
  });
});
