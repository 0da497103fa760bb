import type { Scope } from '@cartwright/core';
import type { CategoryRecord } from '@cartwright/core/storage';
import { describe, expect, it } from 'vitest';
import { expectCommerceError } from '../expect-error';
import { makeProduct, newScope, otherMode, RICH_METADATA } from '../fixtures';
import type { SuiteContext } from '../suite-context';

let sequence = 0;

function category(scope: Scope, overrides: Partial<CategoryRecord> = {}): CategoryRecord {
  const n = ++sequence;
  return {
    id: `cat_conf${Date.now().toString(36)}${n}`,
    store_id: scope.store_id,
    mode: scope.mode,
    parent_id: null,
    name: `Category ${n}`,
    slug: `category-${n}`,
    description: null,
    position: 0,
    metadata: {},
    created_at: 1_700_000_000_000 + n,
    updated_at: 1_700_000_000_000 + n,
    ...overrides,
  };
}

/**
 * Categories (0022_categories; the rules are core's, categories/tree.ts): records round-trip,
 * the whole tree in one call, slugs unique per scope, the keyset list and its parent filter, the
 * tree lock, deletion's cascade to products' `category_ids` and memberships, and the product
 * lists' `category_ids` filter (any of them) with its `total_count`.
 */
export function categoriesSuite(ctx: SuiteContext): void {
  describe('categories', () => {
    it('round-trips records (nested metadata, null description) by id, by slug and in all(); scopes are apart', async () => {
      const scope = newScope();
      const root = category(scope, { metadata: RICH_METADATA, description: 'Top ✓' });
      const child = category(scope, { parent_id: root.id, position: 3 });
      await ctx.tx(async (tx) => {
        await tx.categories.lockTree(scope);
        await tx.categories.insert(root);
        await tx.categories.insert(child);
      });
      expect(await ctx.read((r) => r.categories.get(scope, root.id))).toEqual(root);
      expect(await ctx.read((r) => r.categories.get(scope, { slug: child.slug }))).toEqual(child);
      const all = await ctx.read((r) => r.categories.all(scope));
      expect([...all].sort((a, b) => a.created_at - b.created_at)).toEqual([root, child]);
      expect(await ctx.read((r) => r.categories.all(otherMode(scope)))).toEqual([]);
      expect(await ctx.read((r) => r.categories.get(otherMode(scope), root.id))).toBeNull();
      expect(
        [...(await ctx.read((r) => r.categories.existing(scope, [child.id, 'cat_none', root.id])))].sort(),
      ).toEqual([root.id, child.id].sort());
    });

    it('the tree document: none until saved; kept per scope with the tree lock; a rolled-back save leaves the last one', async () => {
      const scope = newScope();
      expect(await ctx.read((r) => r.categories.treeDocument(scope))).toBeNull();
      // Large and non-ASCII, as a 2,000-node tree with descriptions is (MariaDB: mediumtext).
      const doc = JSON.stringify({ data: [{ name: 'Ünïcode ✓', description: 'x'.repeat(300_000) }] });
      await ctx.tx(async (tx) => {
        await tx.categories.lockTree(scope);
        await tx.categories.saveTreeDocument(scope, doc);
      });
      expect(await ctx.read((r) => r.categories.treeDocument(scope))).toBe(doc);
      expect(await ctx.read((r) => r.categories.treeDocument(otherMode(scope)))).toBeNull();
      // Taking the lock again (a product's membership write) keeps it.
      await ctx.tx((tx) => tx.categories.lockTree(scope));
      expect(await ctx.read((r) => r.categories.treeDocument(scope))).toBe(doc);
      await expect(
        ctx.tx(async (tx) => {
          await tx.categories.lockTree(scope);
          await tx.categories.saveTreeDocument(scope, '{"data":[]}');
          throw new Error('rolled back');
        }),
      ).rejects.toThrow('rolled back');
      expect(await ctx.read((r) => r.categories.treeDocument(scope))).toBe(doc);
      await ctx.tx(async (tx) => {
        await tx.categories.lockTree(scope);
        await tx.categories.saveTreeDocument(scope, null);
      });
      expect(await ctx.read((r) => r.categories.treeDocument(scope))).toBeNull();
    });

    it('slug unique per scope → duplicate_slug (param slug), on insert and update; another mode may reuse it', async () => {
      const scope = newScope();
      const a = category(scope, { slug: 'shared' });
      const b = category(scope);
      await ctx.tx(async (tx) => {
        await tx.categories.insert(a);
        await tx.categories.insert(b);
      });
      await expectCommerceError(
        ctx.tx((tx) => tx.categories.insert(category(scope, { slug: 'shared' }))),
        'duplicate_slug',
        'slug',
      );
      await expectCommerceError(
        ctx.tx((tx) => tx.categories.update(scope, b.id, { slug: 'shared', updated_at: 5 })),
        'duplicate_slug',
        'slug',
      );
      await ctx.tx((tx) => tx.categories.insert(category(otherMode(scope), { slug: 'shared' })));
    });

    it('update patches columns (parent_id to null included); list: newest first, parent filter, cursors', async () => {
      const scope = newScope();
      const root = category(scope);
      const kids = [1, 2, 3].map(() => category(scope, { parent_id: root.id }));
      await ctx.tx(async (tx) => {
        for (const record of [root, ...kids]) await tx.categories.insert(record);
      });
      const moved = await ctx.tx((tx) =>
        tx.categories.update(scope, kids[0]!.id, {
          parent_id: null,
          name: 'Moved',
          metadata: { a: 1 },
          updated_at: 9,
        }),
      );
      expect(moved).toEqual({
        ...kids[0],
        parent_id: null,
        name: 'Moved',
        metadata: { a: 1 },
        updated_at: 9,
      });
      expect(
        await ctx.tx((tx) => tx.categories.update(otherMode(scope), root.id, { name: 'x', updated_at: 1 })),
      ).toBeNull();
      const first = await ctx.read((r) =>
        r.categories.list(scope, { parent_id: root.id }, { limit: 1, sort: 'created_at', order: 'desc' }),
      );
      expect(first).toMatchObject({ total_count: 2, has_more: true, next_cursor: kids[2]!.id });
      const rest = await ctx.read((r) =>
        r.categories.list(
          scope,
          { parent_id: root.id },
          { limit: 5, sort: 'created_at', order: 'desc', starting_after: first.next_cursor as string },
        ),
      );
      expect(rest.data.map((c) => c.id)).toEqual([kids[1]!.id]);
      const roots = await ctx.read((r) =>
        r.categories.list(scope, { parent_id: null }, { limit: 10, sort: 'created_at', order: 'desc' }),
      );
      expect(roots.data.map((c) => c.id)).toEqual([kids[0]!.id, root.id]);
    });

    it('delete removes the category, its memberships, and its id from products’ category_ids (others kept in order)', async () => {
      const scope = newScope();
      const [a, b, c] = [category(scope), category(scope), category(scope)];
      const p = makeProduct(scope, { category_ids: [a.id, b.id, c.id] });
      const q = makeProduct(scope, { category_ids: [b.id] });
      const other = makeProduct(scope, { category_ids: [c.id] });
      await ctx.tx(async (tx) => {
        for (const record of [a, b, c]) await tx.categories.insert(record);
        for (const product of [p, q, other]) await tx.products.insert(product);
      });
      expect(await ctx.tx((tx) => tx.categories.delete(scope, b.id, 10))).toBe(true);
      expect(await ctx.tx((tx) => tx.categories.delete(scope, b.id, 11))).toBe(false);
      expect((await ctx.read((r) => r.products.get(scope, p.id)))?.category_ids).toEqual([a.id, c.id]);
      expect((await ctx.read((r) => r.products.get(scope, q.id)))?.category_ids).toEqual([]);
      expect((await ctx.read((r) => r.products.get(scope, other.id)))?.category_ids).toEqual([c.id]);
      const inB = await ctx.read((r) =>
        r.products.list(scope, { category_ids: [b.id] }, { limit: 10, sort: 'created_at', order: 'desc' }),
      );
      expect(inB).toMatchObject({ data: [], total_count: 0 });
    });

    it('products: category_ids written and replaced with their memberships; the list filter (any of) with total_count', async () => {
      const scope = newScope();
      const [a, b] = [category(scope), category(scope)];
      const products = [
        makeProduct(scope, { category_ids: [a.id], created_at: 1 }),
        makeProduct(scope, { category_ids: [b.id, a.id], created_at: 2 }),
        makeProduct(scope, { category_ids: [b.id], created_at: 3, status: 'draft' }),
        makeProduct(scope, { created_at: 4 }),
      ];
      await ctx.tx(async (tx) => {
        for (const record of [a, b]) await tx.categories.insert(record);
        for (const product of products) await tx.products.insert(product);
      });
      const ids = async (category_ids: string[], status?: 'active' | 'draft', limit = 10) =>
        ctx.read((r) =>
          r.products.list(
            scope,
            { category_ids, ...(status !== undefined && { status }) },
            { limit, sort: 'created_at', order: 'asc' },
          ),
        );
      expect((await ids([a.id])).data.map((p) => p.id)).toEqual([products[0]!.id, products[1]!.id]);
      expect(await ids([a.id, b.id], undefined, 1)).toMatchObject({ total_count: 3, has_more: true });
      expect(await ids([a.id, b.id], 'active', 1)).toMatchObject({ total_count: 2, has_more: true });
      expect((await ids([b.id], 'draft')).data.map((p) => p.id)).toEqual([products[2]!.id]);
      expect((await ids(['cat_none'])).total_count).toBe(0);

      await ctx.tx((tx) =>
        tx.products.update(scope, products[1]!.id, { category_ids: [b.id], updated_at: 9 }),
      );
      expect((await ctx.read((r) => r.products.get(scope, products[1]!.id)))?.category_ids).toEqual([b.id]);
      expect((await ids([a.id])).data.map((p) => p.id)).toEqual([products[0]!.id]);
      await ctx.tx((tx) => tx.products.delete(scope, products[0]!.id, 20));
      expect((await ids([a.id])).total_count).toBe(0);
    });

    it('lockTree: two transactions of one scope take it one after the other (the second waits for the first to end)', async () => {
      const scope = newScope();
      const { storages, close } = await ctx.openStorages(2);
      try {
        const order: string[] = [];
        let release!: () => void;
        const held = new Promise<void>((resolve) => {
          release = resolve;
        });
        let locked!: () => void;
        const firstLocked = new Promise<void>((resolve) => {
          locked = resolve;
        });
        const first = storages[0]!.transaction(async (tx) => {
          await tx.categories.lockTree(scope);
          order.push('first locked');
          locked();
          await held;
          await tx.categories.insert(category(scope));
          order.push('first done');
        });
        await firstLocked;
        const second = storages[1]!.transaction(async (tx) => {
          await tx.categories.lockTree(scope);
          order.push('second locked');
          return tx.categories.all(scope);
        });
        await new Promise((resolve) => setTimeout(resolve, 100));
        release();
        await first;
        // The second saw the first's insert: it locked after the first committed.
        expect(await second).toHaveLength(1);
        expect(order).toEqual(['first locked', 'first done', 'second locked']);
      } finally {
        await close();
      }
    });
  });
}
