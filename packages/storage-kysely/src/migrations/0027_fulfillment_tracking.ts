import { type CreateTableBuilder, type Migration, sql } from 'kysely';
import { columnDataType, type SchemaDialect } from './column-types';

/**
 * Order tracking (decisions §20). Frozen once released: never import live code into a migration.
 *
 * - `fulfillments.carrier_code` (text, nullable; at most 64 characters, checked by core) and
 *   `fulfillments.estimated_delivery` (bigint epoch milliseconds, nullable): plain nullable
 *   `ADD COLUMN`s, no table rebuild, existing rows null.
 * - `fulfillment_tracking_events`: the carrier events of a fulfillment, scoped like it, keyed by
 *   `(store_id, mode, fulfillment_id, sequence)` — `sequence` is the insertion order (1, 2, …)
 *   that breaks timestamp ties, unique per fulfillment (core assigns it under the order's row
 *   lock; the key refuses a duplicate). The key's prefix serves "a fulfillment's events in
 *   insertion order"; the foreign key to `fulfillments` cascades. `occurred_at` is the event's
 *   `timestamp`.
 *
 * `down` drops the table and the columns.
 */
export function fulfillmentTrackingMigration(dialect: SchemaDialect): Migration {
  const text = columnDataType(dialect, 'text');
  const keyText = (column: string) => columnDataType(dialect, 'text', column);
  const bigint = columnDataType(dialect, 'bigint');
  const int = columnDataType(dialect, 'int');
  return {
    async up(db) {
      await db.schema.alterTable('fulfillments').addColumn('carrier_code', text).execute();
      await db.schema.alterTable('fulfillments').addColumn('estimated_delivery', bigint).execute();
      let events = (
        db.schema.createTable('fulfillment_tracking_events') as CreateTableBuilder<string, string>
      )
        .addColumn('store_id', keyText('store_id'), (col) => col.notNull())
        .addColumn('mode', keyText('mode'), (col) => col.notNull())
        .addColumn('fulfillment_id', keyText('fulfillment_id'), (col) => col.notNull())
        .addColumn('sequence', int, (col) => col.notNull())
        .addColumn('status', text, (col) => col.notNull())
        .addColumn('description', text, (col) => col.notNull())
        .addColumn('location', text)
        .addColumn('occurred_at', bigint, (col) => col.notNull())
        .addColumn('created_at', bigint, (col) => col.notNull())
        .addPrimaryKeyConstraint('fulfillment_tracking_events_pkey', [
          'store_id',
          'mode',
          'fulfillment_id',
          'sequence',
        ])
        .addForeignKeyConstraint(
          'fulfillment_tracking_events_fulfillment_id_fkey',
          ['store_id', 'mode', 'fulfillment_id'],
          'fulfillments',
          ['store_id', 'mode', 'id'],
          (constraint) => constraint.onDelete('cascade'),
        );
      if (dialect === 'sqlite') events = events.modifyEnd(sql`strict`);
      await events.execute();
    },
    async down(db) {
      await db.schema.dropTable('fulfillment_tracking_events').execute();
      await db.schema.alterTable('fulfillments').dropColumn('estimated_delivery').execute();
      await db.schema.alterTable('fulfillments').dropColumn('carrier_code').execute();
    },
  };
}
