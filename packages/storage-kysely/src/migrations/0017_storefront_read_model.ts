import { type Kysely, type Migration, sql } from 'kysely';
import type { SchemaDialect } from './column-types';

/**
 * The storefront read model leaves the migrations (storefront-read-model/README.md). Frozen
 * once released: never import live code into a migration.
 *
 * - Drops the catalog-version triggers of 0008 (SQLite `<table>_catalog_version_<event>`,
 *   Postgres `<table>_catalog_version` and `cartwright_bump_catalog_version()`): the read model
 *   installs its own, documented with it, at `storage.migrate()` after the migrator. The table
 *   `catalog_versions` stays.
 * - Drops the rendered storefront templates: `product_documents.storefront` (0003) and
 *   `storefront_rev` with its index `product_documents_rev_idx` (0005). Responses are rendered
 *   from the aggregates with core's wire function and kept whole in process instead.
 * - SQLite: drops `inventory_items_stock_idx` (0006), which only the template-filling stock
 *   statement read; every stock movement wrote it.
 * - Adds `product_documents.format_version` (integer, default 0): the format of the row's
 *   catalog document. `storage.migrate()` rebuilds every live product's document whose version
 *   differs from the one the code writes (0 never matches: the first migrate after this one
 *   rebuilds them all) — derived data is the application's to rebuild, not a migration's.
 *
 * `down` restores the 0016 schema: the columns (templates empty: the old code renders a product
 * without one from its aggregate), the indexes, and 0008's triggers; it drops the read model's
 * own triggers (their names as of this migration), which reference the table 0008's down drops.
 */

/** 0008's watched tables and update columns, as 0008 created them. */
const OLD_WATCHED: readonly { table: string; update: string | null }[] = [
  { table: 'products', update: null },
  { table: 'product_documents', update: 'storefront_rev, storefront' },
  {
    table: 'inventory_items',
    update: 'on_hand, reserved, track_inventory, allow_backorder, variant_id, product_id',
  },
];

/** The read model's trigger and function names when this migration was written. */
const READ_MODEL_TABLES = ['products', 'product_documents', 'inventory_items'];
const READ_MODEL_FUNCTION = 'cartwright_catalog_version_bump_v1';

const updateEvent = (columns: string | null) => (columns ? `update of ${columns}` : 'update');

async function dropOldTriggers(db: Kysely<unknown>, dialect: SchemaDialect): Promise<void> {
  if (dialect === 'sqlite') {
    for (const { table } of OLD_WATCHED) {
      for (const suffix of ['insert', 'update', 'delete']) {
        await sql.raw(`drop trigger if exists ${table}_catalog_version_${suffix}`).execute(db);
      }
    }
  } else if (dialect === 'postgres') {
    for (const { table } of OLD_WATCHED) {
      await sql.raw(`drop trigger if exists ${table}_catalog_version on ${table}`).execute(db);
    }
    await sql`drop function if exists cartwright_bump_catalog_version()`.execute(db);
  }
}

async function createOldTriggers(db: Kysely<unknown>, dialect: SchemaDialect): Promise<void> {
  if (dialect === 'sqlite') {
    for (const { table, update } of OLD_WATCHED) {
      const events = [
        ['insert', 'insert', 'new'],
        ['update', updateEvent(update), 'new'],
        ['delete', 'delete', 'old'],
      ] as const;
      for (const [suffix, event, row] of events) {
        await sql
          .raw(
            `create trigger ${table}_catalog_version_${suffix} after ${event} on ${table} begin
              insert into catalog_versions (store_id, mode, version) values (${row}.store_id, ${row}.mode, 1)
              on conflict (store_id, mode) do update set version = version + 1;
            end`,
          )
          .execute(db);
      }
    }
    return;
  }
  if (dialect !== 'postgres') return;
  await sql`create function cartwright_bump_catalog_version() returns trigger language plpgsql as $$
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
    end $$`.execute(db);
  for (const { table, update } of OLD_WATCHED) {
    await sql
      .raw(
        `create constraint trigger ${table}_catalog_version
          after insert or ${updateEvent(update)} or delete on ${table}
          deferrable initially deferred for each row execute function cartwright_bump_catalog_version()`,
      )
      .execute(db);
  }
}

async function dropReadModelTriggers(db: Kysely<unknown>, dialect: SchemaDialect): Promise<void> {
  for (const table of READ_MODEL_TABLES) {
    if (dialect === 'sqlite') {
      for (const suffix of ['insert', 'update', 'delete']) {
        await sql.raw(`drop trigger if exists ${table}_catalog_version_v1_${suffix}`).execute(db);
      }
    } else if (dialect === 'postgres') {
      await sql.raw(`drop trigger if exists ${table}_catalog_version_v1 on ${table}`).execute(db);
    }
  }
  if (dialect === 'postgres') await sql.raw(`drop function if exists ${READ_MODEL_FUNCTION}()`).execute(db);
}

async function dropIndex(db: Kysely<unknown>, dialect: SchemaDialect, name: string, table: string) {
  await sql
    .raw(dialect === 'mysql' ? `drop index ${name} on ${table}` : `drop index if exists ${name}`)
    .execute(db);
}

export function storefrontReadModelMigration(dialect: SchemaDialect): Migration {
  return {
    async up(db) {
      await dropOldTriggers(db, dialect);
      await dropIndex(db, dialect, 'product_documents_rev_idx', 'product_documents');
      await db.schema.alterTable('product_documents').dropColumn('storefront_rev').execute();
      await db.schema.alterTable('product_documents').dropColumn('storefront').execute();
      if (dialect === 'sqlite') await dropIndex(db, dialect, 'inventory_items_stock_idx', 'inventory_items');
      await sql`alter table product_documents add column format_version integer not null default 0`.execute(
        db,
      );
    },
    async down(db) {
      await dropReadModelTriggers(db, dialect);
      await db.schema.alterTable('product_documents').dropColumn('format_version').execute();
      if (dialect === 'sqlite') {
        await sql`create index inventory_items_stock_idx
          on inventory_items (store_id, mode, product_id, variant_id, track_inventory, allow_backorder, on_hand, reserved)
          where product_id is not null`.execute(db);
      }
      await db.schema.alterTable('product_documents').addColumn('storefront', 'text').execute();
      await sql`alter table product_documents add column storefront_rev integer not null default 0`.execute(
        db,
      );
      await sql`create index product_documents_rev_idx on product_documents (store_id, mode, product_id, storefront_rev)`.execute(
        db,
      );
      await createOldTriggers(db, dialect);
    },
  };
}
