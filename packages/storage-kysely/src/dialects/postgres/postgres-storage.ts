import type { Repositories } from '@cartwright/core/storage';
import { Kysely, PostgresDialect } from 'kysely';
import type pg from 'pg';
import { KyselyStorage } from '../../kysely-storage';
import type { StatementExecutor } from '../../query/query-runner';
import type { Database } from '../../schema/database';
import { PipelinedTransaction, type PostgresTraffic, type QueryConfigOf } from './pipelined-transaction';
import { postgresCapabilities } from './postgres-capabilities';
import { pgDriver, queryConfigs, wrapPool } from './postgres-pool';

export type PostgresStorageOptions =
  | {
      connectionString: string;
      /** Pool size. Default 10. */
      max?: number;
    }
  | {
      /** A pool you own: the storage never ends it. */
      pool: pg.Pool;
    };

/**
 * Storage on PostgreSQL through a pg Pool.
 *
 * Transactions are READ COMMITTED. Invariants under concurrency are conditional UPDATEs whose
 * WHERE is the guard (inventory, discount usage, status compare-and-set), the order-number
 * counter row, `SELECT … FOR UPDATE` where a use case reads then writes one aggregate
 * (`forUpdate`), and `FOR UPDATE SKIP LOCKED` for the event outbox and webhook deliveries.
 *
 * Transactions are pipelined (pipelined-transaction.ts): BEGIN travels with the first
 * statement, statements started together share a round trip, and the statements still in
 * flight when the callback returns travel with COMMIT. That needs pg ≥ 8.23 and a pool whose
 * clients are in pipeline mode — the pool this storage creates; with a pool you pass in,
 * statements go one at a time unless you created it with `pipeline: true`.
 */
export class PostgresStorage extends KyselyStorage {
  readonly dialect = 'postgres' as const;
  readonly #pool: pg.Pool;
  readonly #configOf: QueryConfigOf;
  readonly #traffic: PostgresTraffic = { statements: 0, roundTrips: 0 };
  readonly #endPool: () => Promise<void>;

  constructor(options: PostgresStorageOptions) {
    const owned = !('pool' in options);
    const pool =
      'pool' in options
        ? options.pool
        : new (pgDriver().Pool)({
            connectionString: options.connectionString,
            max: options.max ?? 10,
            pipeline: true,
          } as pg.PoolConfig);
    // An idle pooled connection the server ends (a restart, an administrator, a proxy's idle
    // timeout) is an 'error' event of the pool, which would otherwise crash the process: the pool
    // has already discarded that client, and the next query opens a new connection.
    if (owned) pool.on('error', () => {});
    let isTemplateSql: (sql: string) => boolean = () => false;
    const configOf = queryConfigs((sql) => isTemplateSql(sql));
    const traffic: PostgresTraffic = { statements: 0, roundTrips: 0 };
    // Ends the pool once, when the storage created it (Kysely's destroy calls this only if a
    // query went through Kysely; `close` calls it in any case).
    let ended: Promise<void> | undefined;
    const end = (): Promise<void> => {
      if (!owned) return Promise.resolve();
      ended ??= pool.end();
      return ended;
    };
    const db = new Kysely<Database>({
      dialect: new PostgresDialect({ pool: wrapPool(pool, { end, configOf, traffic }) }),
    });
    super(db, postgresCapabilities);
    this.#pool = pool;
    this.#endPool = end;
    this.#configOf = configOf;
    this.#traffic = traffic;
    isTemplateSql = (sql) => this.templates.sqlTexts.has(sql);
  }

  /**
   * Statements and round trips this storage has sent since it was created (monotonic counters,
   * for metrics and benchmarks: read twice and subtract). See {@link PostgresTraffic}.
   */
  stats(): PostgresTraffic {
    return { ...this.#traffic };
  }

  override async close(): Promise<void> {
    await super.close();
    await this.#endPool();
  }

  protected async runTransaction<T>(
    body: (executor: StatementExecutor, repos: Repositories) => Promise<T>,
  ): Promise<T> {
    const client = await this.#pool.connect();
    const transaction = new PipelinedTransaction(client, this.#configOf, this.#traffic);
    let broken: Error | undefined;
    try {
      transaction.begin();
      let result: T;
      try {
        result = await body(transaction, this.repositoriesOn(transaction));
      } catch (error) {
        await transaction.rollback().catch((failed: unknown) => {
          broken = failed instanceof Error ? failed : new Error(String(failed));
        });
        throw error;
      }
      await transaction.commit();
      return result;
    } finally {
      client.release(broken);
    }
  }
}

/** A Storage on PostgreSQL: a connection string (the storage owns its pool) or your own pool. */
export function postgresStorage(options: PostgresStorageOptions): PostgresStorage {
  return new PostgresStorage(options);
}
