import { mkdirSync, realpathSync } from 'node:fs';
import { dirname, resolve } from 'node:path';
import BetterSqlite3 from 'better-sqlite3';
import { CompiledQuery, Kysely } from 'kysely';
import { AsyncMutex } from '../../async-mutex';
import { KyselyStorage } from '../../kysely-storage';
import type { Database } from '../../schema/database';
import { sqliteCapabilities } from './sqlite-capabilities';
import { CartwrightSqliteDialect } from './sqlite-dialect';
import { cachingDatabase } from './statement-cache';

export interface SqliteStorageOptions {
  /** A file path (its directory is created if missing) or `:memory:`. */
  filename: string;
  /** How long a writer waits for another process's write transaction (ms). Default 5000. */
  busyTimeoutMs?: number;
  /** Prepared statements kept per connection. Default 1000. */
  statementCacheSize?: number;
}

const BEGIN = CompiledQuery.raw('begin immediate');
const COMMIT = CompiledQuery.raw('commit');
const ROLLBACK = CompiledQuery.raw('rollback');

/**
 * One queue per database file per process, shared by every SqliteStorage opened on that file.
 * better-sqlite3 is synchronous: a connection that waits for the writer lock (busy_timeout)
 * blocks the whole event loop, so if the lock holder were another connection of the same
 * process it could never finish — the wait would always time out. Connections of one process
 * therefore queue here before BEGIN IMMEDIATE, and `busy_timeout` only ever waits for other
 * processes, which make progress on their own.
 */
const fileQueues = new Map<string, { mutex: AsyncMutex; users: number }>();

function acquireFileQueue(key: string): AsyncMutex {
  let entry = fileQueues.get(key);
  if (!entry) {
    entry = { mutex: new AsyncMutex(), users: 0 };
    fileQueues.set(key, entry);
  }
  entry.users++;
  return entry.mutex;
}

function releaseFileQueue(key: string): void {
  const entry = fileQueues.get(key);
  if (entry && --entry.users === 0) fileQueues.delete(key);
}

/**
 * Storage on SQLite through better-sqlite3 (one connection per instance).
 *
 * Transactions: every `transaction()` runs on the instance's single connection (Kysely queues
 * users of it) as `BEGIN IMMEDIATE … COMMIT`, so the writer lock is taken before the first read
 * and a transaction never has to upgrade a read lock (no SQLITE_BUSY mid-transaction); other
 * processes wait up to `busy_timeout`. File databases use WAL (readers never block the writer)
 * with `synchronous = NORMAL`; foreign keys are enforced.
 */
export class SqliteStorage extends KyselyStorage {
  readonly dialect = 'sqlite' as const;
  readonly #raw: BetterSqlite3.Database;
  readonly #fileKey: string | undefined;
  readonly #fileQueue: AsyncMutex | undefined;
  #closed = false;

  constructor(options: SqliteStorageOptions) {
    const memory = options.filename === ':memory:' || options.filename === '';
    if (!memory) mkdirSync(dirname(resolve(options.filename)), { recursive: true });
    const raw = new BetterSqlite3(options.filename, { timeout: options.busyTimeoutMs ?? 5000 });
    raw.pragma(`busy_timeout = ${Math.trunc(options.busyTimeoutMs ?? 5000)}`);
    if (!memory) raw.pragma('journal_mode = WAL');
    raw.pragma('synchronous = NORMAL');
    raw.pragma('foreign_keys = ON');
    const db = new Kysely<Database>({
      dialect: new CartwrightSqliteDialect({ database: cachingDatabase(raw, options.statementCacheSize) }),
    });
    super(db, sqliteCapabilities);
    this.#raw = raw;
    if (!memory) {
      this.#fileKey = realpathSync(options.filename);
      this.#fileQueue = acquireFileQueue(this.#fileKey);
    }
  }

  protected runTransaction<T>(body: (db: Kysely<Database>) => Promise<T>): Promise<T> {
    const run = () =>
      this.db.connection().execute(async (connection) => {
        await connection.executeQuery(BEGIN);
        let result: T;
        try {
          result = await body(connection);
        } catch (error) {
          // SQLite may already have rolled back (e.g. SQLITE_FULL); then there is nothing to undo.
          if (this.#raw.inTransaction) await connection.executeQuery(ROLLBACK);
          throw error;
        }
        try {
          await connection.executeQuery(COMMIT);
        } catch (error) {
          if (this.#raw.inTransaction) await connection.executeQuery(ROLLBACK);
          throw error;
        }
        return result;
      });
    return this.#fileQueue ? this.#fileQueue.run(run) : run();
  }

  override migrate(): Promise<void> {
    return this.#fileQueue ? this.#fileQueue.run(() => super.migrate()) : super.migrate();
  }

  override async close(): Promise<void> {
    if (this.#closed) return;
    this.#closed = true;
    if (this.#fileKey) releaseFileQueue(this.#fileKey);
    await super.close();
  }
}

/** A Storage on SQLite: a file path, or `:memory:` for a private in-memory database. */
export function sqliteStorage(options: SqliteStorageOptions): SqliteStorage {
  return new SqliteStorage(options);
}
