import { CommerceError } from '@cartwright/core';
import { afterEach, describe, expect, test } from 'vitest';
import { createTestEngine, type TestEngine } from './create-test-engine';

/**
 * Categories through the engine (decisions §17): the tree rules, membership of products and the
 * product lists' `category_id`, each refusal changing nothing and emitting nothing.
 */

let t: TestEngine | undefined;
afterEach(async () => {
  await t?.close();
  t = undefined;
});

async function refusal(promise: Promise<unknown>): Promise<{ code: string; param: string | undefined }> {
  const error = await promise.then(
    () => null,
    (e: unknown) => e,
  );
  expect(CommerceError.is(error), String(error)).toBe(true);
  return { code: (error as CommerceError).code, param: (error as CommerceError).param };
}

async function engine(): Promise<TestEngine> {
  t = await createTestEngine();
  return t;
}

describe('categories (decisions §17)', () => {
  test('the tree: nested, ordered by position, name, id; by slug with its subtree; admin list newest first with children: []', async () => {
    const e = await engine();
    const c = e.store.categories;
    const men = await c.create({ name: 'Men', position: 2 });
    const women = await c.create({ name: 'Women', position: 1 });
    const shoes = await c.create({ name: 'Shoes', parent_id: men.id });
    const bags = await c.create({ name: 'Bags', parent_id: men.id });
    const boots = await c.create({ name: 'Boots', parent_id: shoes.id, description: 'Leather' });
    expect(men).toMatchObject({ slug: 'men', parent_id: null, position: 2, children: [], description: null });
    expect(boots.id).toMatch(/^cat_/);

    const tree = await c.listStorefront();
    expect(tree.data.map((n) => n.name)).toEqual(['Women', 'Men']);
    const menNode = tree.data[1];
    expect(menNode?.children.map((n) => n.name)).toEqual(['Bags', 'Shoes']);
    expect(menNode?.children[1]?.children).toEqual([{ ...boots }]);

    const bySlug = await c.getStorefrontBySlug('shoes');
    expect(bySlug).toEqual({ ...shoes, children: [boots] });
    expect(await refusal(c.getStorefrontBySlug('nope'))).toMatchObject({ code: 'not_found' });
    expect(await c.get(men.id)).toEqual(menNode);

    const page = await c.list({ limit: 2 });
    expect(page.data.map((n) => n.id)).toEqual([boots.id, bags.id]);
    expect(page.total_count).toBe(5);
    expect(page.data.every((n) => n.children.length === 0)).toBe(true);
    const next = await c.list({ limit: 10, starting_after: page.next_cursor as string });
    expect(next.data.map((n) => n.id)).toEqual([shoes.id, women.id, men.id]);
    expect((await c.list({ parent_id: 'null' })).data.map((n) => n.id)).toEqual([women.id, men.id]);
    expect((await c.list({ parent_id: men.id })).data.map((n) => n.id)).toEqual([bags.id, shoes.id]);
  });

  test('slugs: derived from the name as for products, unique per store and mode (409 duplicate_slug, param slug)', async () => {
    const e = await engine();
    const c = e.store.categories;
    expect((await c.create({ name: 'Crème Brûlée!' })).slug).toBe('creme-brulee');
    expect(await refusal(c.create({ name: 'Crème brûlée' }))).toEqual({
      code: 'duplicate_slug',
      param: 'slug',
    });
    const other = await c.create({ name: 'Other', slug: 'other' });
    expect(await refusal(c.update(other.id, { slug: 'creme-brulee' }))).toMatchObject({
      code: 'duplicate_slug',
    });
    expect((await c.list({})).total_count).toBe(2);
  });

  test('moves: under itself or a descendant → 422 invalid_parent; unknown parent → 404 param parent_id; null moves to the root', async () => {
    const e = await engine();
    const c = e.store.categories;
    const a = await c.create({ name: 'A' });
    const b = await c.create({ name: 'B', parent_id: a.id });
    const d = await c.create({ name: 'D', parent_id: b.id });
    e.events.clear();
    expect(await refusal(c.update(a.id, { parent_id: a.id }))).toEqual({
      code: 'invalid_parent',
      param: 'parent_id',
    });
    expect(await refusal(c.update(a.id, { parent_id: d.id }))).toMatchObject({ code: 'invalid_parent' });
    expect(await refusal(c.update(a.id, { parent_id: 'cat_missing' }))).toEqual({
      code: 'not_found',
      param: 'parent_id',
    });
    expect(await refusal(c.create({ name: 'X', parent_id: 'cat_missing' }))).toEqual({
      code: 'not_found',
      param: 'parent_id',
    });
    expect(e.events.types()).toEqual([]);
    expect((await c.get(a.id)).children[0]?.children[0]?.id).toBe(d.id);

    const moved = await c.update(b.id, { parent_id: null, position: 3 });
    expect(moved).toMatchObject({ parent_id: null, position: 3, children: [{ id: d.id }] });
    expect((await c.listStorefront()).data.map((n) => n.id)).toEqual([a.id, b.id]);
    expect(e.events.types()).toEqual(['category.updated']);
    expect(e.events.last('category.updated')?.data).toMatchObject({ id: b.id, children: [] });
  });

  test('depth: at most 8 levels, on create and for a moved subtree’s deepest category', async () => {
    const e = await engine();
    const c = e.store.categories;
    const chain = [await c.create({ name: 'L1' })];
    for (let level = 2; level <= 8; level++) {
      chain.push(await c.create({ name: `L${level}`, parent_id: chain[chain.length - 1]?.id as string }));
    }
    expect(await refusal(c.create({ name: 'L9', parent_id: chain[7]?.id as string }))).toEqual({
      code: 'invalid_parent',
      param: 'parent_id',
    });
    const x = await c.create({ name: 'X' });
    await c.create({ name: 'X2', parent_id: x.id });
    // X (2 levels) under L6 → its child at level 8: fine; under L7 → level 9: refused.
    expect(await refusal(c.update(x.id, { parent_id: chain[6]?.id as string }))).toMatchObject({
      code: 'invalid_parent',
    });
    expect((await c.update(x.id, { parent_id: chain[5]?.id as string })).parent_id).toBe(chain[5]?.id);
  });

  test('delete: refused while it has children (409 category_has_children); a leaf goes and emits category.deleted', async () => {
    const e = await engine();
    const c = e.store.categories;
    const a = await c.create({ name: 'A' });
    const b = await c.create({ name: 'B', parent_id: a.id });
    e.events.clear();
    expect(await refusal(c.delete(a.id))).toEqual({ code: 'category_has_children', param: undefined });
    expect(e.events.types()).toEqual([]);
    expect(await c.delete(b.id)).toEqual({ id: b.id, deleted: true });
    expect(await c.delete(a.id)).toEqual({ id: a.id, deleted: true });
    expect(e.events.types()).toEqual(['category.deleted', 'category.deleted']);
    expect(e.events.last('category.deleted')?.data).toMatchObject({ id: a.id, children: [] });
    expect(await refusal(c.delete(a.id))).toMatchObject({ code: 'not_found' });
    expect((await c.listStorefront()).data).toEqual([]);
  });

  test('products carry category_ids (order kept, replaced whole); unknown → 404 category_ids[i]; a deleted category leaves them', async () => {
    const e = await engine();
    const c = e.store.categories;
    const a = await c.create({ name: 'A' });
    const b = await c.create({ name: 'B' });
    const plain = await e.store.products.create({ name: 'Plain' });
    expect(plain.category_ids).toEqual([]);
    const p = await e.store.products.create({ name: 'Tee', status: 'active', category_ids: [b.id, a.id] });
    expect(p.category_ids).toEqual([b.id, a.id]);
    expect((await e.store.products.getStorefront(p.id)).category_ids).toEqual([b.id, a.id]);

    e.events.clear();
    expect(await refusal(e.store.products.update(p.id, { category_ids: [a.id, 'cat_nope'] }))).toEqual({
      code: 'not_found',
      param: 'category_ids[1]',
    });
    expect(await refusal(e.store.products.create({ name: 'Bad', category_ids: ['cat_nope'] }))).toEqual({
      code: 'not_found',
      param: 'category_ids[0]',
    });
    expect(await refusal(e.store.products.update(p.id, { category_ids: [a.id, a.id] }))).toMatchObject({
      code: 'parameter_invalid',
      param: 'category_ids[1]',
    });
    expect(e.events.types()).toEqual([]);
    expect((await e.store.products.get(p.id)).category_ids).toEqual([b.id, a.id]);

    expect((await e.store.products.update(p.id, { category_ids: [a.id] })).category_ids).toEqual([a.id]);
    await e.store.products.update(p.id, { category_ids: [a.id, b.id] });
    await c.delete(a.id);
    expect((await e.store.products.get(p.id)).category_ids).toEqual([b.id]);
    expect((await e.store.products.getStorefront(p.id)).category_ids).toEqual([b.id]);
    expect((await e.store.products.listStorefront({ category_id: a.id })).data).toEqual([]);
  });

  test('category_id on both product lists: the category and its descendants, ANDed with the other filters; unknown → empty', async () => {
    const e = await engine();
    const c = e.store.categories;
    const top = await c.create({ name: 'Top' });
    const mid = await c.create({ name: 'Mid', parent_id: top.id });
    const leaf = await c.create({ name: 'Leaf', parent_id: mid.id });
    const other = await c.create({ name: 'Other' });
    const inTop = await e.store.products.create({ name: 'Alpha', status: 'active', category_ids: [top.id] });
    const inLeaf = await e.store.products.create({
      name: 'Beta',
      status: 'active',
      tags: ['x'],
      category_ids: [other.id, leaf.id],
    });
    const draft = await e.store.products.create({ name: 'Gamma', category_ids: [mid.id] });
    await e.store.products.create({ name: 'Delta', status: 'active', category_ids: [other.id] });
    await e.store.products.create({ name: 'Epsilon', status: 'active' });

    const ids = (page: { data: { id: string }[] }) => page.data.map((p) => p.id);
    expect(ids(await e.store.products.listStorefront({ category_id: top.id }))).toEqual([
      inLeaf.id,
      inTop.id,
    ]);
    expect(ids(await e.store.products.list({ category_id: top.id }))).toEqual([
      draft.id,
      inLeaf.id,
      inTop.id,
    ]);
    expect(ids(await e.store.products.list({ category_id: mid.id, status: 'draft' }))).toEqual([draft.id]);
    expect(ids(await e.store.products.listStorefront({ category_id: top.id, tag: 'x' }))).toEqual([
      inLeaf.id,
    ]);
    expect(ids(await e.store.products.listStorefront({ category_id: leaf.id }))).toEqual([inLeaf.id]);
    const empty = await e.store.products.listStorefront({ category_id: 'cat_unknown' });
    expect(empty).toEqual({ data: [], total_count: 0, has_more: false, next_cursor: null });
    expect(await e.store.products.list({ category_id: 'cat_unknown' })).toEqual(empty);

    // Paging and total_count.
    const first = await e.store.products.list({ category_id: top.id, limit: 2, sort: 'name', order: 'asc' });
    expect(ids(first)).toEqual([inTop.id, inLeaf.id]);
    expect(first).toMatchObject({ total_count: 3, has_more: true });
    const second = await e.store.products.list({
      category_id: top.id,
      limit: 2,
      sort: 'name',
      order: 'asc',
      starting_after: first.next_cursor as string,
    });
    expect(ids(second)).toEqual([draft.id]);
    expect(second).toMatchObject({ total_count: 3, has_more: false, next_cursor: null });

    // A move changes what a category holds at once; a product's deletion removes it.
    await c.update(mid.id, { parent_id: other.id });
    expect(ids(await e.store.products.listStorefront({ category_id: top.id }))).toEqual([inTop.id]);
    await e.store.products.delete(inTop.id);
    expect(ids(await e.store.products.list({ category_id: top.id }))).toEqual([]);
  });

  test('at most 2,000 categories per store and mode (400 parameter_invalid); the other mode has its own tree', async () => {
    const e = await engine();
    const c = e.store.categories;
    for (let i = 0; i < 2000; i++) await c.create({ name: `C${i}` });
    expect(await refusal(c.create({ name: 'One too many' }))).toMatchObject({
      code: 'parameter_invalid',
    });
    const live = e.engine.forStore({ store_id: e.store.scope.store_id, mode: 'live' });
    expect((await live.categories.listStorefront()).data).toEqual([]);
    expect((await live.categories.create({ name: 'C0' })).slug).toBe('c0');
  }, 60_000);
});
