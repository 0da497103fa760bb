import { type CreateTableBuilder, type Kysely, type Migration, sql } from 'kysely';
import { type ColumnKind, columnDataType, type SchemaDialect } from './column-types';

/**
 * The catalog read path (issue 9): exact live-product counts, so that `total_count` of the
 * common product lists is one tiny read instead of a COUNT over every product of the scope.
 *
 * - `product_counts (store_id, mode, status, n)`: products not soft-deleted, per status.
 * - `product_tag_counts (store_id, mode, tag, status, n)`: the same per distinct tag of a product.
 *
 * The product repository keeps both exact in the transaction of every product insert, status or
 * tags change and delete (atomic `n = n + delta` upserts, rows in key order so that concurrent
 * writers cannot deadlock on them). This migration creates them and counts the existing rows.
 * Rows whose count drops to 0 stay (a later insert reuses them).
 */

type Columns = Record<string, ColumnKind>;

async function createTable(
  db: Kysely<unknown>,
  dialect: SchemaDialect,
  name: string,
  columns: Columns,
  primaryKey: [string, ...string[]],
): Promise<void> {
  let builder = db.schema.createTable(name) as CreateTableBuilder<string, string>;
  for (const [column, kind] of Object.entries(columns)) {
    builder = builder.addColumn(column, columnDataType(dialect, kind), (col) => col.notNull());
  }
  builder = builder.addPrimaryKeyConstraint(`${name}_pkey`, primaryKey);
  // Small tables read and written by primary key only: SQLite stores them clustered on it.
  if (dialect === 'sqlite') builder = builder.modifyEnd(sql`strict, without rowid`);
  await builder.execute();
}

/** Distinct string tags of each live product (`t.tag`), per dialect. */
function liveProductTags(dialect: SchemaDialect) {
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
      );
      await createTable(
        db,
        dialect,
        'product_tag_counts',
        { store_id: 'text', mode: 'text', tag: 'text', status: 'text', n: 'int' },
        ['store_id', 'mode', 'tag', 'status'],
      );
      await sql`insert into product_counts (store_id, mode, status, n)
        select store_id, mode, status, count(*) from products where deleted_at is null
        group by store_id, mode, status`.execute(db);
      await sql`insert into product_tag_counts (store_id, mode, tag, status, n)
        select store_id, mode, tag, status, count(distinct id) from (${liveProductTags(dialect)}) as live
        group by store_id, mode, tag, status`.execute(db);
    },
    async down(db) {
      await db.schema.dropTable('product_tag_counts').ifExists().execute();
      await db.schema.dropTable('product_counts').ifExists().execute();
    },
  };
}
