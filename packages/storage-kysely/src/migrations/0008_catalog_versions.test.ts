import { makeProduct, newScope } from '@cartwright/storage-conformance';
import { type Kysely, Migrator, sql } from 'kysely';
import { describe, expect, it } from 'vitest';
import type { KyselyStorage } from '../kysely-storage';
import type { Database } from '../schema/database';
import { createMigrationProvider } from './migration-provider';
import { onEveryEngine } from './migration-test-engines';

async function catalogTriggers(storage: KyselyStorage): Promise<string[]> {
  const db = storage.db as Kysely<Database>;
  const rows =
    storage.dialect === 'sqlite'
      ? await sql<{ name: string }>`select name from sqlite_master where type = 'trigger'`.execute(db)
      : await sql<{ name: string }>`select tgname as name from pg_trigger where not tgisinternal`.execute(db);
  return rows.rows
    .map((row) => row.name)
    .filter((name) => name.includes('catalog_version'))
    .sort();
}

function describeCatalogVersions(name: string, open: () => Promise<KyselyStorage>): void {
  describe(`0008_catalog_versions on ${name}`, () => {
    it('adds catalog_versions and the triggers of products, product_documents and inventory_items; 0017 hands them to the read model; down drops them and writes still work', async () => {
      const storage = await open();
      try {
        const migrator = new Migrator({ db: storage.db, provider: createMigrationProvider(storage.dialect) });
        const to8 = await migrator.migrateTo('0008_catalog_versions');
        expect(to8.error).toBeUndefined();
        const tables = ['inventory_items', 'product_documents', 'products'];
        const named = (suffix: string) =>
          (storage.dialect === 'sqlite'
            ? tables.flatMap((t) =>
                ['delete', 'insert', 'update'].map((e) => `${t}_catalog_version${suffix}_${e}`),
              )
            : tables.map((t) => `${t}_catalog_version${suffix}`)
          ).sort();
        expect(await catalogTriggers(storage)).toEqual(named(''));

        // Today: 0017 dropped 0008's triggers; the read model installed its own at migrate().
        await storage.migrate();
        // (later migrations watch tables of their own: categories, collections, translations…)
        const ofThese = (await catalogTriggers(storage)).filter((trigger) =>
          tables.some((table) => trigger.startsWith(`${table}_catalog_version`)),
        );
        expect(ofThese).toEqual(named('_v1'));
        const scope = newScope();
        await storage.transaction((tx) => tx.products.insert(makeProduct(scope)));
        const rows = await (storage.db as Kysely<Database>)
          .selectFrom('catalog_versions')
          .selectAll()
          .where('store_id', '=', scope.store_id)
          .execute();
        expect(rows).toHaveLength(1);
        expect(Number(rows[0]?.version)).toBeGreaterThan(0);

        const down = await migrator.migrateTo('0007_refund_reconciliation');
        expect(down.error).toBeUndefined();
        expect(down.results?.map((result) => result.migrationName)).toContain('0008_catalog_versions');
        expect(await catalogTriggers(storage)).toEqual([]);
        // No trigger is left pointing at the dropped table: writes to every watched table work.
        const db = storage.db as Kysely<Database>;
        await sql`update products set name = name`.execute(db);
        await sql`update inventory_items set on_hand = on_hand`.execute(db);
        await sql`update product_documents set children = children`.execute(db);
      } finally {
        await storage.close();
      }
    });
  });
}

onEveryEngine(describeCatalogVersions);
