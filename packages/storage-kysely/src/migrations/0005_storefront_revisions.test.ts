import type { Scope } from '@cartwright/core';
import { storefrontProductJson } from '@cartwright/core/internal';
import type { Repositories } from '@cartwright/core/storage';
import { makeImage, makeProduct } from '@cartwright/storage-conformance';
import { type Kysely, Migrator, sql } from 'kysely';
import { describe, expect, it } from 'vitest';
import type { KyselyStorage } from '../kysely-storage';
import type { Database } from '../schema/database';
import { createMigrationProvider } from './migration-provider';
import { onEveryEngine } from './migration-test-engines';

const scope: Scope = { store_id: 'store_m5', mode: 'test' };

/** Two products written before 0005 (raw rows at 0001; 0002-0004 build their documents and templates). */
async function seedBefore0005(storage: KyselyStorage, migrator: Migrator): Promise<void> {
  const db = storage.db as Kysely<Database>;
  const first = await migrator.migrateTo('0001_initial');
  if (first.error) throw first.error;
  const json = (value: unknown) =>
    storage.dialect === 'postgres' ? sql`${JSON.stringify(value)}::jsonb` : JSON.stringify(value);
  for (const id of ['prod_old0', 'prod_old1']) {
    await sql`insert into products (store_id, mode, id, name, name_lower, slug, description, type, status, tags,
      attributes, metadata, price, currency, created_at, updated_at, deleted_at)
      values (${scope.store_id}, ${scope.mode}, ${id}, ${id}, ${id}, ${id}, null, 'physical', 'active', ${json([])},
      ${json({})}, ${json({})}, null, 'USD', 1, 1, null)`.execute(db);
  }
  const to4 = await migrator.migrateTo('0004_checkout_write_path');
  if (to4.error) throw to4.error;
}

async function revisions(storage: KyselyStorage): Promise<Record<string, number>> {
  const rows = await (storage.db as Kysely<Database>)
    .selectFrom('product_documents')
    .select(['product_id', 'storefront_rev'])
    .where('store_id', '=', scope.store_id)
    .execute();
  return Object.fromEntries(rows.map((row) => [row.product_id, Number(row.storefront_rev)]));
}

function listText(r: Repositories) {
  const method = r.products.listStorefrontJson;
  if (!method) throw new Error('listStorefrontJson missing');
  return method.bind(r.products);
}

function describeRevisions(name: string, open: () => Promise<KyselyStorage>): void {
  describe(`0005_storefront_revisions on ${name}`, () => {
    it('adds storefront_rev (0 on existing rows, templates kept); every render bumps it by 1, stock writes do not; down drops it', async () => {
      const storage = await open();
      try {
        const migrator = new Migrator({
          db: storage.db,
          provider: createMigrationProvider(storage.dialect),
        });
        await seedBefore0005(storage, migrator);
        const before = await (storage.db as Kysely<Database>)
          .selectFrom('product_documents')
          .select(['product_id', 'storefront'])
          .where('store_id', '=', scope.store_id)
          .orderBy('product_id')
          .execute();
        expect(before.every((row) => row.storefront?.includes('"id":"prod_old'))).toBe(true);
        await storage.migrate();
        expect(await revisions(storage)).toEqual({ prod_old0: 0, prod_old1: 0 });
        const after = await (storage.db as Kysely<Database>)
          .selectFrom('product_documents')
          .select(['product_id', 'storefront'])
          .where('store_id', '=', scope.store_id)
          .orderBy('product_id')
          .execute();
        expect(after).toEqual(before);

        // Renders: an old product's update; a new product's insert and child writes.
        await storage.transaction((tx) =>
          tx.products.update(scope, 'prod_old0', { name: 'N', updated_at: 2 }),
        );
        await storage.transaction((tx) =>
          tx.products.update(scope, 'prod_old0', { name: 'M', updated_at: 3 }),
        );
        const product = makeProduct(scope, { id: 'prod_new', prices: [1000, 1200] });
        const [first, second] = product.variants;
        await storage.transaction((tx) => tx.products.insert(product));
        expect(await revisions(storage)).toEqual({ prod_old0: 2, prod_old1: 0, prod_new: 1 });
        await storage.transaction((tx) => tx.products.insertImage(scope, makeImage(product, 0)));
        await storage.transaction((tx) =>
          tx.products.updateVariant(scope, first?.id as string, { price: 900, updated_at: 4 }),
        );
        await storage.transaction((tx) => tx.products.deleteVariant(scope, second?.id as string, 5));
        expect((await revisions(storage)).prod_new).toBe(4);
        // Stock writes leave the template (and its revision) alone.
        await storage.transaction((tx) =>
          tx.inventory.reserve(scope, [{ variant_id: first?.id as string, quantity: 1 }], 6),
        );
        expect(await revisions(storage)).toEqual({ prod_old0: 2, prod_old1: 0, prod_new: 4 });
        // A rolled-back render leaves the committed revision.
        await expect(
          storage.transaction(async (tx) => {
            await tx.products.update(scope, 'prod_old1', { name: 'X', updated_at: 7 });
            throw new Error('roll back');
          }),
        ).rejects.toThrow('roll back');
        expect((await revisions(storage)).prod_old1).toBe(0);

        const request = { limit: 10, sort: 'created_at' as const, order: 'asc' as const };
        const [texts, objects] = await storage.read(async (r) => [
          await listText(r)(scope, {}, request),
          await r.products.list(scope, {}, request),
        ]);
        expect(texts.data).toEqual(objects.data.map(storefrontProductJson));
        expect(texts.data[0]).toContain('"name":"M"');

        const down = await migrator.migrateTo('0004_checkout_write_path');
        expect(down.error).toBeUndefined();
        await expect(sql`select storefront_rev from product_documents`.execute(storage.db)).rejects.toThrow(
          /storefront_rev/,
        );
      } finally {
        await storage.close();
      }
    });
  });
}

onEveryEngine(describeRevisions);
