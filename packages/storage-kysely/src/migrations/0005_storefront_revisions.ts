import { type Migration, sql } from 'kysely';
import type { SchemaDialect } from './column-types';

/**
 * Storefront revisions: `product_documents.storefront_rev`, an integer that every write
 * of `product_documents.storefront` increments in the same statement (the product repository's
 * `#renderStorefront`), so that a process can keep templates in memory
 * (repositories/storefront-template-cache.ts) and the catalog page statement ships each product's
 * revision — a few bytes — instead of its ~3 KB template; only templates whose revision differs
 * from the cached one are read again.
 *
 * Decision: a per-row counter (`storefront_rev + 1`) rather than a clock or a global sequence:
 * it is monotonic per product under the row lock the render already holds (Postgres: the
 * product's `FOR NO KEY UPDATE`; SQLite: the single writer), so a committed value names exactly
 * one template; it needs no sequence (Citus-friendly) and fits `integer` (2^31 renders of one
 * product). Document rows are never deleted (soft deletes), so a revision is never reused for a
 * product. Existing rows start at 0: caches start empty, so any start value is correct.
 *
 * `product_documents_rev_idx (store_id, mode, product_id, storefront_rev)` lets the page
 * statement read a product's revision from the index alone: a document row (children ~1 KB and
 * template ~3 KB) overflows SQLite's page, and a column added last sits at the end of the
 * overflow chain — reading it from the table cost ~3 µs per product, ~60 µs per page of 20,
 * ~13 µs from the index (measured, 10,000 products). A render then rewrites one more index entry;
 * catalog writes are rare next to catalog reads. Postgres gets the same index (one schema; its
 * index-only scans serve the same lookup).
 *
 * Not done (measured, rejected): a covering index for the stock subquery (`inventory_items
 * (store_id, mode, product_id, variant_id, track_inventory, allow_backorder, on_hand, reserved)`
 * in place of `inventory_items_product_idx`) saved ~30 µs per page statement in a tight loop, but
 * in-process checkout fell from ~920-1,160 to ~120-160 orders/s (engine bench, SQLite memory,
 * two runs each, same minutes). Every reservation rewrites its entry, but that alone does not
 * explain a 5x drop — likely a plan change for inventory lookups (not analysed further).
 *
 * Both engines; no data is rewritten.
 */
export function storefrontRevisionsMigration(_dialect: SchemaDialect): Migration {
  return {
    async up(db) {
      await sql`alter table product_documents add column storefront_rev integer not null default 0`.execute(
        db,
      );
      await sql`create index product_documents_rev_idx on product_documents (store_id, mode, product_id, storefront_rev)`.execute(
        db,
      );
    },
    async down(db) {
      await sql`drop index if exists product_documents_rev_idx`.execute(db);
      await db.schema.alterTable('product_documents').dropColumn('storefront_rev').execute();
    },
  };
}
