import type { Scope } from '@cartwright/core';
import { storefrontProductJson } from '@cartwright/core/internal';
import type { ProductAggregate } from '@cartwright/core/storage';
import { makeProduct, makeVariant, newScope } from '@cartwright/storage-conformance';
import type { CompiledQuery, Kysely, QueryResult } from 'kysely';
import { describe, expect, it } from 'vitest';
import type { KyselyStorage } from '../kysely-storage';
import { onEveryEngine } from '../migrations/migration-test-engines';
import { QueryRunner, type StatementExecutor } from '../query/query-runner';
import type { Database } from '../schema/database';
import { KyselyProductRepository } from './product-repository';

/** Writes run between the two statements so far (each racing repository runs its write once). */
let raced = 0;

const PAGE = { limit: 20, sort: 'created_at' as const, order: 'asc' as const };

async function current(storage: KyselyStorage, scope: Scope, id: string): Promise<ProductAggregate> {
  const product = await storage.read((r) => r.products.get(scope, id));
  if (!product) throw new Error(`${id} missing`);
  return product;
}

async function revisionOf(storage: KyselyStorage, scope: Scope, id: string): Promise<number> {
  const row = await (storage.db as Kysely<Database>)
    .selectFrom('product_documents')
    .select('storefront_rev')
    .where('store_id', '=', scope.store_id)
    .where('mode', '=', scope.mode)
    .where('product_id', '=', id)
    .executeTakeFirstOrThrow();
  return Number(row.storefront_rev);
}

/**
 * A product repository on the storage's root (cache-filling) path whose template statement —
 * the second statement of a storefront read — first runs `between` (a write committed after the
 * page statement read the stock): the race of a template newer than its stock, made certain.
 */
function racingRepository(storage: KyselyStorage, between: () => Promise<void>): KyselyProductRepository {
  // Forget cached templates, so that the read needs its template statement.
  storage.storefrontTemplates.resize({ maxEntries: 0 });
  storage.storefrontTemplates.resize({ maxEntries: 2_000 });
  let armed = true;
  const executor: StatementExecutor = {
    async executeQuery<R>(compiled: CompiledQuery<R>): Promise<QueryResult<R>> {
      if (armed && compiled.sql.includes('"storefront_rev" from "product_documents"')) {
        armed = false;
        await between();
        raced += 1;
      }
      return storage.db.executeQuery(compiled);
    },
  };
  const q = new QueryRunner(executor, storage.templates, { cache: storage.storefrontTemplates, fill: true });
  return new KyselyProductRepository(q);
}

function describeCache(name: string, open: () => Promise<KyselyStorage>): void {
  describe(`storefront template cache on ${name}`, () => {
    it('a template newer than the page stock (variant added / deleted / renamed and restocked in between) still gives a correct product; the cache keeps it under the revision read with it', async () => {
      const storage = await open();
      try {
        await storage.migrate();
        raced = 0;
        const scope = newScope();
        const product = makeProduct(scope, { name: 'Desk', prices: [5000, 5200] });
        const [first, second] = product.variants;
        await storage.transaction((tx) => tx.products.insert(product));

        // A variant added in between: its slot has no stock in the page → rendered from the aggregate.
        const added = makeVariant(product, 5, 4000, { inventory: { on_hand: 2 } });
        let repo = racingRepository(storage, () =>
          storage.transaction((tx) => tx.products.insertVariant(added, added.inventory)),
        );
        let page = await repo.listStorefrontJson(scope, {}, PAGE);
        expect(page.data).toEqual([storefrontProductJson(await current(storage, scope, product.id))]);
        expect(page.data[0]).toContain(added.id);
        expect(raced).toBe(1);

        // A variant deleted in between: the newer template with the page's stock of the others.
        const revBefore = await revisionOf(storage, scope, product.id);
        repo = racingRepository(storage, () =>
          storage.transaction(async (tx) => {
            await tx.products.deleteVariant(scope, second?.id as string, 2);
          }),
        );
        page = await repo.listStorefrontJson(scope, {}, PAGE);
        expect(raced).toBe(2);
        expect(page.data).toEqual([storefrontProductJson(await current(storage, scope, product.id))]);
        expect(page.data[0]).not.toContain(second?.id);
        const revAfter = await revisionOf(storage, scope, product.id);
        expect(revAfter).toBeGreaterThan(revBefore);
        expect(storage.storefrontTemplates.get(scope, product.id, revAfter)).toBeTruthy();
        expect(storage.storefrontTemplates.get(scope, product.id, revBefore)).toBeUndefined();

        // Renamed and restocked in between: the new name with the stock the page statement read.
        const before = await current(storage, scope, product.id);
        repo = racingRepository(storage, () =>
          storage.transaction(async (tx) => {
            await tx.products.update(scope, product.id, { name: 'Desk II', updated_at: 3 });
            await tx.inventory.adjust(scope, first?.inventory.id as string, -4, 3);
          }),
        );
        const [text] = await repo.getStorefrontJson(scope, 'id', product.id, 'active').then((t) => [t]);
        const renamed = await current(storage, scope, product.id);
        expect(text).toBe(
          storefrontProductJson({
            ...renamed,
            variants: renamed.variants.map((v) => ({
              ...v,
              inventory: before.variants.find((b) => b.id === v.id)?.inventory ?? v.inventory,
            })),
          }),
        );
        expect(raced).toBe(3);
        expect(text).toContain('"name":"Desk II"');
        // The next read has both current: the cached template and the new stock.
        const next = await storage.read(
          async (r) => (await r.products.getStorefrontJson?.(scope, 'id', product.id, 'active')) ?? null,
        );
        expect(next).toBe(storefrontProductJson(renamed));
        expect(next).not.toBe(text);
      } finally {
        await storage.close();
      }
    });

    it('bounded to 3 products (then to 2,000 characters), pages of 4 of 10 products read forwards and backwards with writes in between stay exact', async () => {
      const storage = await open();
      try {
        await storage.migrate();
        const scope = newScope();
        const products = Array.from({ length: 10 }, (_, i) =>
          makeProduct(scope, {
            name: `Chair ${i}`,
            prices: [100 + i, 200 + i],
            created_at: 1_700_000_000_000 + i,
          }),
        );
        await storage.transaction(async (tx) => {
          for (const product of products) await tx.products.insert(product);
        });
        for (const bound of [{ maxEntries: 3 }, { maxEntries: 2_000, maxChars: 2_000 }]) {
          storage.storefrontTemplates.resize(bound);
          for (let round = 0; round < 4; round++) {
            const target = products[(round * 3) % products.length] as ProductAggregate;
            await storage.transaction((tx) =>
              tx.products.update(scope, target.id, { name: `Chair r${round}`, updated_at: 10 + round }),
            );
            for (const order of ['asc', 'desc'] as const) {
              let cursor: string | undefined;
              let seen = 0;
              do {
                const request = { limit: 4, sort: 'created_at' as const, order, starting_after: cursor };
                const [objects, texts] = await storage.read(async (r) => [
                  await r.products.list(scope, {}, request),
                  await r.products.listStorefrontJson?.(scope, {}, request),
                ]);
                expect(texts).toEqual({ ...objects, data: objects.data.map(storefrontProductJson) });
                seen += objects.data.length;
                cursor = objects.next_cursor ?? undefined;
              } while (cursor !== undefined);
              expect(seen).toBe(10);
              expect(storage.storefrontTemplates.size).toBeLessThanOrEqual(bound.maxEntries);
              expect(storage.storefrontTemplates.chars).toBeLessThanOrEqual(bound.maxChars ?? Infinity);
            }
          }
        }
        expect(storage.storefrontTemplates.size).toBeGreaterThan(0);
      } finally {
        await storage.close();
      }
    });
  });
}

onEveryEngine(describeCache);
