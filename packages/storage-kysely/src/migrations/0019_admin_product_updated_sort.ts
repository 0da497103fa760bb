import { type Migration, sql } from 'kysely';
import type { SchemaDialect } from './column-types';

/**
 * `GET /v1/admin/products?sort=updated_at` (decisions §22) gets its index:
 * `products_updated_idx (store_id, mode, updated_at, id)`, the list's keyset order, as
 * `products_created_idx` serves `created_at`. Frozen once released: never import live code into
 * a migration.
 *
 * Without it every page (and every `starting_after` step) read and sorted all the scope's
 * products: measured on SQLite memory with 100,000 products, the page statement's ordering took
 * ~24 ms per page, against ~0.02 ms with the index. The cost is one more index entry to move
 * when a product's `updated_at` changes (catalog writes only: checkouts and stock movements do
 * not write `products`).
 *
 * A plain index on every engine (MariaDB included); `down` drops it.
 */
export function adminProductUpdatedSortMigration(dialect: SchemaDialect): Migration {
  return {
    async up(db) {
      await sql`create index products_updated_idx on products (store_id, mode, updated_at, id)`.execute(db);
    },
    async down(db) {
      if (dialect === 'mysql') await sql`drop index products_updated_idx on products`.execute(db);
      else await sql`drop index products_updated_idx`.execute(db);
    },
  };
}
