import pg from 'pg';

/**
 * The Postgres the bench runs against: a throwaway cluster started by `startPostgres()` of
 * `@cartwright/storage-conformance/postgres-server` (or the server of `CARTWRIGHT_TEST_PG_URL`;
 * `run-all` starts one cluster and hands its URL to every script that way). Each script makes
 * its own database with `createTestDatabase`.
 *
 * Postgres is optional: when no server can be started, the Postgres figures are skipped with a
 * printed reason instead of failing the whole run.
 */
export interface PostgresTarget {
  /** URL of a fresh, empty database. */
  databaseUrl: string;
  /** `PostgreSQL 15.x`. */
  version: string;
  /** A further fresh database on the same server. */
  newDatabase(): Promise<string>;
  stop(): Promise<void>;
}

export async function acquirePostgres(enabled: boolean): Promise<PostgresTarget | null> {
  if (!enabled) {
    console.log('postgres: skipped (--no-postgres)');
    return null;
  }
  try {
    const { startPostgres, createTestDatabase } = await import(
      '@cartwright/storage-conformance/postgres-server'
    );
    const server = await startPostgres();
    const databaseUrl = await createTestDatabase(server.url);
    const version = await serverVersion(databaseUrl);
    return {
      databaseUrl,
      version,
      newDatabase: () => createTestDatabase(server.url),
      stop: () => server.stop(),
    };
  } catch (error) {
    console.log(`postgres: SKIPPED — could not start or reach a server: ${(error as Error).message}`);
    return null;
  }
}

/** Runs `body` on a client of `url` connected for it, and ends the client afterwards. */
export async function withPgClient<T>(url: string, body: (client: pg.Client) => Promise<T>): Promise<T> {
  const client = new pg.Client({ connectionString: url });
  await client.connect();
  try {
    return await body(client);
  } finally {
    await client.end();
  }
}

function serverVersion(url: string): Promise<string> {
  return withPgClient(url, async (client) => {
    const result = await client.query<{ server_version: string }>('show server_version');
    return `PostgreSQL ${result.rows[0]?.server_version ?? '?'}`;
  });
}
