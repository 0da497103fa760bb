import { type Kysely, Migrator, sql } from 'kysely';
import { describe, expect, it } from 'vitest';
import type { KyselyStorage } from '../kysely-storage';
import type { Database } from '../schema/database';
import { createMigrationProvider } from './migration-provider';
import { indexNames, onEveryEngine } from './migration-test-engines';

const scope = { store_id: 'store_m3', mode: 'test' as const };
const PRODUCTS = 5;

/** Products written before 0003 (raw rows, and a document row of 0002 for each), as an upgraded database holds them. */
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
  // A second image of prod_000, attached to its second variant only.
  await sql`insert into product_images (store_id, mode, id, product_id, url, alt_text, position, width, height, variant_ids)
    values (${scope.store_id}, 'test', 'img_prod_000_b', 'prod_000', 'https://x/2.png', null, 1, 10, 20,
    ${json(['var_prod_000_2'])})`.execute(db);
  const to2 = await migrator.migrateTo('0002_catalog_read_path');
  if (to2.error) throw to2.error;
  const text = pg ? sql`'[]'::json` : sql`'[]'`;
  for (let i = 0; i < PRODUCTS; i++) {
    await sql`insert into product_documents (store_id, mode, product_id, children, variant_ids)
      values (${scope.store_id}, ${scope.mode}, ${`prod_${String(i).padStart(3, '0')}`}, ${text}, ${text})`.execute(
      db,
    );
  }
}

/** The storefront column of every document row of the scope, by product id. */
async function storefrontColumns(storage: KyselyStorage): Promise<Record<string, string | null>> {
  // `storefront` exists from 0003 until 0017 (not in today's Database type).
  const { rows } = await sql<{ product_id: string; storefront: string | null }>`select product_id, storefront
    from product_documents where store_id = ${scope.store_id}`.execute(storage.db);
  return Object.fromEntries(rows.map((row) => [row.product_id, row.storefront]));
}

/** The variants' kept option value names (parsed) and image urls, by variant id. */
async function purchaseColumns(storage: KyselyStorage): Promise<Record<string, [unknown, string | null]>> {
  const rows = await (storage.db as Kysely<Database>)
    .selectFrom('product_variants')
    .select(['id', 'option_value_names', 'image_url'])
    .where('store_id', '=', scope.store_id)
    .orderBy('id')
    .execute();
  return Object.fromEntries(
    rows.map((row) => [
      row.id,
      [
        typeof row.option_value_names === 'string'
          ? JSON.parse(row.option_value_names)
          : row.option_value_names,
        row.image_url,
      ],
    ]),
  );
}

function describeBackfill(name: string, open: () => Promise<KyselyStorage>): void {
  describe(`0003_storefront_documents on ${name}`, () => {
    it("adds the storefront column (left null: templates are rendered by the application, not the migration), the product stock index and the variants' kept names and image urls (computed); down drops them", async () => {
      const storage = await open();
      try {
        await seedBefore0003(storage);
        const migrator = new Migrator({ db: storage.db, provider: createMigrationProvider(storage.dialect) });
        const to3 = await migrator.migrateTo('0003_storefront_documents');
        expect(to3.error).toBeUndefined();
        expect(await storefrontColumns(storage)).toEqual(
          Object.fromEntries(
            Array.from({ length: PRODUCTS }, (_, i) => [`prod_${String(i).padStart(3, '0')}`, null]),
          ),
        );
        expect((await indexNames(storage)).has('inventory_items_product_idx')).toBe(true);
        // Names in option_value_ids order; the attached image, else the product's first.
        expect(await purchaseColumns(storage)).toEqual({
          var_prod_000_1: [['M'], 'https://x/1.png'],
          var_prod_000_2: [['M'], 'https://x/2.png'],
          var_prod_001_1: [['M'], 'https://x/1.png'],
          var_prod_001_2: [['M'], 'https://x/1.png'],
        });

        const down = await migrator.migrateTo('0002_catalog_read_path');
        expect(down.error).toBeUndefined();
        expect((await indexNames(storage)).has('inventory_items_product_idx')).toBe(false);
        await expect(sql`select storefront from product_documents`.execute(storage.db)).rejects.toThrow(
          /storefront/,
        );
        await expect(sql`select image_url from product_variants`.execute(storage.db)).rejects.toThrow(
          /image_url/,
        );
      } finally {
        await storage.close();
      }
    });
  });
}

onEveryEngine(describeBackfill);
