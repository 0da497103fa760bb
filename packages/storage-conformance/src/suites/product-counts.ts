import type { Scope } from '@cartwright/core';
import type { ProductListFilter, ProductStatus, Repositories, Storage } from '@cartwright/core/storage';
import { describe, expect, it } from 'vitest';
import { makeProduct, newScope, otherMode } from '../fixtures';
import type { SuiteContext } from '../suite-context';

const STATUSES: ProductStatus[] = ['draft', 'active', 'archived'];

/** A small deterministic generator (tests stay reproducible). */
function random(seed: number): () => number {
  let state = seed >>> 0;
  return () => {
    state = (state * 1_664_525 + 1_013_904_223) >>> 0;
    return state / 2 ** 32;
  };
}

/** The rows of a list, walked page by page (independent of how `total_count` is computed). */
async function walk(repos: Repositories, scope: Scope, filter: ProductListFilter): Promise<number> {
  let rows = 0;
  let after: string | undefined;
  for (;;) {
    const page = await repos.products.list(scope, filter, {
      limit: 7,
      sort: 'created_at',
      order: 'desc',
      starting_after: after,
    });
    rows += page.data.length;
    if (!page.has_more) return rows;
    after = page.next_cursor ?? undefined;
  }
}

/**
 * For every status (or none) and tag (or none): `total_count` equals the rows a walk of the
 * list finds, and the COUNT of the same filter narrowed by a filter every product passes
 * (type physical), which no counter answers.
 */
async function expectExactCounts(storage: Storage, scope: Scope, tags: readonly string[]): Promise<void> {
  await storage.read(async (repos) => {
    for (const status of [undefined, ...STATUSES]) {
      for (const tag of [undefined, ...tags]) {
        const filter: ProductListFilter = {
          ...(status !== undefined && { status }),
          ...(tag !== undefined && { tags: [tag] }),
        };
        const label = `status=${status ?? '*'} tag=${tag ?? '*'}`;
        const rows = await walk(repos, scope, filter);
        const page = await repos.products.list(scope, filter, { limit: 1, sort: 'name', order: 'asc' });
        expect(page.total_count, label).toBe(rows);
        const counted = await repos.products.list(
          scope,
          { ...filter, type: 'physical' },
          { limit: 1, sort: 'created_at', order: 'desc' },
        );
        expect(counted.total_count, label).toBe(rows);
      }
    }
  });
}

/**
 * `total_count` of product lists filtered by at most a status and one tag may come from counters
 * the storage keeps with every product write; whatever the storage does, it must equal the
 * number of matching rows through inserts, status and tag changes, deletes and concurrency.
 */
export function productCountsSuite(ctx: SuiteContext): void {
  describe('product list total_count (status and tag filters)', () => {
    it('follows inserts, status and tag changes, deletes; a repeated tag counts once; other scopes apart', async () => {
      const scope = newScope();
      const tags = ['red', 'blue', 'sale', 'ünï "q" \\,[x]'];
      const insert = (status: ProductStatus, productTags: string[]) =>
        ctx.tx(async (tx) => {
          const product = makeProduct(scope, { status, tags: productTags });
          await tx.products.insert(product);
          return product;
        });
      const a = await insert('active', ['red', 'sale']);
      const b = await insert('active', ['red', 'red']);
      const c = await insert('draft', ['blue', 'ünï "q" \\,[x]']);
      const d = await insert('archived', []);
      await ctx.tx((tx) =>
        tx.products.insert(makeProduct(otherMode(scope), { status: 'active', tags: ['red'] })),
      );
      await expectExactCounts(ctx.storage(), scope, tags);
      const active = () =>
        ctx.read((r) =>
          r.products.list(
            scope,
            { status: 'active', tags: ['red'] },
            { limit: 1, sort: 'name', order: 'asc' },
          ),
        );
      expect((await active()).total_count).toBe(2);

      await ctx.tx((tx) => tx.products.update(scope, a.id, { status: 'archived', updated_at: 2 }));
      await ctx.tx((tx) =>
        tx.products.update(scope, b.id, { tags: ['blue', 'sale', 'blue'], updated_at: 2 }),
      );
      await ctx.tx((tx) =>
        tx.products.update(scope, c.id, { status: 'active', tags: ['red'], updated_at: 2 }),
      );
      await ctx.tx((tx) =>
        tx.products.update(scope, d.id, { status: 'archived', name: 'Same status', updated_at: 2 }),
      );
      await expectExactCounts(ctx.storage(), scope, tags);
      expect((await active()).total_count).toBe(1);

      expect(await ctx.tx((tx) => tx.products.delete(scope, c.id, 3))).toBe(true);
      expect(await ctx.tx((tx) => tx.products.delete(scope, c.id, 4))).toBe(false);
      expect(
        await ctx.tx((tx) => tx.products.update(scope, c.id, { status: 'draft', updated_at: 5 })),
      ).toBeNull();
      await expectExactCounts(ctx.storage(), scope, tags);
      expect((await active()).total_count).toBe(0);

      // A write that fails and rolls back leaves the counts as they were.
      await expect(
        ctx.tx(async (tx) => {
          await tx.products.insert(makeProduct(scope, { status: 'active', tags: ['red'] }));
          await tx.products.update(scope, b.id, { status: 'active', updated_at: 6 });
          throw new Error('rollback');
        }),
      ).rejects.toThrow('rollback');
      await expectExactCounts(ctx.storage(), scope, tags);
    });

    it('stays exact under concurrent inserts, status and tag changes and deletes (several on one product)', async () => {
      const scope = newScope();
      const tags = ['t0', 't1', 't2'];
      const next = random(42);
      const pick = <T>(list: readonly T[]): T => list[Math.floor(next() * list.length)] as T;
      const someTags = () => tags.filter(() => next() < 0.5);
      const ids: string[] = [];
      await ctx.tx(async (tx) => {
        for (let i = 0; i < 12; i++) {
          const product = makeProduct(scope, { status: pick(STATUSES), tags: someTags() });
          await tx.products.insert(product);
          ids.push(product.id);
        }
      });
      const hot = ids[0] as string;
      type Work = (tx: Repositories) => Promise<unknown>;
      const work: Work[] = [];
      for (let i = 0; i < 60; i++) {
        const kind = i % 5;
        const id = i % 3 === 0 ? hot : pick(ids);
        const status = pick(STATUSES);
        const productTags = someTags();
        if (kind === 0) {
          work.push((tx) => tx.products.insert(makeProduct(scope, { status, tags: productTags })));
        } else if (kind === 1 || kind === 2) {
          work.push((tx) => tx.products.update(scope, id, { status, updated_at: 10 + i }));
        } else if (kind === 3) {
          work.push((tx) => tx.products.update(scope, id, { status, tags: productTags, updated_at: 10 + i }));
        } else {
          work.push((tx) => tx.products.delete(scope, i % 10 === 4 ? hot : id, 10 + i));
        }
      }
      const pool = await ctx.openStorages(
        ctx.options.sharedDatabase ? (ctx.options.concurrentStorages ?? 4) : 1,
      );
      try {
        const results = await Promise.allSettled(
          work.map((task, i) => (pool.storages[i % pool.storages.length] as Storage).transaction(task)),
        );
        expect(results.filter((result) => result.status === 'rejected')).toEqual([]);
      } finally {
        await pool.close();
      }
      await expectExactCounts(ctx.storage(), scope, tags);
    });
  });
}
