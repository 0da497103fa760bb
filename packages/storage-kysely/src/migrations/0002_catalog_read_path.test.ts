import { createTestDatabase, dropTestDatabase } from '@cartwright/storage-conformance';
import { type Kysely, Migrator, sql } from 'kysely';
import { afterAll, describe, expect, inject, it } from 'vitest';
import type { KyselyStorage } from '../kysely-storage';
import { postgresStorage } from '../postgres';
import type { Database } from '../schema/database';
import { sqliteStorage } from '../sqlite';
import { createMigrationProvider } from './migration-provider';

const scope = { store_id: 'store_m2', mode: 'test' };

/** Products written before 0002 (raw rows, as a database upgraded from 0001 holds them). */
const PRODUCTS: Array<{ id: string; status: string; tags: unknown[]; deleted?: boolean; mode?: string }> = [
  { id: 'prod_1', status: 'active', tags: ['red', 'sale'] },
  { id: 'prod_2', status: 'active', tags: ['red', 'red'] },
  { id: 'prod_3', status: 'draft', tags: ['blue', 'ünï "q"'] },
  { id: 'prod_4', status: 'archived', tags: [] },
  { id: 'prod_5', status: 'active', tags: ['red'], deleted: true },
  { id: 'prod_6', status: 'active', tags: ['red'], mode: 'live' },
];

async function seedBeforeCounters(storage: KyselyStorage): Promise<void> {
  const db = storage.db as Kysely<Database>;
  const migrator = new Migrator({ db, provider: createMigrationProvider(storage.dialect) });
  const { error } = await migrator.migrateTo('0001_initial');
  if (error) throw error;
  for (const [i, p] of PRODUCTS.entries()) {
    const json = (value: unknown) =>
      storage.dialect === 'postgres' ? sql`${JSON.stringify(value)}::jsonb` : JSON.stringify(value);
    await sql`insert into products (store_id, mode, id, name, name_lower, slug, description, type, status, tags,
      attributes, metadata, price, currency, created_at, updated_at, deleted_at)
      values (${scope.store_id}, ${p.mode ?? scope.mode}, ${p.id}, ${p.id}, ${p.id}, ${`slug-${i}`}, null, 'physical',
      ${p.status}, ${json(p.tags)}, ${json({})}, ${json({})}, null, 'USD', 1, 1, ${p.deleted ? 2 : null})`.execute(
      db,
    );
  }
}

async function counters(storage: KyselyStorage) {
  const db = storage.db as Kysely<Database>;
  const statuses = await db
    .selectFrom('product_counts')
    .select(['mode', 'status', 'n'])
    .where('store_id', '=', scope.store_id)
    .orderBy('mode')
    .orderBy('status')
    .execute();
  const tags = await db
    .selectFrom('product_tag_counts')
    .select(['mode', 'tag', 'status', 'n'])
    .where('store_id', '=', scope.store_id)
    .orderBy('mode')
    .orderBy('tag')
    .orderBy('status')
    .execute();
  return { statuses, tags };
}

function describeBackfill(name: string, open: () => Promise<KyselyStorage>): void {
  describe(`0002_catalog_read_path on ${name}`, () => {
    it('counts the live products already there: per status and per distinct tag, per mode; deleted ones left out', async () => {
      const storage = await open();
      try {
        await seedBeforeCounters(storage);
        await storage.migrate();
        expect(await counters(storage)).toEqual({
          statuses: [
            { mode: 'live', status: 'active', n: 1 },
            { mode: 'test', status: 'active', n: 2 },
            { mode: 'test', status: 'archived', n: 1 },
            { mode: 'test', status: 'draft', n: 1 },
          ],
          tags: [
            { mode: 'live', tag: 'red', status: 'active', n: 1 },
            { mode: 'test', tag: 'blue', status: 'draft', n: 1 },
            { mode: 'test', tag: 'red', status: 'active', n: 2 },
            { mode: 'test', tag: 'sale', status: 'active', n: 1 },
            { mode: 'test', tag: 'ünï "q"', status: 'draft', n: 1 },
          ],
        });
        // The repositories carry on from the backfilled counts.
        const page = await storage.read((r) =>
          r.products.list(
            { store_id: scope.store_id, mode: 'test' },
            { status: 'active', tags: ['red'] },
            { limit: 1, sort: 'created_at', order: 'desc' },
          ),
        );
        expect(page.total_count).toBe(2);
        expect(
          await storage.transaction((tx) =>
            tx.products.delete({ store_id: scope.store_id, mode: 'test' }, 'prod_1', 9),
          ),
        ).toBe(true);
        expect((await counters(storage)).statuses).toContainEqual({ mode: 'test', status: 'active', n: 1 });
      } finally {
        await storage.close();
      }
    });
  });
}

describeBackfill('sqlite', async () => sqliteStorage({ filename: ':memory:' }));

const databases: string[] = [];
afterAll(async () => {
  for (const url of databases) await dropTestDatabase(url);
});
describeBackfill('postgres', async () => {
  const error = inject('cartwrightPgError');
  if (error) throw new Error(error);
  const url = await createTestDatabase(inject('cartwrightPgUrl'));
  databases.push(url);
  return postgresStorage({ connectionString: url });
});
