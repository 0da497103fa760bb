import { type Kysely, type Migration, sql } from 'kysely';
import type { SchemaDialect } from './column-types';

/**
 * The catalog-version triggers become part of the schema (issue 34: every schema object in a
 * migration). Frozen once released: never import live code into a migration.
 *
 * Until now `storage.migrate()` installed them after the migrator, from runtime code
 * (storefront-read-model/catalog-versions.ts, since 0017 dropped 0008's). This migration creates
 * the very same objects, with the same names and definitions, so a database whose previous code
 * installed them ends up exactly as a new one: each is dropped if it exists and created again
 * (SQLite has no `create or replace trigger`; Postgres has none for constraint triggers, and its
 * function is `create or replace`d in place, the triggers depending on it).
 *
 * They bump `catalog_versions` (0008) in the transaction of every change a storefront response
 * shows, for the storefront page cache:
 * - `products`: any insert, update or delete;
 * - `product_documents`: insert, delete, and updates of `children` / `variant_ids`;
 * - `inventory_items`: insert, delete, and updates of `on_hand`, `reserved`, `track_inventory`,
 *   `allow_backorder`, `variant_id`, `product_id`.
 *
 * SQLite: row triggers `<table>_catalog_version_v1_<insert|update|delete>`, each one upsert.
 * Postgres: DEFERRED constraint triggers `<table>_catalog_version_v1` calling
 * `cartwright_catalog_version_bump_v1()`, so the version row is locked at COMMIT after every
 * other row the transaction locks, once per transaction (`bumped_xid`). Postgres takes the
 * advisory lock the runtime installer took (`hashtext('cartwright catalog versions')`), so that a
 * process of the previous release installing them at the same moment waits for this migration.
 *
 * MariaDB: none (its storage keeps no storefront page; the triggers would have to bump after
 * every other row lock of the transaction, as Postgres' deferred ones do): nothing to do.
 *
 * `down` drops them (and the function): the schema of 0020, as migrations define it.
 */

/** The watched tables and the columns whose updates bump (null: every update). */
const WATCHED: readonly { table: string; update: string | null }[] = [
  { table: 'products', update: null },
  { table: 'product_documents', update: 'children, variant_ids' },
  {
    table: 'inventory_items',
    update: 'on_hand, reserved, track_inventory, allow_backorder, variant_id, product_id',
  },
];

const FUNCTION = 'cartwright_catalog_version_bump_v1';
const SQLITE_EVENTS = ['insert', 'update', 'delete'] as const;

const updateEvent = (columns: string | null) => (columns ? `update of ${columns}` : 'update');

async function dropTriggers(db: Kysely<unknown>, dialect: SchemaDialect): Promise<void> {
  for (const { table } of WATCHED) {
    if (dialect === 'sqlite') {
      for (const event of SQLITE_EVENTS) {
        await sql.raw(`drop trigger if exists ${table}_catalog_version_v1_${event}`).execute(db);
      }
    } else {
      await sql.raw(`drop trigger if exists ${table}_catalog_version_v1 on ${table}`).execute(db);
    }
  }
}

async function upSqlite(db: Kysely<unknown>): Promise<void> {
  await dropTriggers(db, 'sqlite');
  for (const { table, update } of WATCHED) {
    const events = [
      ['insert', 'insert', 'new'],
      ['update', updateEvent(update), 'new'],
      ['delete', 'delete', 'old'],
    ] as const;
    for (const [suffix, event, row] of events) {
      await sql
        .raw(
          `create trigger ${table}_catalog_version_v1_${suffix} after ${event} on ${table} begin
            insert into catalog_versions (store_id, mode, version) values (${row}.store_id, ${row}.mode, 1)
            on conflict (store_id, mode) do update set version = version + 1;
          end`,
        )
        .execute(db);
    }
  }
}

async function upPostgres(db: Kysely<unknown>): Promise<void> {
  await sql`select pg_advisory_xact_lock(hashtext('cartwright catalog versions'))`.execute(db);
  await sql
    .raw(
      `create or replace function ${FUNCTION}() returns trigger language plpgsql as $$
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
    .execute(db);
  await dropTriggers(db, 'postgres');
  for (const { table, update } of WATCHED) {
    await sql
      .raw(
        `create constraint trigger ${table}_catalog_version_v1
          after insert or ${updateEvent(update)} or delete on ${table}
          deferrable initially deferred for each row execute function ${FUNCTION}()`,
      )
      .execute(db);
  }
}

export function catalogVersionTriggersMigration(dialect: SchemaDialect): Migration {
  return {
    async up(db) {
      if (dialect === 'sqlite') await upSqlite(db);
      else if (dialect === 'postgres') await upPostgres(db);
    },
    async down(db) {
      if (dialect === 'mysql') return;
      await dropTriggers(db, dialect);
      if (dialect === 'postgres') await sql.raw(`drop function if exists ${FUNCTION}()`).execute(db);
    },
  };
}
