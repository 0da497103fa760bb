import { createTestDatabase } from '@cartwright/storage-conformance/postgres-server';
import pg from 'pg';
import { describe, expect, inject, test } from 'vitest';
import { ConfigError, openStorage, readConfig } from '../src/index';
import { DATABASE_TARGETS } from './support/serve-process';

describe('DATABASE_POOL_SIZE', () => {
  test('defaults to 10 and takes a whole number from 1 to 1000; anything else is a configuration error', () => {
    expect(readConfig({ DATABASE_URL: ':memory:' }).databasePoolSize).toBe(10);
    expect(readConfig({ DATABASE_URL: ':memory:', DATABASE_POOL_SIZE: ' 4 ' }).databasePoolSize).toBe(4);
    for (const bad of ['0', '-1', '2.5', 'ten', '1001']) {
      expect(() => readConfig({ DATABASE_URL: ':memory:', DATABASE_POOL_SIZE: bad })).toThrow(ConfigError);
      expect(() => readConfig({ DATABASE_URL: ':memory:', DATABASE_POOL_SIZE: bad })).toThrow(
        /DATABASE_POOL_SIZE must be a whole number from 1 to 1000/,
      );
    }
  });

  // When PostgreSQL is a CLI target of the run (test-engines.ts); not made otherwise.
  if (!DATABASE_TARGETS.includes('postgres')) return;
  test('bounds the connections a process opens to PostgreSQL', async () => {
    const url = await createTestDatabase(inject('cartwrightPgUrl'));
    const storage = await openStorage(url, { poolSize: 2 });
    const admin = new pg.Client({ connectionString: url });
    await admin.connect();
    try {
      await storage.migrate();
      let most = 0;
      const connections = async () =>
        (
          await admin.query<{ n: number }>(
            'select count(*)::int as n from pg_stat_activity where datname = current_database() and pid <> pg_backend_pid()',
          )
        ).rows[0]?.n ?? 0;
      await Promise.all(
        Array.from({ length: 8 }, () =>
          storage.transaction(async (tx) => {
            await tx.stores.get('store_none');
            most = Math.max(most, await connections());
            await new Promise((resolve) => setTimeout(resolve, 30));
          }),
        ),
      );
      expect(most).toBeGreaterThanOrEqual(1);
      expect(most).toBeLessThanOrEqual(2);
    } finally {
      await admin.end();
      await storage.close();
    }
  });
});
