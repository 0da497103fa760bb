import { type CreateTableBuilder, type Kysely, type Migration, sql } from 'kysely';
import { columnDataType, type SchemaDialect } from './column-types';

/**
 * Collections (decisions §17). Frozen once released: never import live code into a migration.
 *
 * - `collections`: scoped primary key `(store_id, mode, id)`; `type` `manual` | `auto`; `rules`
 *   (JSON, null on a manual one). `collections_slug_unique (store_id, mode, slug)` (409
 *   `duplicate_slug`), `collections_created_idx (store_id, mode, created_at, id)` (the admin list),
 *   `collections_position_idx (store_id, mode, position, created_at, id)` (the storefront list).
 *   Deleted for good (nothing refers to a deleted collection).
 * - `collection_products`: a manual collection's members, one row per (collection, product)
 *   with its display `position` (0, 1, … as given); primary key
 *   `(store_id, mode, collection_id, product_id)`, `collection_products_position_idx
 *   (store_id, mode, collection_id, position)` (the collection's order, and the product list's
 *   position cursor), `collection_products_product_idx (store_id, mode, product_id)` (removing a
 *   deleted product from every collection). The foreign key to the collection cascades.
 * - Catalog-version triggers on both tables (as 0021's: SQLite row triggers
 *   `<table>_catalog_version_v1_<event>`, Postgres deferred constraint triggers calling 0021's
 *   `cartwright_catalog_version_bump_v1()`; MariaDB keeps no storefront page, so none): a
 *   storefront product list filtered by a manual collection reads its member rows, so a
 *   membership change must move the version the page cache is keyed by. (An auto collection's
 *   rules reach the page key through the filter itself; its members' changes are product changes.)
 *
 * `down` drops them.
 */
const WATCHED = ['collections', 'collection_products'] as const;
const FUNCTION = 'cartwright_catalog_version_bump_v1';
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
      for (const event of SQLITE_EVENTS) {
        const row = event === 'delete' ? 'old' : 'new';
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
          deferrable initially deferred for each row execute function ${FUNCTION}()`,
        )
        .execute(db);
    }
  }
}

export function collectionsMigration(dialect: SchemaDialect): Migration {
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
        (db.schema.createTable('collections') as CreateTableBuilder<string, string>)
          .addColumn('store_id', keyText('store_id'), (col) => col.notNull())
          .addColumn('mode', keyText('mode'), (col) => col.notNull())
          .addColumn('id', keyText('id'), (col) => col.notNull())
          .addColumn('name', text, (col) => col.notNull())
          .addColumn('slug', keyText('slug'), (col) => col.notNull())
          .addColumn('description', text)
          .addColumn('type', keyText('type'), (col) => col.notNull())
          .addColumn('rules', json)
          .addColumn('position', int, (col) => col.notNull())
          .addColumn('metadata', json, (col) => col.notNull())
          .addColumn('created_at', bigint, (col) => col.notNull())
          .addColumn('updated_at', bigint, (col) => col.notNull())
          .addPrimaryKeyConstraint('collections_pkey', ['store_id', 'mode', 'id']),
      ).execute();
      await sql`create unique index collections_slug_unique on collections (store_id, mode, slug)`.execute(
        db,
      );
      await sql`create index collections_created_idx on collections (store_id, mode, created_at, id)`.execute(
        db,
      );
      await sql`create index collections_position_idx on collections (store_id, mode, position, created_at, id)`.execute(
        db,
      );

      await strict(
        (db.schema.createTable('collection_products') as CreateTableBuilder<string, string>)
          .addColumn('store_id', keyText('store_id'), (col) => col.notNull())
          .addColumn('mode', keyText('mode'), (col) => col.notNull())
          .addColumn('collection_id', keyText('collection_id'), (col) => col.notNull())
          .addColumn('product_id', keyText('product_id'), (col) => col.notNull())
          .addColumn('position', int, (col) => col.notNull())
          .addPrimaryKeyConstraint('collection_products_pkey', [
            'store_id',
            'mode',
            'collection_id',
            'product_id',
          ])
          .addForeignKeyConstraint(
            'collection_products_collection_id_fkey',
            ['store_id', 'mode', 'collection_id'],
            'collections',
            ['store_id', 'mode', 'id'],
            (constraint) => constraint.onDelete('cascade'),
          ),
      ).execute();
      await sql`create index collection_products_position_idx on collection_products (store_id, mode, collection_id, position)`.execute(
        db,
      );
      await sql`create index collection_products_product_idx on collection_products (store_id, mode, product_id)`.execute(
        db,
      );
      await createTriggers(db, dialect);
    },
    async down(db) {
      await dropTriggers(db, dialect);
      await db.schema.dropTable('collection_products').execute();
      await db.schema.dropTable('collections').execute();
    },
  };
}
