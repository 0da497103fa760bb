import { type Kysely, Migrator, sql } from 'kysely';
import { describe, expect, it } from 'vitest';
import type { KyselyStorage } from '../kysely-storage';
import type { Database } from '../schema/database';
import { createMigrationProvider } from './migration-provider';
import { onEveryEngine } from './migration-test-engines';

async function indexNames(storage: KyselyStorage): Promise<string[]> {
  const db = storage.db as Kysely<Database>;
  const rows =
    storage.dialect === 'sqlite'
      ? await sql<{
          name: string;
        }>`select name from sqlite_master where type = 'index' and tbl_name = 'refunds'`.execute(db)
      : await sql<{
          name: string;
        }>`select indexname as name from pg_indexes where tablename = 'refunds'`.execute(db);
  return rows.rows.map((row) => row.name).sort();
}

function describeRefundIndex(name: string, open: () => Promise<KyselyStorage>): void {
  describe(`0007_refund_reconciliation on ${name}`, () => {
    it('adds the partial refunds_pending_idx, which lists in-flight refunds oldest first; down drops it', async () => {
      const storage = await open();
      try {
        await storage.migrate();
        expect(await indexNames(storage)).toContain('refunds_pending_idx');
        if (storage.dialect === 'sqlite') {
          const plan = await sql<{ detail: string }>`explain query plan select * from refunds
            where status = 'pending' and created_at < 5 order by created_at, id limit 10`.execute(
            storage.db as Kysely<Database>,
          );
          expect(plan.rows.map((row) => row.detail).join('\n')).toContain('refunds_pending_idx');
        }
        const migrator = new Migrator({ db: storage.db, provider: createMigrationProvider(storage.dialect) });
        const down = await migrator.migrateTo('0006_storefront_page_indexes');
        expect(down.error).toBeUndefined();
        expect(down.results?.map((result) => result.migrationName)).toContain('0007_refund_reconciliation');
        expect(await indexNames(storage)).not.toContain('refunds_pending_idx');
      } finally {
        await storage.close();
      }
    });
  });
}

onEveryEngine(describeRefundIndex);
