import { type CreateTableBuilder, type Kysely, type Migration, sql } from 'kysely';
import { columnDataType, type SchemaDialect } from './column-types';

/**
 * Idempotency keys scoped to their caller, with a claim token (docs/contract.md#idempotency).
 *
 * - `caller` joins the primary key: `(store_id, mode, caller, key)`. It is the API key's id, and
 *   `/<customer id>` when a customer token came with the request, so another caller's identical
 *   request is a new request, never a replay of someone else's response.
 * - `claim_token`: the token of the request that holds (or completed) the key. The response is
 *   stored in the same transaction as the effect, as a compare-and-set on this token, so a
 *   request whose claim expired and was taken over by a retry cannot commit a second effect.
 *
 * SQLite cannot change a primary key in place, so the table is rebuilt on both engines (the
 * same statements everywhere; the table holds at most a day of keys). Rows from before this
 * migration get caller `''` and token `''`: no request has that caller, so they are never
 * replayed (a key first used before the upgrade runs again once) and expire within 24 h.
 * Frozen once released: never import live code into a migration.
 */
export function idempotencyCallersMigration(dialect: SchemaDialect): Migration {
  const text = columnDataType(dialect, 'text');
  const keyText = (column: string) => columnDataType(dialect, 'text', column);
  const bigint = columnDataType(dialect, 'bigint');
  const int = columnDataType(dialect, 'int');

  async function createTable(db: Kysely<unknown>, name: string, withCaller: boolean): Promise<void> {
    let builder = (db.schema.createTable(name) as CreateTableBuilder<string, string>)
      .addColumn('store_id', keyText('store_id'), (col) => col.notNull())
      .addColumn('mode', keyText('mode'), (col) => col.notNull())
      .addColumn('key', keyText('key'), (col) => col.notNull());
    if (withCaller) {
      builder = builder
        .addColumn('caller', keyText('caller'), (col) => col.notNull())
        .addColumn('claim_token', text, (col) => col.notNull());
    }
    builder = builder
      .addColumn('operation', text, (col) => col.notNull())
      .addColumn('request_hash', text, (col) => col.notNull())
      .addColumn('state', text, (col) => col.notNull())
      .addColumn('response_status', int)
      .addColumn('response_body', text)
      .addColumn('locked_until', bigint, (col) => col.notNull())
      .addColumn('created_at', bigint, (col) => col.notNull())
      .addColumn('expires_at', bigint, (col) => col.notNull())
      .addPrimaryKeyConstraint(
        'idempotency_keys_pkey',
        withCaller ? ['store_id', 'mode', 'caller', 'key'] : ['store_id', 'mode', 'key'],
      );
    if (dialect === 'sqlite') builder = builder.modifyEnd(sql`strict`);
    await builder.execute();
  }

  const columns = sql.raw(
    'store_id, mode, key, operation, request_hash, state, response_status, response_body, locked_until, created_at, expires_at',
  );

  /** Replaces `idempotency_keys` by a table of the new (or, going back, the old) shape, keeping its rows. */
  async function rebuild(db: Kysely<unknown>, withCaller: boolean): Promise<void> {
    if (dialect === 'mysql') {
      // MariaDB databases start at this release, empty: no rows to keep.
      await sql`drop table idempotency_keys`.execute(db);
      await createTable(db, 'idempotency_keys', withCaller);
      await sql`create index idempotency_keys_expires_idx on idempotency_keys (expires_at)`.execute(db);
      return;
    }
    // Postgres constraint names are unique per schema: the old table's key gives its name up.
    await sql`alter table idempotency_keys rename to idempotency_keys_old`.execute(db);
    if (dialect === 'postgres') {
      await sql`alter table idempotency_keys_old rename constraint idempotency_keys_pkey to idempotency_keys_old_pkey`.execute(
        db,
      );
    }
    await sql`drop index if exists idempotency_keys_expires_idx`.execute(db);
    await createTable(db, 'idempotency_keys', withCaller);
    if (withCaller) {
      await sql`insert into idempotency_keys (${columns}, caller, claim_token)
        select ${columns}, '', '' from idempotency_keys_old`.execute(db);
    } else {
      // Going back, keys used by several callers keep one row (any): the old key has no caller.
      await sql`insert into idempotency_keys (${columns})
        select ${columns} from idempotency_keys_old where true on conflict do nothing`.execute(db);
    }
    await sql`drop table idempotency_keys_old`.execute(db);
    await sql`create index idempotency_keys_expires_idx on idempotency_keys (expires_at)`.execute(db);
  }

  return {
    async up(db) {
      await rebuild(db, true);
    },
    async down(db) {
      await rebuild(db, false);
    },
  };
}
