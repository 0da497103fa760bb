import {
  createTestDatabase,
  dropTestDatabase,
  type PostgresServer,
  startPostgres,
} from '@cartwright/storage-conformance';
import { testRun } from '../../../storage-conformance/src/test-engines';

/** PostgreSQL is an engine of this run (test-engines.ts): the suites make its blocks only then. */
export const POSTGRES_IN_RUN = testRun().engines.includes('postgres');

/**
 * Throwaway PostgreSQL for this package's tests (the storage-conformance helper: a private
 * cluster, or `CARTWRIGHT_TEST_PG_URL`). Started on first use, one fresh database per call;
 * `stopPostgres()` drops the databases and stops the server. When no server can start, the
 * Postgres tests fail with the reason — they are never skipped silently.
 */
let server: Promise<PostgresServer> | undefined;
const databases: string[] = [];

export async function freshPostgresDatabase(): Promise<string> {
  server ??= startPostgres();
  const url = await createTestDatabase((await server).url);
  databases.push(url);
  return url;
}

export async function stopPostgres(): Promise<void> {
  if (!server) return;
  const running = await server.catch(() => undefined);
  for (const url of databases.splice(0)) await dropTestDatabase(url).catch(() => undefined);
  await running?.stop();
  server = undefined;
}
