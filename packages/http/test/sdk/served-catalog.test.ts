import type { Cart, Order, Product } from '@headless-commerce/sdk';
import { expect, test } from 'vitest';
import { describeApi } from '../api/support/harness';
import {
  ADDRESS,
  createSellable,
  expectSdkError,
  type OurVariant,
  sdkClients,
  tickingClock,
  unique,
  usd,
} from './support';

/**
 * decisions §22's catalog fields, as `@headless-commerce/sdk` 0.2.0 sends and reads them:
 * - `variants.adminCreate` / `adminUpdate` take `width`, `height`, `depth` (numbers ≥ 0) and
 *   `position` (integer ≥ 0), which variants show; variant lists (`product.variants`,
 *   `variants.adminList`) follow `position`, then id;
 * - variants show `stock` (the available units when tracked, else null), products
 *   `compare_at_price` (the representative — cheapest active — variant's), on the admin and the
 *   storefront (lists served from the page cache too);
 * - cart items and order lines show `option_values` (`{ option name: value }`);
 * - `products.adminList({ sort: 'updated_at' })` (newest change first), paginated with
 *   `starting_after`.
 */

const skus = (variants: readonly { sku: string | null }[]) => variants.map((v) => v.sku);

describeApi(
  'sdk: catalog fields served as the client sends them (decisions §22)',
  (api) => {
    test('variants.adminCreate / adminUpdate: width, height, depth and position are kept; lists follow position then id', async () => {
      const { admin, storefront } = sdkClients(api());
      const product = await admin.products.adminCreate({
        name: unique('Box '),
        slug: unique('box-').toLowerCase(),
        status: 'active',
      });
      const sku = unique('BOX-');
      const big = (await admin.variants.adminCreate(product.id, {
        sku: `${sku}-BIG`,
        price: 900,
        width: 40.5,
        height: 30,
        depth: 0,
        position: 5,
      })) as OurVariant;
      expect(big).toMatchObject({ width: 40.5, height: 30, depth: 0, position: 5 });
      // Without a position: after the product's variants (one past the highest).
      const small = (await admin.variants.adminCreate(product.id, {
        sku: `${sku}-SMALL`,
        price: 500,
      })) as OurVariant;
      expect(small).toMatchObject({ width: null, height: null, depth: null, position: 6 });
      const first = (await admin.variants.adminCreate(product.id, {
        sku: `${sku}-FIRST`,
        price: 700,
        position: 0,
      })) as OurVariant;
      const order = [first.sku, big.sku, small.sku];
      expect(skus((await admin.products.adminGet(product.id)).variants)).toEqual(order);
      expect(skus((await admin.variants.adminList(product.id)).data)).toEqual(order);
      expect(skus((await storefront.products.get(product.id)).variants)).toEqual(order);

      const moved = (await admin.variants.adminUpdate(small.id, {
        position: 1,
        width: 12,
        height: 8.25,
        depth: 3,
      })) as OurVariant;
      expect(moved).toMatchObject({ position: 1, width: 12, height: 8.25, depth: 3 });
      const reordered = [first.sku, small.sku, big.sku];
      expect(skus((await admin.variants.adminList(product.id)).data)).toEqual(reordered);
      const shown = (await storefront.products.get(product.id)).variants as OurVariant[];
      expect(skus(shown)).toEqual(reordered);
      expect(shown[1]).toMatchObject({ width: 12, height: 8.25, depth: 3, position: 1 });

      // Equal positions: by id (the earlier variant first).
      await admin.variants.adminUpdate(big.id, { position: 1 });
      expect(skus((await admin.variants.adminList(product.id)).data)).toEqual([
        first.sku,
        big.sku,
        small.sku,
      ]);

      // Out of range: 400 naming the field, nothing changed.
      for (const [field, value] of [
        ['width', -1],
        ['depth', -0.01],
        ['position', -1],
        ['position', 1.5],
      ] as const) {
        const error = await expectSdkError(
          admin.variants.adminUpdate(big.id, { [field]: value }),
          400,
          'parameter_invalid',
        );
        expect(error.details).toEqual([expect.objectContaining({ param: field })]);
      }
      expect(await admin.variants.adminList(product.id)).toMatchObject({
        data: [{ id: first.id }, { id: big.id, width: 40.5, depth: 0, position: 1 }, { id: small.id }],
      });
    });

    test('stock: the available units when tracked (reservations taken off), null when not; admin and storefront alike', async () => {
      const { admin, storefront } = sdkClients(api());
      const { product, variant, inventory_id } = await createSellable(admin, { price: 1200, on_hand: 7 });
      expect(variant.stock).toBe(0); // as created: nothing on hand until createSellable's adjustment
      expect((await admin.products.adminGet(product.id)).variants[0]?.stock).toBe(7);
      expect((await storefront.products.get(product.id)).variants[0]?.stock).toBe(7);

      // A pending (manual) checkout reserves 2.
      const cart = await storefront.carts.create();
      await storefront.carts.addItem(cart.id, { variant_id: variant.id, quantity: 2 });
      await storefront.checkout.create(cart.id, {
        email: `${unique('stock')}@example.com`,
        shipping_address: ADDRESS,
        payment_method: 'manual',
      });
      const listed = (await admin.variants.adminList(product.id)).data[0] as OurVariant;
      expect(listed.stock).toBe(5);
      expect(listed.stock).toBe(listed.inventory.available);
      expect((await storefront.products.get(product.id)).variants[0]?.stock).toBe(5);

      await admin.inventory.adminUpdate(inventory_id, { track_inventory: false });
      expect((await admin.products.adminGet(product.id)).variants[0]?.stock).toBeNull();
      expect((await storefront.products.get(product.id)).variants[0]?.stock).toBeNull();
    });

    test('products show compare_at_price: the representative (cheapest active) variant’s, on admin and storefront lists (the cached storefront page too)', async () => {
      const { admin, storefront } = sdkClients(api());
      const tag = unique('cmp');
      const { product, variant } = await createSellable(admin, { price: 2000, tags: [tag] });
      const fresh: Product = await admin.products.adminGet(product.id);
      expect(fresh.compare_at_price).toBeNull();
      const listOnce = async () => (await storefront.products.list({ tag })).data[0]?.compare_at_price;
      expect(await listOnce()).toBeNull();
      expect(await listOnce()).toBeNull(); // served from the page cache

      await admin.variants.adminUpdate(variant.id, { compare_at_price: 2600 });
      expect(await listOnce()).toEqual(usd(2600));
      // A cheaper variant becomes the representative: its compare_at_price (none) is shown.
      const cheaper = await admin.variants.adminCreate(product.id, { price: 1500 });
      expect(await listOnce()).toBeNull();
      await admin.variants.adminUpdate(cheaper.id, { compare_at_price: 1900 });
      expect(await listOnce()).toEqual(usd(1900));
      expect((await storefront.products.get(product.id)).compare_at_price).toEqual(usd(1900));
      expect((await admin.products.adminList({ q: product.name })).data[0]).toMatchObject({
        price: usd(1500),
        compare_at_price: usd(1900),
      });
      // Inactive variants do not count.
      await admin.variants.adminUpdate(cheaper.id, { is_active: false });
      expect(await listOnce()).toEqual(usd(2600));
      expect((await storefront.products.list({ tag })).data[0]?.price).toEqual(usd(2000));
    });

    test('cart items and order lines show option_values ({ option name: value }) through a storefront flow', async () => {
      const { admin, storefront } = sdkClients(api());
      // The SDK's CreateProductInput has no options: the low-level request carries them.
      const product = await admin.request<Product>('POST', '/admin/products', {
        name: unique('Tee '),
        status: 'active',
        options: [
          { name: 'Size', values: ['S', 'M'] },
          { name: 'Colour', values: ['Red', 'Blue'] },
        ],
        variants: [
          { price: 1000, options: { Size: 'S', Colour: 'Red' }, inventory: { on_hand: 5 } },
          { price: 1100, options: { Size: 'M', Colour: 'Blue' }, inventory: { on_hand: 5 } },
        ],
      });
      const plain = await createSellable(admin, { price: 400 });
      const [red, blue] = product.variants.map((v) => v.id) as [string, string];

      const cart = await storefront.carts.create();
      await storefront.carts.addItem(cart.id, { variant_id: blue, quantity: 1 });
      await storefront.carts.addItem(cart.id, { variant_id: plain.variant.id, quantity: 1 });
      const filled: Cart = await storefront.carts.addItem(cart.id, { variant_id: red, quantity: 2 });
      expect(filled.items.map((item) => [item.variant_id, item.variant_name, item.option_values])).toEqual([
        [blue, 'M / Blue', { Size: 'M', Colour: 'Blue' }],
        [plain.variant.id, plain.product.name, {}],
        [red, 'S / Red', { Size: 'S', Colour: 'Red' }],
      ]);
      expect((await storefront.carts.get(cart.id)).items.map((item) => item.option_values)).toEqual([
        { Size: 'M', Colour: 'Blue' },
        {},
        { Size: 'S', Colour: 'Red' },
      ]);

      const email = `${unique('opts')}@example.com`;
      const order = await storefront.checkout.create(cart.id, {
        email,
        shipping_address: ADDRESS,
        payment_method: 'manual',
      });
      const expectedLines = [
        { variant_id: blue, option_values: { Size: 'M', Colour: 'Blue' } },
        { variant_id: plain.variant.id, option_values: {} },
        { variant_id: red, option_values: { Size: 'S', Colour: 'Red' } },
      ];
      expect(order.lines).toMatchObject(expectedLines);

      // Lines are snapshots: the variant's option values change, the order's do not.
      await admin.request('PATCH', `/admin/variants/${red}`, { options: { Size: 'M', Colour: 'Red' } });
      const found: Order = await storefront.orders.lookup({ number: order.number, email });
      expect(found.lines).toMatchObject(expectedLines);
      expect((await admin.orders.adminGet(order.id)).lines).toMatchObject(expectedLines);
      const next = await storefront.carts.create();
      const again = await storefront.carts.addItem(next.id, { variant_id: red, quantity: 1 });
      expect(again.items[0]?.option_values).toEqual({ Size: 'M', Colour: 'Red' });
    });

    test('products.adminList({ sort: "updated_at" }): newest change first, order=asc on request, pages walk with starting_after', async () => {
      const { admin } = sdkClients(api());
      const tag = unique('Upd');
      const made: Product[] = [];
      for (const n of [0, 1, 2, 3, 4]) {
        made.push(
          await admin.products.adminCreate({ name: `${tag} ${n}`, slug: unique('upd-').toLowerCase() }),
        );
      }
      // Changed in another order than created: 2, then 0, then 4 (a variant added counts too).
      await admin.products.adminUpdate(made[2]!.id, { description: 'changed' });
      await admin.products.adminUpdate(made[0]!.id, { tags: ['changed'] });
      await admin.variants.adminCreate(made[4]!.id, { price: 100 });
      const expected = [4, 0, 2, 3, 1].map((i) => made[i]!.id);

      const all = await admin.products.adminList({ q: tag, sort: 'updated_at' });
      expect(all.data.map((p) => p.id)).toEqual(expected);
      expect(all).toMatchObject({ total_count: 5, has_more: false, next_cursor: null });
      const asc = await admin.products.adminList({ q: tag, sort: 'updated_at', order: 'asc' });
      expect(asc.data.map((p) => p.id)).toEqual([...expected].reverse());

      const first = await admin.products.adminList({ q: tag, sort: 'updated_at', limit: 2 });
      expect(first).toMatchObject({ has_more: true, next_cursor: expected[1], total_count: 5 });
      const walked: string[] = [];
      for await (const p of admin.products.adminListAutoPaginate({ q: tag, sort: 'updated_at', limit: 2 }))
        walked.push(p.id);
      expect(walked).toEqual(expected);

      // Not a storefront sort (decisions §7 lists its own).
      const { storefront } = sdkClients(api());
      await expectSdkError(
        storefront.products.list({ sort: 'updated_at' as never }),
        400,
        'parameter_invalid',
      );
    });
  },
  { clock: tickingClock() },
);
