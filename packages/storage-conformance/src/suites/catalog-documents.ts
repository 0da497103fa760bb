import type { ProductAggregate, Storage, VariantWithInventory } from '@cartwright/core/storage';
import { reserveInventory } from '@cartwright/core/storage-rules';
import { describe, expect, it } from 'vitest';
import { writeConcurrently } from '../concurrent-writes';
import { makeProduct, newId, makeImage as newImage, newScope, makeVariant as newVariant } from '../fixtures';
import type { SuiteContext } from '../suite-context';

/**
 * A product read back always shows its current children, whatever the storage caches: after
 * each kind of variant (its option values included), image and stock write, and after many concurrent
 * ones on one product.
 */
export function catalogDocumentsSuite(ctx: SuiteContext): void {
  describe('product aggregates follow every child write', () => {
    it('each variant field, options, images and inventory changes show in get (by id and by slug) and lists', async () => {
      const scope = newScope();
      const sized = makeProduct(scope, { prices: [1000, 2000], images: 1 });
      const option = {
        id: newId('opt'),
        product_id: sized.id,
        name: 'Colour',
        position: 1,
        values: [] as never[],
      };
      const red = { id: newId('optval'), option_id: option.id, value: 'Red', position: 0 };
      // Two options, the second not yet used by any variant (options come with the product).
      const product: ProductAggregate = {
        ...sized,
        options: [...sized.options, { ...option, values: [red] }],
      };
      await ctx.tx((tx) => tx.products.insert(product));
      const [first, second] = product.variants as [VariantWithInventory, VariantWithInventory];
      const expectEverywhere = async (expected: ProductAggregate) => {
        await ctx.read(async (r) => {
          expect(await r.products.get(scope, product.id)).toEqual(expected);
          expect(await r.products.get(scope, { slug: product.slug })).toEqual(expected);
          const page = await r.products.list(scope, {}, { limit: 5, sort: 'created_at', order: 'desc' });
          expect(page.data).toEqual([expected]);
        });
      };
      let expected: ProductAggregate = { ...product, price: 1000 };
      await expectEverywhere(expected);

      const patch = {
        sku: 'NEW-SKU',
        barcode: '0123',
        price: 1500,
        compare_at_price: 1800,
        cost_price: null,
        weight: 12.25,
        metadata: { note: 'changed', list: [1, 2] },
        option_value_ids: [product.options[0]?.values[1]?.id as string],
        updated_at: 5,
      };
      await ctx.tx((tx) => tx.products.updateVariant(scope, first.id, patch));
      // `price` is core's to set (a plain column): variant writes leave it as inserted.
      expected = { ...expected, variants: [{ ...first, ...patch }, second] };
      await expectEverywhere(expected);

      const third = newVariant(product, 2, 900, { option_value_ids: [red.id] });
      await ctx.tx((tx) => tx.products.insertVariant(third, third.inventory));
      const image = newImage(product, 1, [third.id]);
      await ctx.tx((tx) => tx.products.insertImage(scope, image));
      expected = {
        ...expected,
        variants: [...expected.variants, third],
        images: [...expected.images, image],
      };
      await expectEverywhere(expected);

      // Inventory is read live: a reservation shows at once.
      const reserved = await ctx.tx((tx) =>
        reserveInventory(tx, scope, [{ variant_id: third.id, quantity: 3 }], 6),
      );
      expect(reserved.ok).toBe(true);
      const stocked = { ...third, inventory: { ...third.inventory, reserved: 3, updated_at: 6 } };
      expected = {
        ...expected,
        variants: [expected.variants[0], expected.variants[1], stocked] as VariantWithInventory[],
      };
      await expectEverywhere(expected);

      await ctx.tx((tx) => tx.products.deleteVariant(scope, second.id, 7));
      expect(
        await ctx.tx((tx) => tx.products.deleteImage(scope, product.id, product.images[0]?.id as string)),
      ).toBe(true);
      expected = {
        ...expected,
        variants: [expected.variants[0], stocked] as VariantWithInventory[],
        images: [image],
      };
      await expectEverywhere(expected);
    });

    it('concurrent variant inserts, updates and image adds on one product all show in its aggregate', async () => {
      const scope = newScope();
      const product = makeProduct(scope, { prices: [5000] });
      await ctx.tx((tx) => tx.products.insert(product));
      const variants = Array.from({ length: 16 }, (_, i) => newVariant(product, i + 1, 3000 + i * 10));
      const images = Array.from({ length: 8 }, (_, i) => newImage(product, i));
      const original = product.variants[0] as VariantWithInventory;
      const writes: Array<(storage: Storage) => Promise<unknown>> = [
        ...variants.map(
          (v) => (s: Storage) => s.transaction((tx) => tx.products.insertVariant(v, v.inventory)),
        ),
        ...images.map((im) => (s: Storage) => s.transaction((tx) => tx.products.insertImage(scope, im))),
        ...[4000, 2500, 4500].map(
          (price, i) => (s: Storage) =>
            s.transaction((tx) =>
              tx.products.updateVariant(scope, original.id, { price, updated_at: 10 + i }),
            ),
        ),
      ];
      await writeConcurrently(ctx, writes);
      const read = await ctx.read((r) => r.products.get(scope, product.id));
      const current = await ctx.read((r) => r.products.getVariant(scope, original.id));
      expect(read?.variants.map((v) => v.id)).toEqual([original.id, ...variants.map((v) => v.id)]);
      expect(read?.variants[0]).toEqual(current);
      expect(read?.images.map((im) => im.id)).toEqual(images.map((im) => im.id));
      // The product's price is core's (a plain column): variant writes leave it as inserted.
      expect(read?.price).toBe(5000);
    });
  });
}
