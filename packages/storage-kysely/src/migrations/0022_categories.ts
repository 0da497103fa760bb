import { type CreateTableBuilder, type Migration, sql } from 'kysely';
import { columnDataType, type SchemaDialect } from './column-types';

/**
 * Categories (decisions §17). Frozen once released: never import live code into a migration.
 *
 * - `categories`: the tree of a store and mode, scoped primary key `(store_id, mode, id)`,
 *   `parent_id` null for a root (no foreign key: core checks the parent under the tree lock, and a
 *   move is one UPDATE). `categories_slug_unique (store_id, mode, slug)` (409 `duplicate_slug`),
 *   `categories_parent_idx (store_id, mode, parent_id)` (children, the admin `parent_id` filter),
 *   `categories_created_idx (store_id, mode, created_at, id)` (the admin list's keyset order).
 *   Reading the whole tree is one statement over the primary key's scope prefix.
 * - `category_trees`: one row per store and mode, upserted by every writer of the tree and of
 *   product memberships in its transaction: its row lock serialises them (Postgres, MariaDB), so
 *   two concurrent moves are validated one after the other (no cycle can form). `version` counts
 *   those writes. SQLite's writer lock already serialises them; the row is written all the same.
 *   `doc` (nullable): the storefront tree's prepared JSON in base text, which core rebuilds in
 *   every category write's transaction (null until the first one, or when too large to keep).
 * - `product_categories`: a product's memberships, one row per (product, category) with the
 *   product's `position` of it; primary key `(store_id, mode, product_id, category_id)`, and
 *   `product_categories_category_idx (store_id, mode, category_id, product_id)` for the product
 *   lists' `category_id` filter and for removing a deleted category. Written by the product
 *   repository in the transaction that writes `products.category_ids`.
 * - `products.category_ids`: the wire value (JSON array, order kept), `[]` for every product so far.
 */
export function categoriesMigration(dialect: SchemaDialect): Migration {
  const text = columnDataType(dialect, 'text');
  const keyText = (column: string) => columnDataType(dialect, 'text', column);
  const bigint = columnDataType(dialect, 'bigint');
  const int = columnDataType(dialect, 'int');
  const json = columnDataType(dialect, 'json');
  const strict = <T extends CreateTableBuilder<string, string>>(table: T): T =>
    (dialect === 'sqlite' ? table.modifyEnd(sql`strict`) : table) as T;
  return {
    async up(db) {
      await strict(
        (db.schema.createTable('categories') as CreateTableBuilder<string, string>)
          .addColumn('store_id', keyText('store_id'), (col) => col.notNull())
          .addColumn('mode', keyText('mode'), (col) => col.notNull())
          .addColumn('id', keyText('id'), (col) => col.notNull())
          .addColumn('parent_id', keyText('parent_id'))
          .addColumn('name', text, (col) => col.notNull())
          .addColumn('slug', keyText('slug'), (col) => col.notNull())
          .addColumn('description', text)
          .addColumn('position', int, (col) => col.notNull())
          .addColumn('metadata', json, (col) => col.notNull())
          .addColumn('created_at', bigint, (col) => col.notNull())
          .addColumn('updated_at', bigint, (col) => col.notNull())
          .addPrimaryKeyConstraint('categories_pkey', ['store_id', 'mode', 'id']),
      ).execute();
      await sql`create unique index categories_slug_unique on categories (store_id, mode, slug)`.execute(db);
      await sql`create index categories_parent_idx on categories (store_id, mode, parent_id)`.execute(db);
      await sql`create index categories_created_idx on categories (store_id, mode, created_at, id)`.execute(
        db,
      );

      await strict(
        (db.schema.createTable('category_trees') as CreateTableBuilder<string, string>)
          .addColumn('store_id', keyText('store_id'), (col) => col.notNull())
          .addColumn('mode', keyText('mode'), (col) => col.notNull())
          .addColumn('version', bigint, (col) => col.notNull())
          .addColumn('doc', text)
          .addPrimaryKeyConstraint('category_trees_pkey', ['store_id', 'mode']),
      ).execute();

      await strict(
        (db.schema.createTable('product_categories') as CreateTableBuilder<string, string>)
          .addColumn('store_id', keyText('store_id'), (col) => col.notNull())
          .addColumn('mode', keyText('mode'), (col) => col.notNull())
          .addColumn('product_id', keyText('product_id'), (col) => col.notNull())
          .addColumn('category_id', keyText('category_id'), (col) => col.notNull())
          .addColumn('position', int, (col) => col.notNull())
          .addPrimaryKeyConstraint('product_categories_pkey', [
            'store_id',
            'mode',
            'product_id',
            'category_id',
          ]),
      ).execute();
      await sql`create index product_categories_category_idx on product_categories (store_id, mode, category_id, product_id)`.execute(
        db,
      );

      // Every existing product belongs to no category.
      const empty = dialect === 'postgres' ? sql`'[]'::jsonb` : sql`'[]'`;
      await db.schema
        .alterTable('products')
        .addColumn('category_ids', json, (col) => col.notNull().defaultTo(empty))
        .execute();
    },
    async down(db) {
      await db.schema.alterTable('products').dropColumn('category_ids').execute();
      await db.schema.dropTable('product_categories').execute();
      await db.schema.dropTable('category_trees').execute();
      await db.schema.dropTable('categories').execute();
    },
  };
}
