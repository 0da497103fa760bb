import type { Scope } from '@cartwright/core';
import type { Page } from '@cartwright/core/storage';
import { describe, expect, it } from 'vitest';
import { expectCommerceError } from '../expect-error';
import {
  makeCustomer,
  makeDiscount,
  makeOrder,
  makeProduct,
  makeShippingMethod,
  newScope,
  otherMode,
} from '../fixtures';
import type { SuiteContext } from '../suite-context';

type Order = 'asc' | 'desc';

/** Walks every page of a list; checks the envelope of each page; returns the ids in order. */
async function walk<T extends { id: string }>(
  fetch: (starting_after: string | undefined) => Promise<Page<T>>,
  expectedTotal: number,
): Promise<string[]> {
  const ids: string[] = [];
  let cursor: string | undefined;
  for (let guard = 0; guard < 1000; guard++) {
    const page = await fetch(cursor);
    expect(page.total_count).toBe(expectedTotal);
    ids.push(...page.data.map((row) => row.id));
    if (!page.has_more) {
      expect(page.next_cursor).toBeNull();
      return ids;
    }
    expect(page.data.length).toBeGreaterThan(0);
    expect(page.next_cursor).toBe(page.data[page.data.length - 1]!.id);
    cursor = page.next_cursor!;
  }
  throw new Error('pagination did not end');
}

const byCodePoint = (a: string, b: string) => (a < b ? -1 : a > b ? 1 : 0);

/** The order a keyset list must produce: keys then id, all in the requested direction. */
function expectedOrder<T extends { id: string }>(
  rows: T[],
  keys: Array<(row: T) => number | string>,
  order: Order,
): string[] {
  const sign = order === 'asc' ? 1 : -1;
  return [...rows]
    .sort((a, b) => {
      for (const key of keys) {
        const x = key(a);
        const y = key(b);
        const c = typeof x === 'number' && typeof y === 'number' ? x - y : byCodePoint(String(x), String(y));
        if (c !== 0) return sign * c;
      }
      return sign * byCodePoint(a.id, b.id);
    })
    .map((row) => row.id);
}

/** Keyset pagination over every offered sort, with ties, in both orders. */
export function paginationSuite(ctx: SuiteContext): void {
  describe('pagination', () => {
    it('products: every sort (created_at, name, price with nulls last, updated_at) walks in both orders with ties, any page size', async () => {
      const scope = newScope();
      const names = [
        'beta',
        'Alpha',
        'alpha',
        'Gamma',
        'beta',
        'delta',
        'Alpha',
        'epsilon',
        'zeta',
        'eta',
        'Theta',
      ];
      const products = names.map((name, i) =>
        makeProduct(scope, {
          name,
          created_at: 1000 + (i % 3), // three created_at ties
          prices: i % 4 === 0 ? [100] : i % 4 === 1 ? [100, 50] : i % 4 === 2 ? [700] : [10],
          inactive: i % 5 === 0 ? [0, 1] : [], // no active variant → no price
        }),
      );
      // Four updated_at ties, in another order than created_at's.
      products.forEach((product, i) => {
        product.updated_at = 5000 - (i % 4);
      });
      await ctx.tx(async (tx) => {
        for (const product of products) await tx.products.insert(product);
      });
      const stored = await ctx.read(async (r) => {
        const read = [];
        for (const product of products) {
          const found = await r.products.get(scope, product.id);
          if (found) read.push(found);
        }
        return read;
      });
      expect(stored).toHaveLength(products.length);
      const MAX = Number.MAX_SAFE_INTEGER;
      const sorts = {
        created_at: {
          asc: [(p: (typeof stored)[number]) => p.created_at],
          desc: [(p: (typeof stored)[number]) => p.created_at],
        },
        name: {
          asc: [(p: (typeof stored)[number]) => p.name.toLowerCase()],
          desc: [(p: (typeof stored)[number]) => p.name.toLowerCase()],
        },
        price: {
          asc: [(p: (typeof stored)[number]) => p.price ?? MAX],
          desc: [(p: (typeof stored)[number]) => p.price ?? -1],
        },
        updated_at: {
          asc: [(p: (typeof stored)[number]) => p.updated_at],
          desc: [(p: (typeof stored)[number]) => p.updated_at],
        },
      } as const;
      expect(stored.some((p) => p.price === null)).toBe(true);
      for (const sort of ['created_at', 'name', 'price', 'updated_at'] as const) {
        for (const order of ['asc', 'desc'] as const) {
          const expected = expectedOrder(stored, [...sorts[sort][order]], order);
          for (const limit of [1, 3, 4, 11, 100]) {
            const ids = await walk(
              (starting_after) =>
                ctx.read((r) => r.products.list(scope, {}, { limit, starting_after, sort, order })),
              stored.length,
            );
            expect(ids, `${sort} ${order} limit ${limit}`).toEqual(expected);
          }
        }
      }
      // Unpriced products come last in both directions.
      for (const order of ['asc', 'desc'] as const) {
        const page = await ctx.read((r) => r.products.list(scope, {}, { limit: 100, sort: 'price', order }));
        const prices = page.data.map((p) => p.price);
        expect(prices.slice(prices.indexOf(null))).toEqual(prices.filter((p) => p === null));
      }
    });

    it('orders: created_at, number and total walk in both orders with ties; filters keep total_count', async () => {
      const scope = newScope();
      const orders = Array.from({ length: 9 }, (_, i) =>
        makeOrder(scope, 1001 + i, {
          created_at: 500 + (i % 2),
          total: [300, 100, 300, 200][i % 4]!,
          status: i % 3 ? 'pending' : 'draft',
        }),
      );
      await ctx.tx(async (tx) => {
        for (const order of orders) await tx.orders.insert(order);
      });
      const keys = {
        created_at: (o: (typeof orders)[number]) => o.created_at,
        number: (o: (typeof orders)[number]) => o.number,
        total: (o: (typeof orders)[number]) => o.total,
      };
      for (const sort of ['created_at', 'number', 'total'] as const) {
        for (const order of ['asc', 'desc'] as const) {
          for (const limit of [2, 9]) {
            const ids = await walk(
              (starting_after) =>
                ctx.read((r) => r.orders.list(scope, {}, { limit, starting_after, sort, order })),
              orders.length,
            );
            expect(ids, `${sort} ${order}`).toEqual(expectedOrder(orders, [keys[sort]], order));
          }
        }
      }
      const visible = orders.filter((o) => o.status !== 'draft');
      const ids = await walk(
        (starting_after) =>
          ctx.read((r) =>
            r.orders.list(
              scope,
              { exclude_drafts: true },
              { limit: 2, starting_after, sort: 'total', order: 'desc' },
            ),
          ),
        visible.length,
      );
      expect(ids).toEqual(expectedOrder(visible, [keys.total], 'desc'));
    });

    it('customers, discounts, inventory and shipping methods walk with created_at / position ties', async () => {
      const scope = newScope();
      const customers = Array.from({ length: 7 }, (_, i) =>
        makeCustomer(scope, { created_at: 10 + (i % 2) }),
      );
      const discounts = Array.from({ length: 5 }, () => makeDiscount(scope, { created_at: 10 }));
      const methods = Array.from({ length: 6 }, (_, i) =>
        makeShippingMethod(scope, { position: i % 2, created_at: 10 + (i % 3) }),
      );
      const products = Array.from({ length: 2 }, () => makeProduct(scope, { prices: [1, 2, 3] }));
      await ctx.tx(async (tx) => {
        for (const c of customers) await tx.customers.insert(c);
        for (const d of discounts) await tx.discounts.insert(d);
        for (const m of methods) await tx.shippingMethods.insert(m);
        for (const p of products) await tx.products.insert(p);
      });
      const inventory = products.flatMap((p) => p.variants.map((v) => v.inventory));
      for (const order of ['asc', 'desc'] as const) {
        const page = { limit: 2, sort: 'created_at' as const, order };
        expect(
          await walk(
            (starting_after) => ctx.read((r) => r.customers.list(scope, {}, { ...page, starting_after })),
            7,
          ),
        ).toEqual(expectedOrder(customers, [(c) => c.created_at], order));
        expect(
          await walk(
            (starting_after) => ctx.read((r) => r.discounts.list(scope, {}, { ...page, starting_after })),
            5,
          ),
        ).toEqual(expectedOrder(discounts, [(d) => d.created_at], order));
        expect(
          await walk(
            (starting_after) => ctx.read((r) => r.inventory.list(scope, {}, { ...page, starting_after })),
            6,
          ),
        ).toEqual(expectedOrder(inventory, [(i) => i.created_at], order));
        expect(
          await walk(
            (starting_after) =>
              ctx.read((r) =>
                r.shippingMethods.list(scope, {}, { limit: 4, sort: 'position', order, starting_after }),
              ),
            6,
          ),
        ).toEqual(expectedOrder(methods, [(m) => m.position, (m) => m.created_at], order));
      }
    });

    it('the last page has has_more false and next_cursor null, also when it is exactly full; empty lists too', async () => {
      const scope = newScope();
      const customers = Array.from({ length: 6 }, (_, i) => makeCustomer(scope, { created_at: i }));
      await ctx.tx(async (tx) => {
        for (const c of customers) await tx.customers.insert(c);
      });
      const first = await ctx.read((r) =>
        r.customers.list(scope, {}, { limit: 3, sort: 'created_at', order: 'asc' }),
      );
      expect(first).toMatchObject({ total_count: 6, has_more: true, next_cursor: customers[2]!.id });
      const last = await ctx.read((r) =>
        r.customers.list(
          scope,
          {},
          { limit: 3, sort: 'created_at', order: 'asc', starting_after: first.next_cursor! },
        ),
      );
      expect(last.data.map((c) => c.id)).toEqual(customers.slice(3).map((c) => c.id));
      expect(last).toMatchObject({ total_count: 6, has_more: false, next_cursor: null });
      const past = await ctx.read((r) =>
        r.customers.list(
          scope,
          {},
          { limit: 3, sort: 'created_at', order: 'asc', starting_after: customers[5]!.id },
        ),
      );
      expect(past).toEqual({ data: [], total_count: 6, has_more: false, next_cursor: null });
      const empty = await ctx.read((r) =>
        r.customers.list(newScope(), {}, { limit: 3, sort: 'created_at', order: 'asc' }),
      );
      expect(empty).toEqual({ data: [], total_count: 0, has_more: false, next_cursor: null });
    });

    it('an unknown starting_after, or one of another scope or mode → parameter_invalid (starting_after)', async () => {
      const scope = newScope();
      const product = makeProduct(scope);
      await ctx.tx((tx) => tx.products.insert(product));
      const list = (s: Scope, starting_after: string) =>
        ctx.read((r) => r.products.list(s, {}, { limit: 5, sort: 'name', order: 'asc', starting_after }));
      await expectCommerceError(list(scope, 'prod_missing'), 'parameter_invalid', 'starting_after');
      await expectCommerceError(list(otherMode(scope), product.id), 'parameter_invalid', 'starting_after');
      await expectCommerceError(list(newScope(), product.id), 'parameter_invalid', 'starting_after');
      await expectCommerceError(
        ctx.read((r) =>
          r.orders.list(scope, {}, { limit: 5, sort: 'number', order: 'asc', starting_after: 'ord_x' }),
        ),
        'parameter_invalid',
        'starting_after',
      );
      expect((await list(scope, product.id)).data).toEqual([]);
    });

    it('walks never repeat or skip rows while rows are inserted concurrently (before and after the cursor)', async () => {
      const scope = newScope();
      const originals = Array.from({ length: 20 }, (_, i) =>
        makeCustomer(scope, { created_at: 1000 + Math.floor(i / 2) * 10 }),
      );
      await ctx.tx(async (tx) => {
        for (const c of originals) await tx.customers.insert(c);
      });
      for (const order of ['desc', 'asc'] as const) {
        const seen: string[] = [];
        const lateAfterCursor: string[] = [];
        let cursor: string | undefined;
        let step = 0;
        let stop = false;
        // A writer that keeps inserting rows anywhere in the order while the walk runs.
        const writer = (async () => {
          let i = 0;
          while (!stop) {
            await ctx.tx((tx) =>
              tx.customers.insert(makeCustomer(scope, { created_at: 995 + ((i * 7) % 110) })),
            );
            i++;
            await new Promise((resolve) => setTimeout(resolve, 1));
          }
        })();
        try {
          for (;;) {
            const page = await ctx.read((r) =>
              r.customers.list(scope, {}, { limit: 3, sort: 'created_at', order, starting_after: cursor }),
            );
            seen.push(...page.data.map((c) => c.id));
            if (!page.has_more) break;
            cursor = page.next_cursor!;
            // Interleaved inserts: one that sorts right after the cursor, one that sorts before it.
            const last = page.data[page.data.length - 1]!;
            const after = makeCustomer(scope, { created_at: last.created_at + (order === 'asc' ? 1 : -1) });
            const before = makeCustomer(scope, { created_at: last.created_at + (order === 'asc' ? -1 : 1) });
            await ctx.tx(async (tx) => {
              await tx.customers.insert(after);
              await tx.customers.insert(before);
            });
            lateAfterCursor.push(after.id);
            if (++step > 500) throw new Error('walk did not end');
          }
        } finally {
          stop = true;
          await writer;
        }
        expect(new Set(seen).size).toBe(seen.length);
        const seenSet = new Set(seen);
        for (const original of originals) expect(seenSet.has(original.id)).toBe(true);
        for (const id of lateAfterCursor) expect(seenSet.has(id)).toBe(true);
        const total = (
          await ctx.read((r) => r.customers.list(scope, {}, { limit: 1, sort: 'created_at', order }))
        ).total_count;
        expect(total).toBeGreaterThan(originals.length);
      }
    });
  });
}
