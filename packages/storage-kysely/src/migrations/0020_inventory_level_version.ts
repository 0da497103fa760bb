import type { Migration } from 'kysely';
import { columnDataType, type SchemaDialect } from './column-types';

/**
 * `inventory_items.version` (bigint, NOT NULL, default 0): the version of the row's stock level
 * (decisions §22, issue 35: the public client's `InventoryLevel.version`). A stored counter, not a
 * time: the storage's compare-and-set of the levels (`InventoryRepository.apply`) adds 1 to it in
 * the statement that writes `on_hand` / `reserved`, so it increases by one with every stock
 * change, on every engine and under any concurrency. Settings (`track_inventory`, `safety_stock` …)
 * do not move it. Existing rows start at 0. Frozen once released: never import live code into a
 * migration.
 *
 * Plain `ADD COLUMN` with a constant default on every engine (no table rebuild, no back-fill
 * statement); `down` drops it.
 */
export function inventoryLevelVersionMigration(dialect: SchemaDialect): Migration {
  const bigint = columnDataType(dialect, 'bigint');
  return {
    async up(db) {
      await db.schema
        .alterTable('inventory_items')
        .addColumn('version', bigint, (col) => col.notNull().defaultTo(0))
        .execute();
    },
    async down(db) {
      await db.schema.alterTable('inventory_items').dropColumn('version').execute();
    },
  };
}
