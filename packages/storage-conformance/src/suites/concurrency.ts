import type { DiscountUsageCounters, Storage } from '@cartwright/core/storage';
import { reserveInventory } from '@cartwright/core/storage-rules';
import { describe, expect, it } from 'vitest';
import {
  deliveryFor,
  makeCart,
  makeDiscount,
  makeEvent,
  makeOrder,
  makeProduct,
  makeWebhook,
  newId,
  newScope,
} from '../fixtures';
import type { SuiteContext } from '../suite-context';
import { timeWindow } from './events-webhooks';

/** Runs `count` tasks at once, task i on storage i mod n; returns what each resolved to (errors as values). */
async function inParallel<T>(
  storages: Storage[],
  count: number,
  task: (storage: Storage, i: number) => Promise<T>,
): Promise<Array<T | Error>> {
  return Promise.all(
    Array.from({ length: count }, (_, i) =>
      task(storages[i % storages.length]!, i).catch((error: unknown) =>
        error instanceof Error ? error : new Error(String(error)),
      ),
    ),
  );
}

/**
 * The concurrency promises of the port, proven on every target: several storages (connections)
 * on one database when the target shares one, else parallel transactions on one storage.
 */
export function concurrencySuite(ctx: SuiteContext): void {
  const storages = () =>
    ctx.openStorages(ctx.options.sharedDatabase ? (ctx.options.concurrentStorages ?? 4) : 1);

  describe('concurrency', () => {
    it('50 parallel reservations of a variant with 10 units → exactly 10 succeed', async () => {
      const scope = newScope();
      const product = makeProduct(scope, { on_hand: 10 });
      await ctx.tx((tx) => tx.products.insert(product));
      const variant_id = product.variants[0]!.id;
      const pool = await storages();
      try {
        const results = await inParallel(pool.storages, 50, (storage) =>
          storage.transaction(async (tx) => {
            const result = await reserveInventory(tx, scope, [{ variant_id, quantity: 1 }], 1);
            if (!result.ok) throw new Error('refused');
            return result;
          }),
        );
        const unexpected = results.filter((r) => r instanceof Error && r.message !== 'refused');
        expect(unexpected).toEqual([]);
        expect(results.filter((r) => !(r instanceof Error))).toHaveLength(10);
      } finally {
        await pool.close();
      }
      expect(await ctx.read((r) => r.inventory.get(scope, product.variants[0]!.inventory.id))).toMatchObject({
        on_hand: 10,
        reserved: 10,
      });
    });

    it('40 parallel reservations of two variants, listed in either order → exactly 10, no deadlock', async () => {
      const scope = newScope();
      const product = makeProduct(scope, { prices: [100, 200], on_hand: 10 });
      await ctx.tx((tx) => tx.products.insert(product));
      const [a, b] = product.variants.map((v) => v.id);
      const pool = await storages();
      try {
        const results = await inParallel(pool.storages, 40, (storage, i) =>
          storage.transaction(async (tx) => {
            const pair = i % 2 === 0 ? [a!, b!] : [b!, a!];
            const result = await reserveInventory(
              tx,
              scope,
              pair.map((variant_id) => ({ variant_id, quantity: 1 })),
              1,
            );
            if (!result.ok) throw new Error('refused');
            expect(result.changes.map((change) => change.after.variant_id)).toEqual(pair);
            return result;
          }),
        );
        const unexpected = results.filter((r) => r instanceof Error && r.message !== 'refused');
        expect(unexpected).toEqual([]);
        expect(results.filter((r) => !(r instanceof Error))).toHaveLength(10);
      } finally {
        await pool.close();
      }
      for (const variant of product.variants) {
        expect(await ctx.read((r) => r.inventory.get(scope, variant.inventory.id))).toMatchObject({
          on_hand: 10,
          reserved: 10,
        });
      }
    });

    it('30 parallel reservations planned on rows read without a lock (checkout) → exactly 10, the compare-and-set refusing stale plans', async () => {
      const scope = newScope();
      const product = makeProduct(scope, { prices: [100, 200], on_hand: 10 });
      await ctx.tx((tx) => tx.products.insert(product));
      const [a, b] = product.variants.map((v) => v.id);
      const pool = await storages();
      try {
        const results = await inParallel(pool.storages, 30, (storage, i) =>
          storage.transaction(async (tx) => {
            const pair = i % 2 === 0 ? [a!, b!] : [b!, a!];
            const current = await tx.inventory.get(scope, { variant_ids: pair });
            const result = await reserveInventory(
              tx,
              scope,
              pair.map((variant_id) => ({ variant_id, quantity: 1 })),
              1,
              current,
            );
            if (!result.ok) throw new Error('refused');
            return result;
          }),
        );
        const unexpected = results.filter((r) => r instanceof Error && r.message !== 'refused');
        expect(unexpected).toEqual([]);
        expect(results.filter((r) => !(r instanceof Error))).toHaveLength(10);
      } finally {
        await pool.close();
      }
      for (const variant of product.variants) {
        expect(await ctx.read((r) => r.inventory.get(scope, variant.inventory.id))).toMatchObject({
          on_hand: 10,
          reserved: 10,
        });
      }
    });

    it('a discount with usage_limit 3 under 20 parallel uses → exactly 3 counted and recorded', async () => {
      const scope = newScope();
      const discount = makeDiscount(scope, { usage_limit: 3 });
      await ctx.tx((tx) => tx.discounts.insert(discount));
      const pool = await storages();
      try {
        const results = await inParallel(pool.storages, 20, (storage, i) =>
          storage.transaction((tx) =>
            tx.discounts.recordUsage(scope, {
              id: newId('use'),
              discount_id: discount.id,
              order_id: newId('ord'),
              customer_key: 'same',
              at: i,
            }),
          ),
        );
        expect(results.filter((r) => r instanceof Error)).toEqual([]);
        const counted = results.filter(
          (r): r is DiscountUsageCounters => r !== null && !(r instanceof Error),
        );
        expect(counted.map((r) => r.usage_count).sort()).toEqual([1, 2, 3]);
        expect(results.filter((r) => r === null)).toHaveLength(17);
      } finally {
        await pool.close();
      }
      expect(await ctx.read((r) => r.discounts.get(scope, discount.id))).toMatchObject({ usage_count: 3 });
      expect(await ctx.read((r) => r.discounts.countUsesByCustomer(scope, [discount.id], 'same'))).toEqual({
        [discount.id]: 3,
      });
    });

    it("recordUsage locks the discount until commit: of 10 parallel uses by one key, each reads every use committed before it, so per_customer_limit 1 (core's rule, with the undo) lets exactly 1 through", async () => {
      const scope = newScope();
      const discount = makeDiscount(scope, { per_customer_limit: 1 });
      await ctx.tx((tx) => tx.discounts.insert(discount));
      const pool = await storages();
      const seen: number[] = [];
      try {
        const results = await inParallel(pool.storages, 10, (storage) =>
          storage.transaction(async (tx) => {
            const order_id = newId('ord');
            const counted = await tx.discounts.recordUsage(scope, {
              id: newId('use'),
              discount_id: discount.id,
              order_id,
              customer_key: 'same@example.com',
              at: 1,
            });
            if (!counted) throw new Error('not counted');
            const uses = await tx.discounts.countUsesByCustomer(scope, [discount.id], 'same@example.com');
            const n = uses[discount.id] ?? 0;
            seen.push(n);
            // Core's rule (discount-usage.ts) on what the lock guarantees: over the limit, the use is
            // given back (the guarded decrement) and this transaction commits without it.
            if (n > (counted.per_customer_limit ?? Number.POSITIVE_INFINITY)) {
              expect(await tx.discounts.releaseUsage(scope, { discount_id: discount.id, order_id })).toBe(1);
              return 'refused';
            }
            return 'used';
          }),
        );
        expect(results.filter((r) => r instanceof Error)).toEqual([]);
        expect(results.filter((r) => r === 'used')).toHaveLength(1);
        expect(results.filter((r) => r === 'refused')).toHaveLength(9);
        // Every transaction saw the uses committed before it, and none of those after it.
        expect(seen.sort((a, b) => a - b)).toEqual([1, 2, 2, 2, 2, 2, 2, 2, 2, 2]);
      } finally {
        await pool.close();
      }
      expect(await ctx.read((r) => r.discounts.get(scope, discount.id))).toMatchObject({ usage_count: 1 });
      expect(
        await ctx.read((r) => r.discounts.countUsesByCustomer(scope, [discount.id], 'same@example.com')),
      ).toEqual({
        [discount.id]: 1,
      });
    });

    it('100 parallel order-number allocations → exactly 1001..1100; a rolled-back number is reused', async () => {
      const scope = newScope();
      const pool = await storages();
      try {
        const results = await inParallel(pool.storages, 100, (storage) =>
          storage.transaction((tx) => tx.orders.nextNumber(scope)),
        );
        expect(results.filter((r) => r instanceof Error)).toEqual([]);
        const numbers = (results as number[]).sort((a, b) => a - b);
        expect(numbers).toEqual(Array.from({ length: 100 }, (_, i) => 1001 + i));
        // Rolled-back allocations give their numbers back (gap-free), even when several roll back at once.
        const rolledBack = await inParallel(pool.storages, 6, (storage) =>
          storage.transaction(async (tx) => {
            await tx.orders.nextNumber(scope);
            throw new Error('rollback');
          }),
        );
        expect(rolledBack.every((r) => r instanceof Error && r.message === 'rollback')).toBe(true);
      } finally {
        await pool.close();
      }
      expect(await ctx.tx((tx) => tx.orders.nextNumber(scope))).toBe(1101);
    });

    it('40 parallel numbered order inserts (insertNumbered, where offered) → exactly 1001..1040, each order under its number', async () => {
      const scope = newScope();
      const probe = await ctx.tx(async (tx) => tx.orders.insertNumbered);
      const pool = await storages();
      const orders = Array.from({ length: 40 }, () => makeOrder(scope, -1));
      try {
        const results = await inParallel(pool.storages, 40, (storage, i) =>
          storage.transaction((tx) =>
            probe === undefined
              ? tx.orders.nextNumber(scope).then(async (number) => {
                  await tx.orders.insert({ ...orders[i]!, number });
                  return number;
                })
              : tx.orders.insertNumbered!(orders[i]!, { events: [], placeholder: -1 }),
          ),
        );
        expect(results.filter((r) => r instanceof Error)).toEqual([]);
        expect([...(results as number[])].sort((a, b) => a - b)).toEqual(
          Array.from({ length: 40 }, (_, i) => 1001 + i),
        );
        const stored = await ctx.read((r) =>
          Promise.all(orders.map((order) => r.orders.get(scope, order.id))),
        );
        expect(stored.map((order) => order?.number)).toEqual(results);
      } finally {
        await pool.close();
      }
    });

    for (const workers of [2, 4]) {
      it(`${workers} concurrent workers claiming deliveries never claim the same one`, async () => {
        const scope = newScope();
        const now = timeWindow();
        const webhook = makeWebhook(scope);
        const count = 40;
        await ctx.tx(async (tx) => {
          await tx.webhooks.insert(webhook);
          await tx.events.append(
            Array.from({ length: count }, (_, i) => makeEvent(scope, { created_at: now + i })),
          );
          expect(await tx.events.dispatch(count, now, deliveryFor(now))).toBe(count);
        });
        const pool = await ctx.openStorages(workers);
        try {
          const claimedBy = await Promise.all(
            Array.from({ length: workers }, async (_, w) => {
              const storage = pool.storages[w % pool.storages.length]!;
              const mine: string[] = [];
              for (;;) {
                const batch = await storage.transaction((tx) =>
                  tx.webhooks.claimDue({ now, limit: 3, lease_ms: 60_000, worker_id: `worker-${w}` }),
                );
                if (batch.length === 0) break;
                mine.push(...batch.map((c) => c.delivery.id));
                await new Promise((resolve) => setImmediate(resolve));
              }
              return mine;
            }),
          );
          const all = claimedBy.flat();
          expect(new Set(all).size).toBe(all.length);
          expect(all).toHaveLength(count);
        } finally {
          await pool.close();
        }
      });
    }

    it('two concurrent dispatchers fan each event out exactly once', async () => {
      const scope = newScope();
      const now = timeWindow();
      const webhook = makeWebhook(scope);
      await ctx.tx(async (tx) => {
        await tx.webhooks.insert(webhook);
        await tx.events.append(
          Array.from({ length: 30 }, (_, i) => makeEvent(scope, { created_at: now + i })),
        );
      });
      const pool = await ctx.openStorages(2);
      try {
        await Promise.all(
          pool.storages.map(async (storage) => {
            for (let i = 0; i < 10; i++)
              await storage.transaction((tx) => tx.events.dispatch(2, now, deliveryFor(now)));
          }),
        );
      } finally {
        await pool.close();
      }
      const deliveries = await ctx.read((r) =>
        r.webhooks.listDeliveries(scope, webhook.id, { limit: 100, sort: 'created_at', order: 'asc' }),
      );
      const eventIds = deliveries.data.map((d) => d.event_id);
      expect(new Set(eventIds).size).toBe(eventIds.length);
      expect(eventIds).toHaveLength(30);
    });

    it('idempotency: 20 parallel claims of one key → exactly one wins; 20 parallel take-overs of the record they read → exactly one', async () => {
      const scope = newScope();
      const key = newId('idem');
      const claimOf = (claim_token: string, now: number) => ({
        key,
        caller: 'key_x',
        claim_token,
        operation: 'POST /v1/x',
        request_hash: 'h',
        locked_until: now + 1000,
        created_at: now,
        expires_at: now + 10_000,
      });
      const pool = await storages();
      try {
        const first = await inParallel(pool.storages, 20, (storage, i) =>
          storage.transaction((tx) => tx.idempotency.claim(scope, claimOf(`first_${i}`, 1), null)),
        );
        expect(first.filter((r) => r instanceof Error)).toEqual([]);
        const won = first.flatMap((r, i) => (!(r instanceof Error) && r.claimed ? [`first_${i}`] : []));
        expect(won).toHaveLength(1);
        // Every loser read the winner's record.
        for (const r of first) {
          if (!(r instanceof Error) && !r.claimed) expect(r.current?.claim_token).toBe(won[0]);
        }
        const seen = first.find((r) => !(r instanceof Error) && !r.claimed);
        const stale = seen && !(seen instanceof Error) && !seen.claimed ? seen.current : null;
        expect(stale).not.toBeNull();
        const second = await inParallel(pool.storages, 20, (storage, i) =>
          storage.transaction((tx) => tx.idempotency.claim(scope, claimOf(`next_${i}`, 5000), stale)),
        );
        expect(second.filter((r) => r instanceof Error)).toEqual([]);
        const took = second.flatMap((r, i) => (!(r instanceof Error) && r.claimed ? [`next_${i}`] : []));
        expect(took).toHaveLength(1);
        for (const r of second) {
          if (!(r instanceof Error) && !r.claimed) expect(r.current?.claim_token).toBe(took[0]);
        }
      } finally {
        await pool.close();
      }
    });

    it('a cart checked out by 10 parallel transactions completes exactly once', async () => {
      const scope = newScope();
      const cart = makeCart(scope);
      await ctx.tx((tx) => tx.carts.insert(cart));
      const pool = await storages();
      try {
        const results = await inParallel(pool.storages, 10, (storage) =>
          storage.transaction(async (tx) => {
            const locked = await tx.carts.get(scope, cart.id, { forUpdate: true });
            if (locked?.status !== 'active') return false;
            return tx.carts.transition(scope, cart.id, 'active', 'completed', 5);
          }),
        );
        expect(results.filter((r) => r === true)).toHaveLength(1);
        expect(results.filter((r) => r === false)).toHaveLength(9);
      } finally {
        await pool.close();
      }
    });

    const multi = ctx.options.supportsMultiProcess;
    // Defined only for targets that can run several processes (never a skipped test).
    if (multi) {
      it('3 OS processes × 15 parallel reservations of 25 units → exactly 25 succeed', async () => {
        const scope = newScope();
        const product = makeProduct(scope, { on_hand: 25 });
        await ctx.tx((tx) => tx.products.insert(product));
        const reports = await multi.run(
          { kind: 'reserve', scope, variant_id: product.variants[0]!.id, attempts: 15 },
          3,
        );
        expect(reports).toHaveLength(3);
        const counts = reports.map((r) =>
          r.kind === 'reserve' ? r : { reserved: Number.NaN, refused: Number.NaN },
        );
        expect(counts.reduce((sum, r) => sum + r.reserved, 0)).toBe(25);
        expect(counts.reduce((sum, r) => sum + r.refused, 0)).toBe(45 - 25);
        expect(
          await ctx.read((r) => r.inventory.get(scope, product.variants[0]!.inventory.id)),
        ).toMatchObject({ reserved: 25 });
      }, 120_000);

      it('3 OS processes migrating one empty database at the same moment all succeed and can write', async () => {
        const reports = await multi.run({ kind: 'migrate', scope: newScope() }, 3, { freshDatabase: true });
        expect(reports).toEqual(Array.from({ length: 3 }, () => ({ kind: 'migrate', wrote: true })));
      }, 120_000);
    }
  });
}
