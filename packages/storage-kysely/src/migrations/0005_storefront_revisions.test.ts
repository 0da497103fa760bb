import type { Scope } from '@cartwright/core';
import { type Kysely, Migrator, sql } from 'kysely';
import { describe, expect, it } from 'vitest';
import type { KyselyStorage } from '../kysely-storage';
import type { Database } from '../schema/database';
import { createMigrationProvider } from './migration-provider';
import { indexNames, onEveryEngine } from './migration-test-engines';

const scope: Scope = { store_id: 'store_m5', mode: 'test' };

/**
 * Two products written before 0005 with their document rows and rendered templates (raw rows,
 * as a database upgraded to 0004 holds them).
 */
async function seedBefore0005(storage: KyselyStorage, migrator: Migrator): Promise<void> {
  const db = storage.db as Kysely<Database>;
  const to4 = await migrator.migrateTo('0004_checkout_write_path');
  if (to4.error) throw to4.error;
  const pg = storage.dialect === 'postgres';
  const json = (value: unknown) => (pg ? sql`${JSON.stringify(value)}::jsonb` : JSON.stringify(value));
  const text = (value: unknown) => (pg ? sql`${JSON.stringify(value)}::json` : JSON.stringify(value));
  for (const id of ['prod_old0', 'prod_old1']) {
    await sql`insert into products (store_id, mode, id, name, name_lower, slug, description, type, status, tags,
      attributes, metadata, price, currency, created_at, updated_at, deleted_at)
      values (${scope.store_id}, ${scope.mode}, ${id}, ${id}, ${id}, ${id}, null, 'physical', 'active', ${json([])},
      ${json({})}, ${json({})}, null, 'USD', 1, 1, null)`.execute(db);
    await sql`insert into product_documents (store_id, mode, product_id, children, variant_ids, storefront)
      values (${scope.store_id}, ${scope.mode}, ${id}, ${text([[], [], [], []])}, ${text([])},
      ${`{"id":"${id}"}`})`.execute(db);
  }
}

async function documents(storage: KyselyStorage) {
  // `storefront` exists from 0003 until 0017 (not in today's Database type).
  const { rows } = await sql<{ product_id: string; storefront: string | null }>`select product_id, storefront
    from product_documents where store_id = ${scope.store_id} order by product_id`.execute(storage.db);
  return rows;
}

async function revisions(storage: KyselyStorage): Promise<Record<string, number>> {
  const { rows } = await sql<{
    product_id: string;
    storefront_rev: number | string;
  }>`select product_id, storefront_rev
    from product_documents where store_id = ${scope.store_id}`.execute(storage.db);
  return Object.fromEntries(rows.map((row) => [row.product_id, Number(row.storefront_rev)]));
}

function describeRevisions(name: string, open: () => Promise<KyselyStorage>): void {
  describe(`0005_storefront_revisions on ${name}`, () => {
    it('adds storefront_rev (0 on existing rows and by default, templates kept) and its index; down drops both', async () => {
      const storage = await open();
      try {
        const migrator = new Migrator({ db: storage.db, provider: createMigrationProvider(storage.dialect) });
        await seedBefore0005(storage, migrator);
        const before = await documents(storage);
        expect(before.map((row) => row.storefront)).toEqual(['{"id":"prod_old0"}', '{"id":"prod_old1"}']);

        const to5 = await migrator.migrateTo('0005_storefront_revisions');
        expect(to5.error).toBeUndefined();
        expect(await revisions(storage)).toEqual({ prod_old0: 0, prod_old1: 0 });
        expect(await documents(storage)).toEqual(before);
        expect((await indexNames(storage)).has('product_documents_rev_idx')).toBe(true);
        // A row written without a revision starts at 0 too.
        await sql`insert into product_documents (store_id, mode, product_id, children, variant_ids)
          values (${scope.store_id}, ${scope.mode}, 'prod_new', '[]', '[]')`.execute(storage.db);
        expect((await revisions(storage)).prod_new).toBe(0);

        const down = await migrator.migrateTo('0004_checkout_write_path');
        expect(down.error).toBeUndefined();
        await expect(sql`select storefront_rev from product_documents`.execute(storage.db)).rejects.toThrow(
          /storefront_rev/,
        );
        expect((await indexNames(storage)).has('product_documents_rev_idx')).toBe(false);
        expect((await documents(storage)).filter((row) => row.product_id !== 'prod_new')).toEqual(before);
      } finally {
        await storage.close();
      }
    });
  });
}

onEveryEngine(describeRevisions);
