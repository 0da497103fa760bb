import { type CreateTableBuilder, type Kysely, type Migration, sql } from 'kysely';
import { type ColumnKind, columnDataType, type SchemaDialect } from './column-types';

/**
 * The catalog read path: exact live-product counts, so that `total_count` of the
 * common product lists is one tiny read instead of a COUNT over every product of the scope.
 *
 * - `product_counts (store_id, mode, status, n)`: products not soft-deleted, per status.
 * - `product_tag_counts (store_id, mode, tag, status, n)`: the same per distinct tag of a product.
 *
 * The product repository keeps both exact in the transaction of every product insert, status or
 * tags change and delete (atomic `n = n + delta` upserts, rows in key order so that concurrent
 * writers cannot deadlock on them). This migration creates them and counts the existing rows.
 * Rows whose count drops to 0 stay (a later insert reuses them).
 *
 * And the catalog documents: `product_documents (store_id, mode, product_id, children,
 * variant_ids)` holds each product's options, values, live variants and images as ready JSON
 * (repositories/catalog-documents.ts), rewritten by the repository with every write to them.
 * This migration only creates the table: documents are derived data, which the application
 * renders for every product whose document is missing or of an older format when
 * `storage.migrate()` has run the migrations (as released, this migration also rendered them;
 * it no longer does, so that its effect never depends on today's document format). SQLite keeps
 * it a rowid table so that its ~2 KB rows stay on their b-tree pages; Postgres stores `json`
 * (returned as written, no jsonb rendering).
 *
 * Frozen once released: never import live code into a migration.
 */

/** A column kind, or `json_text`: JSON kept as written (TEXT on SQLite, json on Postgres). */
type Columns = Record<string, ColumnKind | 'json_text'>;

async function createTable(
  db: Kysely<unknown>,
  dialect: SchemaDialect,
  name: string,
  columns: Columns,
  primaryKey: [string, ...string[]],
  options: { withoutRowid: boolean },
): Promise<void> {
  let builder = db.schema.createTable(name) as CreateTableBuilder<string, string>;
  for (const [column, kind] of Object.entries(columns)) {
    const type =
      kind === 'json_text'
        ? dialect === 'postgres'
          ? sql`json`
          : dialect === 'mysql'
            ? sql`longtext`
            : sql`text`
        : columnDataType(dialect, kind, primaryKey.includes(column) ? column : undefined);
    builder = builder.addColumn(column, type, (col) => col.notNull());
  }
  builder = builder.addPrimaryKeyConstraint(`${name}_pkey`, primaryKey);
  if (dialect === 'sqlite') {
    builder = builder.modifyEnd(options.withoutRowid ? sql`strict, without rowid` : sql`strict`);
  }
  await builder.execute();
}

/** Distinct string tags of each live product (`t.tag`), per dialect. */
function liveProductTags(dialect: SchemaDialect) {
  if (dialect === 'mysql') {
    return sql`select p.store_id, p.mode, p.status, t.tag, p.id
          from products p, json_table(p.tags, '$[*]' columns (tag varchar(255) path '$')) as t
          where p.deleted_at is null and t.tag is not null`;
  }
  return dialect === 'sqlite'
    ? sql`select p.store_id, p.mode, p.status, t.value as tag, p.id
          from products p, json_each(p.tags) t
          where p.deleted_at is null and t.type = 'text'`
    : sql`select p.store_id, p.mode, p.status, t.value #>> '{}' as tag, p.id
          from products p cross join lateral jsonb_array_elements(p.tags) as t(value)
          where p.deleted_at is null and jsonb_typeof(t.value) = 'string'`;
}

export function catalogReadPathMigration(dialect: SchemaDialect): Migration {
  return {
    async up(db) {
      await createTable(
        db,
        dialect,
        'product_counts',
        { store_id: 'text', mode: 'text', status: 'text', n: 'int' },
        ['store_id', 'mode', 'status'],
        { withoutRowid: true },
      );
      await createTable(
        db,
        dialect,
        'product_tag_counts',
        { store_id: 'text', mode: 'text', tag: 'text', status: 'text', n: 'int' },
        ['store_id', 'mode', 'tag', 'status'],
        { withoutRowid: true },
      );
      await createTable(
        db,
        dialect,
        'product_documents',
        {
          store_id: 'text',
          mode: 'text',
          product_id: 'text',
          children: 'json_text',
          variant_ids: 'json_text',
        },
        ['store_id', 'mode', 'product_id'],
        { withoutRowid: false },
      );
      await sql`insert into product_counts (store_id, mode, status, n)
        select store_id, mode, status, count(*) from products where deleted_at is null
        group by store_id, mode, status`.execute(db);
      await sql`insert into product_tag_counts (store_id, mode, tag, status, n)
        select store_id, mode, tag, status, count(distinct id) from (${liveProductTags(dialect)}) as live
        group by store_id, mode, tag, status`.execute(db);
    },
    async down(db) {
      await db.schema.dropTable('product_documents').ifExists().execute();
      await db.schema.dropTable('product_tag_counts').ifExists().execute();
      await db.schema.dropTable('product_counts').ifExists().execute();
    },
  };
}
