import { makeProduct, newScope } from '@cartwright/storage-conformance';
import { type Kysely, Migrator, sql } from 'kysely';
import { describe, expect, it } from 'vitest';
import type { KyselyStorage } from '../kysely-storage';
import { createMigrationProvider } from '../migrations/migration-provider';
import { onEveryEngine } from '../migrations/migration-test-engines';
import type { Database } from '../schema/database';
import { CATALOG_DOCUMENT_VERSION } from './catalog-documents';
import { catalogVersionTriggerNames } from './catalog-versions';
import { REBUILD_BATCH } from './rebuild-documents';

async function triggerNames(storage: KyselyStorage): Promise<string[]> {
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

async function documentRows(storage: KyselyStorage, ids: string[]) {
  return (storage.db as Kysely<Database>)
    .selectFrom('product_documents')
    .select(['product_id', 'format_version'])
    .where('product_id', 'in', ids)
    .orderBy('product_id')
    .execute();
}

function describeMaintenance(name: string, open: () => Promise<KyselyStorage>): void {
  describe(`storefront read model maintenance at migrate() on ${name}`, () => {
    it('documents deleted or of an old format version (and variants without kept names) are rebuilt by migrate(), in batches; the aggregates read back unchanged', async () => {
      const storage = await open();
      try {
        await storage.migrate();
        const scope = newScope();
        const other = { ...scope, mode: 'live' as const };
        // More products than one batch, across two scopes, so the rebuild pages through them.
        const products = Array.from({ length: REBUILD_BATCH + 7 }, (_, i) =>
          makeProduct(i % 2 === 0 ? scope : other, { name: `P${i}`, prices: [100 + i, 200 + i], images: 1 }),
        );
        await storage.transaction(async (tx) => {
          for (const product of products) await tx.products.insert(product);
        });
        const before = await storage.read((r) =>
          Promise.all(products.map((p) => r.products.get({ store_id: p.store_id, mode: p.mode }, p.id))),
        );
        const bought = await storage.read((r) =>
          r.products.getPurchasable(scope, [products[0]?.variants[0]?.id as string]),
        );
        const db = storage.db as Kysely<Database>;
        const ids = products.map((p) => p.id);
        expect(
          (await documentRows(storage, ids)).every((r) => r.format_version === CATALOG_DOCUMENT_VERSION),
        ).toBe(true);

        // Damage: every document deleted, or an old version with junk children; kept names gone.
        const deleted = ids.filter((_, i) => i % 3 !== 0);
        const old = ids.filter((_, i) => i % 3 === 0);
        await db.deleteFrom('product_documents').where('product_id', 'in', deleted).execute();
        await db
          .updateTable('product_documents')
          .set({ format_version: CATALOG_DOCUMENT_VERSION - 1, children: '[null,null,null,null]' as never })
          .where('product_id', 'in', old)
          .execute();
        await db
          .updateTable('product_variants')
          .set({ option_value_names: null as never, image_url: null })
          .where('product_id', 'in', ids)
          .execute();
        expect(await documentRows(storage, deleted)).toEqual([]);

        await storage.migrate();
        const rebuilt = await documentRows(storage, ids);
        expect(rebuilt).toHaveLength(ids.length);
        expect(rebuilt.every((r) => r.format_version === CATALOG_DOCUMENT_VERSION)).toBe(true);
        const after = await storage.read((r) =>
          Promise.all(products.map((p) => r.products.get({ store_id: p.store_id, mode: p.mode }, p.id))),
        );
        expect(after).toEqual(before);
        expect(
          await storage.read((r) =>
            r.products.getPurchasable(scope, [products[0]?.variants[0]?.id as string]),
          ),
        ).toEqual(bought);
        // And the storefront serves them.
        const text = await storage.storefront.listProducts(
          scope,
          { status: 'active' },
          {
            limit: 5,
            sort: 'created_at',
            order: 'asc',
          },
        );
        expect(JSON.parse(text).data).toHaveLength(5);
      } finally {
        await storage.close();
      }
    }, 60_000);

    it('has its catalog-version triggers (0021) once after migrate() twice, none of 0008; down to 0016 restores 0008 and drops them, up hands them back', async () => {
      const storage = await open();
      try {
        await storage.migrate();
        await storage.migrate();
        const mine = catalogVersionTriggerNames(storage.dialect as 'sqlite' | 'postgres').sort();
        expect(await triggerNames(storage)).toEqual(mine);

        const migrator = new Migrator({ db: storage.db, provider: createMigrationProvider(storage.dialect) });
        const down = await migrator.migrateTo('0016_refund_payment_columns');
        expect(down.error).toBeUndefined();
        expect(down.results?.map((r) => r.migrationName)).toContain('0017_storefront_read_model');
        const tables = ['inventory_items', 'product_documents', 'products'];
        const old =
          storage.dialect === 'sqlite'
            ? tables.flatMap((t) => ['delete', 'insert', 'update'].map((e) => `${t}_catalog_version_${e}`))
            : tables.map((t) => `${t}_catalog_version`);
        expect(await triggerNames(storage)).toEqual(old.sort());

        await storage.migrate();
        expect(await triggerNames(storage)).toEqual(mine);
        const scope = newScope();
        await storage.transaction((tx) => tx.products.insert(makeProduct(scope)));
        const version = await (storage.db as Kysely<Database>)
          .selectFrom('catalog_versions')
          .select('version')
          .where('store_id', '=', scope.store_id)
          .executeTakeFirst();
        expect(Number(version?.version)).toBeGreaterThan(0);
      } finally {
        await storage.close();
      }
    });
  });
}

onEveryEngine(describeMaintenance);
