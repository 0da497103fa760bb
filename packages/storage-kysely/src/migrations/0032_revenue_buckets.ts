import { type CreateTableBuilder, type Kysely, type Migration, sql } from 'kysely';
import { columnDataType, type SchemaDialect } from './column-types';

/**
 * The dashboard's revenue pre-aggregate (decisions §23, issue 41: stats under 50 ms on a million
 * orders). Frozen once released: never import live code into a migration.
 *
 * `revenue_buckets (store_id, mode, currency, bucket, amount)`: the net revenue of each UTC quarter
 * hour (`bucket = created_at div 900000`) — the amounts of payments `completed` or `refunded`
 * that are not `exchange_credit`, by their `created_at`, minus the amounts of `completed` refunds by
 * theirs. Local midnights of every time zone in use are whole quarter hours, so any day of any
 * store's calendar is a whole range of buckets, and the dashboard sums at most 62 × 96 rows
 * instead of every payment of those days.
 *
 * Kept by triggers on `payments` and `refunds`, in the transaction of every write (insert, update of
 * a counted column, delete), so no code path can forget it and a rolled-back write leaves it
 * untouched: each event subtracts the old row's contribution and adds the new one's.
 * - SQLite: row triggers (its single writer serialises them).
 * - PostgreSQL: DEFERRED constraint triggers, like the catalog version's (0021): a bucket row is
 *   locked at COMMIT, after every other lock of the transaction, so concurrent checkouts that pay in
 *   the same quarter hour hold it only while committing. `when` clauses keep writes that change no
 *   revenue (a pending manual payment, a failed one, an update of another column) out of the queue.
 * - MariaDB: row triggers.
 * Filled from the existing rows once. `down` drops the triggers, the function and the table.
 */

const UNIT = 900_000;
const COUNTED_PAYMENT = (row: string) =>
  `${row}.status in ('completed', 'refunded') and ${row}.provider <> 'exchange_credit'`;
const COUNTED_REFUND = (row: string) => `${row}.status = 'completed'`;

/** The watched tables: what makes a row count and with which sign. */
const SOURCES = [
  { table: 'payments', counted: COUNTED_PAYMENT, sign: '' },
  { table: 'refunds', counted: COUNTED_REFUND, sign: '-' },
] as const;
const WATCHED_COLUMNS = 'store_id, mode, currency, amount, status, created_at';

const sqlite = {
  bucket: (row: string) => `${row}.created_at / ${UNIT}`,
  upsert:
    'on conflict (store_id, mode, currency, bucket) do update set amount = revenue_buckets.amount + excluded.amount',
};
const mysql = {
  bucket: (row: string) => `${row}.created_at div ${UNIT}`,
  upsert: 'on duplicate key update amount = amount + values(amount)',
};

/** One statement adding `sign × row.amount` to the row's bucket when the row counts. */
function addRow(
  dialect: typeof sqlite | typeof mysql,
  source: (typeof SOURCES)[number],
  row: 'new' | 'old',
  negate: boolean,
): string {
  const positive = (source.sign === '') !== negate;
  return `insert into revenue_buckets (store_id, mode, currency, bucket, amount)
    select ${row}.store_id, ${row}.mode, ${row}.currency, ${dialect.bucket(row)}, ${positive ? '' : '-'}${row}.amount
    ${dialect === mysql ? 'from dual ' : ''}where ${source.counted(row)}
    ${dialect.upsert};`;
}

const triggerName = (table: string, event: string) => `${table}_revenue_v1_${event}`;
const FUNCTION = 'cartwright_revenue_bucket_v1';

async function upRowTriggers(db: Kysely<unknown>, dialect: 'sqlite' | 'mysql'): Promise<void> {
  const d = dialect === 'sqlite' ? sqlite : mysql;
  for (const source of SOURCES) {
    const events = [
      ['insert', 'insert', [addRow(d, source, 'new', false)]],
      [
        'update',
        dialect === 'sqlite'
          ? `update of ${source.table === 'payments' ? `${WATCHED_COLUMNS}, provider` : WATCHED_COLUMNS}`
          : 'update',
        [addRow(d, source, 'old', true), addRow(d, source, 'new', false)],
      ],
      ['delete', 'delete', [addRow(d, source, 'old', true)]],
    ] as const;
    for (const [suffix, event, statements] of events) {
      await sql
        .raw(
          `create trigger ${triggerName(source.table, suffix)} after ${event} on ${source.table} for each row begin
            ${statements.join('\n')}
          end`,
        )
        .execute(db);
    }
  }
}

const functionOf = (table: string) => `${FUNCTION}_${table}`;

async function upPostgres(db: Kysely<unknown>): Promise<void> {
  for (const source of SOURCES) {
    const bucketRow = (row: 'old' | 'new', negate: boolean) => {
      const positive = (source.sign === '') !== negate;
      return `insert into revenue_buckets as b (store_id, mode, currency, bucket, amount)
                values (${row}.store_id, ${row}.mode, ${row}.currency, ${row}.created_at / ${UNIT}, ${positive ? '' : '-'}${row}.amount)
                on conflict (store_id, mode, currency, bucket) do update set amount = b.amount + excluded.amount;`;
    };
    await sql
      .raw(
        `create or replace function ${functionOf(source.table)}() returns trigger language plpgsql as $$
        begin
          if tg_op in ('UPDATE', 'DELETE') and ${source.counted('old')} then
            ${bucketRow('old', true)}
          end if;
          if tg_op in ('INSERT', 'UPDATE') and ${source.counted('new')} then
            ${bucketRow('new', false)}
          end if;
          return null;
        end $$`,
      )
      .execute(db);
    const columns = source.table === 'payments' ? `${WATCHED_COLUMNS}, provider` : WATCHED_COLUMNS;
    const changed = columns
      .split(', ')
      .map((column) => `old.${column} is distinct from new.${column}`)
      .join(' or ');
    const events = [
      ['insert', 'insert', `${source.counted('new')}`],
      [
        'update',
        `update of ${columns}`,
        `(${source.counted('old')} or ${source.counted('new')}) and (${changed})`,
      ],
      ['delete', 'delete', `${source.counted('old')}`],
    ] as const;
    for (const [suffix, event, when] of events) {
      await sql
        .raw(
          `create constraint trigger ${triggerName(source.table, suffix)} after ${event} on ${source.table}
            deferrable initially deferred for each row when (${when}) execute function ${functionOf(source.table)}()`,
        )
        .execute(db);
    }
  }
}

export function revenueBucketsMigration(dialect: SchemaDialect): Migration {
  const keyText = (column: string) => columnDataType(dialect, 'text', column);
  const bigint = columnDataType(dialect, 'bigint');
  return {
    async up(db) {
      let table = (db.schema.createTable('revenue_buckets') as CreateTableBuilder<string, string>)
        .addColumn('store_id', keyText('store_id'), (col) => col.notNull())
        .addColumn('mode', keyText('mode'), (col) => col.notNull())
        .addColumn('currency', keyText('currency'), (col) => col.notNull())
        .addColumn('bucket', bigint, (col) => col.notNull())
        .addColumn('amount', bigint, (col) => col.notNull())
        .addPrimaryKeyConstraint('revenue_buckets_pkey', ['store_id', 'mode', 'currency', 'bucket']);
      if (dialect === 'sqlite') table = table.modifyEnd(sql`strict`);
      await table.execute();
      const div = dialect === 'mysql' ? 'div' : '/';
      await sql
        .raw(
          `insert into revenue_buckets (store_id, mode, currency, bucket, amount)
            select store_id, mode, currency, bucket, sum(amount) from (
              select p.store_id, p.mode, p.currency, p.created_at ${div} ${UNIT} as bucket, p.amount
                from payments p where ${COUNTED_PAYMENT('p')}
              union all
              select r.store_id, r.mode, r.currency, r.created_at ${div} ${UNIT} as bucket, -r.amount
                from refunds r where ${COUNTED_REFUND('r')}
            ) counted group by store_id, mode, currency, bucket`,
        )
        .execute(db);
      if (dialect === 'postgres') await upPostgres(db);
      else await upRowTriggers(db, dialect);
    },
    async down(db) {
      for (const { table } of SOURCES) {
        for (const event of ['insert', 'update', 'delete']) {
          await sql
            .raw(
              dialect === 'postgres'
                ? `drop trigger if exists ${triggerName(table, event)} on ${table}`
                : `drop trigger if exists ${triggerName(table, event)}`,
            )
            .execute(db);
        }
      }
      if (dialect === 'postgres') {
        for (const { table } of SOURCES)
          await sql.raw(`drop function if exists ${functionOf(table)}()`).execute(db);
      }
      await db.schema.dropTable('revenue_buckets').execute();
    },
  };
}
