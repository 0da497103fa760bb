import { makeProduct, newScope } from '@cartwright/storage-conformance';
import { type Kysely, Migrator, sql } from 'kysely';
import { describe, expect, it } from 'vitest';
import type { KyselyStorage } from '../kysely-storage';
import type { SchemaDialect } from './column-types';
import { createMigrationProvider } from './migration-provider';
import { onEveryEngine } from './migration-test-engines';
import { readSchema } from './schema-catalog';

/**
 * What the previous release's `storage.migrate()` ran after the migrator
 * (storefront-read-model/catalog-versions.ts `installCatalogVersionTriggers`, as it was), kept
 * here verbatim so that a database it left can be upgraded in a test.
 */
const OLD_WATCHED: readonly { table: string; update: readonly string[] | null }[] = [
  { table: 'products', update: null },
  { table: 'product_documents', update: ['children', 'variant_ids'] },
  {
    table: 'inventory_items',
    update: ['on_hand', 'reserved', 'track_inventory', 'allow_backorder', 'variant_id', 'product_id'],
  },
];
const OLD_FUNCTION = 'cartwright_catalog_version_bump_v1';
const oldUpdateEvent = (columns: readonly string[] | null) =>
  columns ? `update of ${columns.join(', ')}` : 'update';

async function installAsThePreviousRelease(db: Kysely<unknown>, dialect: SchemaDialect): Promise<void> {
  if (dialect === 'sqlite') {
    for (const { table, update } of OLD_WATCHED) {
      const events = [
        ['insert', 'insert', 'new'],
        ['update', oldUpdateEvent(update), 'new'],
        ['delete', 'delete', 'old'],
      ] as const;
      for (const [suffix, event, row] of events) {
        await sql
          .raw(
            `create trigger if not exists ${table}_catalog_version_v1_${suffix} after ${event} on ${table} begin
              insert into catalog_versions (store_id, mode, version) values (${row}.store_id, ${row}.mode, 1)
              on conflict (store_id, mode) do update set version = version + 1;
            end`,
          )
          .execute(db);
      }
    }
    return;
  }
  await db.transaction().execute(async (trx) => {
    await sql`select pg_advisory_xact_lock(hashtext('cartwright catalog versions'))`.execute(trx);
    const { rows: functions } = await sql<{ n: number }>`select count(*)::int as n from pg_proc
      where proname = ${OLD_FUNCTION}`.execute(trx);
    if ((functions[0]?.n ?? 0) === 0) {
      await sql
        .raw(
          `create function ${OLD_FUNCTION}() returns trigger language plpgsql as $$
            declare
              s text;
              m text;
            begin
              if tg_op = 'DELETE' then s := old.store_id; m := old.mode;
              else s := new.store_id; m := new.mode; end if;
              insert into catalog_versions as c (store_id, mode, version, bumped_xid)
                values (s, m, 1, txid_current())
                on conflict (store_id, mode) do update set version = c.version + 1, bumped_xid = excluded.bumped_xid
                where c.bumped_xid <> excluded.bumped_xid;
              return null;
            end $$`,
        )
        .execute(trx);
    }
    for (const { table, update } of OLD_WATCHED) {
      const name = `${table}_catalog_version_v1`;
      const { rows } = await sql<{ n: number }>`select count(*)::int as n from pg_trigger
        where tgname = ${name} and tgrelid = ${table}::regclass`.execute(trx);
      if ((rows[0]?.n ?? 0) > 0) continue;
      await sql
        .raw(
          `create constraint trigger ${name}
            after insert or ${oldUpdateEvent(update)} or delete on ${table}
            deferrable initially deferred for each row execute function ${OLD_FUNCTION}()`,
        )
        .execute(trx);
    }
  });
}

/** The catalog-version triggers and functions of a schema (as schema-catalog.ts reads them). */
function catalogObjects(schema: Record<string, string>): Record<string, string> {
  return Object.fromEntries(
    Object.entries(schema).filter(([key]) => key.startsWith('trigger ') || key.startsWith('function ')),
  );
}

/** {@link catalogObjects} of the three tables the previous release watched (and its function). */
function oldWatchedObjects(schema: Record<string, string>): Record<string, string> {
  return Object.fromEntries(
    Object.entries(catalogObjects(schema)).filter(
      ([key]) =>
        key.startsWith(`function ${OLD_FUNCTION}`) ||
        OLD_WATCHED.some(({ table }) => key.startsWith(`trigger ${table}_catalog_version`)),
    ),
  );
}

async function versionOf(storage: KyselyStorage, scope: { store_id: string; mode: string }): Promise<number> {
  const { rows } = await sql<{ version: number | string }>`select version from catalog_versions
    where store_id = ${scope.store_id} and mode = ${scope.mode}`.execute(storage.db);
  return rows.length === 0 ? 0 : Number(rows[0]?.version);
}

function describeCatalogVersionTriggers(name: string, open: () => Promise<KyselyStorage>): void {
  const dialect = name as SchemaDialect;
  describe(`0021_catalog_version_triggers on ${name}`, () => {
    it('a database of 0020 with the triggers the previous release installed at migrate() migrates cleanly to exactly the schema of a new database; the versions keep moving', async () => {
      const upgraded = await open();
      const fresh = await open();
      try {
        const migrator = new Migrator({ db: upgraded.db, provider: createMigrationProvider(dialect) });
        expect((await migrator.migrateTo('0020_inventory_level_version')).error).toBeUndefined();
        const db = upgraded.db as unknown as Kysely<unknown>;
        expect(catalogObjects(await readSchema(dialect, db))).toEqual({});
        await installAsThePreviousRelease(db, dialect);
        const old = catalogObjects(await readSchema(dialect, db));
        expect(Object.keys(old)).toHaveLength(dialect === 'sqlite' ? 9 : 4);
        await upgraded.migrate();
        await upgraded.migrate();
        await fresh.migrate();
        const schema = await readSchema(dialect, db);
        expect(schema).toEqual(await readSchema(dialect, fresh.db as unknown as Kysely<unknown>));
        // Same objects as the previous release's: one of each, same definitions (later migrations
        // add the triggers of the tables they watch: categories, collections, translations…).
        expect(oldWatchedObjects(schema)).toEqual(old);

        // A product written with today's repository (its columns are today's): the version moved.
        const scope = newScope();
        const product = makeProduct(scope, { prices: [100, 200] });
        await upgraded.transaction((tx) => tx.products.insert(product));
        const before = await versionOf(upgraded, scope);
        expect(before).toBeGreaterThan(0);

        // Each watched table still bumps the version in the change's transaction; the row stays.
        await upgraded.db
          .updateTable('products')
          .set({ name: 'Renamed' })
          .where('store_id', '=', scope.store_id)
          .where('id', '=', product.id)
          .execute();
        const afterUpdate = await versionOf(upgraded, scope);
        expect(afterUpdate).toBe(before + 1);
        await upgraded.db
          .updateTable('inventory_items')
          .set({ on_hand: 7 })
          .where('store_id', '=', scope.store_id)
          .where('id', '=', product.variants[0]?.inventory.id as string)
          .execute();
        expect(await versionOf(upgraded, scope)).toBe(afterUpdate + 1);
        // Postgres: once per transaction, however many rows change.
        await upgraded.db
          .updateTable('inventory_items')
          .set({ reserved: 1 })
          .where('store_id', '=', scope.store_id)
          .execute();
        expect(await versionOf(upgraded, scope)).toBe(
          afterUpdate + 1 + (dialect === 'postgres' ? 1 : product.variants.length),
        );
      } finally {
        await upgraded.close();
        await fresh.close();
      }
    });

    it('down drops the triggers (and the function); up creates them again, the same', async () => {
      const storage = await open();
      try {
        const migrator = new Migrator({ db: storage.db, provider: createMigrationProvider(dialect) });
        expect((await migrator.migrateTo('0021_catalog_version_triggers')).error).toBeUndefined();
        const db = storage.db as unknown as Kysely<unknown>;
        const latest = await readSchema(dialect, db);
        expect(Object.keys(catalogObjects(latest)).sort()).toEqual(
          dialect === 'sqlite'
            ? ['inventory_items', 'product_documents', 'products'].flatMap((table) =>
                ['delete', 'insert', 'update'].map((event) => `trigger ${table}_catalog_version_v1_${event}`),
              )
            : [
                `function ${OLD_FUNCTION}() returns trigger`,
                'trigger inventory_items_catalog_version_v1',
                'trigger product_documents_catalog_version_v1',
                'trigger products_catalog_version_v1',
              ],
        );
        const down = await migrator.migrateDown();
        expect(down.error).toBeUndefined();
        expect(down.results?.map((r) => r.migrationName)).toEqual(['0021_catalog_version_triggers']);
        expect(catalogObjects(await readSchema(dialect, db))).toEqual({});
        // No trigger is left pointing at a dropped function: writes to the watched tables work.
        await sql`update products set name = name`.execute(db);
        await sql`update inventory_items set on_hand = on_hand`.execute(db);

        expect((await migrator.migrateTo('0021_catalog_version_triggers')).error).toBeUndefined();
        expect(await readSchema(dialect, db)).toEqual(latest);
        // Today's repository writes today's columns: migrate on, then the triggers bump the version.
        await storage.migrate();
        const scope = newScope();
        await storage.transaction((tx) => tx.products.insert(makeProduct(scope)));
        expect(await versionOf(storage, scope)).toBeGreaterThan(0);
      } finally {
        await storage.close();
      }
    });
  });
}

onEveryEngine(describeCatalogVersionTriggers);
