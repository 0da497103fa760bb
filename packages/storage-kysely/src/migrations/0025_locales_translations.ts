import { type CreateTableBuilder, type Kysely, type Migration, sql } from 'kysely';
import { columnDataType, type SchemaDialect } from './column-types';

/**
 * Store locales and translations (decisions §21). Frozen once released: never import live code
 * into a migration.
 *
 * - `store_locales`: a store's languages, scoped primary key `(store_id, mode, id)`;
 *   `store_locales_locale_unique (store_id, mode, locale)` (409 `duplicate_locale`; tags are
 *   stored in canonical case, so equal tags are equal strings). A store has at most 200, read
 *   whole over the primary key's scope prefix.
 * - `translations`: one translated field of one record in one locale, scoped primary key;
 *   `translations_entity_unique (store_id, mode, entity_type, entity_id, locale, field)` (the
 *   upsert's key, and an entity's translations by its prefix); `translations_owner_idx (store_id,
 *   mode, locale, owner_id)`: a page of products reads the translations in one locale of the
 *   products, their options and values (`owner_id` is the product of those) in one statement,
 *   and a deleted locale's translations go by its prefix. `value_lower` is the lower-cased value
 *   (as `products.name_lower`) that the product lists' `q` matches. MariaDB: `entity_type` and
 *   `field` are short words (varchar(64), keyed as `type`), `locale` at most 35 characters
 *   (varchar(64)), so the unique key stays within InnoDB's 3,072 bytes.
 * - `carts.locale` (nullable): the shopper's language; checkout snapshots line names in it.
 * - The catalog-version triggers of 0021 extended to both tables (SQLite: row triggers; Postgres:
 *   deferred constraint triggers calling 0021's `cartwright_catalog_version_bump_v1()`): a
 *   translation or locale write moves the store's version in its transaction, so the storefront
 *   page cache of every process answers it at once. MariaDB keeps no page: none.
 */

const WATCHED = ['store_locales', 'translations'] as const;
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

export function localesTranslationsMigration(dialect: SchemaDialect): Migration {
  const text = columnDataType(dialect, 'text');
  const keyText = (column: string) => columnDataType(dialect, 'text', column);
  const bigint = columnDataType(dialect, 'bigint');
  const bool = columnDataType(dialect, 'bool');
  const strict = <T extends CreateTableBuilder<string, string>>(table: T): T =>
    (dialect === 'sqlite' ? table.modifyEnd(sql`strict`) : table) as T;
  return {
    async up(db) {
      await strict(
        (db.schema.createTable('store_locales') as CreateTableBuilder<string, string>)
          .addColumn('store_id', keyText('store_id'), (col) => col.notNull())
          .addColumn('mode', keyText('mode'), (col) => col.notNull())
          .addColumn('id', keyText('id'), (col) => col.notNull())
          .addColumn('locale', keyText('type'), (col) => col.notNull())
          .addColumn('name', text, (col) => col.notNull())
          .addColumn('is_default', bool, (col) => col.notNull())
          .addColumn('is_active', bool, (col) => col.notNull())
          .addColumn('created_at', bigint, (col) => col.notNull())
          .addPrimaryKeyConstraint('store_locales_pkey', ['store_id', 'mode', 'id']),
      ).execute();
      await sql`create unique index store_locales_locale_unique on store_locales (store_id, mode, locale)`.execute(
        db,
      );

      await strict(
        (db.schema.createTable('translations') as CreateTableBuilder<string, string>)
          .addColumn('store_id', keyText('store_id'), (col) => col.notNull())
          .addColumn('mode', keyText('mode'), (col) => col.notNull())
          .addColumn('id', keyText('id'), (col) => col.notNull())
          .addColumn('entity_type', keyText('type'), (col) => col.notNull())
          .addColumn('entity_id', keyText('entity_id'), (col) => col.notNull())
          .addColumn('owner_id', keyText('owner_id'), (col) => col.notNull())
          .addColumn('locale', keyText('type'), (col) => col.notNull())
          .addColumn('field', keyText('type'), (col) => col.notNull())
          .addColumn('value', text, (col) => col.notNull())
          .addColumn('value_lower', text, (col) => col.notNull())
          .addColumn('created_at', bigint, (col) => col.notNull())
          .addColumn('updated_at', bigint, (col) => col.notNull())
          .addPrimaryKeyConstraint('translations_pkey', ['store_id', 'mode', 'id']),
      ).execute();
      await sql`create unique index translations_entity_unique on translations (store_id, mode, entity_type, entity_id, locale, field)`.execute(
        db,
      );
      await sql`create index translations_owner_idx on translations (store_id, mode, locale, owner_id)`.execute(
        db,
      );

      await db.schema.alterTable('carts').addColumn('locale', text).execute();

      await createTriggers(db, dialect);
    },
    async down(db) {
      await dropTriggers(db, dialect);
      await db.schema.alterTable('carts').dropColumn('locale').execute();
      await db.schema.dropTable('translations').execute();
      await db.schema.dropTable('store_locales').execute();
    },
  };
}
