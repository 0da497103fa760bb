import type { Repositories } from '@cartwright/core/storage';
import { describe, expect, it } from 'vitest';
import { makeCustomer, makeProduct, newScope } from '../fixtures';
import type { SuiteContext } from '../suite-context';

/** Migrations and the transaction contract of the Storage port. */
export function transactionsSuite(ctx: SuiteContext): void {
  describe('migrations', () => {
    it('migrates an empty database, and migrating again is a no-op that keeps the data', async () => {
      const create = ctx.options.createEmptyStorage ?? ctx.options.createStorage;
      const storage = await create();
      try {
        await storage.migrate();
        const scope = newScope();
        const customer = makeCustomer(scope);
        await storage.transaction((tx) => tx.customers.insert(customer));
        await storage.migrate();
        expect(await storage.read((r) => r.customers.get(scope, customer.id))).toEqual(customer);
      } finally {
        await storage.close();
      }
    });
  });

  describe('transactions', () => {
    it('commits when the callback resolves and rolls back everything when it throws', async () => {
      const scope = newScope();
      const kept = makeCustomer(scope);
      const lost = makeCustomer(scope);
      const value = await ctx.tx(async (tx) => {
        await tx.customers.insert(kept);
        return 42;
      });
      expect(value).toBe(42);
      await expect(
        ctx.tx(async (tx) => {
          await tx.customers.insert(lost);
          await tx.products.insert(makeProduct(scope));
          throw new Error('boom');
        }),
      ).rejects.toThrow('boom');
      expect(await ctx.read((r) => r.customers.get(scope, kept.id))).not.toBeNull();
      expect(await ctx.read((r) => r.customers.get(scope, lost.id))).toBeNull();
      expect(await ctx.read((r) => r.stores.hasCatalogOrOrders(scope.store_id))).toBe(false);
    });

    it('statements started together run in order; one left unawaited still commits with the transaction', async () => {
      const scope = newScope();
      const first = makeCustomer(scope);
      const second = makeCustomer(scope);
      const late = makeCustomer(scope);
      await ctx.tx(async (tx) => {
        await Promise.all([tx.customers.insert(first), tx.customers.insert(second)]);
        const [a, b] = await Promise.all([
          tx.customers.get(scope, first.id),
          tx.customers.get(scope, second.id),
        ]);
        expect([a?.id, b?.id]).toEqual([first.id, second.id]);
        void tx.customers.insert(late).catch(() => undefined); // left in flight: sent with the commit
      });
      for (const customer of [first, second, late]) {
        expect(await ctx.read((r) => r.customers.get(scope, customer.id))).toEqual(customer);
      }
    });

    it('a statement that failed fails its transaction even when the callback did not await it', async () => {
      const scope = newScope();
      const existing = makeCustomer(scope);
      await ctx.tx((tx) => tx.customers.insert(existing));
      const written = makeCustomer(scope);
      const duplicate = { ...makeCustomer(scope), id: existing.id };
      await expect(
        ctx.tx(async (tx) => {
          await tx.customers.insert(written);
          void tx.customers.insert(duplicate).catch(() => undefined); // fails; nobody awaits it
          return 'done';
        }),
      ).rejects.toThrow();
      expect(await ctx.read((r) => r.customers.get(scope, written.id))).toBeNull();
      // The same failure inside a nested transaction that rolled back leaves the outer one intact.
      const kept = makeCustomer(scope);
      await ctx.tx(async (tx) => {
        await tx.customers.insert(kept);
        await expect(ctx.tx((nested) => nested.customers.insert(duplicate))).rejects.toThrow();
      });
      expect(await ctx.read((r) => r.customers.get(scope, kept.id))).toEqual(kept);
    });

    it('reads inside a transaction see its own writes; other readers see them only after commit', async () => {
      const scope = newScope();
      const customer = makeCustomer(scope);
      await ctx.tx(async (tx) => {
        await tx.customers.insert(customer);
        expect(await tx.customers.get(scope, customer.id)).toEqual(customer);
        expect(await ctx.read((r) => r.customers.get(scope, customer.id))).toEqual(customer); // joins the transaction
      });
      expect(await ctx.read((r) => r.customers.get(scope, customer.id))).toEqual(customer);
    });

    it('a nested transaction joins the outer one: its failure rolls back only its own writes', async () => {
      const scope = newScope();
      const outer = makeCustomer(scope);
      const inner = makeCustomer(scope);
      const innerOk = makeCustomer(scope);
      await ctx.tx(async (tx) => {
        await tx.customers.insert(outer);
        await expect(
          ctx.tx(async (nested) => {
            await nested.customers.insert(inner);
            throw new Error('inner');
          }),
        ).rejects.toThrow('inner');
        await Promise.all([
          ctx.tx((nested) => nested.customers.insert(innerOk)),
          ctx.tx(async (nested) => {
            expect(await nested.customers.get(scope, outer.id)).toEqual(outer);
          }),
        ]);
        expect(await tx.customers.get(scope, inner.id)).toBeNull();
      });
      expect(await ctx.read((r) => r.customers.get(scope, outer.id))).not.toBeNull();
      expect(await ctx.read((r) => r.customers.get(scope, innerOk.id))).not.toBeNull();
      expect(await ctx.read((r) => r.customers.get(scope, inner.id))).toBeNull();
    });

    it('concurrent transactions on one storage all complete (they queue rather than fail)', async () => {
      const scope = newScope();
      const customers = Array.from({ length: 25 }, () => makeCustomer(scope));
      await Promise.all(customers.map((c) => ctx.tx((tx) => tx.customers.insert(c))));
      const page = await ctx.read((r) =>
        r.customers.list(scope, {}, { limit: 1, sort: 'created_at', order: 'desc' }),
      );
      expect(page.total_count).toBe(25);
    });
  });

  // The optional `checked` (a request's deferred check: core's provisional API key).
  describe('checked', () => {
    const checkedOf = () => {
      const storage = ctx.storage();
      if (storage.checked === undefined) throw new Error('this storage offers no `checked`');
      return storage.checked.bind(storage);
    };
    /** A check that reads a customer (a real statement) and counts its runs; `fails` → it rejects. */
    const checkOf = (scope: ReturnType<typeof newScope>, fails: boolean) => {
      const runs = { count: 0 };
      const check = async (repos: Repositories) => {
        runs.count++;
        await repos.customers.get(scope, 'cus_none');
        if (fails) throw new Error('check refused');
      };
      return { runs, check };
    };

    it('a passing check runs once, first; the transactions and reads inside commit and answer as usual', async () => {
      const scope = newScope();
      const a = makeCustomer(scope);
      const b = makeCustomer(scope);
      const { runs, check } = checkOf(scope, false);
      const value = await checkedOf()(check, async () => {
        await ctx.tx((tx) => tx.customers.insert(a));
        await ctx.tx((tx) => tx.customers.insert(b));
        return ctx.read((r) => r.customers.get(scope, a.id));
      });
      expect(value?.id).toBe(a.id);
      expect(runs.count).toBe(1);
      expect(await ctx.read((r) => r.customers.get(scope, b.id))).not.toBeNull();
    });

    it('a failing check: the transaction rolls back and everything rejects with the check’s error, whatever else failed', async () => {
      const scope = newScope();
      const lost = makeCustomer(scope);
      const { runs, check } = checkOf(scope, true);
      await expect(checkedOf()(check, () => ctx.tx((tx) => tx.customers.insert(lost)))).rejects.toThrow(
        'check refused',
      );
      expect(await ctx.read((r) => r.customers.get(scope, lost.id))).toBeNull();
      // The callback's own failure loses to the check's.
      await expect(
        checkedOf()(check, () =>
          ctx.tx(async (tx) => {
            await tx.customers.insert(makeCustomer(scope));
            throw new Error('domain failure');
          }),
        ),
      ).rejects.toThrow('check refused');
      // A read returns nothing either.
      await expect(
        checkedOf()(check, () => ctx.read((r) => r.customers.get(scope, 'cus_none'))),
      ).rejects.toThrow('check refused');
      expect(runs.count).toBe(3);
    });

    it('a callback that touches no storage: the check runs at its end, and its failure wins', async () => {
      const scope = newScope();
      const passing = checkOf(scope, false);
      expect(await checkedOf()(passing.check, async () => 'done')).toBe('done');
      expect(passing.runs.count).toBe(1);
      const failing = checkOf(scope, true);
      await expect(
        checkedOf()(failing.check, async () => {
          throw new Error('bad input');
        }),
      ).rejects.toThrow('check refused');
      expect(failing.runs.count).toBe(1);
    });
  });
}
