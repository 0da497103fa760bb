import type { Scope } from '@cartwright/core';
import { storefrontProductJson } from '@cartwright/core/internal';
import type { Repositories } from '@cartwright/core/storage';
import { makeProduct } from '@cartwright/storage-conformance';
import { Migrator } from 'kysely';
import { describe, expect, it } from 'vitest';
import type { KyselyStorage } from '../kysely-storage';
import { storefrontStockSql } from '../repositories/catalog-documents';
import { createMigrationProvider } from './migration-provider';
import { indexNames, onEveryEngine } from './migration-test-engines';

const scope: Scope = { store_id: 'store_m6', mode: 'test' };

/** EXPLAIN QUERY PLAN details of a SQLite statement, joined with ' | '. */
async function sqlitePlan(storage: KyselyStorage, statement: string, args: unknown[]): Promise<string> {
  const compiled = { sql: `explain query plan ${statement}`, parameters: args, query: { kind: 'RawNode' } };
  const result = await storage.db.executeQuery<{ detail: string }>(compiled as never);
  return result.rows.map((row) => row.detail).join(' | ');
}

function listText(r: Repositories) {
  const method = r.products.listStorefrontJson;
  if (!method) throw new Error('listStorefrontJson missing');
  return method.bind(r.products);
}

const PAGE = { limit: 2, sort: 'created_at' as const, order: 'desc' as const };

function describePageIndexes(name: string, open: () => Promise<KyselyStorage>): void {
  describe(`0006_storefront_page_indexes on ${name}`, () => {
    it('adds the partial page indexes (stock index SQLite only); pages keep their texts and follow live stock; down drops them', async () => {
      const storage = await open();
      try {
        // Pages are cached by catalog version, whose table comes with 0008: off at this schema.
        storage.storefrontPages.resize({ maxEntries: 0 });
        const migrator = new Migrator({ db: storage.db, provider: createMigrationProvider(storage.dialect) });
        const to5 = await migrator.migrateTo('0005_storefront_revisions');
        expect(to5.error).toBeUndefined();
        const first = makeProduct(scope, { id: 'prod_m6a', prices: [1000, 1200] });
        const second = makeProduct(scope, { id: 'prod_m6b', prices: [500] });
        await storage.transaction(async (tx) => {
          await tx.products.insert(first);
          await tx.products.insert(second);
        });
        const gone = makeProduct(scope, { id: 'prod_m6c', prices: [700] });
        await storage.transaction((tx) => tx.products.insert(gone));
        await storage.transaction((tx) => tx.products.delete(scope, gone.id, 2));
        // The object path (aggregate documents) does not read the new indexes: the texts expected.
        const before = await storage.read((r) => r.products.list(scope, { status: 'active' }, PAGE));
        expect(before.data).toHaveLength(2);

        const to6 = await migrator.migrateTo('0006_storefront_page_indexes');
        expect(to6.error).toBeUndefined();
        const names = await indexNames(storage);
        expect(names.has('products_storefront_page_idx')).toBe(true);
        expect(names.has('inventory_items_stock_idx')).toBe(storage.dialect === 'sqlite');

        // The page statement (indexes only on SQLite) gives the texts of the same products.
        const after = await storage.read((r) => listText(r)(scope, { status: 'active' }, PAGE));
        expect(after).toEqual({ ...before, data: before.data.map(storefrontProductJson) });
        expect(after.data.join()).not.toContain(gone.id);

        // The stock is live: a reservation shows in the next page (read from the stock index on SQLite).
        const variant = first.variants[0];
        await storage.transaction((tx) =>
          tx.inventory.reserve(scope, [{ variant_id: variant?.id as string, quantity: 3 }], 3),
        );
        const [texts, objects] = await storage.read(async (r) => [
          await listText(r)(scope, { status: 'active' }, PAGE),
          await r.products.list(scope, { status: 'active' }, PAGE),
        ]);
        expect(texts.data).toEqual(objects.data.map(storefrontProductJson));
        expect(texts.data).not.toEqual(after.data);
        const stock = objects.data.flatMap((p) => p.variants).find((v) => v.id === variant?.id)?.inventory;
        expect(stock?.reserved).toBe(3);

        const down = await migrator.migrateTo('0005_storefront_revisions');
        expect(down.error).toBeUndefined();
        const left = await indexNames(storage);
        expect(left.has('products_storefront_page_idx')).toBe(false);
        expect(left.has('inventory_items_stock_idx')).toBe(false);
      } finally {
        await storage.close();
      }
    });

    if (name === 'sqlite') {
      it('plans: the page reads indexes only; stock movements by variant never use the stock index', async () => {
        const storage = await open();
        try {
          await storage.migrate();
          await storage.transaction((tx) =>
            tx.products.insert(makeProduct(scope, { id: 'prod_p1', prices: [1] })),
          );
          const page = `select products.id, ${storefrontStockSql('sqlite', 'products')} as stock from products
            where store_id = ? and mode = ? and deleted_at is null and status = ? order by created_at desc, id desc limit ?`;
          const pagePlan = await sqlitePlan(storage, page, [scope.store_id, scope.mode, 'active', 21]);
          expect(pagePlan).toContain('USING COVERING INDEX products_storefront_page_idx');
          expect(pagePlan).toContain('USING COVERING INDEX product_documents_rev_idx');
          expect(pagePlan).toContain('USING COVERING INDEX inventory_items_stock_idx');

          // The checkout's guarded reservation and the other movements' shapes (variant ids, id).
          const movements = [
            `update inventory_items set reserved = reserved + case variant_id when ? then cast(? as integer) when ? then cast(? as integer) end, updated_at = ?
              where store_id = ? and mode = ? and variant_id in (?, ?) and track_inventory = true and (allow_backorder = true or on_hand - reserved >= case variant_id when ? then cast(? as integer) when ? then cast(? as integer) end)`,
            `update inventory_items set reserved = 1, on_hand = 2, updated_at = ? where store_id = ? and mode = ? and variant_id in (?, ?) and track_inventory = true`,
            'select * from inventory_items where store_id = ? and mode = ? and variant_id in (?, ?, ?)',
            'update inventory_items set on_hand = on_hand + ? where store_id = ? and mode = ? and id = ? and on_hand + ? >= reserved',
          ];
          for (const statement of movements) {
            const args = Array.from({ length: (statement.match(/\?/g) ?? []).length }, () => 'x');
            const plan = await sqlitePlan(storage, statement, args);
            expect(plan, statement).not.toContain('inventory_items_stock_idx');
            expect(plan, statement).toMatch(
              /inventory_items_variant_unique|sqlite_autoindex_inventory_items_1/,
            );
          }
        } finally {
          await storage.close();
        }
      });
    }
  });
}

onEveryEngine(describePageIndexes);
