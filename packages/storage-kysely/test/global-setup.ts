import { type PostgresServer, startPostgres } from '@cartwright/storage-conformance/postgres-server';
import type { TestProject } from 'vitest/node';

declare module 'vitest' {
  export interface ProvidedContext {
    /** URL of the throwaway (or CARTWRIGHT_TEST_PG_URL) server; '' when it could not start. */
    cartwrightPgUrl: string;
    /** Why the server could not start; '' when it runs. postgres.test.ts fails with it. */
    cartwrightPgError: string;
  }
}

/**
 * Starts one PostgreSQL per vitest run for the storage-kysely project (each test file then
 * creates its own database) and stops it afterwards, also when tests fail. A server that cannot
 * start fails the Postgres tests loudly instead of failing the SQLite ones too.
 */
export default async function setup(project: TestProject): Promise<() => Promise<void>> {
  let server: PostgresServer | undefined;
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
