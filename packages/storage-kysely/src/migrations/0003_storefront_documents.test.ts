import { storefrontProductJson } from '@cartwright/core/internal';
import type { Repositories } from '@cartwright/core/storage';
import { type Kysely, Migrator, sql } from 'kysely';
import { describe, expect, it } from 'vitest';
import type { KyselyStorage } from '../kysely-storage';
import type { Database } from '../schema/database';
import { createMigrationProvider } from './migration-provider';
import { onEveryEngine } from './migration-test-engines';

const scope = { store_id: 'store_m3', mode: 'test' as const };
/** More than one backfill chunk (200). */
const PRODUCTS = 205;

/** Products written before 0003 (raw rows and the 0002 documents), as an upgraded database holds them. */
async function seedBefore0003(storage: KyselyStorage): Promise<void> {
  const db = storage.db as Kysely<Database>;
  const migrator = new Migrator({ db, provider: createMigrationProvider(storage.dialect) });
  const { error } = await migrator.migrateTo('0001_initial');
  if (error) throw error;
  const pg = storage.dialect === 'postgres';
  const json = (value: unknown) => (pg ? sql`${JSON.stringify(value)}::jsonb` : JSON.stringify(value));
  const bool = (value: boolean) => (pg ? sql.raw(String(value)) : sql.raw(value ? '1' : '0'));
  for (let i = 0; i < PRODUCTS; i++) {
    const id = `prod_${String(i).padStart(3, '0')}`;
    await sql`insert into products (store_id, mode, id, name, name_lower, slug, description, type, status, tags,
      attributes, metadata, price, currency, created_at, updated_at, deleted_at)
      values (${scope.store_id}, ${scope.mode}, ${id}, ${`Näme "${i}" \\`}, ${`näme "${i}" \\`}, ${`slug-${i}`}, null,
      'physical', ${i === 2 ? 'draft' : 'active'}, ${json(['t', `q"${i}`])}, ${json({ a: i })}, ${json({ m: '\u0001' })},
      ${i < 2 ? 1500 : null}, 'USD', ${1000 + i}, ${1000 + i}, ${i === 4 ? 2000 : null})`.execute(db);
  }
  // prod_000 and prod_001: an option value, an active and an inactive variant, an image.
  for (const product of ['prod_000', 'prod_001']) {
    await sql`insert into product_options values (${scope.store_id}, 'test', ${`opt_${product}`}, ${product}, 'Size', 0)`.execute(
      db,
    );
    await sql`insert into product_option_values
      values (${scope.store_id}, 'test', ${`val_${product}`}, ${`opt_${product}`}, ${product}, 'M', 0)`.execute(
      db,
    );
    for (const [n, active] of [
      [1, true],
      [2, false],
    ] as const) {
      const variant = `var_${product}_${n}`;
      await sql`insert into product_variants (store_id, mode, id, product_id, sku, barcode, price, compare_at_price, cost_price,
        currency, weight, is_active, option_value_ids, position, metadata, created_at, updated_at, deleted_at)
        values (${scope.store_id}, 'test', ${variant}, ${product}, ${`SKU-${variant}`}, null, 1500, null, 700, 'USD', 2.5,
        ${bool(active)}, ${json([`val_${product}`])}, ${n}, ${json({ v: n })}, 1, 1, null)`.execute(db);
      await sql`insert into inventory_items (store_id, mode, id, variant_id, product_id, track_inventory, allow_backorder,
        safety_stock, on_hand, reserved, metadata, created_at, updated_at)
        values (${scope.store_id}, 'test', ${`inv_${variant}`}, ${variant}, ${product}, ${bool(true)}, ${bool(n === 2)}, 1, 9, 2,
        ${json({ secret: 1 })}, 1, 1)`.execute(db);
    }
    await sql`insert into product_images (store_id, mode, id, product_id, url, alt_text, position, width, height, variant_ids)
      values (${scope.store_id}, 'test', ${`img_${product}`}, ${product}, 'https://x/1.png', null, 0, 10, 20,
      ${json([`var_${product}_1`])})`.execute(db);
  }
  const to2 = await migrator.migrateTo('0002_catalog_read_path');
  if (to2.error) throw to2.error;
}

/** The repository's `listStorefrontJson` (the Kysely storage always has it). */
function listText(r: Repositories) {
  const method = r.products.listStorefrontJson;
  if (!method) throw new Error('listStorefrontJson missing');
  return method.bind(r.products);
}

async function storefrontColumn(storage: KyselyStorage, productId: string): Promise<string | null> {
  const row = await (storage.db as Kysely<Database>)
    .selectFrom('product_documents')
    .select('storefront')
    .where('store_id', '=', scope.store_id)
    .where('product_id', '=', productId)
    .executeTakeFirst();
  return row?.storefront ?? null;
}

/** Every product of the scope through listStorefrontJson, checked against its aggregate. */
async function expectTextsCurrent(storage: KyselyStorage): Promise<number> {
  let seen = 0;
  let cursor: string | undefined;
  do {
    const request = {
      limit: 100,
      sort: 'created_at' as const,
      order: 'asc' as const,
      starting_after: cursor,
    };
    const [texts, objects] = await storage.read(async (r) => [
      await listText(r)(scope, {}, request),
      await r.products.list(scope, {}, request),
    ]);
    expect(texts).toEqual({ ...objects, data: objects.data.map(storefrontProductJson) });
    seen += objects.data.length;
    cursor = objects.next_cursor ?? undefined;
  } while (cursor !== undefined);
  return seen;
}

function describeBackfill(name: string, open: () => Promise<KyselyStorage>): void {
  describe(`0003_storefront_documents on ${name}`, () => {
    it("renders the templates of the live products already there (several chunks) and keeps their variants' names and image urls; lists serve them; missing or stale templates fall back", async () => {
      const storage = await open();
      try {
        await seedBefore0003(storage);
        await storage.migrate();
        const template = await storefrontColumn(storage, 'prod_000');
        // One slot (the inactive variant has none), the inventory's hidden fields left out.
        expect(template?.split('\u0001')).toHaveLength(2);
        expect(template).toContain(
          '"inventory":{"id":"inv_var_prod_000_1","variant_id":"var_prod_000_1",\u0001,',
        );
        expect(template).not.toContain('var_prod_000_2');
        expect(await storefrontColumn(storage, `prod_${PRODUCTS - 1}`)).toContain(
          `"id":"prod_${PRODUCTS - 1}"`,
        );
        expect(await storefrontColumn(storage, 'prod_004')).toBeNull(); // deleted before: not rendered
        expect(await expectTextsCurrent(storage)).toBe(PRODUCTS - 1);
        const text = await storage.read((r) =>
          listText(r)(scope, { status: 'active' }, { limit: 1, sort: 'created_at', order: 'asc' }),
        );
        expect(text?.data[0]).toContain(
          '"track_inventory":true,"allow_backorder":false,"safety_stock":null,"on_hand":null,"reserved":null,"available":7,"metadata":{}',
        );

        // The variants' kept option value names and image urls were computed too.
        const bought = await storage.read((r) =>
          r.products.getPurchasable(scope, ['var_prod_000_1', 'var_prod_001_2']),
        );
        expect(bought.map((p) => [p.variant.id, p.variant_name, p.image_url]).sort()).toEqual([
          ['var_prod_000_1', 'M', 'https://x/1.png'],
          ['var_prod_001_2', 'M', 'https://x/1.png'],
        ]);

        // A product without a template, or whose slot lost its inventory row, is rendered from its aggregate.
        const db = storage.db as Kysely<Database>;
        await db
          .updateTable('product_documents')
          .set({ storefront: null })
          .where('product_id', '=', 'prod_003')
          .execute();
        await db.deleteFrom('inventory_items').where('variant_id', '=', 'var_prod_001_1').execute();
        expect(await expectTextsCurrent(storage)).toBe(PRODUCTS - 1);

        // Writes through the repository render again.
        await storage.transaction((tx) =>
          tx.products.update(scope, 'prod_003', { name: 'Back', updated_at: 5 }),
        );
        expect(await storefrontColumn(storage, 'prod_003')).toContain('"name":"Back"');
      } finally {
        await storage.close();
      }
    });
  });
}

onEveryEngine(describeBackfill);
