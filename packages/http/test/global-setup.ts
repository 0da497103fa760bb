import type { TestProject } from 'vitest/node';
// The MariaDB helper is not part of the published package (yet): imported from its source.
import { type MariadbServer, startMariadb } from '../../storage-conformance/src/mariadb-server';
// One throwaway PostgreSQL per vitest run for this project (shared implementation).
import startPostgres from '../../storage-kysely/test/global-setup';
import { API_TARGETS } from './api/support/targets';

declare module 'vitest' {
  export interface ProvidedContext {
    /** URL of the throwaway (or CARTWRIGHT_TEST_MYSQL_URL) MariaDB; '' when it is not running. */
    cartwrightMysqlUrl: string;
    /** Why MariaDB could not start; '' when it runs or is not a target. The harness fails with it. */
    cartwrightMysqlError: string;
  }
}

/**
 * Starts one PostgreSQL and, when `mariadb` is one of the HTTP API targets
 * (`CARTWRIGHT_API_TARGETS`, default all three), one MariaDB per vitest run for the http project
 * (each `describeApi` block then creates its own database), both at once, and stops them
 * afterwards (by their PIDs), also when tests fail. A server that cannot start fails that
 * target's tests loudly with the reason instead of failing the others too.
 */
export default async function setup(project: TestProject): Promise<() => Promise<void>> {
  let mariadb: MariadbServer | undefined;
  const startingMariadb = API_TARGETS.includes('mariadb')
    ? startMariadb().then(
        (server) => {
          mariadb = server;
          project.provide('cartwrightMysqlUrl', server.url);
          project.provide('cartwrightMysqlError', '');
        },
        (error: unknown) => {
          project.provide('cartwrightMysqlUrl', '');
          project.provide('cartwrightMysqlError', error instanceof Error ? error.message : String(error));
        },
      )
    : Promise.resolve().then(() => {
        project.provide('cartwrightMysqlUrl', '');
        project.provide('cartwrightMysqlError', '');
      });
  const [stopPostgres] = await Promise.all([startPostgres(project), startingMariadb]);
  return async () => {
    await Promise.all([stopPostgres(), mariadb?.stop()]);
  };
}
