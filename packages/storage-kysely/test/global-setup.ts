import { type MariadbServer, startMariadb } from '@cartwright/storage-conformance/mariadb-server';
import { type PostgresServer, startPostgres } from '@cartwright/storage-conformance/postgres-server';
import type { TestProject } from 'vitest/node';
import { testRun } from '../../storage-conformance/src/test-engines';

declare module 'vitest' {
  export interface ProvidedContext {
    /** URL of the throwaway (or CARTWRIGHT_TEST_PG_URL) server; '' when it is not running. */
    cartwrightPgUrl: string;
    /** Why the server is not running; '' when it runs. The Postgres tests fail with it. */
    cartwrightPgError: string;
    /** URL of the throwaway (or CARTWRIGHT_TEST_MYSQL_URL) MariaDB; '' when it is not running. */
    cartwrightMysqlUrl: string;
    /** Why MariaDB is not running; '' when it runs. The MariaDB tests fail with it. */
    cartwrightMysqlError: string;
  }
}

/**
 * The throwaway database servers of a vitest project (its global setup), shared by the
 * storage-kysely, http and cli projects: each starts the servers of the engines its suites run
 * on in this run (test-engines.ts) — each test file then creates its own databases in them — and
 * stops them afterwards, also when tests fail. A server that cannot start fails that engine's
 * tests loudly with the reason instead of failing the others too.
 */
export async function provideServers(
  project: TestProject,
  wanted: { postgres: boolean; mariadb: boolean },
): Promise<() => Promise<void>> {
  const [stopPostgres, stopMariadb] = await Promise.all([
    providePostgres(project, wanted.postgres),
    provideMariadb(project, wanted.mariadb),
  ]);
  return async () => {
    await Promise.all([stopPostgres(), stopMariadb()]);
  };
}

/** One PostgreSQL when `wanted`: `cartwrightPgUrl`, or `cartwrightPgError` saying why not. */
export async function providePostgres(project: TestProject, wanted: boolean): Promise<() => Promise<void>> {
  let server: PostgresServer | undefined;
  if (!wanted) {
    project.provide('cartwrightPgUrl', '');
    project.provide(
      'cartwrightPgError',
      'postgres is not an engine of these suites in this run (test-engines.ts)',
    );
    return async () => {};
  }
  try {
    server = await startPostgres();
    project.provide('cartwrightPgUrl', server.url);
    project.provide('cartwrightPgError', '');
  } catch (error) {
    project.provide('cartwrightPgUrl', '');
    project.provide('cartwrightPgError', error instanceof Error ? error.message : String(error));
  }
  return async () => {
    await server?.stop();
  };
}

/** One MariaDB when `wanted`: `cartwrightMysqlUrl`, or `cartwrightMysqlError` saying why not. */
export async function provideMariadb(project: TestProject, wanted: boolean): Promise<() => Promise<void>> {
  let server: MariadbServer | undefined;
  if (!wanted) {
    project.provide('cartwrightMysqlUrl', '');
    project.provide(
      'cartwrightMysqlError',
      'mariadb is not an engine of these suites in this run (test-engines.ts)',
    );
    return async () => {};
  }
  try {
    server = await startMariadb();
    project.provide('cartwrightMysqlUrl', server.url);
    project.provide('cartwrightMysqlError', '');
  } catch (error) {
    project.provide('cartwrightMysqlUrl', '');
    project.provide('cartwrightMysqlError', error instanceof Error ? error.message : String(error));
  }
  return async () => {
    await server?.stop();
  };
}

/**
 * The storage-kysely project: PostgreSQL when it is an engine of the run (mariadb.test.ts starts
 * its own MariaDB, so that the other files never wait for it).
 */
export default function setup(project: TestProject): Promise<() => Promise<void>> {
  return providePostgres(project, testRun().engines.includes('postgres'));
}
