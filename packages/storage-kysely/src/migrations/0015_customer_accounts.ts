import { type CreateTableBuilder, type Migration, sql } from 'kysely';
import { columnDataType, type SchemaDialect } from './column-types';

/**
 * Customer accounts (docs/contract.md#customer-accounts). Frozen once released: never import live code into
 * a migration.
 *
 * - `customers.password_hash` (text, nullable): the encoded hash (`scrypt$…`, parameters and salt
 *   included), null for a customer without a password — every customer before this migration.
 *   Plain nullable `ADD COLUMN`, no table rebuild on either engine.
 * - `password_resets`: single-use reset tokens, stored only as their SHA-256 hash, shaped like
 *   `customer_tokens` (0001): scoped primary key `(store_id, mode, id)`, the hash unique per scope
 *   (a claim is one `DELETE … RETURNING` through that index) and the foreign key to the customer,
 *   cascading. The customer is unique per scope too: a newer request replaces the customer's row
 *   in one upsert, so even two concurrent requests leave one live token (the later one), and
 *   expired rows need no pruning (at most one per customer).
 */
export function customerAccountsMigration(dialect: SchemaDialect): Migration {
  const text = columnDataType(dialect, 'text');
  const keyText = (column: string) => columnDataType(dialect, 'text', column);
  const bigint = columnDataType(dialect, 'bigint');
  return {
    async up(db) {
      await db.schema.alterTable('customers').addColumn('password_hash', text).execute();
      let table = (db.schema.createTable('password_resets') as CreateTableBuilder<string, string>)
        .addColumn('store_id', keyText('store_id'), (col) => col.notNull())
        .addColumn('mode', keyText('mode'), (col) => col.notNull())
        .addColumn('id', keyText('id'), (col) => col.notNull())
        .addColumn('customer_id', keyText('customer_id'), (col) => col.notNull())
        .addColumn('token_hash', keyText('token_hash'), (col) => col.notNull())
        .addColumn('expires_at', bigint, (col) => col.notNull())
        .addColumn('created_at', bigint, (col) => col.notNull())
        .addPrimaryKeyConstraint('password_resets_pkey', ['store_id', 'mode', 'id'])
        .addForeignKeyConstraint(
          'password_resets_customer_id_fkey',
          ['store_id', 'mode', 'customer_id'],
          'customers',
          ['store_id', 'mode', 'id'],
          (constraint) => constraint.onDelete('cascade'),
        );
      if (dialect === 'sqlite') table = table.modifyEnd(sql`strict`);
      await table.execute();
      await sql`create unique index password_resets_token_hash_unique on password_resets (store_id, mode, token_hash)`.execute(
        db,
      );
      await sql`create unique index password_resets_customer_unique on password_resets (store_id, mode, customer_id)`.execute(
        db,
      );
    },
    async down(db) {
      await db.schema.dropTable('password_resets').execute();
      await db.schema.alterTable('customers').dropColumn('password_hash').execute();
    },
  };
}
