import { type Migration, sql } from 'kysely';
import { columnDataType, type SchemaDialect } from './column-types';

/**
 * Refund and payment state in columns instead of internal `metadata` keys (issue 23: no domain
 * state in metadata). Frozen once released: never import live code into a migration; the keys
 * below are inlined as they were written by core before this migration.
 *
 * - `refunds.restock_movements` (json, NOT NULL, default `[]`): where a refund's restocked units
 *   went, written once when it is applied (was `metadata.restock_movements`).
 * - `refunds.provider_calls` (json, nullable): the provider calls of a refund recorded `pending`
 *   before them, until it settles; null otherwise (was `metadata.provider_calls`).
 * - `refunds.failure_message` (text, nullable): the provider's reason for a refund that failed at
 *   the provider after it was applied (was `metadata.failure_message`).
 * - `payments.checkout_snapshot` (json, nullable): a checkout attempt's snapshot until it is
 *   settled (was `metadata._cartwright_checkout`).
 *
 * `up` moves each key's value into its column (only values of the shape core read: an array,
 * a string, an object) and removes the keys from `metadata`; `down` puts them back (an empty
 * `restock_movements` was never written, so it is not restored) and drops the columns. Plain
 * `ADD COLUMN` / `DROP COLUMN` on both engines, no table rebuild. SQLite keeps `metadata` as JSON
 * text (json_extract / json_remove / json_set); PostgreSQL as jsonb (`->`, `->>`, `-`, `||`).
 */
export function refundPaymentColumnsMigration(dialect: SchemaDialect): Migration {
  const text = columnDataType(dialect, 'text');
  const json = columnDataType(dialect, 'json');
  const emptyArray = dialect === 'postgres' ? sql`'[]'::jsonb` : sql`'[]'`;
  return {
    async up(db) {
      await db.schema
        .alterTable('refunds')
        .addColumn('restock_movements', json, (col) => col.notNull().defaultTo(emptyArray))
        .execute();
      await db.schema.alterTable('refunds').addColumn('provider_calls', json).execute();
      await db.schema.alterTable('refunds').addColumn('failure_message', text).execute();
      await db.schema.alterTable('payments').addColumn('checkout_snapshot', json).execute();
      if (dialect === 'postgres') {
        await sql`update refunds set
            restock_movements = case when jsonb_typeof(metadata -> 'restock_movements') = 'array'
              then metadata -> 'restock_movements' else '[]'::jsonb end,
            provider_calls = case when jsonb_typeof(metadata -> 'provider_calls') = 'array'
              then metadata -> 'provider_calls' end,
            failure_message = case when jsonb_typeof(metadata -> 'failure_message') = 'string'
              then metadata ->> 'failure_message' end,
            metadata = metadata - 'restock_movements' - 'provider_calls' - 'failure_message'
          where metadata -> 'restock_movements' is not null
             or metadata -> 'provider_calls' is not null
             or metadata -> 'failure_message' is not null`.execute(db);
        await sql`update payments set
            checkout_snapshot = metadata -> '_cartwright_checkout',
            metadata = metadata - '_cartwright_checkout'
          where jsonb_typeof(metadata -> '_cartwright_checkout') = 'object'`.execute(db);
      } else if (dialect === 'sqlite') {
        // (MariaDB databases start at this release, empty: no metadata to move.)
        await sql`update refunds set
            restock_movements = case when json_type(metadata, '$.restock_movements') = 'array'
              then json_extract(metadata, '$.restock_movements') else '[]' end,
            provider_calls = case when json_type(metadata, '$.provider_calls') = 'array'
              then json_extract(metadata, '$.provider_calls') end,
            failure_message = case when json_type(metadata, '$.failure_message') = 'text'
              then json_extract(metadata, '$.failure_message') end,
            metadata = json_remove(metadata, '$.restock_movements', '$.provider_calls', '$.failure_message')
          where json_type(metadata, '$.restock_movements') is not null
             or json_type(metadata, '$.provider_calls') is not null
             or json_type(metadata, '$.failure_message') is not null`.execute(db);
        await sql`update payments set
            checkout_snapshot = json_extract(metadata, '$._cartwright_checkout'),
            metadata = json_remove(metadata, '$._cartwright_checkout')
          where json_type(metadata, '$._cartwright_checkout') = 'object'`.execute(db);
      }
    },
    async down(db) {
      if (dialect === 'postgres') {
        await sql`update refunds set metadata = metadata || jsonb_build_object('restock_movements', restock_movements)
          where jsonb_array_length(restock_movements) > 0`.execute(db);
        await sql`update refunds set metadata = metadata || jsonb_build_object('provider_calls', provider_calls)
          where provider_calls is not null`.execute(db);
        await sql`update refunds set metadata = metadata || jsonb_build_object('failure_message', failure_message)
          where failure_message is not null`.execute(db);
        await sql`update payments set metadata = metadata || jsonb_build_object('_cartwright_checkout', checkout_snapshot)
          where checkout_snapshot is not null`.execute(db);
      } else if (dialect === 'sqlite') {
        await sql`update refunds set metadata = json_set(metadata, '$.restock_movements', json(restock_movements))
          where json_array_length(restock_movements) > 0`.execute(db);
        await sql`update refunds set metadata = json_set(metadata, '$.provider_calls', json(provider_calls))
          where provider_calls is not null`.execute(db);
        await sql`update refunds set metadata = json_set(metadata, '$.failure_message', failure_message)
          where failure_message is not null`.execute(db);
        await sql`update payments set metadata = json_set(metadata, '$._cartwright_checkout', json(checkout_snapshot))
          where checkout_snapshot is not null`.execute(db);
      }
      await db.schema.alterTable('payments').dropColumn('checkout_snapshot').execute();
      await db.schema.alterTable('refunds').dropColumn('failure_message').execute();
      await db.schema.alterTable('refunds').dropColumn('provider_calls').execute();
      await db.schema.alterTable('refunds').dropColumn('restock_movements').execute();
    },
  };
}
