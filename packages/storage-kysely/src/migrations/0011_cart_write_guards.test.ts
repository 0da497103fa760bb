import { Migrator, sql } from 'kysely';
import { describe, expect, it } from 'vitest';
import type { KyselyStorage } from '../kysely-storage';
import { createMigrationProvider } from './migration-provider';
import { indexNames, onEveryEngine } from './migration-test-engines';

/** The plan of the locked cart read's open-attempt look-up, as the cart repository writes it. */
async function openCheckoutPlan(storage: KyselyStorage): Promise<string> {
  const statement = `select (select p.id from payments p where p.store_id = carts.store_id and p.mode = carts.mode
    and p.cart_id = carts.id and p.status = 'pending' and p.order_id is null limit 1)
    from carts where store_id = 's' and mode = 'test' and id = 'cart_1'`;
  if (storage.dialect === 'sqlite') {
    const rows = await sql<{ detail: string }>`explain query plan ${sql.raw(statement)}`.execute(storage.db);
    return rows.rows.map((row) => row.detail).join('\n');
  }
  // Empty tables are read sequentially whatever their indexes: ask for the plan without that
  // option, which shows whether the partial index is usable for the predicate at all.
  return storage.transaction(async () => {
    await sql`set local enable_seqscan = off`.execute(storage.db);
    const rows = await sql<{ 'QUERY PLAN': string }>`explain ${sql.raw(statement)}`.execute(storage.db);
    return rows.rows.map((row) => row['QUERY PLAN']).join('\n');
  });
}

function describeCartWriteGuards(name: string, open: () => Promise<KyselyStorage>): void {
  describe(`0011_cart_write_guards on ${name}`, () => {
    it('adds payments_open_checkout_idx, which the locked cart read uses for the open attempt; down drops it', async () => {
      const storage = await open();
      try {
        await storage.migrate();
        expect(await indexNames(storage)).toContain('payments_open_checkout_idx');
        expect(await openCheckoutPlan(storage)).toContain('payments_open_checkout_idx');
        const migrator = new Migrator({ db: storage.db, provider: createMigrationProvider(storage.dialect) });
        const down = await migrator.migrateTo('0010_idempotency_callers');
        expect(down.error).toBeUndefined();
        expect(down.results?.map((result) => result.migrationName).at(-1)).toBe('0011_cart_write_guards');
        expect(await indexNames(storage)).not.toContain('payments_open_checkout_idx');
      } finally {
        await storage.close();
      }
    });
  });
}

onEveryEngine(describeCartWriteGuards);
