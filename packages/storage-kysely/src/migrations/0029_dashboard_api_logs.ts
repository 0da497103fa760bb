import { type CreateTableBuilder, type Migration, sql } from 'kysely';
import { columnDataType, type SchemaDialect } from './column-types';

/**
 * The back office's reads (decisions §23). Frozen once released: never import live code into a
 * migration.
 *
 * - `api_logs`: one row per logged request, scoped, keyed `(store_id, mode, id)`. Indexes:
 *   `(store_id, mode, created_at, id)` (the list, newest first, and the `path` prefix filter
 *   over it), `(store_id, mode, method, created_at, id)` and `(store_id, mode, status_code,
 *   created_at, id)` (the filters), `(created_at)` (retention: the 30-day prune across scopes).
 *   `path` is plain text (not keyed on MySQL: a path may be longer than a key).
 * - the dashboard's revenue sums read payments and refunds by scope and creation time:
 *   `payments_created_idx` and `refunds_created_idx` on `(store_id, mode, created_at)`.
 *
 * `down` drops the table and the indexes.
 */
export function dashboardApiLogsMigration(dialect: SchemaDialect): Migration {
  const text = columnDataType(dialect, 'text');
  const keyText = (column: string) => columnDataType(dialect, 'text', column);
  const bigint = columnDataType(dialect, 'bigint');
  const int = columnDataType(dialect, 'int');
  const json = columnDataType(dialect, 'json');
  return {
    async up(db) {
      let logs = (db.schema.createTable('api_logs') as CreateTableBuilder<string, string>)
        .addColumn('store_id', keyText('store_id'), (col) => col.notNull())
        .addColumn('mode', keyText('mode'), (col) => col.notNull())
        .addColumn('id', keyText('id'), (col) => col.notNull())
        .addColumn('method', keyText('method'), (col) => col.notNull())
        .addColumn('path', text, (col) => col.notNull())
        .addColumn('status_code', int, (col) => col.notNull())
        .addColumn('latency_ms', int, (col) => col.notNull())
        .addColumn('request_body', json)
        .addColumn('response_body', json)
        .addColumn('api_key_id', text)
        .addColumn('ip', text)
        .addColumn('user_agent', text)
        .addColumn('created_at', bigint, (col) => col.notNull())
        .addPrimaryKeyConstraint('api_logs_pkey', ['store_id', 'mode', 'id']);
      if (dialect === 'sqlite') logs = logs.modifyEnd(sql`strict`);
      await logs.execute();
      await db.schema
        .createIndex('api_logs_created_idx')
        .on('api_logs')
        .columns(['store_id', 'mode', 'created_at', 'id'])
        .execute();
      await db.schema
        .createIndex('api_logs_method_idx')
        .on('api_logs')
        .columns(['store_id', 'mode', 'method', 'created_at', 'id'])
        .execute();
      await db.schema
        .createIndex('api_logs_status_idx')
        .on('api_logs')
        .columns(['store_id', 'mode', 'status_code', 'created_at', 'id'])
        .execute();
      await db.schema.createIndex('api_logs_retention_idx').on('api_logs').column('created_at').execute();
      await db.schema
        .createIndex('payments_created_idx')
        .on('payments')
        .columns(['store_id', 'mode', 'created_at'])
        .execute();
      await db.schema
        .createIndex('refunds_created_idx')
        .on('refunds')
        .columns(['store_id', 'mode', 'created_at'])
        .execute();
    },
    async down(db) {
      for (const [name, table] of [
        ['refunds_created_idx', 'refunds'],
        ['payments_created_idx', 'payments'],
      ] as const) {
        await sql
          .raw(dialect === 'mysql' ? `drop index ${name} on ${table}` : `drop index ${name}`)
          .execute(db);
      }
      await db.schema.dropTable('api_logs').execute();
    },
  };
}
