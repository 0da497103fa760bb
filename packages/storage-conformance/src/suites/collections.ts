import type { Scope } from '@cartwright/core';
import type {
  CollectionCondition,
  CollectionRecord,
  CollectionRules,
  PageRequest,
  ProductAggregate,
} from '@cartwright/core/storage';
import { compileRules, matchesRules } from '@cartwright/core/storage-rules';
import { describe, expect, it } from 'vitest';
import { expectCommerceError } from '../expect-error';
import { makeProduct, newId, newScope } from '../fixtures';
import type { SuiteContext } from '../suite-context';

const NEWEST: PageRequest<'created_at'> = { limit: 100, sort: 'created_at', order: 'desc' };

function collection(scope: Scope, overrides: Partial<CollectionRecord> = {}): CollectionRecord {
  const id = newId('col');
  return {
    ...scope,
    id,
    name: `Collection ${id}`,
    slug: id.replace(/_/g, '-').toLowerCase(),
    description: null,
    type: 'manual',
    rules: null,
    position: 0,
    metadata: { nested: { a: [1, 2] } },
    created_at: 1_700_000_000_000,
    updated_at: 1_700_000_000_000,
    ...overrides,
  };
}

/** A small deterministic generator (mulberry32), so that every engine sees the same cases. */
function random(seed: number): () => number {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

/**
 * Collections (0023_collections; the rules are core's, collections/rules.ts): records round-trip,
 * slugs unique per scope, a manual collection's members in order (replaced whole, leaving with a
 * deleted product), the product list's `collection` filter — a manual collection's members (in
 * its order with a position cursor) and an automatic collection's compiled rules, whose SQL must
 * agree with core's reference evaluation (`matchesRules`) over random products and rules.
 */
export function collectionsSuite(ctx: SuiteContext): void {
  describe('collections', () => {
    it('round-trips records by id and by slug (rules JSON, null rules); updates; slugs unique per scope; delete', async () => {
      const scope = newScope();
      const rules: CollectionRules = {
        match: 'any',
        conditions: [
          { type: 'product_tag', operator: 'not_in', values: ['a', 'b ✓'] },
          { type: 'price', operator: 'gte', value: 1999 },
        ],
      };
      const manual = collection(scope);
      const auto = collection(scope, { type: 'auto', rules, created_at: 1_700_000_000_001 });
      await ctx.tx(async (tx) => {
        await tx.collections.insert(manual);
        await tx.collections.insert(auto);
      });
      expect(await ctx.read((r) => r.collections.get(scope, manual.id))).toEqual(manual);
      expect(await ctx.read((r) => r.collections.get(scope, { slug: auto.slug }))).toEqual(auto);
      expect(await ctx.read((r) => r.collections.get({ ...scope, mode: 'live' }, manual.id))).toBeNull();
      await expectCommerceError(
        ctx.tx((tx) => tx.collections.insert(collection(scope, { slug: manual.slug }))),
        'duplicate_slug',
      );
      const list = await ctx.read((r) => r.collections.list(scope, {}, NEWEST));
      expect(list.data.map((c) => c.id)).toEqual([auto.id, manual.id]);
      const autos = await ctx.read((r) => r.collections.list(scope, { type: 'auto' }, NEWEST));
      expect(autos.data.map((c) => c.id)).toEqual([auto.id]);
      const updated = await ctx.tx((tx) =>
        tx.collections.update(scope, auto.id, { type: 'manual', rules: null, position: 4, updated_at: 2 }),
      );
      expect(updated).toEqual({ ...auto, type: 'manual', rules: null, position: 4, updated_at: 2 });
      expect(await ctx.tx((tx) => tx.collections.delete(scope, auto.id))).toBe(true);
      expect(await ctx.tx((tx) => tx.collections.delete(scope, auto.id))).toBe(false);
    });

    it('storefront order: position ascending, then newest first, then id; pages never repeat', async () => {
      const scope = newScope();
      const made = [
        collection(scope, { position: 1, created_at: 10 }),
        collection(scope, { position: 0, created_at: 5 }),
        collection(scope, { position: 1, created_at: 20 }),
        collection(scope, { position: 0, created_at: 30 }),
      ];
      await ctx.tx(async (tx) => {
        for (const c of made) await tx.collections.insert(c);
      });
      const seen: string[] = [];
      let after: string | undefined;
      for (;;) {
        const page = await ctx.read((r) =>
          r.collections.list(scope, {}, { limit: 1, starting_after: after, sort: 'position', order: 'asc' }),
        );
        seen.push(...page.data.map((c) => c.id));
        if (!page.has_more) break;
        after = page.next_cursor as string;
      }
      expect(seen).toEqual([made[3], made[1], made[2], made[0]].map((c) => c?.id));
    });

    it('manual members: replaced whole, in order; active_only; a deleted product leaves; the list in collection order with a position cursor', async () => {
      const scope = newScope();
      const products = Array.from({ length: 6 }, (_, i) =>
        makeProduct(scope, { created_at: 1_700_000_000_000 + i, status: i === 2 ? 'draft' : 'active' }),
      );
      const c = collection(scope);
      const other = collection(scope);
      const order = [4, 2, 0, 5, 1].map((i) => products[i]?.id as string);
      await ctx.tx(async (tx) => {
        for (const p of products) await tx.products.insert(p);
        await tx.collections.insert(c);
        await tx.collections.insert(other);
        await tx.collections.setMembers(scope, c.id, [products[0]?.id as string]);
        await tx.collections.setMembers(scope, c.id, order);
        await tx.collections.setMembers(scope, other.id, [products[1]?.id as string]);
      });
      const members = await ctx.read((r) => r.collections.members(scope, [c.id, other.id, 'col_none']));
      expect(members).toEqual(
        new Map([
          [c.id, order],
          [other.id, [products[1]?.id]],
        ]),
      );
      const active = await ctx.read((r) => r.collections.members(scope, [c.id], { active_only: true }));
      expect(active.get(c.id)).toEqual(order.filter((id) => id !== products[2]?.id));
      expect(await ctx.read((r) => r.collections.existingProducts(scope, [...order, 'prod_none']))).toEqual(
        new Set(order),
      );

      const walk = async (status?: 'active') => {
        const ids: string[] = [];
        let after: string | undefined;
        for (;;) {
          const page = await ctx.read((r) =>
            r.products.list(
              scope,
              { ...(status && { status }), collection: { type: 'manual', id: c.id, in_order: true } },
              { limit: 2, starting_after: after, sort: 'created_at', order: 'desc' },
            ),
          );
          expect(page.total_count).toBe(status ? 4 : 5);
          ids.push(...page.data.map((p) => p.id));
          if (!page.has_more) return ids;
          after = page.next_cursor as string;
        }
      };
      expect(await walk()).toEqual(order);
      expect(await walk('active')).toEqual(order.filter((id) => id !== products[2]?.id));
      // A draft member is a valid cursor of the whole list; a product outside it is not.
      const afterDraft = await ctx.read((r) =>
        r.products.list(
          scope,
          { status: 'active', collection: { type: 'manual', id: c.id, in_order: true } },
          { limit: 10, starting_after: products[2]?.id, sort: 'created_at', order: 'desc' },
        ),
      );
      expect(afterDraft.data.map((p) => p.id)).toEqual(order.slice(2));
      await expectCommerceError(
        ctx.read((r) =>
          r.products.list(
            scope,
            { collection: { type: 'manual', id: c.id, in_order: true } },
            { limit: 10, starting_after: products[3]?.id, sort: 'created_at', order: 'desc' },
          ),
        ),
        'parameter_invalid',
        'starting_after',
      );
      // Not in order: membership only, the page's own sort.
      const newest = await ctx.read((r) =>
        r.products.list(scope, { collection: { type: 'manual', id: c.id, in_order: false } }, NEWEST),
      );
      expect(newest.data.map((p) => p.id)).toEqual([...order].sort().reverse());

      await ctx.tx((tx) => tx.products.delete(scope, products[0]?.id as string, 2));
      expect((await ctx.read((r) => r.collections.members(scope, [c.id]))).get(c.id)).toEqual(
        order.filter((id) => id !== products[0]?.id),
      );
      await ctx.tx((tx) => tx.collections.delete(scope, c.id));
      expect((await ctx.read((r) => r.collections.members(scope, [c.id]))).size).toBe(0);
    });

    it('auto rules: the SQL agrees with the reference evaluation over random products and rules', async () => {
      const scope = newScope();
      const next = random(20_260_417);
      const pick = <T>(list: readonly T[]): T => list[Math.floor(next() * list.length)] as T;
      const subset = <T>(list: readonly T[], min = 0): T[] => {
        const out = list.filter(() => next() < 0.4);
        while (out.length < min) out.push(pick(list));
        return [...new Set(out)];
      };
      const TAGS = ['red', 'blue', 'green', 'x"red'];
      const CATEGORIES = ['cat_root', 'cat_child', 'cat_other'];
      const tree = [
        { id: 'cat_root', parent_id: null },
        { id: 'cat_child', parent_id: 'cat_root' },
        { id: 'cat_other', parent_id: null },
      ];
      const products: ProductAggregate[] = Array.from({ length: 30 }, (_, i) =>
        makeProduct(scope, {
          created_at: 1_700_000_000_000 + i,
          tags: subset(TAGS),
          type: pick(['physical', 'digital', 'service'] as const),
          category_ids: subset(CATEGORIES),
          prices: next() < 0.15 ? [] : [100 * Math.floor(next() * 40)],
        }),
      );
      await ctx.tx(async (tx) => {
        for (const p of products) await tx.products.insert(p);
      });
      const stored = (await ctx.read((r) => r.products.list(scope, {}, NEWEST))).data;
      expect(stored).toHaveLength(30);
      const ids = stored.map((p) => p.id);
      const condition = (): CollectionCondition => {
        const type = pick(['product_tag', 'product_type', 'category', 'product', 'price'] as const);
        if (type === 'price')
          return { type, operator: pick(['gte', 'lte'] as const), value: 100 * Math.floor(next() * 40) };
        const operator = pick(['in', 'not_in'] as const);
        const values =
          type === 'product_tag'
            ? subset([...TAGS, 'red"'], 1)
            : type === 'product_type'
              ? subset(['physical', 'digital', 'bundle'], 1)
              : type === 'category'
                ? subset(CATEGORIES, 1)
                : subset(ids.slice(0, 10), 1);
        return { type, operator, values };
      };
      for (let run = 0; run < 60; run++) {
        const rules: CollectionRules = {
          match: pick(['all', 'any'] as const),
          conditions: Array.from({ length: 1 + Math.floor(next() * 4) }, condition),
        };
        const filter = compileRules(rules, tree);
        const page = await ctx.read((r) =>
          r.products.list(scope, { collection: { type: 'auto', rules: filter } }, NEWEST),
        );
        const expected = stored.filter((p) => matchesRules(filter, p)).map((p) => p.id);
        expect(
          page.data.map((p) => p.id),
          JSON.stringify(rules),
        ).toEqual(expected);
        expect(page.total_count).toBe(expected.length);
        // ANDed with another filter.
        const drafted = await ctx.read((r) =>
          r.products.list(scope, { tags: ['red'], collection: { type: 'auto', rules: filter } }, NEWEST),
        );
        expect(drafted.data.map((p) => p.id)).toEqual(
          stored.filter((p) => matchesRules(filter, p) && p.tags.includes('red')).map((p) => p.id),
        );
      }
    }, 60_000);
  });
}
