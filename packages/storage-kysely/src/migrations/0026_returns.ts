import { type CreateTableBuilder, type Migration, sql } from 'kysely';
import { columnDataType, type SchemaDialect } from './column-types';

/**
 * Returns and exchanges (decisions §18). Frozen once released: never import live code into a
 * migration.
 *
 * - `returns`: one row per return (`ret_…`) of an order, scoped like the order (foreign key to
 *   `orders`, cascading). Indexes for the admin list's filters, each ending in `(created_at, id)`
 *   for the keyset pages: by scope, by order, by customer, by status.
 * - `return_lines`: the return's lines (`retl_…`), in `position` order (foreign key to `returns`,
 *   cascading; index by return).
 * - `order_lines.returned_quantity` (int, NOT NULL, default 0): units of the line that came back
 *   through completed returns; `order_lines.returning_quantity` (int, NOT NULL, default 0): units
 *   held by the order's open returns (requested, approved, received). Both change only under the
 *   order's row lock, so a line's returnable units are read with the order, in no extra query.
 * - `stores.return_window_days` (int, nullable, default null): the storefront's return window.
 *
 * Plain `CREATE TABLE` / `ADD COLUMN` with constant defaults on every engine; `down` drops them.
 */
export function returnsMigration(dialect: SchemaDialect): Migration {
  const text = columnDataType(dialect, 'text');
  const keyText = (column: string) => columnDataType(dialect, 'text', column);
  const bigint = columnDataType(dialect, 'bigint');
  const int = columnDataType(dialect, 'int');
  const json = columnDataType(dialect, 'json');
  return {
    async up(db) {
      let returns = (db.schema.createTable('returns') as CreateTableBuilder<string, string>)
        .addColumn('store_id', keyText('store_id'), (col) => col.notNull())
        .addColumn('mode', keyText('mode'), (col) => col.notNull())
        .addColumn('id', keyText('id'), (col) => col.notNull())
        .addColumn('order_id', keyText('order_id'), (col) => col.notNull())
        .addColumn('customer_id', keyText('customer_id'))
        .addColumn('status', keyText('status'), (col) => col.notNull())
        .addColumn('return_type', text, (col) => col.notNull())
        .addColumn('reason', text)
        .addColumn('reason_category', text)
        .addColumn('refund_id', text)
        .addColumn('exchange_order_id', text)
        .addColumn('admin_notes', text)
        .addColumn('customer_notes', text)
        .addColumn('metadata', json, (col) => col.notNull())
        .addColumn('created_at', bigint, (col) => col.notNull())
        .addColumn('updated_at', bigint, (col) => col.notNull())
        .addColumn('approved_at', bigint)
        .addColumn('received_at', bigint)
        .addColumn('completed_at', bigint)
        .addColumn('rejected_at', bigint)
        .addColumn('cancelled_at', bigint)
        .addPrimaryKeyConstraint('returns_pkey', ['store_id', 'mode', 'id'])
        .addForeignKeyConstraint(
          'returns_order_id_fkey',
          ['store_id', 'mode', 'order_id'],
          'orders',
          ['store_id', 'mode', 'id'],
          (constraint) => constraint.onDelete('cascade'),
        );
      if (dialect === 'sqlite') returns = returns.modifyEnd(sql`strict`);
      await returns.execute();
      await sql`create index returns_created_idx on returns (store_id, mode, created_at, id)`.execute(db);
      await sql`create index returns_order_idx on returns (store_id, mode, order_id, created_at, id)`.execute(
        db,
      );
      await sql`create index returns_customer_idx on returns (store_id, mode, customer_id, created_at, id)`.execute(
        db,
      );
      await sql`create index returns_status_idx on returns (store_id, mode, status, created_at, id)`.execute(
        db,
      );

      let lines = (db.schema.createTable('return_lines') as CreateTableBuilder<string, string>)
        .addColumn('store_id', keyText('store_id'), (col) => col.notNull())
        .addColumn('mode', keyText('mode'), (col) => col.notNull())
        .addColumn('id', keyText('id'), (col) => col.notNull())
        .addColumn('return_id', keyText('return_id'), (col) => col.notNull())
        .addColumn('order_line_id', text, (col) => col.notNull())
        .addColumn('quantity', int, (col) => col.notNull())
        .addColumn('reason', text)
        .addColumn('condition', text)
        .addColumn('exchange_variant_id', text)
        .addColumn('product_name', text, (col) => col.notNull())
        .addColumn('position', int, (col) => col.notNull())
        .addPrimaryKeyConstraint('return_lines_pkey', ['store_id', 'mode', 'id'])
        .addForeignKeyConstraint(
          'return_lines_return_id_fkey',
          ['store_id', 'mode', 'return_id'],
          'returns',
          ['store_id', 'mode', 'id'],
          (constraint) => constraint.onDelete('cascade'),
        );
      if (dialect === 'sqlite') lines = lines.modifyEnd(sql`strict`);
      await lines.execute();
      await sql`create index return_lines_return_idx on return_lines (store_id, mode, return_id, position)`.execute(
        db,
      );

      await db.schema
        .alterTable('order_lines')
        .addColumn('returned_quantity', int, (col) => col.notNull().defaultTo(0))
        .execute();
      await db.schema
        .alterTable('order_lines')
        .addColumn('returning_quantity', int, (col) => col.notNull().defaultTo(0))
        .execute();
      await db.schema.alterTable('stores').addColumn('return_window_days', int).execute();
    },
    async down(db) {
      await db.schema.alterTable('stores').dropColumn('return_window_days').execute();
      await db.schema.alterTable('order_lines').dropColumn('returning_quantity').execute();
      await db.schema.alterTable('order_lines').dropColumn('returned_quantity').execute();
      await db.schema.dropTable('return_lines').execute();
      await db.schema.dropTable('returns').execute();
    },
  };
}
