import { Migrator, sql } from 'kysely';
import { describe, expect, it } from 'vitest';
import type { KyselyStorage } from '../kysely-storage';
import { createMigrationProvider } from './migration-provider';
import { indexNames, onEveryEngine } from './migration-test-engines';

function describeRateLimitCounters(name: string, open: () => Promise<KyselyStorage>): void {
  describe(`0014_rate_limit_counters on ${name}`, () => {
    it('creates rate_limit_counters (unlogged on PostgreSQL) with its window index; down drops it', async () => {
      const storage = await open();
      try {
        await storage.migrate();
        expect(await indexNames(storage)).toContain('rate_limit_counters_window_idx');
        expect(await storage.transaction((tx) => tx.rateLimits.hit('failed_auth 203.0.113.1', 60_000))).toBe(
          1,
        );
        if (storage.dialect === 'postgres') {
          const persistence = await sql<{ relpersistence: string }>`
            select relpersistence from pg_class where relname = 'rate_limit_counters'`.execute(storage.db);
          expect(persistence.rows[0]?.relpersistence).toBe('u');
        }
        const migrator = new Migrator({ db: storage.db, provider: createMigrationProvider(storage.dialect) });
        const down = await migrator.migrateTo('0013_webhook_secret_rotation');
        expect(down.error).toBeUndefined();
        expect(down.results?.map((result) => result.migrationName)).toContain('0014_rate_limit_counters');
        expect(await indexNames(storage)).not.toContain('rate_limit_counters_window_idx');
        await storage.migrate();
        expect(await storage.transaction((tx) => tx.rateLimits.hit('failed_auth 203.0.113.1', 60_000))).toBe(
          1,
        );
      } finally {
        await storage.close();
      }
    });
  });
}

onEveryEngine(describeRateLimitCounters);
