import type { Scope } from '@cartwright/core';
import type {
  ImageRecord,
  Page,
  PageRequest,
  ProductAggregate,
  ProductListFilter,
  ProductStatus,
  Repositories,
  Storage,
  VariantWithInventory,
} from '@cartwright/core/storage';
import {
  adjustInventory,
  compareRelevance,
  releaseInventory,
  relevanceTier,
  reserveInventory,
  updateInventory,
} from '@cartwright/core/storage-rules';
import { productPageToWire, productToWire } from '@cartwright/core/wire';
import { describe, expect, it } from 'vitest';
import { writeConcurrently } from '../concurrent-writes';
import { makeImage, makeProduct, makeVariant, newId, newScope, RICH_METADATA } from '../fixtures';
import type { SuiteContext } from '../suite-context';
import { storefrontCacheSuite } from './storefront-cache';

type ProductSort = 'created_at' | 'name' | 'price' | 'relevance';

const NEWEST: PageRequest<ProductSort> = { limit: 50, sort: 'created_at', order: 'desc' };

/** The reference text of a storefront product: `JSON.stringify(productToWire(p, 'storefront'))`. */
export function storefrontJson(product: ProductAggregate): string {
  return JSON.stringify(productToWire(product, 'storefront'));
}

/** The reference text of a storefront list response for a page `list` returned. */
export function storefrontListJson(page: Page<ProductAggregate>): string {
  return JSON.stringify(productPageToWire(page, 'storefront'));
}

/**
 * The list response text `storage` serves (its optional read model, `Storage.storefront`), or,
 * for a storage without one, the object path (which then trivially conforms). `r`: the
 * repositories of the read or transaction the call is made in (the read model joins it).
 */
export async function servedList(
  storage: Storage,
  r: Repositories,
  scope: Scope,
  filter: ProductListFilter,
  page: PageRequest<ProductSort>,
): Promise<string> {
  return storage.storefront
    ? storage.storefront.listProducts(scope, filter, page)
    : storefrontListJson(await r.products.list(scope, filter, page));
}

/** The product text `storage` serves by id or slug at `status` (see {@link servedList}), or null. */
export async function servedProduct(
  storage: Storage,
  r: Repositories,
  scope: Scope,
  by: 'id' | 'slug',
  key: string,
  status: ProductStatus,
): Promise<string | null> {
  if (storage.storefront) return storage.storefront.getProduct(scope, by, key, status);
  const product = by === 'id' ? await r.products.get(scope, key) : await r.products.get(scope, { slug: key });
  return product && product.status === status ? storefrontJson(product) : null;
}

/**
 * The storefront list response equals `list`'s page serialised (each product as
 * `JSON.stringify(productToWire(product, 'storefront'))`, same order, counts and cursor), and
 * each product's text (by id and by slug, only at its own status) equals the storefront JSON of
 * the product `get` returns. Returns the products' texts in page order.
 */
async function expectStorefrontTexts(
  storage: Storage,
  r: Repositories,
  scope: Scope,
  filter: ProductListFilter = {},
  page: PageRequest<ProductSort> = NEWEST,
): Promise<string[]> {
  const objects = await r.products.list(scope, filter, page);
  expect(await servedList(storage, r, scope, filter, page)).toBe(storefrontListJson(objects));
  const texts: string[] = [];
  for (const product of objects.data) {
    const current = (await r.products.get(scope, product.id)) as ProductAggregate;
    const text = storefrontJson(current);
    expect(await servedProduct(storage, r, scope, 'id', current.id, current.status)).toBe(text);
    expect(await servedProduct(storage, r, scope, 'slug', current.slug, current.status)).toBe(text);
    const other = current.status === 'active' ? 'draft' : 'active';
    expect(await servedProduct(storage, r, scope, 'id', current.id, other)).toBeNull();
    texts.push(text);
  }
  return texts;
}

/** A new variant whose metadata needs escaping in JSON. */
function newVariant(product: ProductAggregate, position: number, price: number): VariantWithInventory {
  return makeVariant(product, position, price, {
    metadata: { note: 'tab\there "q" \\ ü' },
    inventory: { on_hand: 4 },
  });
}

/** A new image whose url and alt text need escaping in JSON. */
function newImage(product: ProductAggregate, position: number, variantIds: string[] = []): ImageRecord {
  return makeImage(product, position, variantIds, {
    url: `https://cdn.example.com/${product.id}/${position}.png?a="b"`,
    alt_text: 'alt \u0001 \u2028',
    width: 10,
  });
}

/**
 * The storefront catalog served as text (`Storage.storefront`, optional): after every kind of
 * catalog write (product fields, status, variants and their option values, activation, images,
 * representative price, delete) and every stock change (reservations, releases, inventory edits
 * and adjustments), the texts are exactly the storefront JSON of the current aggregates.
 */
export function storefrontTextSuite(ctx: SuiteContext): void {
  storefrontCacheSuite(ctx);
  describe('storefront product texts follow every write', () => {
    it('product fields, children, price and stock changes all show in the texts', async () => {
      const scope = newScope();
      const product = makeProduct(scope, {
        name: 'Tee "Ünï" \\ \u0001 😀',
        prices: [1500, 1200, 900],
        inactive: [2],
        images: 2,
        tags: ['summer', 'q"uote'],
        metadata: RICH_METADATA,
      });
      const [first, second, third] = product.variants as [
        VariantWithInventory,
        VariantWithInventory,
        VariantWithInventory,
      ];
      (product.images[1] as ImageRecord).variant_ids = [second.id];
      // A second option no variant uses yet (options come with the product; a variant takes it below).
      const option = {
        id: newId('opt'),
        product_id: product.id,
        name: 'Colour "c"',
        position: 1,
        values: [{ id: newId('optval'), option_id: '', value: 'Réd', position: 0 }],
      };
      (option.values[0] as { option_id: string }).option_id = option.id;
      product.options.push(option);
      const check = (filter: ProductListFilter = {}) =>
        ctx.read((r) => expectStorefrontTexts(ctx.storage(), r, scope, filter));

      await ctx.tx((tx) => tx.products.insert(product));
      const [inserted] = await check();
      expect(inserted).toContain('"price":{"amount":1200,"currency":"USD"}');
      expect(inserted).not.toContain(third.id);

      // Product fields, one by one and together.
      const patches = [
        { name: 'Renamed \n "again"', updated_at: 2 },
        { slug: 'new-slug', description: null, updated_at: 3 },
        { tags: ['winter'], attributes: { fit: 'slim', n: [1, 2.5] }, updated_at: 4 },
        { metadata: { shown: true }, type: 'digital' as const, updated_at: 5 },
        { status: 'draft' as const, updated_at: 6 },
        { status: 'active' as const, updated_at: 7 },
      ];
      for (const patch of patches) {
        await ctx.tx((tx) => tx.products.update(scope, product.id, patch));
        await check();
      }
      await check({ status: 'active', tags: ['winter'] });

      // Variants: a new one, price and option edits, activation, deletion.
      const fourth = newVariant(product, 3, 700);
      await ctx.tx((tx) => tx.products.insertVariant(fourth, fourth.inventory));
      let [text] = await check();
      expect(text).toContain('"price":{"amount":700,"currency":"USD"}');
      await ctx.tx((tx) =>
        tx.products.updateVariant(scope, fourth.id, {
          price: 2000,
          compare_at_price: 2500,
          option_value_ids: [option.values[0]?.id as string],
          metadata: { v: 'x' },
          updated_at: 8,
        }),
      );
      [text] = await check();
      expect(text).toContain('"price":{"amount":1200,"currency":"USD"}');
      await ctx.tx((tx) => tx.products.updateVariant(scope, third.id, { is_active: true, updated_at: 9 }));
      [text] = await check();
      expect(text).toContain(third.id);
      expect(text).toContain('"price":{"amount":900,"currency":"USD"}');
      await ctx.tx((tx) => tx.products.updateVariant(scope, second.id, { is_active: false, updated_at: 10 }));
      await check();
      await ctx.tx((tx) => tx.products.deleteVariant(scope, third.id, 11));
      [text] = await check();
      expect(text).not.toContain(third.id);

      // Images.
      const image = newImage(product, 0, [first.id, fourth.id]);
      await ctx.tx((tx) => tx.products.insertImage(scope, image));
      await check();
      await ctx.tx((tx) => tx.products.deleteImage(scope, product.id, product.images[0]?.id as string));
      await check();

      // Stock: reservations, releases, inventory edits and adjustments show at once.
      const reserved = await ctx.tx((tx) =>
        reserveInventory(
          tx,
          scope,
          [
            { variant_id: first.id, quantity: 3 },
            { variant_id: fourth.id, quantity: 4 },
          ],
          12,
        ),
      );
      expect(reserved.ok).toBe(true);
      [text] = await check();
      expect(text).toContain('"reserved":null,"available":7,');
      expect(text).toContain('"reserved":null,"available":0,');
      await ctx.tx((tx) => releaseInventory(tx, scope, [{ variant_id: first.id, quantity: 1 }], 13));
      [text] = await check();
      expect(text).toContain('"available":8,');
      await ctx.tx((tx) =>
        updateInventory(tx, scope, fourth.inventory.id, {
          track_inventory: false,
          allow_backorder: true,
          on_hand: 9,
          updated_at: 14,
        }),
      );
      [text] = await check();
      expect(text).toContain(
        '"track_inventory":false,"allow_backorder":true,"safety_stock":null,"on_hand":null',
      );
      await ctx.tx((tx) => adjustInventory(tx, scope, first.inventory.id, -4, 15));
      await check();

      // Delete: gone from both.
      await ctx.tx((tx) => tx.products.delete(scope, product.id, 16));
      expect(await check()).toEqual([]);
      const gone = await ctx.read((r) => servedProduct(ctx.storage(), r, scope, 'id', product.id, 'active'));
      expect(gone).toBeNull();
    });

    it('getPurchasable: variant_name and image_url follow variant (option values), image and product writes (kept with the variant)', async () => {
      const scope = newScope();
      const product = makeProduct(scope, { name: 'Tee', prices: [1000, 1200], images: 1 });
      const colour = {
        id: newId('opt'),
        product_id: product.id,
        name: 'Colour',
        position: 1,
        values: [] as never[],
      };
      const red = { id: newId('optval'), option_id: colour.id, value: 'Red', position: 0 };
      product.options.push({ ...colour, values: [red] });
      await ctx.tx((tx) => tx.products.insert(product));
      const [first, second] = product.variants as [VariantWithInventory, VariantWithInventory];
      const [cover] = product.images as [ImageRecord];
      const sizes = product.options[0]?.values ?? [];
      const bought = async (id: string) =>
        (await ctx.read((r) => r.products.getPurchasable(scope, [id])))[0] ?? null;
      expect(await bought(second.id)).toMatchObject({ variant_name: 'V1', image_url: cover.url });

      // A variant pointing at the second option's value (and at another option's value).
      await ctx.tx((tx) =>
        tx.products.updateVariant(scope, second.id, {
          option_value_ids: [red.id, sizes[0]?.id as string],
          updated_at: 2,
        }),
      );
      expect(await bought(second.id)).toMatchObject({ variant_name: 'Red / V0' });
      const third = newVariant(product, 2, 800);
      await ctx.tx((tx) =>
        tx.products.insertVariant({ ...third, option_value_ids: [sizes[1]?.id as string] }, third.inventory),
      );
      expect(await bought(third.id)).toMatchObject({ variant_name: 'V1', image_url: cover.url });

      // Images: one attached to the third variant wins for it; deleting images moves the others on.
      const attached = newImage(product, 5, [third.id]);
      await ctx.tx((tx) => tx.products.insertImage(scope, attached));
      expect(await bought(third.id)).toMatchObject({ image_url: attached.url });
      expect(await bought(first.id)).toMatchObject({ variant_name: 'V0', image_url: cover.url });
      await ctx.tx((tx) => tx.products.deleteImage(scope, product.id, cover.id));
      expect(await bought(first.id)).toMatchObject({ image_url: attached.url });
      await ctx.tx((tx) => tx.products.deleteImage(scope, product.id, attached.id));
      expect(await bought(third.id)).toMatchObject({ image_url: null });

      // A product name change shows (variants without options are named after their product).
      await ctx.tx((tx) =>
        tx.products.updateVariant(scope, first.id, { option_value_ids: [], updated_at: 3 }),
      );
      await ctx.tx((tx) => tx.products.update(scope, product.id, { name: 'Shirt', updated_at: 4 }));
      expect(await bought(first.id)).toMatchObject({ variant_name: 'Shirt', product: { name: 'Shirt' } });
    });

    it('pages, cursors, filters and sorts give the same products, counts and cursors as list', async () => {
      const scope = newScope();
      const products = Array.from({ length: 7 }, (_, i) =>
        makeProduct(scope, {
          name: `Lamp ${String.fromCharCode(71 - i)} "${i}"`,
          prices: i === 3 ? [] : [1000 + i * 100, 800 + i * 50],
          tags: i % 2 === 0 ? ['even', 'lamp'] : ['lamp'],
          status: i === 5 ? 'archived' : 'active',
          created_at: 1_700_000_000_000 + i,
        }),
      );
      for (const product of products) await ctx.tx((tx) => tx.products.insert(product));
      await ctx.read(async (r) => {
        const filters: ProductListFilter[] = [
          { status: 'active' },
          { status: 'active', tags: ['even'] },
          { status: 'active', tags: ['even', 'lamp'] },
          { status: 'active', q: 'lamp' },
          { status: 'active', price_min: 900, price_max: 1200 },
          {},
        ];
        for (const filter of filters) {
          for (const sort of ['created_at', 'name', 'price'] as const) {
            for (const order of ['asc', 'desc'] as const) {
              let cursor: string | undefined;
              do {
                const page = { limit: 2, sort, order, starting_after: cursor };
                await expectStorefrontTexts(ctx.storage(), r, scope, filter, page);
                cursor = (await r.products.list(scope, filter, page)).next_cursor ?? undefined;
              } while (cursor !== undefined);
            }
          }
        }
        // sort=relevance (decisions §17): with q, most relevant first; the same texts, and core's order.
        for (const q of ['lamp', 'G', '"']) {
          const filter: ProductListFilter = { status: 'active', q };
          const seen: string[] = [];
          let cursor: string | undefined;
          do {
            const page = {
              limit: 2,
              sort: 'relevance' as const,
              order: 'desc' as const,
              starting_after: cursor,
            };
            await expectStorefrontTexts(ctx.storage(), r, scope, filter, page);
            const found = await r.products.list(scope, filter, page);
            seen.push(...found.data.map((product) => product.id));
            cursor = found.next_cursor ?? undefined;
          } while (cursor !== undefined);
          const expected = products
            .filter((product) => product.status === 'active' && relevanceTier(product.name, q) !== null)
            .sort(compareRelevance(q))
            .map((product) => product.id);
          expect(seen, q).toEqual(expected);
        }
      });
    });

    it('concurrent variant inserts, updates and deletes, image and product writes on one product leave its text current (no deadlock)', async () => {
      const scope = newScope();
      const product = makeProduct(scope, { prices: [5000, 6000], images: 1 });
      const [original, doomed] = product.variants as [VariantWithInventory, VariantWithInventory];
      await ctx.tx((tx) => tx.products.insert(product));
      const variants = Array.from({ length: 8 }, (_, i) => newVariant(product, i + 1, 3000 + i * 10));
      const images = Array.from({ length: 4 }, (_, i) => newImage(product, i));
      const writes: Array<(storage: Storage) => Promise<unknown>> = [
        ...variants.map(
          (v) => (s: Storage) => s.transaction((tx) => tx.products.insertVariant(v, v.inventory)),
        ),
        ...images.map((im) => (s: Storage) => s.transaction((tx) => tx.products.insertImage(scope, im))),
        ...['A', 'B', 'C'].map(
          (name, i) => (s: Storage) =>
            s.transaction((tx) => tx.products.update(scope, product.id, { name, updated_at: 20 + i })),
        ),
        (s: Storage) =>
          s.transaction((tx) => reserveInventory(tx, scope, [{ variant_id: original.id, quantity: 2 }], 30)),
        ...[4000, 2500, 4500].map(
          (price, i) => (s: Storage) =>
            s.transaction((tx) =>
              tx.products.updateVariant(scope, original.id, { price, updated_at: 40 + i }),
            ),
        ),
        (s: Storage) => s.transaction((tx) => tx.products.deleteVariant(scope, doomed.id, 50)),
        (s: Storage) =>
          s.transaction((tx) => tx.products.deleteImage(scope, product.id, product.images[0]?.id as string)),
      ];
      await writeConcurrently(ctx, writes);
      const [text] = await ctx.read((r) => expectStorefrontTexts(ctx.storage(), r, scope));
      for (const v of variants) expect(text).toContain(v.id);
      for (const im of images) expect(text).toContain(im.id);
      expect(text).not.toContain(doomed.id);
      // Purchases see the same children (kept option value names and image urls).
      const bought = await ctx.read((r) =>
        r.products.getPurchasable(scope, [original.id, ...variants.map((v) => v.id)]),
      );
      expect(bought).toHaveLength(variants.length + 1);
    });
  });
}
