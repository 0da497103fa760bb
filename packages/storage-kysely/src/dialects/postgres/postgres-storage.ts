import type { Repositories } from '@cartwright/core/storage';
import { Kysely, PostgresDialect } from 'kysely';
import type pg from 'pg';
import { KyselyStorage } from '../../kysely-storage';
import type { StatementExecutor } from '../../query/query-runner';
import type { Database } from '../../schema/database';
import { postgresCapabilities } from './postgres-capabilities';
import { pgDriver, wrapPool } from './postgres-pool';

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
 */
export class PostgresStorage extends KyselyStorage {
  readonly dialect = 'postgres' as const;

  constructor(options: PostgresStorageOptions) {
    const owned = !('pool' in options);
    const pool =
      'pool' in options
        ? options.pool
        : new (pgDriver().Pool)({ connectionString: options.connectionString, max: options.max ?? 10 });
    let isTemplateSql: (sql: string) => boolean = () => false;
    const db = new Kysely<Database>({
      dialect: new PostgresDialect({
        pool: wrapPool(pool, { owned, isTemplateSql: (sql) => isTemplateSql(sql) }),
      }),
    });
    super(db, postgresCapabilities);
    isTemplateSql = (sql) => this.templates.sqlTexts.has(sql);
  }

  protected runTransaction<T>(
    body: (executor: StatementExecutor, repos: Repositories) => Promise<T>,
  ): Promise<T> {
    return this.db
      .transaction()
      .setIsolationLevel('read committed')
      .execute((trx) => body(trx, this.repositoriesOn(trx)));
  }
}

/** A Storage on PostgreSQL: a connection string (the storage owns its pool) or your own pool. */
export function postgresStorage(options: PostgresStorageOptions): PostgresStorage {
  return new PostgresStorage(options);
}
