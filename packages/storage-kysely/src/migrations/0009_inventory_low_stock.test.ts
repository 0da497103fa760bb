import { Migrator, sql } from 'kysely';
import { describe, expect, it } from 'vitest';
import type { KyselyStorage } from '../kysely-storage';
import { createMigrationProvider } from './migration-provider';
import { indexNames, onEveryEngine } from './migration-test-engines';

/** The plan of the low_stock page and count statements as the repository writes them. */
async function lowStockPlans(storage: KyselyStorage): Promise<string> {
  const where = `store_id = 's' and mode = 'test' and on_hand <= safety_stock + reserved`;
  const statements = [
    `select * from inventory_items where ${where} order by created_at desc, id desc limit 21`,
    `select count(*) from inventory_items where ${where}`,
  ];
  const plans: string[] = [];
  for (const statement of statements) {
    if (storage.dialect === 'sqlite') {
      const rows = await sql<{ detail: string }>`explain query plan ${sql.raw(statement)}`.execute(
        storage.db,
      );
      plans.push(rows.rows.map((row) => row.detail).join('\n'));
    } else {
      // An empty table is read sequentially whatever its indexes: ask for the plan without that
      // option, which shows whether the partial index is usable for the predicate at all.
      await storage.transaction(async () => {
        await sql`set local enable_seqscan = off`.execute(storage.db);
        const rows = await sql<{ 'QUERY PLAN': string }>`explain ${sql.raw(statement)}`.execute(storage.db);
        plans.push(rows.rows.map((row) => row['QUERY PLAN']).join('\n'));
      });
    }
  }
  return plans.join('\n---\n');
}

function describeLowStockIndex(name: string, open: () => Promise<KyselyStorage>): void {
  describe(`0009_inventory_low_stock on ${name}`, () => {
    it('adds inventory_items_low_stock_idx, which the low_stock page and count use; down drops it', async () => {
      const storage = await open();
      try {
        await storage.migrate();
        expect(await indexNames(storage)).toContain('inventory_items_low_stock_idx');
        const plans = await lowStockPlans(storage);
        expect(plans.split('---')).toHaveLength(2);
        for (const plan of plans.split('---')) expect(plan).toContain('inventory_items_low_stock_idx');
        const migrator = new Migrator({ db: storage.db, provider: createMigrationProvider(storage.dialect) });
        const down = await migrator.migrateTo('0008_catalog_versions');
        expect(down.error).toBeUndefined();
        expect(down.results?.map((result) => result.migrationName).at(-1)).toBe('0009_inventory_low_stock');
        expect(await indexNames(storage)).not.toContain('inventory_items_low_stock_idx');
      } finally {
        await storage.close();
      }
    });
  });
}

onEveryEngine(describeLowStockIndex);
