import { type CreateTableBuilder, type Kysely, type Migration, sql } from 'kysely';
import { columnDataType, type SchemaDialect } from './column-types';

/**
 * The storefront in a region (decisions §19). Frozen once released: never import live code into
 * a migration.
 *
 * - `region_product_prices (store_id, mode, region_id, product_id, price, compare_at_price)`: each
 *   live product's representative price in each region (the cheapest live active variant's price
 *   there with the §19 price rule, and that variant's compare-at price; null: no active variant
 *   is sold there), in the region currency's minor units. Core computes every row and writes it in
 *   the transaction of every change that moves it; storefront lists in a region filter
 *   (`price_min`, `price_max`) and sort (`sort=price`) on it as they do on `products.price` in the
 *   store currency. Primary key `(store_id, mode, region_id, product_id)`: a product's row, and a
 *   deleted region's rows by its prefix.
 * - `region_product_prices_price_asc_idx` / `_desc_idx (store_id, mode, region_id,
 *   coalesce(price, 2^53 − 1) | coalesce(price, −1), product_id)` on SQLite and Postgres: the
 *   nulls-last price orders of `products_price_asc_idx` / `_desc_idx` (0001; the same key
 *   expressions, written identically to the repository's ORDER BY), so a region list sorted by
 *   price walks the region's index range in order (a price bound is a range of it) and looks each
 *   product up by primary key for its status. MariaDB has no expression index: the same two
 *   keys are invisible generated columns (`price_asc_key`, `price_desc_key`, persistent) indexed
 *   as `region_product_prices_price_asc_idx` / `_desc_idx`, which the repository names there
 *   instead of the expressions (unlike `products`, whose price sorts read the scope's rows on
 *   MariaDB).
 * - The catalog-version triggers of 0021 extended to `regions`, `region_prices` and
 *   `currency_rates` (0030) (SQLite row triggers; Postgres deferred constraint triggers calling
 *   0021's `cartwright_catalog_version_bump_v1()`): a storefront response in a region shows its
 *   currency, its prices and the rate, so any write to them moves the store's version in its
 *   transaction and no page cache serves a stale region response. MariaDB keeps no page: none.
 *   `region_product_prices` has none: core writes it only in the transaction of a write to a
 *   watched table (a region, a region price, a rate, a product or its variants), which moves the
 *   version already — and a trigger there would fire once per row of a whole-region refresh
 *   (100,000 rows for a rate change on 100k products).
 *
 * `down` drops the triggers and the table.
 */

const PRICE_ASC_KEY = 'coalesce(price, 9007199254740991)';
const PRICE_DESC_KEY = 'coalesce(price, -1)';

const WATCHED = ['regions', 'region_prices', 'currency_rates'] as const;
const SQLITE_EVENTS = ['insert', 'update', 'delete'] as const;

async function dropTriggers(db: Kysely<unknown>, dialect: SchemaDialect): Promise<void> {
  for (const table of WATCHED) {
    if (dialect === 'sqlite') {
      for (const event of SQLITE_EVENTS) {
        await sql.raw(`drop trigger if exists ${table}_catalog_version_v1_${event}`).execute(db);
      }
    } else if (dialect === 'postgres') {
      await sql.raw(`drop trigger if exists ${table}_catalog_version_v1 on ${table}`).execute(db);
    }
  }
}

async function createTriggers(db: Kysely<unknown>, dialect: SchemaDialect): Promise<void> {
  for (const table of WATCHED) {
    if (dialect === 'sqlite') {
      for (const [event, row] of [
        ['insert', 'new'],
        ['update', 'new'],
        ['delete', 'old'],
      ] as const) {
        await sql
          .raw(
            `create trigger ${table}_catalog_version_v1_${event} after ${event} on ${table} begin
            insert into catalog_versions (store_id, mode, version) values (${row}.store_id, ${row}.mode, 1)
            on conflict (store_id, mode) do update set version = version + 1;
          end`,
          )
          .execute(db);
      }
    } else if (dialect === 'postgres') {
      await sql
        .raw(
          `create constraint trigger ${table}_catalog_version_v1
          after insert or update or delete on ${table}
          deferrable initially deferred for each row execute function cartwright_catalog_version_bump_v1()`,
        )
        .execute(db);
    }
  }
}

export function regionProductPricesMigration(dialect: SchemaDialect): Migration {
  const keyText = (column: string) => columnDataType(dialect, 'text', column);
  const bigint = columnDataType(dialect, 'bigint');
  const strict = <T extends CreateTableBuilder<string, string>>(table: T): T =>
    (dialect === 'sqlite' ? table.modifyEnd(sql`strict`) : table) as T;
  return {
    async up(db) {
      await strict(
        (db.schema.createTable('region_product_prices') as CreateTableBuilder<string, string>)
          .addColumn('store_id', keyText('store_id'), (col) => col.notNull())
          .addColumn('mode', keyText('mode'), (col) => col.notNull())
          .addColumn('region_id', keyText('region_id'), (col) => col.notNull())
          .addColumn('product_id', keyText('product_id'), (col) => col.notNull())
          .addColumn('price', bigint)
          .addColumn('compare_at_price', bigint)
          .addPrimaryKeyConstraint('region_product_prices_pkey', [
            'store_id',
            'mode',
            'region_id',
            'product_id',
          ]),
      ).execute();
      if (dialect === 'mysql') {
        // No expression index: the same keys as invisible generated columns, indexed.
        await sql
          .raw(
            `alter table region_product_prices
          add column price_asc_key bigint as (${PRICE_ASC_KEY}) persistent invisible,
          add column price_desc_key bigint as (${PRICE_DESC_KEY}) persistent invisible`,
          )
          .execute(db);
        await sql`create index region_product_prices_price_asc_idx
          on region_product_prices (store_id, mode, region_id, price_asc_key, product_id)`.execute(db);
        await sql`create index region_product_prices_price_desc_idx
          on region_product_prices (store_id, mode, region_id, price_desc_key, product_id)`.execute(db);
      } else {
        await sql
          .raw(
            `create index region_product_prices_price_asc_idx
          on region_product_prices (store_id, mode, region_id, (${PRICE_ASC_KEY}), product_id)`,
          )
          .execute(db);
        await sql
          .raw(
            `create index region_product_prices_price_desc_idx
          on region_product_prices (store_id, mode, region_id, (${PRICE_DESC_KEY}), product_id)`,
          )
          .execute(db);
      }
      await createTriggers(db, dialect);
    },
    async down(db) {
      await dropTriggers(db, dialect);
      await db.schema.dropTable('region_product_prices').execute();
    },
  };
}
