import { type Migration, sql } from 'kysely';
import type { SchemaDialect } from './column-types';

/**
 * The admin inventory filter `low_stock=true` (docs/contract.md#list-filters: available ≤ safety_stock) gets its
 * own index: `inventory_items_low_stock_idx`, partial on exactly the filter's predicate, in the
 * list's keyset order `(store_id, mode, created_at, id)`. The predicate is written
 * `on_hand <= safety_stock + reserved` (the same rows as `on_hand - reserved <= safety_stock`:
 * integers, far from overflow) because SQLite (3.53) matches a query term to a partial index's
 * WHERE only when the term's left side is a column: with `on_hand - reserved` on the left it never
 * uses the index, even when told to (`indexed by` → "no query solution"). Before it, the filter walked every inventory row of the store through
 * `inventory_items_created_idx` to find the few low ones — page and `total_count` alike (15.7 ms
 * per page at 30,000 items with none low, growing with the catalog). Now both read only the
 * low rows.
 *
 * Partial, so the rows above their safety stock — nearly all of them — are not in it: a
 * reservation, shipment or adjustment that keeps a row above (or below) the threshold only
 * evaluates the predicate; crossing it adds or removes one entry. Both engines accept the
 * row-level predicate and use the index when the query repeats it word for word
 * (inventory-repository.ts `list`, `LOW_STOCK`).
 */
export function inventoryLowStockMigration(_dialect: SchemaDialect): Migration {
  return {
    async up(db) {
      await sql`create index inventory_items_low_stock_idx on inventory_items (store_id, mode, created_at, id)
        where on_hand <= safety_stock + reserved`.execute(db);
    },
    async down(db) {
      await sql`drop index if exists inventory_items_low_stock_idx`.execute(db);
    },
  };
}
