import { type Migration, sql } from 'kysely';
import { columnDataType, type SchemaDialect } from './column-types';

/**
 * The fields the public client `@headless-commerce/sdk` shows on routes we serve (decisions §22,
 * issue 35). Frozen once released: never import live code into a migration.
 *
 * - `product_variants.width`, `height`, `depth` (double, nullable): dimensions, numbers ≥ 0.
 * - `stores.slug` (text, nullable, unique): derived from the store's name by core when a store is
 *   created or first read without one; unique across the database (a store is addressed by it).
 * - `customer_addresses.first_name`, `last_name`, `label`, `receiver_name` (text, nullable): the
 *   SDK's `CartAddress` parts and the address book's own fields (`name` stays, NOT NULL).
 * - `order_lines.option_values` (json, NOT NULL, default `{}`): the variant's option values
 *   (`{ option name: value }`) snapshotted with the line, as names and prices are.
 * - `orders.confirmed_at` (bigint, nullable): when the order became `confirmed` (null before; not
 *   back-filled: earlier orders do not know it).
 *
 * Plain `ADD COLUMN` on every engine (no table rebuild); `down` drops them.
 */
export function clientFieldsMigration(dialect: SchemaDialect): Migration {
  const text = columnDataType(dialect, 'text');
  const double = columnDataType(dialect, 'double');
  const bigint = columnDataType(dialect, 'bigint');
  const json = columnDataType(dialect, 'json');
  const emptyObject = dialect === 'postgres' ? sql`'{}'::jsonb` : sql`'{}'`;
  return {
    async up(db) {
      for (const column of ['width', 'height', 'depth']) {
        await db.schema.alterTable('product_variants').addColumn(column, double).execute();
      }
      await db.schema
        .alterTable('stores')
        .addColumn('slug', columnDataType(dialect, 'text', 'slug'))
        .execute();
      await sql`create unique index stores_slug_unique on stores (slug)`.execute(db);
      for (const column of ['first_name', 'last_name', 'label', 'receiver_name']) {
        await db.schema.alterTable('customer_addresses').addColumn(column, text).execute();
      }
      await db.schema
        .alterTable('order_lines')
        .addColumn('option_values', json, (col) => col.notNull().defaultTo(emptyObject))
        .execute();
      await db.schema.alterTable('orders').addColumn('confirmed_at', bigint).execute();
    },
    async down(db) {
      await db.schema.alterTable('orders').dropColumn('confirmed_at').execute();
      await db.schema.alterTable('order_lines').dropColumn('option_values').execute();
      for (const column of ['receiver_name', 'label', 'last_name', 'first_name']) {
        await db.schema.alterTable('customer_addresses').dropColumn(column).execute();
      }
      if (dialect === 'mysql') await sql`drop index stores_slug_unique on stores`.execute(db);
      else await sql`drop index stores_slug_unique`.execute(db);
      await db.schema.alterTable('stores').dropColumn('slug').execute();
      for (const column of ['depth', 'height', 'width']) {
        await db.schema.alterTable('product_variants').dropColumn(column).execute();
      }
    },
  };
}
