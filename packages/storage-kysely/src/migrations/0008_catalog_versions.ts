import { type Migration, sql } from 'kysely';
import type { SchemaDialect } from './column-types';

/**
 * Catalog versions: `catalog_versions (store_id, mode, version)`, a counter per store
 * and mode that the database itself increments whenever anything a storefront product list
 * shows may have changed, so that a process can keep whole list pages in memory
 * (repositories/storefront-page-cache.ts) and serve one after reading a single integer.
 *
 * What a page shows comes from three tables, and triggers on them — not the repositories — bump
 * the version, so that no code path (admin adjustments, checkout reservations, fulfillments,
 * refunds, cancellations, product and variant writes, bulk SQL) can forget it, in any process:
 * - `products`: any insert, update or delete (columns filtered and sorted on, the page's order
 *   and `total_count`; the live-product counters change in the same transactions);
 * - `product_documents`: insert, delete, and updates of `storefront_rev` (every write of the
 *   storefront template increments it, 0005_storefront_revisions);
 * - `inventory_items`: insert, delete, and updates of the columns the page's stock is made of
 *   (`on_hand`, `reserved`, `track_inventory`, `allow_backorder`, `variant_id`, `product_id`).
 *
 * The version is written in the transaction of the change, so it commits and rolls back with
 * it: a reader that reads the version BEFORE the page can never pair an older version with a
 * newer page it did not see (a change committed between the two reads makes the page newer than
 * its version, which only costs a miss).
 *
 * SQLite: row triggers, each one upsert (one writer at a time, no lock order to care about;
 * ~1-2 µs per changed row in memory — a checkout's reservation of 3 rows bumps 3 times).
 *
 * Postgres: DEFERRED constraint triggers, so that the version row is locked at COMMIT, after
 * every other row the transaction locks. An immediate trigger would lock it in the middle of a
 * multi-row UPDATE: two checkouts reserving overlapping variants in opposite row order would
 * each hold a stock row and the version row the other needs (a deadlock). At commit the version
 * row is the last lock taken; checkouts of one store already serialise there on
 * `order_counters`. The row remembers the transaction id (`bumped_xid`) that last bumped it, so
 * a transaction that changes many rows bumps it once (bulk inserts of many products queue one
 * trigger call per row, each a no-op after the first).
 *
 * One schema on both engines: SQLite has `bumped_xid` too, always 0 (its triggers need no dedupe).
 *
 * Existing stores get their row at the first change; a missing row reads as version 0, and page
 * caches start empty in every process, so any start value is correct.
 */
export function catalogVersionsMigration(dialect: SchemaDialect): Migration {
  return {
    async up(db) {
      if (dialect === 'sqlite') {
        await sql`create table catalog_versions (
          store_id text not null, mode text not null, version integer not null,
          bumped_xid integer not null default 0, primary key (store_id, mode)) without rowid`.execute(db);
        for (const { table, update } of WATCHED) {
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
      if (dialect === 'mysql') {
        // MariaDB starts after 0017, which drops these triggers: the table only.
        await sql`create table catalog_versions (
          store_id varchar(64) collate utf8mb4_bin not null, mode varchar(64) collate utf8mb4_bin not null,
          version bigint not null, bumped_xid bigint not null default 0, primary key (store_id, mode))`.execute(
          db,
        );
        return;
      }
      await sql`create table catalog_versions (
        store_id text not null, mode text not null, version bigint not null, bumped_xid bigint not null,
        primary key (store_id, mode))`.execute(db);
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
      for (const { table, update } of WATCHED) {
        await sql
          .raw(
            `create constraint trigger ${table}_catalog_version
              after insert or ${updateEvent(update)} or delete on ${table}
              deferrable initially deferred for each row execute function cartwright_bump_catalog_version()`,
          )
          .execute(db);
      }
    },
    async down(db) {
      if (dialect === 'sqlite') {
        for (const { table } of WATCHED) {
          for (const suffix of ['insert', 'update', 'delete']) {
            await sql.raw(`drop trigger if exists ${table}_catalog_version_${suffix}`).execute(db);
          }
        }
      } else if (dialect === 'postgres') {
        for (const { table } of WATCHED) {
          await sql.raw(`drop trigger if exists ${table}_catalog_version on ${table}`).execute(db);
        }
        await sql`drop function if exists cartwright_bump_catalog_version()`.execute(db);
      }
      await sql`drop table if exists catalog_versions`.execute(db);
    },
  };
}

/**
 * The tables a storefront product page is read from, and the columns whose updates change it
 * (null: every update).
 */
const WATCHED: readonly { table: string; update: readonly string[] | null }[] = [
  { table: 'products', update: null },
  { table: 'product_documents', update: ['storefront_rev', 'storefront'] },
  {
    table: 'inventory_items',
    update: ['on_hand', 'reserved', 'track_inventory', 'allow_backorder', 'variant_id', 'product_id'],
  },
];

function updateEvent(columns: readonly string[] | null): string {
  return columns ? `update of ${columns.join(', ')}` : 'update';
}
