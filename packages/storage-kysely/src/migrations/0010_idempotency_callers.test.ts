import { Migrator, sql } from 'kysely';
import { describe, expect, it } from 'vitest';
import type { KyselyStorage } from '../kysely-storage';
import { createMigrationProvider } from './migration-provider';
import { indexNames, onEveryEngine } from './migration-test-engines';

const row = (key: string) => sql`insert into idempotency_keys
  (store_id, mode, key, operation, request_hash, state, response_status, response_body, locked_until, created_at, expires_at)
  values ('store_1', 'test', ${key}, 'POST /v1/x', 'h', 'completed', 201, '{}', 1, 1, 100)`;

function describeCallers(name: string, open: () => Promise<KyselyStorage>): void {
  describe(`0010_idempotency_callers on ${name}`, () => {
    it('adds caller (in the primary key) and claim_token, keeping older rows unreplayable; down restores the old key', async () => {
      const storage = await open();
      try {
        const migrator = new Migrator({ db: storage.db, provider: createMigrationProvider(storage.dialect) });
        expect((await migrator.migrateTo('0009_inventory_low_stock')).error).toBeUndefined();
        await row('k1').execute(storage.db);
        await storage.migrate();

        const rows = await sql<{ key: string; caller: string; claim_token: string }>`
          select key, caller, claim_token from idempotency_keys`.execute(storage.db);
        expect(rows.rows).toEqual([{ key: 'k1', caller: '', claim_token: '' }]);
        expect(await indexNames(storage)).toContain('idempotency_keys_expires_idx');
        // The same key for two callers: two rows.
        for (const caller of ['key_a', 'key_b']) {
          await sql`insert into idempotency_keys
            (store_id, mode, key, caller, claim_token, operation, request_hash, state, locked_until, created_at, expires_at)
            values ('store_1', 'test', 'k2', ${caller}, 't', 'POST /v1/x', 'h', 'in_progress', 1, 1, 100)`.execute(
            storage.db,
          );
        }
        await expect(
          sql`insert into idempotency_keys
            (store_id, mode, key, caller, claim_token, operation, request_hash, state, locked_until, created_at, expires_at)
            values ('store_1', 'test', 'k2', 'key_a', 't2', 'POST /v1/x', 'h', 'in_progress', 1, 1, 100)`.execute(
            storage.db,
          ),
        ).rejects.toThrow();

        const down = await migrator.migrateTo('0009_inventory_low_stock');
        expect(down.error).toBeUndefined();
        expect(down.results?.map((r) => r.migrationName)).toContain('0010_idempotency_callers');
        const back = await sql<{ key: string }>`select key from idempotency_keys order by key`.execute(
          storage.db,
        );
        expect(back.rows.map((r) => r.key)).toEqual(['k1', 'k2']);
        expect(await indexNames(storage)).toContain('idempotency_keys_expires_idx');
        await storage.migrate();
      } finally {
        await storage.close();
      }
    });
  });
}

onEveryEngine(describeCallers);
