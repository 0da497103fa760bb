import { statSync } from 'node:fs';
import BetterSqlite3 from 'better-sqlite3';
import pg from 'pg';

/**
 * Whether a window of requests wrote anything to the database, measured from outside the
 * server process.
 *
 * PostgreSQL: `pg_stat_database` of the bench database (xact_commit, xact_rollback, and
 * tup_inserted + tup_updated + tup_deleted — the sum of n_tup_ins/upd/del over all its tables,
 * rolled-back rows included), read from a connection to the `postgres` database so the reads
 * are not counted; the statistics are flushed by each backend lazily (≤ 1 s after it goes
 * idle), so a reading is taken once two readings 1 s apart agree. WAL: `pg_current_wal_lsn()`
 * right before and right after the window (cluster-wide), and — where the `pg_walinspect`
 * extension can be created in the `postgres` database — the WAL records of the window by
 * resource manager, record type and relation.
 *
 * SQLite file: `PRAGMA data_version` from a second, read-only connection (it changes when any
 * other connection commits a change) and the sizes of the database file and its WAL.
 */
export interface PostgresWrites {
  kind: 'postgres';
  xact_commit: number;
  xact_rollback: number;
  tuples_written: number;
  /** Tables with rows written in the window (n_tup_ins/upd/del of pg_stat_user_tables). */
  tables: Array<{ table: string; inserted: number; updated: number; deleted: number }>;
  wal_bytes: number;
  /** Null when pg_walinspect is not available. */
  wal_records: Array<{
    resource_manager: string;
    record_type: string;
    relation: string;
    records: number;
    bytes: number;
  }> | null;
}

export interface SqliteFileWrites {
  kind: 'sqlite-file';
  data_version_changed: boolean;
  db_bytes_delta: number;
  wal_bytes_delta: number;
}

export type WriteEvidence = PostgresWrites | SqliteFileWrites;

export interface WriteProbe {
  /** Call right before the window; resolves when the baseline is read. */
  start(): Promise<void>;
  /** Call right after the window (all answers in). */
  stop(): Promise<WriteEvidence>;
  close(): Promise<void>;
}

interface DbCounters {
  xact_commit: number;
  xact_rollback: number;
  tup_inserted: number;
  tup_updated: number;
  tup_deleted: number;
}

type TableCounters = Map<string, { inserted: number; updated: number; deleted: number }>;

function withDatabase(url: string, database: string): string {
  const parsed = new URL(url);
  parsed.pathname = `/${database}`;
  return parsed.toString();
}

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

export async function postgresWriteProbe(databaseUrl: string): Promise<WriteProbe> {
  const database = decodeURIComponent(new URL(databaseUrl).pathname.slice(1));
  const observer = new pg.Client({ connectionString: withDatabase(databaseUrl, 'postgres') });
  await observer.connect();
  let walinspect = true;
  try {
    await observer.query('create extension if not exists pg_walinspect');
  } catch {
    walinspect = false;
  }

  const counters = async (): Promise<DbCounters> => {
    const { rows } = await observer.query(
      `select xact_commit, xact_rollback, tup_inserted, tup_updated, tup_deleted
         from pg_stat_database where datname = $1`,
      [database],
    );
    const row = rows[0] as Record<string, string>;
    return {
      xact_commit: Number(row.xact_commit),
      xact_rollback: Number(row.xact_rollback),
      tup_inserted: Number(row.tup_inserted),
      tup_updated: Number(row.tup_updated),
      tup_deleted: Number(row.tup_deleted),
    };
  };
  /** The counters once every backend has flushed (two readings 1 s apart agree; ≤ 20 s). */
  const settled = async (): Promise<DbCounters> => {
    let last = await counters();
    for (let i = 0; i < 20; i++) {
      await sleep(1000);
      const now = await counters();
      if (JSON.stringify(now) === JSON.stringify(last)) return now;
      last = now;
    }
    return last;
  };
  const lsn = async (): Promise<string> =>
    (await observer.query<{ lsn: string }>('select pg_current_wal_insert_lsn()::text as lsn')).rows[0]?.lsn ??
    '0/0';
  /** Per-table counters, read on a short-lived connection to the bench database (its exit flushes its own stats). */
  const tableCounters = async (): Promise<TableCounters> => {
    const client = new pg.Client({ connectionString: databaseUrl });
    await client.connect();
    try {
      const { rows } = await client.query(
        'select relname, n_tup_ins, n_tup_upd, n_tup_del from pg_stat_user_tables',
      );
      return new Map(
        rows.map((r: Record<string, string>) => [
          r.relname as string,
          { inserted: Number(r.n_tup_ins), updated: Number(r.n_tup_upd), deleted: Number(r.n_tup_del) },
        ]),
      );
    } finally {
      await client.end();
    }
  };
  const relationNames = async (): Promise<Map<string, string>> => {
    const client = new pg.Client({ connectionString: databaseUrl });
    await client.connect();
    try {
      const { rows } = await client.query(
        `select (select oid from pg_database where datname = current_database())::text as db,
                pg_relation_filenode(c.oid)::text as filenode, c.relname, c.relkind
           from pg_class c where pg_relation_filenode(c.oid) is not null`,
      );
      return new Map(
        rows.map((r: Record<string, string>) => [`${r.db}/${r.filenode}`, `${r.relname} (${r.relkind})`]),
      );
    } finally {
      await client.end();
    }
  };

  let tablesBefore: TableCounters = new Map();
  let before: DbCounters | null = null;
  let lsnBefore = '0/0';
  return {
    async start() {
      tablesBefore = await tableCounters();
      before = await settled();
      lsnBefore = await lsn();
    },
    async stop(): Promise<WriteEvidence> {
      const lsnAfter = await lsn();
      const after = await settled();
      const tablesAfter = await tableCounters();
      if (!before) throw new Error('stop() before start()');
      const walBytes = Number(
        (
          await observer.query<{ bytes: string }>('select pg_wal_lsn_diff($1, $2)::text as bytes', [
            lsnAfter,
            lsnBefore,
          ])
        ).rows[0]?.bytes ?? 0,
      );
      const tables: PostgresWrites['tables'] = [];
      for (const [table, now] of tablesAfter) {
        const was = tablesBefore.get(table) ?? { inserted: 0, updated: 0, deleted: 0 };
        const delta = {
          table,
          inserted: now.inserted - was.inserted,
          updated: now.updated - was.updated,
          deleted: now.deleted - was.deleted,
        };
        if (delta.inserted || delta.updated || delta.deleted) tables.push(delta);
      }
      let walRecords: PostgresWrites['wal_records'] = null;
      if (walinspect && walBytes > 0) {
        try {
          const names = await relationNames();
          const { rows } = await observer.query(
            'select resource_manager, record_type, record_length, block_ref from pg_get_wal_records_info($1, $2)',
            [lsnBefore, lsnAfter],
          );
          const groups = new Map<string, NonNullable<PostgresWrites['wal_records']>[number]>();
          for (const row of rows as Array<Record<string, string>>) {
            const rel = /rel \d+\/(\d+)\/(\d+)/.exec(row.block_ref ?? '');
            const relation = rel
              ? (names.get(`${rel[1]}/${rel[2]}`) ?? `other database/relation ${rel[1]}/${rel[2]}`)
              : '–';
            const key = `${row.resource_manager}|${row.record_type}|${relation}`;
            const group = groups.get(key) ?? {
              resource_manager: String(row.resource_manager),
              record_type: String(row.record_type),
              relation,
              records: 0,
              bytes: 0,
            };
            group.records++;
            group.bytes += Number(row.record_length);
            groups.set(key, group);
          }
          walRecords = [...groups.values()].sort((a, b) => b.bytes - a.bytes);
        } catch (error) {
          console.log(`  (pg_walinspect: ${(error as Error).message})`);
        }
      }
      return {
        kind: 'postgres',
        xact_commit: after.xact_commit - before.xact_commit,
        xact_rollback: after.xact_rollback - before.xact_rollback,
        tuples_written:
          after.tup_inserted -
          before.tup_inserted +
          (after.tup_updated - before.tup_updated) +
          (after.tup_deleted - before.tup_deleted),
        tables,
        wal_bytes: walBytes,
        wal_records: walRecords,
      };
    },
    close: () => observer.end(),
  };
}

function sizeOf(path: string): number {
  try {
    return statSync(path).size;
  } catch {
    return 0;
  }
}

export function sqliteFileWriteProbe(file: string): WriteProbe {
  const observer = new BetterSqlite3(file, { readonly: true, fileMustExist: true });
  const version = () => Number(observer.pragma('data_version', { simple: true }));
  let before = { version: 0, db: 0, wal: 0 };
  return {
    async start() {
      before = { version: version(), db: sizeOf(file), wal: sizeOf(`${file}-wal`) };
    },
    async stop() {
      return {
        kind: 'sqlite-file',
        data_version_changed: version() !== before.version,
        db_bytes_delta: sizeOf(file) - before.db,
        wal_bytes_delta: sizeOf(`${file}-wal`) - before.wal,
      };
    },
    async close() {
      observer.close();
    },
  };
}
