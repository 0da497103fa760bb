import { makeCustomer, newId, newScope } from '@cartwright/storage-conformance';
import { Migrator, sql } from 'kysely';
import { describe, expect, it } from 'vitest';
import type { KyselyStorage } from '../kysely-storage';
import { createMigrationProvider } from './migration-provider';
import { indexNames, onEveryEngine } from './migration-test-engines';

async function customerColumns(storage: KyselyStorage): Promise<string[]> {
  const tables = await storage.db.introspection.getTables();
  const customers = tables.find((table) => table.name === 'customers');
  return customers?.columns.map((column) => column.name) ?? [];
}

async function tableNames(storage: KyselyStorage): Promise<string[]> {
  return (await storage.db.introspection.getTables()).map((table) => table.name);
}

function describeCustomerAccounts(name: string, open: () => Promise<KyselyStorage>): void {
  describe(`0015_customer_accounts on ${name}`, () => {
    it('adds customers.password_hash (null for existing customers) and password_resets with its unique indexes; down removes both', async () => {
      const storage = await open();
      try {
        const migrator = new Migrator({ db: storage.db, provider: createMigrationProvider(storage.dialect) });
        expect((await migrator.migrateTo('0014_rate_limit_counters')).error).toBeUndefined();
        expect(await customerColumns(storage)).not.toContain('password_hash');
        // A customer from before the migration.
        const scope = newScope();
        const before = makeCustomer(scope);
        await sql`insert into customers (store_id, mode, id, email, email_lower, search_text, status, tags, metadata, created_at, updated_at)
          values (${scope.store_id}, ${scope.mode}, ${before.id}, ${before.email}, ${before.email}, '', 'active', '[]', '{}', 1, 1)`.execute(
          storage.db,
        );

        await storage.migrate();
        expect(await customerColumns(storage)).toContain('password_hash');
        expect(await tableNames(storage)).toContain('password_resets');
        const indexes = await indexNames(storage);
        expect(indexes).toContain('password_resets_token_hash_unique');
        expect(indexes).toContain('password_resets_customer_unique');
        expect((await storage.read((r) => r.customers.get(scope, before.id)))?.password_hash).toBeNull();
        const reset = {
          ...scope,
          id: newId('pwr'),
          customer_id: before.id,
          token_hash: newId('hash'),
          expires_at: 3_600_000,
          created_at: 0,
        };
        await storage.transaction(async (tx) => {
          await tx.customers.update(scope, before.id, { password_hash: 'scrypt$x', updated_at: 2 });
          await tx.passwordResets.replace(reset);
        });

        const down = await migrator.migrateTo('0014_rate_limit_counters');
        expect(down.error).toBeUndefined();
        expect(down.results?.map((result) => result.migrationName)).toContain('0015_customer_accounts');
        expect(await customerColumns(storage)).not.toContain('password_hash');
        expect(await tableNames(storage)).not.toContain('password_resets');
        const kept = await sql<{ id: string }>`select id from customers where id = ${before.id}`.execute(
          storage.db,
        );
        expect(kept.rows).toEqual([{ id: before.id }]);

        await storage.migrate();
        expect((await storage.read((r) => r.customers.get(scope, before.id)))?.password_hash).toBeNull();
        expect(await storage.read((r) => r.passwordResets.consume(scope, reset.token_hash))).toBeNull();
      } finally {
        await storage.close();
      }
    });
  });
}

onEveryEngine(describeCustomerAccounts);
