/**
 * Catalog versions: `catalog_versions (store_id, mode, version, bumped_xid)` (the table of
 * 0008_catalog_versions) counts, per store and mode, the committed changes to anything a
 * storefront response shows. The page cache (page-cache.ts) keeps a response under the version
 * read before it, so the version must move in the transaction of EVERY such change, whoever
 * makes it. Triggers do that — schema objects, created by migration 0021_catalog_version_triggers
 * (0017_storefront_read_model dropped the ones 0008 had created; until 0021 `storage.migrate()`
 * installed them from here). This module only describes them; nothing here writes schema:
 *
 * - `products`: any insert, update or delete (every column shows, or orders, or counts);
 * - `product_documents`: insert, delete, and updates of `children` / `variant_ids` (every write
 *   to options, values, variants or images rewrites them in the same transaction);
 * - `inventory_items`: insert, delete, and updates of the columns a response's stock is made of
 *   (`on_hand`, `reserved`, `track_inventory`, `allow_backorder`, `variant_id`, `product_id`).
 * - `collections`, `collection_products` (0023_collections): any insert, update or delete (a
 *   manual collection's members filter and order a list).
 * - `store_locales`, `translations` (0025_locales_translations): any insert, update or delete (a
 *   response in a locale shows the translations; the read model keeps the locales under the
 *   version too).
 * - `regions`, `region_prices`, `currency_rates` (0031_region_product_prices): any insert,
 *   update or delete (a response in a region shows its currency, prices and rate; the read model
 *   keeps the regions and rates under the version). Not `region_product_prices`: core writes it
 *   only together with one of these or a product write, which moves the version already.
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
 * Names carry a version (`_v1`): a changed definition is a new migration creating new names and
 * dropping the older ones. MySQL/MariaDB have none: their storage keeps no page.
 */

/** The tables whose changes move the catalog version, and the columns whose updates do (null: all). */
export const WATCHED: readonly { table: string; update: readonly string[] | null }[] = [
  { table: 'products', update: null },
  { table: 'product_documents', update: ['children', 'variant_ids'] },
  {
    table: 'inventory_items',
    update: ['on_hand', 'reserved', 'track_inventory', 'allow_backorder', 'variant_id', 'product_id'],
  },
  // 0023_collections: a list filtered by a manual collection reads its member rows.
  { table: 'collections', update: null },
  { table: 'collection_products', update: null },
  // 0025_locales_translations: a response in a locale shows translations; the locales choose it.
  { table: 'store_locales', update: null },
  { table: 'translations', update: null },
  // 0031_region_product_prices: a response in a region shows its currency, its prices and the
  // rate; the read model keeps the regions and rates under the version. (Its representative
  // prices are written only beside one of these or a product write.)
  { table: 'regions', update: null },
  { table: 'region_prices', update: null },
  { table: 'currency_rates', update: null },
];

const VERSION = 'v1';
/** Postgres: the trigger function (0021). */
export const BUMP_FUNCTION = `cartwright_catalog_version_bump_${VERSION}`;

/** The dialects whose schema has the catalog-version triggers (0021). */
export function hasCatalogVersions(dialect: string): dialect is 'sqlite' | 'postgres' {
  return dialect === 'sqlite' || dialect === 'postgres';
}

/** The catalog-version trigger names (0021, 0023, 0025, 0031), per dialect. */
export function catalogVersionTriggerNames(dialect: 'sqlite' | 'postgres'): string[] {
  return WATCHED.flatMap(({ table }) =>
    dialect === 'sqlite'
      ? ['insert', 'update', 'delete'].map((event) => `${table}_catalog_version_${VERSION}_${event}`)
      : [`${table}_catalog_version_${VERSION}`],
  );
}
