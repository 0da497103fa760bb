import { type Kysely, sql } from 'kysely';

/**
 * Catalog versions: `catalog_versions (store_id, mode, version, bumped_xid)` (the table of
 * 0008_catalog_versions) counts, per store and mode, the committed changes to anything a
 * storefront response shows. The page cache (page-cache.ts) keeps a response under the version
 * read before it, so the version must move in the transaction of EVERY such change, whoever
 * makes it. Triggers do that — installed here, by the read model, at `storage.migrate()`, not
 * by a migration (0017_storefront_read_model dropped the ones 0008 had created):
 *
 * - `products`: any insert, update or delete (every column shows, or orders, or counts);
 * - `product_documents`: insert, delete, and updates of `children` / `variant_ids` (every write
 *   to options, values, variants or images rewrites them in the same transaction);
 * - `inventory_items`: insert, delete, and updates of the columns a response's stock is made of
 *   (`on_hand`, `reserved`, `track_inventory`, `allow_backorder`, `variant_id`, `product_id`).
 *
 * Decision (measured and argued in README.md): triggers rather than an explicit bump in each
 * repository write. A stock row is written by reservations, releases, shipments, restocks,
 * adjustments and admin edits (several repositories, bulk SQL, other tools): a forgotten path
 * would serve a stale page forever, silently; a trigger cannot be forgotten. The cost is the
 * same statement the explicit bump would run (one upsert per changed row on SQLite, ~1-2 µs in
 * memory; once per transaction at commit on Postgres).
 *
 * SQLite: row triggers, each one upsert (one writer at a time). Postgres: DEFERRED constraint
 * triggers, so the version row is locked at COMMIT, after every other row the transaction locks
 * (an immediate trigger would lock it in the middle of a multi-row UPDATE: two checkouts
 * reserving overlapping variants in opposite row order could deadlock); `bumped_xid` makes a
 * transaction that changes many rows bump once.
 *
 * Installing is idempotent and safe from several processes at once: SQLite `create trigger if
 * not exists` (each statement atomic under the writer lock); Postgres checks the catalog and
 * creates what is missing under a transaction-scoped advisory lock. Names carry a version
 * (`_v1`): a changed definition gets a new name, and the install drops the older names.
 */

/** The tables whose changes move the catalog version, and the columns whose updates do (null: all). */
export const WATCHED: readonly { table: string; update: readonly string[] | null }[] = [
  { table: 'products', update: null },
  { table: 'product_documents', update: ['children', 'variant_ids'] },
  {
    table: 'inventory_items',
    update: ['on_hand', 'reserved', 'track_inventory', 'allow_backorder', 'variant_id', 'product_id'],
  },
];

const VERSION = 'v1';
/** Postgres: the trigger function. */
export const BUMP_FUNCTION = `cartwright_catalog_version_bump_${VERSION}`;
/** Older trigger names this install replaces (none yet besides 0008's, which 0017 dropped). */
const RETIRED: readonly string[] = [];

/** The trigger names this module installs, per dialect. */
export function catalogVersionTriggerNames(dialect: 'sqlite' | 'postgres'): string[] {
  return WATCHED.flatMap(({ table }) =>
    dialect === 'sqlite'
      ? ['insert', 'update', 'delete'].map((event) => `${table}_catalog_version_${VERSION}_${event}`)
      : [`${table}_catalog_version_${VERSION}`],
  );
}

function updateEvent(columns: readonly string[] | null): string {
  return columns ? `update of ${columns.join(', ')}` : 'update';
}

/**
 * Creates the catalog-version triggers when missing (see the module notes). False when the
 * dialect has none written here (MySQL/MariaDB so far): the storage must then not keep pages.
 */
export async function installCatalogVersionTriggers(db: Kysely<unknown>, dialect: string): Promise<boolean> {
  if (dialect !== 'sqlite' && dialect !== 'postgres') return false;
  if (dialect === 'sqlite') {
    for (const name of RETIRED) await sql.raw(`drop trigger if exists ${name}`).execute(db);
    for (const { table, update } of WATCHED) {
      const events = [
        ['insert', 'insert', 'new'],
        ['update', updateEvent(update), 'new'],
        ['delete', 'delete', 'old'],
      ] as const;
      for (const [suffix, event, row] of events) {
        await sql
          .raw(
            `create trigger if not exists ${table}_catalog_version_${VERSION}_${suffix} after ${event} on ${table} begin
              insert into catalog_versions (store_id, mode, version) values (${row}.store_id, ${row}.mode, 1)
              on conflict (store_id, mode) do update set version = version + 1;
            end`,
          )
          .execute(db);
      }
    }
    return true;
  }
  await db.transaction().execute(async (trx) => {
    // One installer at a time across processes (the key: 'cartwright catalog versions').
    await sql`select pg_advisory_xact_lock(hashtext('cartwright catalog versions'))`.execute(trx);
    const { rows: functions } = await sql<{ n: number }>`select count(*)::int as n from pg_proc
      where proname = ${BUMP_FUNCTION}`.execute(trx);
    if ((functions[0]?.n ?? 0) === 0) {
      await sql
        .raw(
          `create function ${BUMP_FUNCTION}() returns trigger language plpgsql as $$
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
    for (const { table, update } of WATCHED) {
      for (const name of RETIRED) await sql.raw(`drop trigger if exists ${name} on ${table}`).execute(trx);
      const name = `${table}_catalog_version_${VERSION}`;
      const { rows } = await sql<{ n: number }>`select count(*)::int as n from pg_trigger
        where tgname = ${name} and tgrelid = ${table}::regclass`.execute(trx);
      if ((rows[0]?.n ?? 0) > 0) continue;
      await sql
        .raw(
          `create constraint trigger ${name}
            after insert or ${updateEvent(update)} or delete on ${table}
            deferrable initially deferred for each row execute function ${BUMP_FUNCTION}()`,
        )
        .execute(trx);
    }
  });
  return true;
}
