import { Migrator } from 'kysely';
import { describe, expect, it } from 'vitest';
import type { KyselyStorage } from '../kysely-storage';
import { createMigrationProvider } from './migration-provider';
import { indexNames, onEveryEngine } from './migration-test-engines';

/** EXPLAIN QUERY PLAN details of a SQLite statement, joined with ' | '. */
async function sqlitePlan(storage: KyselyStorage, statement: string, args: unknown[]): Promise<string> {
  const compiled = { sql: `explain query plan ${statement}`, parameters: args, query: { kind: 'RawNode' } };
  const result = await storage.db.executeQuery<{ detail: string }>(compiled as never);
  return result.rows.map((row) => row.detail).join(' | ');
}

/**
 * The storefront page statement as it was when 0006 was released (the read model has since
 * replaced it): the ids of a page of live products of a status, and each one's stock from the
 * stock index.
 */
const PAGE_STATEMENT = `select products.id, (select group_concat(i.variant_id || char(31) || (i.on_hand - i.reserved), char(30))
    from inventory_items i indexed by inventory_items_stock_idx
    where i.store_id = products.store_id and i.mode = products.mode and i.product_id = products.id) as stock
  from products where store_id = ? and mode = ? and deleted_at is null and status = ?
  order by created_at desc, id desc limit ?`;

/** The checkout's guarded reservation and the other stock movements' shapes (variant ids, id). */
const MOVEMENTS = [
  `update inventory_items set reserved = reserved + case variant_id when ? then cast(? as integer) when ? then cast(? as integer) end, updated_at = ?
    where store_id = ? and mode = ? and variant_id in (?, ?) and track_inventory = true and (allow_backorder = true or on_hand - reserved >= case variant_id when ? then cast(? as integer) when ? then cast(? as integer) end)`,
  'update inventory_items set reserved = 1, on_hand = 2, updated_at = ? where store_id = ? and mode = ? and variant_id in (?, ?) and track_inventory = true',
  'select * from inventory_items where store_id = ? and mode = ? and variant_id in (?, ?, ?)',
  'update inventory_items set on_hand = on_hand + ? where store_id = ? and mode = ? and id = ? and on_hand + ? >= reserved',
];

function describePageIndexes(name: string, open: () => Promise<KyselyStorage>): void {
  describe(`0006_storefront_page_indexes on ${name}`, () => {
    it('adds the partial page index (and the stock index, SQLite only); down drops them', async () => {
      const storage = await open();
      try {
        const migrator = new Migrator({ db: storage.db, provider: createMigrationProvider(storage.dialect) });
        const to5 = await migrator.migrateTo('0005_storefront_revisions');
        expect(to5.error).toBeUndefined();
        const before = await indexNames(storage);
        expect(before.has('products_storefront_page_idx')).toBe(false);
        expect(before.has('inventory_items_stock_idx')).toBe(false);

        const to6 = await migrator.migrateTo('0006_storefront_page_indexes');
        expect(to6.error).toBeUndefined();
        const names = await indexNames(storage);
        expect(names.has('products_storefront_page_idx')).toBe(true);
        expect(names.has('inventory_items_stock_idx')).toBe(storage.dialect === 'sqlite');

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
      it('plans at 0006: the page reads indexes only; stock movements by variant never use the stock index', async () => {
        const storage = await open();
        try {
          const migrator = new Migrator({
            db: storage.db,
            provider: createMigrationProvider(storage.dialect),
          });
          const to6 = await migrator.migrateTo('0006_storefront_page_indexes');
          expect(to6.error).toBeUndefined();
          const pagePlan = await sqlitePlan(storage, PAGE_STATEMENT, ['store_m6', 'test', 'active', 21]);
          expect(pagePlan).toContain('USING COVERING INDEX products_storefront_page_idx');
          expect(pagePlan).toContain('USING COVERING INDEX inventory_items_stock_idx');
          for (const statement of MOVEMENTS) {
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
