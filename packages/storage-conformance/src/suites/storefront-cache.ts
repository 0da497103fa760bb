import type { Scope } from '@cartwright/core';
import type {
  PageRequest,
  ProductAggregate,
  ProductListFilter,
  Repositories,
  Storage,
  VariantWithInventory,
} from '@cartwright/core/storage';
import { adjustInventory } from '@cartwright/core/storage-rules';
import { describe, expect, it } from 'vitest';
import { makeImage, makeProduct, makeVariant, newId, newScope } from '../fixtures';
import type { SuiteContext } from '../suite-context';
import { servedList, servedProduct, storefrontJson, storefrontListJson } from './storefront-text';

const PAGE: PageRequest<'created_at'> = { limit: 20, sort: 'created_at', order: 'asc' };

/** The text of product `id` in served texts (it must be there). */
function textOf(texts: Map<string, string>, id: string): string {
  const text = texts.get(id);
  if (text === undefined) throw new Error(`${id} not served`);
  return text;
}

/**
 * The storefront texts a storage serves, checked byte for byte against its aggregates: the list
 * response (every status), and each product alone by id. Returns each product's text by id.
 */
async function servedTexts(storage: Storage, r: Repositories, scope: Scope): Promise<Map<string, string>> {
  const objects = await r.products.list(scope, {}, PAGE);
  expect(await servedList(storage, r, scope, {}, PAGE)).toBe(storefrontListJson(objects));
  const byId = new Map<string, string>();
  for (const product of objects.data) {
    const text = await servedProduct(storage, r, scope, 'id', product.id, product.status);
    expect(text).toBe(storefrontJson(product));
    byId.set(product.id, text as string);
  }
  return byId;
}

/**
 * Storefront texts stay exact when a storage keeps responses in memory (the Kysely storage keeps
 * them per instance, by catalog version): a write through another instance on the same database, a
 * write in the same instance, a read inside a transaction that then rolls back — the next read
 * serves the current text. On targets without a shared database the "other" instance is the
 * same one (then these are same-instance tests).
 */
export function storefrontCacheSuite(ctx: SuiteContext): void {
  describe('storefront texts are never stale (in-process caches)', () => {
    it('a page read through B, then each write through A (rename, variant added, price, archive, variant deleted, image, stock, delete): B serves the new text, byte-identical', async () => {
      const { storages, close } = await ctx.openStorages(2);
      const [a, b] = storages as [Storage, Storage];
      try {
        const scope = newScope();
        const product = makeProduct(scope, { name: 'Mug', prices: [1500, 1700], images: 1 });
        const neighbour = makeProduct(scope, { name: 'Cup', prices: [900], created_at: 1_700_000_000_001 });
        const [first, second] = product.variants as [VariantWithInventory, VariantWithInventory];
        await a.transaction(async (tx) => {
          await tx.products.insert(product);
          await tx.products.insert(neighbour);
        });
        let previous = await b.read((r) => servedTexts(b, r, scope));
        await b.read((r) => servedTexts(b, r, scope)); // served from B's cache now
        const writes: Array<[string, (tx: Repositories) => Promise<unknown>, string | null]> = [
          [
            'rename',
            (tx) => tx.products.update(scope, product.id, { name: 'Mug "2"', updated_at: 2 }),
            '"name":"Mug \\"2\\""',
          ],
          [
            'variant added',
            (tx) => {
              const added = makeVariant(product, 2, 1100, { inventory: { on_hand: 3 } });
              return tx.products.insertVariant(added, added.inventory);
            },
            '"amount":1100',
          ],
          [
            'price',
            (tx) => tx.products.updateVariant(scope, first.id, { price: 800, updated_at: 3 }),
            '"amount":800',
          ],
          [
            'archive',
            (tx) => tx.products.update(scope, product.id, { status: 'archived', updated_at: 4 }),
            '"status":"archived"',
          ],
          ['variant deleted', (tx) => tx.products.deleteVariant(scope, second.id, 5), null],
          ['image', (tx) => tx.products.insertImage(scope, makeImage(product, 3, [first.id])), '/3.png'],
          ['stock', (tx) => adjustInventory(tx, scope, first.inventory.id, 7, 6), '"available":17'],
        ];
        for (const [what, write, expected] of writes) {
          await a.transaction(write);
          const served = await b.read((r) => servedTexts(b, r, scope));
          const text = served.get(product.id) as string;
          expect(text, what).not.toBe(previous.get(product.id));
          if (expected) expect(text, what).toContain(expected);
          // The neighbour, untouched, is served as before.
          expect(served.get(neighbour.id), what).toBe(previous.get(neighbour.id));
          previous = served;
        }
        expect(previous.get(product.id)).not.toContain(second.id);
        await a.transaction((tx) => tx.products.delete(scope, product.id, 7));
        const after = await b.read((r) => servedTexts(b, r, scope));
        expect([...after.keys()]).toEqual([neighbour.id]);
        expect(await b.read((r) => servedProduct(b, r, scope, 'id', product.id, 'archived'))).toBeNull();
      } finally {
        await close();
      }
    });

    it('collections (decisions §17): a page of a manual collection read through B shows a membership change and a product change through A at once; so does an auto one', async () => {
      const { storages, close } = await ctx.openStorages(2);
      const [a, b] = storages as [Storage, Storage];
      try {
        const scope = newScope();
        const mug = makeProduct(scope, { name: 'Mug', tags: ['kitchen'] });
        const cup = makeProduct(scope, { name: 'Cup', created_at: 1_700_000_000_001 });
        const collection = {
          ...scope,
          id: newId('col'),
          name: 'Picks',
          slug: 'picks',
          description: null,
          position: 0,
          metadata: {},
          created_at: 1,
          updated_at: 1,
        };
        await a.transaction(async (tx) => {
          await tx.products.insert(mug);
          await tx.products.insert(cup);
          await tx.collections.insert({ ...collection, type: 'manual', rules: null });
          await tx.collections.setMembers(scope, collection.id, [mug.id]);
        });
        const manual: ProductListFilter = {
          status: 'active',
          collection: { type: 'manual', id: collection.id, in_order: true },
        };
        const auto: ProductListFilter = {
          status: 'active',
          collection: {
            type: 'auto',
            rules: { match: 'all', conditions: [{ kind: 'tag', negate: false, values: ['kitchen'] }] },
          },
        };
        const served = async (filter: ProductListFilter) => {
          const text = await b.read((r) => servedList(b, r, scope, filter, PAGE));
          // Byte for byte what B's repositories answer now.
          expect(text).toBe(
            await b.read(async (r) => storefrontListJson(await r.products.list(scope, filter, PAGE))),
          );
          return (JSON.parse(text) as { data: { id: string }[] }).data.map((p) => p.id);
        };
        expect(await served(manual)).toEqual([mug.id]);
        expect(await served(manual)).toEqual([mug.id]); // kept by B now
        expect(await served(auto)).toEqual([mug.id]);
        await a.transaction((tx) => tx.collections.setMembers(scope, collection.id, [cup.id, mug.id]));
        expect(await served(manual)).toEqual([cup.id, mug.id]);
        await a.transaction((tx) => tx.products.update(scope, cup.id, { status: 'draft', updated_at: 2 }));
        expect(await served(manual)).toEqual([mug.id]);
        await a.transaction((tx) =>
          tx.products.update(scope, cup.id, { status: 'active', tags: ['kitchen'], updated_at: 3 }),
        );
        expect(await served(auto)).toEqual([mug.id, cup.id]); // PAGE: oldest first
        expect(await served(manual)).toEqual([cup.id, mug.id]);
        await a.transaction((tx) => tx.products.delete(scope, mug.id, 4));
        expect(await served(manual)).toEqual([cup.id]);
        expect(await b.read((r) => r.collections.members(scope, [collection.id]))).toEqual(
          new Map([[collection.id, [cup.id]]]),
        );
        await a.transaction((tx) => tx.collections.delete(scope, collection.id));
        expect(await served(manual)).toEqual([]);
      } finally {
        await close();
      }
    });

    it('a read inside a transaction sees its own writes; after a rollback the committed text is served, and a later write with another text shows', async () => {
      const scope = newScope();
      const lamp = makeProduct(scope, { name: 'Lamp' });
      const desk = makeProduct(scope, { name: 'Desk', created_at: 1_700_000_000_001 });
      await ctx.tx(async (tx) => {
        await tx.products.insert(lamp);
        await tx.products.insert(desk);
      });
      const committed = await ctx.read((r) => servedTexts(ctx.storage(), r, scope));
      await expect(
        ctx.tx(async (tx) => {
          await tx.products.update(scope, lamp.id, { name: 'Rolled back', updated_at: 2 });
          await tx.products.update(scope, desk.id, { name: 'Rolled back', updated_at: 2 });
          const inside = await servedTexts(ctx.storage(), tx, scope);
          expect(inside.get(lamp.id)).toContain('"name":"Rolled back"');
          expect(inside.get(desk.id)).toContain('"name":"Rolled back"');
          throw new Error('roll back');
        }),
      ).rejects.toThrow('roll back');
      // The desk as committed.
      expect(await ctx.read((r) => servedProduct(ctx.storage(), r, scope, 'id', desk.id, 'active'))).toBe(
        textOf(committed, desk.id),
      );
      // The lamp's next committed write reaches the version the rolled-back one had (without a
      // read in between): its own text is served, not the rolled-back one.
      await ctx.tx((tx) => tx.products.update(scope, lamp.id, { name: 'Committed', updated_at: 3 }));
      const served = await ctx.read((r) => servedTexts(ctx.storage(), r, scope));
      expect(served.get(lamp.id)).toContain('"name":"Committed"');
      expect(served.get(desk.id)).toBe(textOf(committed, desk.id));
      // And a read in a transaction after it (cache entries are shared) agrees.
      await ctx.tx(async (tx) => {
        expect(await servedTexts(ctx.storage(), tx, scope)).toEqual(served);
      });
    });

    it('many products, pages read repeatedly while products are rewritten between reads: every page exact', async () => {
      const scope = newScope();
      const products: ProductAggregate[] = Array.from({ length: 30 }, (_, i) =>
        makeProduct(scope, { name: `P${i}`, prices: [1000 + i], created_at: 1_700_000_000_000 + i }),
      );
      await ctx.tx(async (tx) => {
        for (const product of products) await tx.products.insert(product);
      });
      const request = (starting_after?: string): PageRequest<'created_at'> => ({
        limit: 7,
        sort: 'created_at',
        order: 'asc',
        ...(starting_after ? { starting_after } : {}),
      });
      for (let round = 0; round < 3; round++) {
        for (const [i, product] of products.entries()) {
          if (i % 3 === round) {
            await ctx.tx((tx) =>
              tx.products.update(scope, product.id, { name: `P${i} r${round}`, updated_at: 10 + round }),
            );
          }
        }
        let cursor: string | undefined;
        let seen = 0;
        do {
          const page = request(cursor);
          const [objects, text] = await ctx.read(
            async (r) =>
              [
                await r.products.list(scope, {}, page),
                await servedList(ctx.storage(), r, scope, {}, page),
              ] as const,
          );
          expect(text).toBe(storefrontListJson(objects));
          seen += objects.data.length;
          cursor = objects.next_cursor ?? undefined;
        } while (cursor !== undefined);
        expect(seen).toBe(products.length);
      }
    });
  });
}
