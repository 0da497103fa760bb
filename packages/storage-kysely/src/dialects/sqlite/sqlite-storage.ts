import { mkdirSync, realpathSync } from 'node:fs';
import { dirname, resolve } from 'node:path';
import type { Repositories } from '@cartwright/core/storage';
import type BetterSqlite3 from 'better-sqlite3';
import { CompiledQuery, Kysely } from 'kysely';
import { AsyncMutex } from '../../async-mutex';
import { KyselyStorage } from '../../kysely-storage';
import type { StatementExecutor } from '../../query/query-runner';
import { TrackedStatements } from '../../query/tracked-statements';
import type { Database } from '../../schema/database';
import { explainAddonError, loadDriver, requireHere } from '../load-driver';
import { sqliteCapabilities } from './sqlite-capabilities';
import { configureConnection } from './sqlite-connection';
import { CartwrightSqliteDialect } from './sqlite-dialect';
import { ConnectionGate, rootExecutor, runStatement, transactionExecutor } from './sqlite-executor';
import { cachingDatabase } from './statement-cache';

export interface SqliteStorageOptions {
  /** A file path (its directory is created if missing) or `:memory:`. */
  filename: string;
  /** How long a writer waits for another process's write transaction (ms). Default 5000. */
  busyTimeoutMs?: number;
  /** Prepared statements kept per connection. Default 1000. */
  statementCacheSize?: number;
}

/** better-sqlite3, loaded when the first storage opens (an optional peer dependency). */
function openDatabase(filename: string, timeout: number): BetterSqlite3.Database {
  const Driver = loadDriver<typeof BetterSqlite3>('better-sqlite3', () =>
    typeof require === 'function' ? require('better-sqlite3') : requireHere('better-sqlite3'),
  );
  try {
    return new Driver(filename, { timeout });
  } catch (error) {
    throw explainAddonError(error);
  }
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
 * Transactions: every `transaction()` runs on the instance's single connection (a
 * {@link ConnectionGate} hands it to one transaction, or one statement outside a transaction, at
 * a time) as `BEGIN IMMEDIATE … COMMIT`, so the writer lock is taken before the first read
 * and a transaction never has to upgrade a read lock (no SQLITE_BUSY mid-transaction); other
 * processes wait up to `busy_timeout`. File databases use WAL (readers never block the writer)
 * with `synchronous = NORMAL` and a 10,000-page auto-checkpoint; foreign keys are enforced
 * (sqlite-connection.ts). Statements run straight on
 * better-sqlite3's cached prepared statements (Kysely builds and compiles them once, and runs
 * the migrations).
 */
export class SqliteStorage extends KyselyStorage {
  readonly dialect = 'sqlite' as const;
  readonly #raw: BetterSqlite3.Database;
  readonly #fileKey: string | undefined;
  readonly #fileQueue: AsyncMutex | undefined;
  readonly #gate = new ConnectionGate();
  readonly #statements: ReturnType<typeof cachingDatabase>;
  #txExecutor: TrackedStatements | undefined;
  #txRepositories: Repositories | undefined;
  #closed = false;

  constructor(options: SqliteStorageOptions) {
    const memory = options.filename === ':memory:' || options.filename === '';
    if (!memory) mkdirSync(dirname(resolve(options.filename)), { recursive: true });
    const busyTimeoutMs = options.busyTimeoutMs ?? 5000;
    const raw = openDatabase(options.filename, busyTimeoutMs);
    configureConnection(raw, { memory, busyTimeoutMs });
    const statements = cachingDatabase(raw, options.statementCacheSize);
    const db = new Kysely<Database>({ dialect: new CartwrightSqliteDialect({ database: statements }) });
    super(db, sqliteCapabilities);
    this.#raw = raw;
    this.#statements = statements;
    if (!memory) {
      this.#fileKey = realpathSync(options.filename);
      this.#fileQueue = acquireFileQueue(this.#fileKey);
    }
  }

  /**
   * Statements outside a transaction run straight on better-sqlite3 (no Kysely driver on the
   * hot path), at once when no transaction holds the connection.
   */
  protected override rootExecutor(): StatementExecutor {
    return rootExecutor(this.#statements, this.#gate);
  }

  protected runTransaction<T>(
    body: (executor: StatementExecutor, repos: Repositories) => Promise<T>,
  ): Promise<T> {
    return this.#holdingConnection(() => this.#transaction(body));
  }

  /** Runs `fn` holding the connection (after this process's other connections to the file). */
  #holdingConnection<T>(fn: () => Promise<T>): Promise<T> {
    const run = async () => {
      await this.#gate.acquire();
      try {
        return await fn();
      } finally {
        this.#gate.release();
      }
    };
    return this.#fileQueue ? this.#fileQueue.run(run) : run();
  }

  /** BEGIN IMMEDIATE … COMMIT on the connection this transaction holds. */
  async #transaction<T>(body: (executor: StatementExecutor, repos: Repositories) => Promise<T>): Promise<T> {
    if (!this.#txExecutor || !this.#txRepositories) {
      this.#txExecutor = new TrackedStatements(transactionExecutor(this.#statements));
      this.#txRepositories = this.repositoriesOn(this.#txExecutor);
    }
    const statements = this.#txExecutor;
    statements.reset();
    runStatement(this.#statements, BEGIN);
    let result: T;
    try {
      result = await body(statements, this.#txRepositories);
      // A statement that failed fails the transaction, awaited by the callback or not
      // (query/tracked-statements.ts).
      await statements.settle();
    } catch (error) {
      // SQLite may already have rolled back (e.g. SQLITE_FULL); then there is nothing to undo.
      if (this.#raw.inTransaction) runStatement(this.#statements, ROLLBACK);
      throw error;
    }
    try {
      runStatement(this.#statements, COMMIT);
    } catch (error) {
      if (this.#raw.inTransaction) runStatement(this.#statements, ROLLBACK);
      throw error;
    }
    return result;
  }

  override migrate(): Promise<void> {
    return this.#holdingConnection(() => super.migrate());
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
