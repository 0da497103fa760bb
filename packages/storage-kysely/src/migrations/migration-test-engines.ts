import { createTestDatabase, dropTestDatabase } from '@cartwright/storage-conformance/postgres-server';
import { sql } from 'kysely';
import { afterAll, inject } from 'vitest';
import { testRun } from '../../../storage-conformance/src/test-engines';
import type { KyselyStorage } from '../kysely-storage';
import { postgresStorage } from '../postgres';
import { sqliteStorage } from '../sqlite';

/**
 * Test support for the migration tests: registers `describeFor` once per engine, with `open`
 * giving a fresh database each call — SQLite in memory, and a new PostgreSQL database on the
 * throwaway test cluster (dropped when the file's tests are done) when PostgreSQL is an engine of
 * the run (test-engines.ts).
 */
export function onEveryEngine(describeFor: (name: string, open: () => Promise<KyselyStorage>) => void): void {
  describeFor('sqlite', async () => sqliteStorage({ filename: ':memory:' }));
  if (!testRun().engines.includes('postgres')) return;
  const databases: string[] = [];
  afterAll(async () => {
    for (const url of databases) await dropTestDatabase(url);
  });
  describeFor('postgres', async () => {
    const error = inject('cartwrightPgError');
    if (error) throw new Error(error);
    const url = await createTestDatabase(inject('cartwrightPgUrl'));
    databases.push(url);
    return postgresStorage({ connectionString: url });
  });
}

/** Every index of the database (SQLite: all; PostgreSQL: the public schema), by name. */
export async function indexNames(storage: KyselyStorage): Promise<Set<string>> {
  const query =
    storage.dialect === 'sqlite'
      ? sql<{ name: string }>`select name from sqlite_master where type = 'index'`
      : sql<{ name: string }>`select indexname as name from pg_indexes where schemaname = 'public'`;
  return new Set((await query.execute(storage.db)).rows.map((row) => row.name));
}
