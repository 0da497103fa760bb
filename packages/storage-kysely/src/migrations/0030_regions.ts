import { type CreateTableBuilder, type Migration, sql } from 'kysely';
import { columnDataType, type SchemaDialect } from './column-types';

/**
 * Regions and multi-currency (decisions §19). Frozen once released: never import live code into a
 * migration.
 *
 * - `regions`: a store's markets, scoped primary key `(store_id, mode, id)`;
 *   `regions_code_unique (store_id, mode, code)` (409 `duplicate_code`). `tax_rate` is a
 *   percentage typed as `stores.tax_rate` (double). At most 200 per scope, read whole over the
 *   primary key's scope prefix.
 * - `region_prices`: a variant's own price in a region (minor units of the region's currency),
 *   scoped primary key; `region_prices_variant_unique (store_id, mode, region_id, variant_id)`
 *   (the upsert's key; also a region's prices of given variants, and "has prices" of a region);
 *   `region_prices_region_idx (store_id, mode, region_id, id)` (the admin list, keyset-paged by
 *   id); `region_prices_product_idx (store_id, mode, product_id)` (a product's prices in every
 *   region); `region_prices_region_id_fkey` to its region (deleting a region deletes its prices
 *   first).
 * - `currency_rates`: 1 `from_currency` = `rate` `to_currency`; `rate` is exact decimal text
 *   (never a float column; MariaDB varchar(40): at most 12 significant digits, no exponent);
 *   `currency_rates_pair_unique (store_id, mode, from_currency, to_currency)` (the upsert's key
 *   and the list's order).
 * - `carts.region_id`, `orders.region_id` (nullable): the cart's region, the order's snapshot;
 *   `orders_region_idx (store_id, mode, region_id, created_at, id)`: the admin order list's
 *   `region_id` filter in its `created_at` order (as `orders_status_idx`), and whether a region
 *   has orders.
 *
 * `down` drops the index, the columns and the tables.
 */
export function regionsMigration(dialect: SchemaDialect): Migration {
  const text = columnDataType(dialect, 'text');
  const keyText = (column: string) => columnDataType(dialect, 'text', column);
  const rateText = dialect === 'mysql' ? sql`varchar(40) character set utf8mb4 collate utf8mb4_bin` : text;
  const bigint = columnDataType(dialect, 'bigint');
  const double = columnDataType(dialect, 'double');
  const bool = columnDataType(dialect, 'bool');
  const json = columnDataType(dialect, 'json');
  const strict = <T extends CreateTableBuilder<string, string>>(table: T): T =>
    (dialect === 'sqlite' ? table.modifyEnd(sql`strict`) : table) as T;
  return {
    async up(db) {
      await strict(
        (db.schema.createTable('regions') as CreateTableBuilder<string, string>)
          .addColumn('store_id', keyText('store_id'), (col) => col.notNull())
          .addColumn('mode', keyText('mode'), (col) => col.notNull())
          .addColumn('id', keyText('id'), (col) => col.notNull())
          .addColumn('name', text, (col) => col.notNull())
          .addColumn('code', keyText('code'), (col) => col.notNull())
          .addColumn('currency', text, (col) => col.notNull())
          .addColumn('tax_rate', double, (col) => col.notNull())
          .addColumn('prices_include_tax', bool, (col) => col.notNull())
          .addColumn('is_default', bool, (col) => col.notNull())
          .addColumn('is_active', bool, (col) => col.notNull())
          .addColumn('metadata', json, (col) => col.notNull())
          .addColumn('created_at', bigint, (col) => col.notNull())
          .addColumn('updated_at', bigint, (col) => col.notNull())
          .addPrimaryKeyConstraint('regions_pkey', ['store_id', 'mode', 'id']),
      ).execute();
      await sql`create unique index regions_code_unique on regions (store_id, mode, code)`.execute(db);

      await strict(
        (db.schema.createTable('region_prices') as CreateTableBuilder<string, string>)
          .addColumn('store_id', keyText('store_id'), (col) => col.notNull())
          .addColumn('mode', keyText('mode'), (col) => col.notNull())
          .addColumn('id', keyText('id'), (col) => col.notNull())
          .addColumn('region_id', keyText('region_id'), (col) => col.notNull())
          .addColumn('variant_id', keyText('variant_id'), (col) => col.notNull())
          .addColumn('product_id', keyText('product_id'), (col) => col.notNull())
          .addColumn('price', bigint, (col) => col.notNull())
          .addColumn('compare_at_price', bigint)
          .addColumn('created_at', bigint, (col) => col.notNull())
          .addColumn('updated_at', bigint, (col) => col.notNull())
          .addPrimaryKeyConstraint('region_prices_pkey', ['store_id', 'mode', 'id'])
          .addForeignKeyConstraint(
            'region_prices_region_id_fkey',
            ['store_id', 'mode', 'region_id'],
            'regions',
            ['store_id', 'mode', 'id'],
          ),
      ).execute();
      await sql`create unique index region_prices_variant_unique on region_prices (store_id, mode, region_id, variant_id)`.execute(
        db,
      );
      await sql`create index region_prices_region_idx on region_prices (store_id, mode, region_id, id)`.execute(
        db,
      );
      await sql`create index region_prices_product_idx on region_prices (store_id, mode, product_id)`.execute(
        db,
      );

      await strict(
        (db.schema.createTable('currency_rates') as CreateTableBuilder<string, string>)
          .addColumn('store_id', keyText('store_id'), (col) => col.notNull())
          .addColumn('mode', keyText('mode'), (col) => col.notNull())
          .addColumn('id', keyText('id'), (col) => col.notNull())
          .addColumn('from_currency', keyText('from_currency'), (col) => col.notNull())
          .addColumn('to_currency', keyText('to_currency'), (col) => col.notNull())
          .addColumn('rate', rateText, (col) => col.notNull())
          .addColumn('created_at', bigint, (col) => col.notNull())
          .addColumn('updated_at', bigint, (col) => col.notNull())
          .addPrimaryKeyConstraint('currency_rates_pkey', ['store_id', 'mode', 'id']),
      ).execute();
      await sql`create unique index currency_rates_pair_unique on currency_rates (store_id, mode, from_currency, to_currency)`.execute(
        db,
      );

      await db.schema.alterTable('carts').addColumn('region_id', keyText('region_id')).execute();
      await db.schema.alterTable('orders').addColumn('region_id', keyText('region_id')).execute();
      await sql`create index orders_region_idx on orders (store_id, mode, region_id, created_at, id)`.execute(
        db,
      );
    },
    async down(db) {
      await sql
        .raw(dialect === 'mysql' ? 'drop index orders_region_idx on orders' : 'drop index orders_region_idx')
        .execute(db);
      await db.schema.alterTable('orders').dropColumn('region_id').execute();
      await db.schema.alterTable('carts').dropColumn('region_id').execute();
      await db.schema.dropTable('currency_rates').execute();
      await db.schema.dropTable('region_prices').execute();
      await db.schema.dropTable('regions').execute();
    },
  };
}
