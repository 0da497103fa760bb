import { type Kysely, Migrator, sql } from 'kysely';
import { describe, expect, it } from 'vitest';
import type { KyselyStorage } from '../kysely-storage';
import type { Database } from '../schema/database';
import { createMigrationProvider } from './migration-provider';
import { onEveryEngine } from './migration-test-engines';

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
  // prod_1's children: an option with a value, a variant with its inventory, an image.
  const yes = storage.dialect === 'postgres' ? sql`true` : sql`1`;
  const no = storage.dialect === 'postgres' ? sql`false` : sql`0`;
  const json = (value: unknown) =>
    storage.dialect === 'postgres' ? sql`${JSON.stringify(value)}::jsonb` : JSON.stringify(value);
  await sql`insert into product_options values (${scope.store_id}, 'test', 'opt_1', 'prod_1', 'Size', 0)`.execute(
    db,
  );
  await sql`insert into product_option_values
    values (${scope.store_id}, 'test', 'optval_1', 'opt_1', 'prod_1', 'M', 0)`.execute(db);
  await sql`insert into product_variants (store_id, mode, id, product_id, sku, barcode, price, compare_at_price, cost_price,
    currency, weight, is_active, option_value_ids, position, metadata, created_at, updated_at, deleted_at)
    values (${scope.store_id}, 'test', 'var_1', 'prod_1', 'SKU-1', null, 1500, null, 700, 'USD', 2.5, ${yes},
    ${json(['optval_1'])}, 0, ${json({ a: 1 })}, 1, 1, null)`.execute(db);
  await sql`insert into inventory_items (store_id, mode, id, variant_id, product_id, track_inventory, allow_backorder,
    safety_stock, on_hand, reserved, metadata, created_at, updated_at)
    values (${scope.store_id}, 'test', 'inv_1', 'var_1', 'prod_1', ${yes}, ${no}, 1, 9, 2, ${json({})}, 1, 1)`.execute(
    db,
  );
  await sql`insert into product_images (store_id, mode, id, product_id, url, alt_text, position, width, height, variant_ids)
    values (${scope.store_id}, 'test', 'img_1', 'prod_1', 'https://x/1.png', null, 0, 10, 20, ${json(['var_1'])})`.execute(
    db,
  );
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

async function documentCount(storage: KyselyStorage): Promise<number> {
  const row = await (storage.db as Kysely<Database>)
    .selectFrom('product_documents')
    .select((eb) => eb.fn.countAll<number | string>().as('n'))
    .executeTakeFirstOrThrow();
  return Number(row.n);
}

function describeBackfill(name: string, open: () => Promise<KyselyStorage>): void {
  describe(`0002_catalog_read_path on ${name}`, () => {
    it('counts the live products already there (per status and distinct tag, per mode; deleted ones left out) and creates the documents table without rendering documents', async () => {
      const storage = await open();
      try {
        await seedBeforeCounters(storage);
        const migrator = new Migrator({ db: storage.db, provider: createMigrationProvider(storage.dialect) });
        const to2 = await migrator.migrateTo('0002_catalog_read_path');
        expect(to2.error).toBeUndefined();
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
        // Documents are derived data the application renders after the migrations
        // (`storage.migrate()`), never a migration: the table is created empty.
        expect(await documentCount(storage)).toBe(0);

        // The repositories carry on from the backfilled counts.
        await storage.migrate();
        expect(
          await storage.transaction((tx) =>
            tx.products.delete({ store_id: scope.store_id, mode: 'test' }, 'prod_1', 9),
          ),
        ).toBe(true);
        expect((await counters(storage)).statuses).toContainEqual({ mode: 'test', status: 'active', n: 1 });
        expect((await counters(storage)).tags).toContainEqual({
          mode: 'test',
          tag: 'red',
          status: 'active',
          n: 1,
        });

        const down = await migrator.migrateTo('0001_initial');
        expect(down.error).toBeUndefined();
        await expect(sql`select n from product_counts`.execute(storage.db)).rejects.toThrow(/product_counts/);
      } finally {
        await storage.close();
      }
    });
  });
}

onEveryEngine(describeBackfill);
