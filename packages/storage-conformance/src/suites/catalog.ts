import type { Scope } from '@cartwright/core';
import type { ProductAggregate, ProductListFilter, PurchasableVariant } from '@cartwright/core/storage';
import { describe, expect, it } from 'vitest';
import { expectCommerceError } from '../expect-error';
import {
  makeCart,
  makeCartItem,
  makeInventory,
  makeProduct,
  makeShippingMethod,
  newId,
  newScope,
  otherMode,
  RICH_METADATA,
} from '../fixtures';
import type { SuiteContext } from '../suite-context';

/** What `get` returns for a freshly inserted aggregate: the storage computes `price`. */
function expected(product: ProductAggregate, price: number | null): ProductAggregate {
  return { ...product, price };
}

/** Products (options, variants, inventory, images, representative price) and shipping methods. */
export function catalogSuite(ctx: SuiteContext): void {
  describe('products', () => {
    it('round-trips an aggregate exactly (options in order, variants with inventory, images, nested unicode metadata)', async () => {
      const scope = newScope();
      const product = makeProduct(scope, {
        prices: [2500, 1500, 900],
        inactive: [2],
        images: 2,
        metadata: RICH_METADATA,
      });
      product.images[1]!.variant_ids = [product.variants[1]!.id];
      product.variants[0]!.metadata = { color: 'red', rank: 1.5 };
      product.variants[0]!.inventory.allow_backorder = true;
      product.variants[1]!.inventory.track_inventory = false;
      await ctx.tx((tx) => tx.products.insert(product));
      // price = cheapest ACTIVE variant (the 900 one is inactive).
      const read = await ctx.read((r) => r.products.get(scope, product.id));
      expect(read).toEqual(expected(product, 1500));
      expect(read?.metadata).toStrictEqual(RICH_METADATA);
      expect(read?.options[0]?.values.map((v) => v.value)).toEqual(['V0', 'V1', 'V2']);
    });

    it('reads by id and by slug; another scope or mode sees nothing', async () => {
      const scope = newScope();
      const a = makeProduct(scope);
      const b = makeProduct(scope);
      await ctx.tx(async (tx) => {
        await tx.products.insert(a);
        await tx.products.insert(b);
      });
      expect((await ctx.read((r) => r.products.get(scope, a.id)))?.id).toBe(a.id);
      expect((await ctx.read((r) => r.products.get(scope, { slug: b.slug })))?.id).toBe(b.id);
      expect(await ctx.read((r) => r.products.get(scope, 'prod_missing'))).toBeNull();
      expect(await ctx.read((r) => r.products.get(scope, { slug: 'slug-missing' }))).toBeNull();
      const foreign = otherMode(scope);
      expect(await ctx.read((r) => r.products.get(foreign, a.id))).toBeNull();
      expect(await ctx.read((r) => r.products.get(foreign, { slug: a.slug }))).toBeNull();
      const foreignPage = await ctx.read((r) =>
        r.products.list(foreign, {}, { limit: 5, sort: 'created_at', order: 'desc' }),
      );
      expect(foreignPage).toMatchObject({ data: [], total_count: 0 });
      expect(await ctx.read((r) => r.products.get(newScope(), a.id))).toBeNull();
      expect(await ctx.read((r) => r.products.getVariant(foreign, a.variants[0]!.id))).toBeNull();
    });

    it('slug is unique per scope → duplicate_slug (param slug); free in another mode and after soft delete', async () => {
      const scope = newScope();
      const first = makeProduct(scope, { slug: 'tee' });
      await ctx.tx((tx) => tx.products.insert(first));
      await expectCommerceError(
        ctx.tx((tx) => tx.products.insert(makeProduct(scope, { slug: 'tee' }))),
        'duplicate_slug',
        'slug',
      );
      await ctx.tx((tx) => tx.products.insert(makeProduct(otherMode(scope), { slug: 'tee' })));
      const other = makeProduct(scope, { slug: 'other' });
      await ctx.tx((tx) => tx.products.insert(other));
      await expectCommerceError(
        ctx.tx((tx) => tx.products.update(scope, other.id, { slug: 'tee', updated_at: 2 })),
        'duplicate_slug',
        'slug',
      );
      await ctx.tx((tx) => tx.products.delete(scope, first.id, 3));
      await ctx.tx((tx) => tx.products.insert(makeProduct(scope, { slug: 'tee' })));
    });

    it('sku is unique per scope → duplicate_sku naming the variant (variants[i][sku], or sku)', async () => {
      const scope = newScope();
      await expectCommerceError(
        ctx.tx((tx) => tx.products.insert(makeProduct(scope, { prices: [1, 2], skus: ['A', 'A'] }))),
        'duplicate_sku',
        'variants[1][sku]',
      );
      const taken = makeProduct(scope, { skus: ['TAKEN'] });
      await ctx.tx((tx) => tx.products.insert(taken));
      await expectCommerceError(
        ctx.tx((tx) => tx.products.insert(makeProduct(scope, { prices: [1, 2], skus: [null, 'TAKEN'] }))),
        'duplicate_sku',
        'variants[1][sku]',
      );
      // Nothing of the refused products was written (the transaction rolled back).
      const page = await ctx.read((r) =>
        r.products.list(scope, {}, { limit: 10, sort: 'created_at', order: 'desc' }),
      );
      expect(page.total_count).toBe(1);
      const variant = { ...taken.variants[0]!, id: newId('var'), sku: 'TAKEN', position: 1 };
      await expectCommerceError(
        ctx.tx((tx) => tx.products.insertVariant(variant, makeInventory(scope, variant))),
        'duplicate_sku',
        'sku',
      );
      const free = { ...variant, sku: 'FREE' };
      await ctx.tx((tx) => tx.products.insertVariant(free, makeInventory(scope, free)));
      await expectCommerceError(
        ctx.tx((tx) => tx.products.updateVariant(scope, free.id, { sku: 'TAKEN', updated_at: 2 })),
        'duplicate_sku',
        'sku',
      );
      // Same SKU in the other mode, and a SKU kept on its own variant, are fine.
      await ctx.tx((tx) => tx.products.insert(makeProduct(otherMode(scope), { skus: ['TAKEN'] })));
      expect(
        await ctx.tx((tx) => tx.products.updateVariant(scope, free.id, { sku: 'FREE', updated_at: 3 })),
      ).toMatchObject({
        sku: 'FREE',
      });
    });

    it('update patches product columns (metadata replaced whole); unknown, foreign or deleted → null', async () => {
      const scope = newScope();
      const product = makeProduct(scope, { metadata: { a: 1, b: 2 } });
      await ctx.tx((tx) => tx.products.insert(product));
      const updated = await ctx.tx((tx) =>
        tx.products.update(scope, product.id, {
          name: 'Renamed',
          status: 'archived',
          type: 'digital',
          description: null,
          tags: ['x', 'y'],
          attributes: { k: [true] },
          metadata: { c: 3 },
          updated_at: 123,
        }),
      );
      expect(updated).toEqual({
        ...expected(product, 1999),
        options: undefined,
        variants: undefined,
        images: undefined,
        name: 'Renamed',
        status: 'archived',
        type: 'digital',
        description: null,
        tags: ['x', 'y'],
        attributes: { k: [true] },
        metadata: { c: 3 },
        updated_at: 123,
      });
      expect(
        await ctx.tx((tx) => tx.products.update(otherMode(scope), product.id, { name: 'x', updated_at: 1 })),
      ).toBeNull();
      expect(
        await ctx.tx((tx) => tx.products.update(scope, 'prod_missing', { name: 'x', updated_at: 1 })),
      ).toBeNull();
      await ctx.tx((tx) => tx.products.delete(scope, product.id, 200));
      expect(
        await ctx.tx((tx) => tx.products.update(scope, product.id, { name: 'x', updated_at: 1 })),
      ).toBeNull();
    });

    it('soft delete hides the product and its variants everywhere; a second delete → false', async () => {
      const scope = newScope();
      const product = makeProduct(scope, { prices: [100, 200] });
      await ctx.tx((tx) => tx.products.insert(product));
      expect(await ctx.tx((tx) => tx.products.delete(otherMode(scope), product.id, 5))).toBe(false);
      expect(await ctx.tx((tx) => tx.products.delete(scope, product.id, 5))).toBe(true);
      expect(await ctx.tx((tx) => tx.products.delete(scope, product.id, 6))).toBe(false);
      expect(await ctx.read((r) => r.products.get(scope, product.id))).toBeNull();
      expect(await ctx.read((r) => r.products.get(scope, { slug: product.slug }))).toBeNull();
      expect(await ctx.read((r) => r.products.getVariant(scope, product.variants[0]!.id))).toBeNull();
      expect(await ctx.read((r) => r.products.getPurchasable(scope, [product.variants[0]!.id]))).toEqual([]);
      const page = await ctx.read((r) =>
        r.products.list(scope, {}, { limit: 5, sort: 'created_at', order: 'desc' }),
      );
      expect(page.total_count).toBe(0);
    });

    it('price is a plain column: insert stores the given price, update sets and clears it, variant writes leave it', async () => {
      const scope = newScope();
      const product = makeProduct(scope, { prices: [1999] });
      const option = {
        id: newId('opt'),
        product_id: product.id,
        name: 'Color',
        position: 1,
        values: [] as never[],
      };
      const value = { id: newId('optval'), option_id: option.id, value: 'Red', position: 0 };
      await ctx.tx((tx) =>
        tx.products.insert({ ...product, price: 1234, options: [{ ...option, values: [value] }] }),
      );
      const price = async () => (await ctx.read((r) => r.products.get(scope, product.id)))?.price;
      expect(await price()).toBe(1234);
      const cheap = {
        ...product.variants[0]!,
        id: newId('var'),
        sku: null,
        price: 500,
        position: 1,
        option_value_ids: [value.id],
      };
      await ctx.tx((tx) => tx.products.insertVariant(cheap, makeInventory(scope, cheap)));
      expect(await price()).toBe(1234);
      expect((await ctx.read((r) => r.products.get(scope, product.id)))?.options.map((o) => o.name)).toEqual([
        'Color',
      ]);
      const updated = await ctx.tx((tx) =>
        tx.products.updateVariant(scope, cheap.id, { is_active: false, updated_at: 9 }),
      );
      expect(updated).toMatchObject({
        id: cheap.id,
        is_active: false,
        updated_at: 9,
        option_value_ids: [value.id],
      });
      expect(await price()).toBe(1234);
      const set = await ctx.tx((tx) => tx.products.update(scope, product.id, { price: 700, updated_at: 10 }));
      expect(set).toMatchObject({ price: 700, updated_at: 10 });
      expect(await price()).toBe(700);
      expect(await ctx.tx((tx) => tx.products.deleteVariant(scope, product.variants[0]!.id, 11))).toBe(true);
      expect(await ctx.tx((tx) => tx.products.deleteVariant(scope, product.variants[0]!.id, 12))).toBe(false);
      expect(await price()).toBe(700);
      await ctx.tx((tx) => tx.products.update(scope, product.id, { price: null, updated_at: 12 }));
      expect(await price()).toBeNull();
      expect(
        await ctx.tx((tx) =>
          tx.products.updateVariant(scope, product.variants[0]!.id, { price: 1, updated_at: 13 }),
        ),
      ).toBeNull();
      const variants = (await ctx.read((r) => r.products.get(scope, product.id)))?.variants ?? [];
      expect(variants.map((v) => v.id)).toEqual([cheap.id]);
    });

    it('updateVariant sets and clears width / height / depth and moves position; variants read by position then id (decisions §22)', async () => {
      const scope = newScope();
      const product = makeProduct(scope, { prices: [100, 200, 300] });
      product.variants[0]!.width = 12.5;
      product.variants[0]!.depth = 0;
      await ctx.tx((tx) => tx.products.insert(product));
      const [a, b, c] = product.variants.map((v) => v.id) as [string, string, string];
      const read = async () => (await ctx.read((r) => r.products.get(scope, product.id)))?.variants ?? [];
      expect((await read()).map((v) => [v.id, v.width, v.height, v.depth])).toEqual([
        [a, 12.5, null, 0],
        [b, null, null, null],
        [c, null, null, null],
      ]);
      const moved = await ctx.tx((tx) =>
        tx.products.updateVariant(scope, c, { position: 0, width: 1.25, height: 7, updated_at: 5 }),
      );
      expect(moved).toMatchObject({ id: c, position: 0, width: 1.25, height: 7, depth: null });
      await ctx.tx((tx) => tx.products.updateVariant(scope, a, { width: null, position: 4, updated_at: 6 }));
      const after = await read();
      expect(after.map((v) => [v.id, v.position])).toEqual([
        [c, 0],
        [b, 1],
        [a, 4],
      ]);
      expect(after[2]).toMatchObject({ width: null, height: null, depth: 0 });
      // Equal positions: by id.
      await ctx.tx((tx) => tx.products.updateVariant(scope, a, { position: 1, updated_at: 7 }));
      const tied = [a, b].sort();
      expect((await read()).map((v) => v.id)).toEqual([c, ...tied]);
      expect((await ctx.read((r) => r.products.getVariant(scope, c)))?.width).toBe(1.25);
      const purchasable = await ctx.read((r) => r.products.getPurchasable(scope, [c]));
      expect(purchasable[0]?.variant).toMatchObject({ width: 1.25, height: 7, depth: null, position: 0 });
    });

    it('getVariant returns the variant with its inventory; images are added and removed per product', async () => {
      const scope = newScope();
      const product = makeProduct(scope, { images: 1 });
      await ctx.tx((tx) => tx.products.insert(product));
      const variant = await ctx.read((r) => r.products.getVariant(scope, product.variants[0]!.id));
      expect(variant).toEqual(product.variants[0]);
      const image = {
        id: newId('img'),
        product_id: product.id,
        url: 'https://cdn.example.com/x.png',
        alt_text: 'x',
        position: 5,
        width: null,
        height: null,
        variant_ids: [product.variants[0]!.id],
      };
      await ctx.tx((tx) => tx.products.insertImage(scope, image));
      expect((await ctx.read((r) => r.products.get(scope, product.id)))?.images).toEqual([
        product.images[0],
        image,
      ]);
      expect(await ctx.tx((tx) => tx.products.deleteImage(scope, 'prod_other', image.id))).toBe(false);
      expect(await ctx.tx((tx) => tx.products.deleteImage(otherMode(scope), product.id, image.id))).toBe(
        false,
      );
      expect(await ctx.tx((tx) => tx.products.deleteImage(scope, product.id, image.id))).toBe(true);
      expect((await ctx.read((r) => r.products.get(scope, product.id)))?.images).toEqual([product.images[0]]);
    });

    it('getPurchasable: variant_name joins option values with " / " (product name without options), option_values by option name, image_url prefers the variant image', async () => {
      const scope = newScope();
      const product = makeProduct(scope, { name: 'Tee', prices: [1000, 1200], images: 2 });
      const color = {
        id: newId('opt'),
        product_id: product.id,
        name: 'Color',
        position: 1,
        values: [] as never[],
      };
      const blue = { id: newId('optval'), option_id: color.id, value: 'Blue', position: 0 };
      product.options.push({ ...color, values: [blue] });
      product.variants[1]!.option_value_ids = [product.variants[1]!.option_value_ids[0]!, blue.id];
      product.images[1]!.variant_ids = [product.variants[1]!.id];
      const plain = makeProduct(scope, { name: 'Mug' });
      await ctx.tx(async (tx) => {
        await tx.products.insert(product);
        await tx.products.insert(plain);
      });
      const ids = [product.variants[1]!.id, plain.variants[0]!.id, product.variants[0]!.id, 'var_missing'];
      const result = await ctx.read((r) => r.products.getPurchasable(scope, ids));
      const byId = new Map(result.map((p) => [p.variant.id, p]));
      expect(result).toHaveLength(3);
      expect(byId.get(product.variants[1]!.id)).toMatchObject({
        variant_name: 'V1 / Blue',
        option_values: { Size: 'V1', Color: 'Blue' },
        image_url: product.images[1]!.url,
        product: {
          id: product.id,
          name: 'Tee',
          status: 'active',
          type: 'physical',
          tags: [],
          deleted: false,
        },
      });
      expect(byId.get(product.variants[0]!.id)).toMatchObject({
        variant_name: 'V0',
        image_url: product.images[0]!.url,
      });
      expect(byId.get(product.variants[0]!.id)?.option_values).toEqual({ Size: 'V0' });
      expect(byId.get(plain.variants[0]!.id)).toMatchObject({ variant_name: 'Mug', image_url: null });
      expect(byId.get(plain.variants[0]!.id)?.option_values).toEqual({});
      const { inventory, ...variant } = product.variants[0]!;
      expect(byId.get(variant.id)?.variant).toEqual(variant);
      expect(byId.get(variant.id)?.inventory).toEqual(inventory);
      expect(await ctx.read((r) => r.products.getPurchasable(otherMode(scope), ids))).toEqual([]);
      expect(await ctx.read((r) => r.products.getPurchasable(scope, []))).toEqual([]);
    });

    it('getPurchasable finds every listed variant whatever the number of ids (one to many more than a cart has lines), duplicates once', async () => {
      const scope = newScope();
      const products = Array.from({ length: 8 }, (_, i) =>
        makeProduct(scope, { prices: [100 + i, 200 + i, 300 + i] }),
      );
      await ctx.tx(async (tx) => {
        for (const product of products) await tx.products.insert(product);
      });
      const all = products.flatMap((product) => product.variants.map((variant) => variant.id));
      for (const count of [1, 2, 15, 16, 17, 24]) {
        const ids = all.slice(0, count);
        const found = await ctx.read((r) =>
          r.products.getPurchasable(scope, [...ids, ids[0]!, 'var_missing']),
        );
        expect(found.map((p) => p.variant.id).sort()).toEqual([...ids].sort());
      }
    });

    it("getPurchasableForCart: the variants of the cart's items (as the statement reads them) and the extra ids, each once, as getPurchasable reads them; an unknown cart or another mode reads only what is there", async () => {
      const scope = newScope();
      const products = Array.from({ length: 8 }, (_, i) =>
        makeProduct(scope, { prices: [100 + i, 200 + i, 300 + i] }),
      );
      const all = products.flatMap((product) => product.variants.map((variant) => variant.id));
      const deleted = all[3]!;
      const cart = makeCart(scope);
      cart.items = [all[0]!, all[1]!, deleted, 'var_missing', all[2]!].map((variant_id, i) =>
        makeCartItem(cart.id, variant_id, { created_at: i }),
      );
      const other = makeCart(scope, { items: [] });
      other.items = [makeCartItem(other.id, all[4]!)];
      await ctx.tx(async (tx) => {
        for (const product of products) await tx.products.insert(product);
        await tx.carts.insert(cart);
        await tx.carts.insert(other);
        await tx.products.deleteVariant(scope, deleted, 2);
      });
      const sorted = (entries: PurchasableVariant[]) =>
        [...entries].sort((a, b) => (a.variant.id < b.variant.id ? -1 : 1));
      const cartVariants = cart.items.map((item) => item.variant_id);
      for (const count of [0, 1, 2, 15, 16, 17, 20]) {
        // `count` distinct ids: one also in the cart (and repeated), an unknown and a deleted one.
        const distinct = [all[1]!, 'var_missing', deleted, ...all.slice(5)].slice(0, count);
        const extra = count > 0 ? [...distinct, all[1]!] : [];
        const found = await ctx.read((r) => r.products.getPurchasableForCart(scope, cart.id, extra));
        const expected = await ctx.read((r) => r.products.getPurchasable(scope, [...cartVariants, ...extra]));
        expect(found.map((entry) => entry.variant.id).sort()).toEqual(
          [
            ...new Set([
              all[0]!,
              all[1]!,
              all[2]!,
              ...extra.filter((id) => id !== deleted && id !== 'var_missing'),
            ]),
          ].sort(),
        );
        expect(sorted(found)).toEqual(sorted(expected));
      }
      const read = (s: Scope, cart_id: string, extra: string[]) =>
        ctx.read((r) => r.products.getPurchasableForCart(s, cart_id, extra));
      expect((await read(scope, other.id, [])).map((entry) => entry.variant.id)).toEqual([all[4]!]);
      expect((await read(scope, 'cart_missing', [all[5]!])).map((entry) => entry.variant.id)).toEqual([
        all[5]!,
      ]);
      expect(await read(scope, 'cart_missing', [])).toEqual([]);
      expect(await read(otherMode(scope), cart.id, [all[5]!])).toEqual([]);
      // Inside a transaction: the items it wrote.
      const added = await ctx.tx(async (tx) => {
        await tx.carts.insertItem(scope, makeCartItem(other.id, all[6]!, { created_at: 5 }));
        return tx.products.getPurchasableForCart(scope, other.id, []);
      });
      expect(added.map((entry) => entry.variant.id).sort()).toEqual([all[4]!, all[6]!].sort());
    });

    it('list filters: status, type, q (case-insensitive substring, wildcards literal), tags (AND), inclusive price bounds', async () => {
      const scope = newScope();
      const insert = (p: ProductAggregate) => ctx.tx((tx) => tx.products.insert(p));
      const red = makeProduct(scope, { name: 'Red SHIRT', tags: ['summer', 'sale'], prices: [1000] });
      const blue = makeProduct(scope, { name: 'Blue shirt 100%', tags: ['summer'], prices: [2000] });
      const mug = makeProduct(scope, { name: 'Mug_1', type: 'digital', tags: ['sale'], prices: [3000] });
      const draft = makeProduct(scope, { name: 'Draft shirt', status: 'draft', prices: [1500] });
      const unpriced = makeProduct(scope, { name: 'Unpriced', prices: [100], inactive: [0] });
      for (const p of [red, blue, mug, draft, unpriced]) await insert(p);
      const ids = async (filter: ProductListFilter) =>
        (
          await ctx.read((r) => r.products.list(scope, filter, { limit: 50, sort: 'name', order: 'asc' }))
        ).data.map((p) => p.name);
      expect(await ids({ status: 'active' })).toEqual(['Blue shirt 100%', 'Mug_1', 'Red SHIRT', 'Unpriced']);
      expect(await ids({ type: 'digital' })).toEqual(['Mug_1']);
      expect(await ids({ q: 'sHiRt' })).toEqual(['Blue shirt 100%', 'Draft shirt', 'Red SHIRT']);
      expect(await ids({ q: '100%' })).toEqual(['Blue shirt 100%']);
      expect(await ids({ q: '%' })).toEqual(['Blue shirt 100%']);
      expect(await ids({ q: 'g_' })).toEqual(['Mug_1']);
      expect(await ids({ tags: ['summer', 'sale'] })).toEqual(['Red SHIRT']);
      expect(await ids({ tags: ['sale'] })).toEqual(['Mug_1', 'Red SHIRT']);
      expect(await ids({ price_min: 1500, price_max: 3000 })).toEqual([
        'Blue shirt 100%',
        'Draft shirt',
        'Mug_1',
      ]);
      expect(await ids({ price_max: 1000 })).toEqual(['Red SHIRT']);
      expect(
        await ids({ status: 'active', q: 'shirt', tags: ['summer'], price_min: 1000, price_max: 1000 }),
      ).toEqual(['Red SHIRT']);
      const page = await ctx.read((r) =>
        r.products.list(scope, { q: 'shirt' }, { limit: 2, sort: 'name', order: 'asc' }),
      );
      expect(page.total_count).toBe(3);
      expect(page.has_more).toBe(true);
    });
  });

  describe('shipping methods', () => {
    it('inserts, reads, lists by position then created_at (is_active filter), updates, soft-deletes', async () => {
      const scope = newScope();
      const a = makeShippingMethod(scope, { name: 'A', position: 2, created_at: 1 });
      const b = makeShippingMethod(scope, {
        name: 'B',
        position: 1,
        created_at: 3,
        free_shipping_threshold: 5000,
      });
      const c = makeShippingMethod(scope, {
        name: 'C',
        position: 1,
        created_at: 2,
        is_active: false,
        metadata: { x: 1 },
      });
      await ctx.tx(async (tx) => {
        for (const m of [a, b, c]) await tx.shippingMethods.insert(m);
      });
      expect(await ctx.read((r) => r.shippingMethods.get(scope, c.id))).toEqual(c);
      expect(await ctx.read((r) => r.shippingMethods.get(otherMode(scope), c.id))).toBeNull();
      const names = async (filter: { is_active?: boolean }, order: 'asc' | 'desc' = 'asc') =>
        (
          await ctx.read((r) => r.shippingMethods.list(scope, filter, { limit: 10, sort: 'position', order }))
        ).data.map((m) => m.name);
      expect(await names({})).toEqual(['C', 'B', 'A']);
      expect(await names({}, 'desc')).toEqual(['A', 'B', 'C']);
      expect(await names({ is_active: true })).toEqual(['B', 'A']);
      expect(await names({ is_active: false })).toEqual(['C']);
      const updated = await ctx.tx((tx) =>
        tx.shippingMethods.update(scope, b.id, {
          price: 0,
          free_shipping_threshold: null,
          is_active: false,
          updated_at: 9,
        }),
      );
      expect(updated).toEqual({
        ...b,
        price: 0,
        free_shipping_threshold: null,
        is_active: false,
        updated_at: 9,
      });
      expect(await ctx.tx((tx) => tx.shippingMethods.delete(scope, b.id, 10))).toBe(true);
      expect(await ctx.tx((tx) => tx.shippingMethods.delete(scope, b.id, 10))).toBe(false);
      expect(await ctx.read((r) => r.shippingMethods.get(scope, b.id))).toBeNull();
      expect(
        await ctx.tx((tx) => tx.shippingMethods.update(scope, b.id, { name: 'x', updated_at: 11 })),
      ).toBeNull();
      expect(await names({})).toEqual(['C', 'A']);
    });

    it('getForCart: the method the cart names (inactive too, as get); null without one, for an unknown or deleted method, an unknown cart, another mode', async () => {
      const scope = newScope();
      const method = makeShippingMethod(scope, { is_active: false, metadata: { zone: 'EU' } });
      const later = makeShippingMethod(scope, { name: 'Express' });
      const named = makeCart(scope, { shipping_method_id: method.id });
      const none = makeCart(scope);
      const unknown = makeCart(scope, { shipping_method_id: 'ship_missing' });
      await ctx.tx(async (tx) => {
        await tx.shippingMethods.insert(method);
        await tx.shippingMethods.insert(later);
        for (const cart of [named, none, unknown]) await tx.carts.insert(cart);
      });
      const of = (s: Scope, cart_id: string) => ctx.read((r) => r.shippingMethods.getForCart(s, cart_id));
      expect(await of(scope, named.id)).toEqual(method);
      expect(await of(scope, none.id)).toBeNull();
      expect(await of(scope, unknown.id)).toBeNull();
      expect(await of(scope, 'cart_missing')).toBeNull();
      expect(await of(otherMode(scope), named.id)).toBeNull();
      // Inside a transaction: the method it set.
      const set = await ctx.tx(async (tx) => {
        await tx.carts.update(scope, none.id, { shipping_method_id: later.id, updated_at: 2 });
        return tx.shippingMethods.getForCart(scope, none.id);
      });
      expect(set).toEqual(later);
      await ctx.tx((tx) => tx.shippingMethods.delete(scope, method.id, 3));
      expect(await of(scope, named.id)).toBeNull();
    });
  });
}
