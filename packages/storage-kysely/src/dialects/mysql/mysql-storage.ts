import type { Repositories } from '@cartwright/core/storage';
import { CompiledQuery, Kysely } from 'kysely';
import type mysql2 from 'mysql2';
import { KyselyStorage } from '../../kysely-storage';
import type { StatementExecutor } from '../../query/query-runner';
import { TrackedStatements } from '../../query/tracked-statements';
import type { Database } from '../../schema/database';
import { mysqlCapabilities } from './mysql-capabilities';
import { MariadbDialect } from './mysql-dialect';
import { mysqlDriver } from './mysql-driver';

export type MysqlStorageOptions =
  | {
      /** `mysql://user:password@host:port/database` */
      connectionString: string;
      /** Pool size. Default 10. */
      max?: number;
    }
  | {
      /**
       * A pool you own (mysql2's callback `createPool`, not `mysql2/promise`): the storage never
       * ends it. Create it with `flags: ['FOUND_ROWS']` and `decimalNumbers: true`.
       */
      pool: mysql2.Pool;
    };

/**
 * Every connection's session: ANSI quotes and `||` as concatenation (the shared repositories
 * write standard SQL), strict tables, and READ COMMITTED like the Postgres storage.
 */
const SESSION = [
  "set session sql_mode = 'ANSI_QUOTES,PIPES_AS_CONCAT,STRICT_ALL_TABLES,NO_ZERO_IN_DATE,NO_ZERO_DATE,ERROR_FOR_DIVISION_BY_ZERO,NO_ENGINE_SUBSTITUTION'",
  'set session transaction isolation level read committed',
];

/**
 * Storage on MariaDB 10.6+ (tested on 10.11) through a mysql2 pool.
 *
 * Transactions are READ COMMITTED. Invariants under concurrency are the same as on Postgres:
 * conditional UPDATEs whose WHERE is the guard, the order-number counter row, `SELECT … FOR
 * UPDATE` where a use case reads then writes one aggregate, and `FOR UPDATE SKIP LOCKED` for the
 * event outbox and webhook deliveries. `update … returning` runs as lock, update, read (see
 * mysql-dialect.ts). Affected-row counts are rows matched (`FOUND_ROWS`), as on the other engines.
 */
export class MysqlStorage extends KyselyStorage {
  readonly dialect = 'mysql' as const;

  constructor(options: MysqlStorageOptions) {
    const pool =
      'pool' in options
        ? options.pool
        : mysqlDriver().createPool({
            uri: options.connectionString,
            connectionLimit: options.max ?? 10,
            flags: ['FOUND_ROWS'],
            decimalNumbers: true,
            charset: 'utf8mb4_bin',
          });
    const owned = !('pool' in options);
    const db = new Kysely<Database>({
      dialect: new MariadbDialect({
        pool: owned ? pool : Object.assign(Object.create(pool) as mysql2.Pool, { end: () => {} }),
        onCreateConnection: async (connection) => {
          for (const statement of SESSION) await connection.executeQuery(CompiledQuery.raw(statement));
        },
      }),
    });
    super(db, mysqlCapabilities);
    // The read model's catalog-version triggers exist for SQLite and Postgres only
    // (storefront-read-model/catalog-versions.ts): without them a kept page could go stale, so
    // a MariaDB storage keeps none — from construction, as a storage that never migrates (another
    // process migrated) must not either.
    this.storefrontPages.resize({ maxEntries: 0 });
  }

  protected runTransaction<T>(
    body: (executor: StatementExecutor, repos: Repositories) => Promise<T>,
  ): Promise<T> {
    return this.db
      .transaction()
      .setIsolationLevel('read committed')
      .execute(async (trx) => {
        // Statements the callback left in flight are awaited, and any failure fails the
        // transaction (Kysely rolls back on the throw): query/tracked-statements.ts.
        const statements = new TrackedStatements(trx);
        const result = await body(statements, this.repositoriesOn(statements));
        await statements.settle();
        return result;
      });
  }
}

/** A Storage on MariaDB (or MySQL): a connection string (the storage owns its pool) or your own pool. */
export function mysqlStorage(options: MysqlStorageOptions): MysqlStorage {
  return new MysqlStorage(options);
}
