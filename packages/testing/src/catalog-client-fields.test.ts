import type { Product } from '@cartwright/core/schemas';
import { afterEach, describe, expect, test } from 'vitest';
import { createTestEngine, type TestEngine } from './create-test-engine';

/**
 * The catalog fields of decisions §22 through the engine (the HTTP/SDK suites assert the wire):
 * variant dimensions, `position` (variant lists follow it) and `stock`; products'
 * `compare_at_price`; cart items' and order lines' `option_values`; the admin list's
 * `sort=updated_at`.
 */

let t: TestEngine | undefined;
afterEach(async () => {
  await t?.close();
  t = undefined;
});

const usd = (amount: number) => ({ amount, currency: 'USD' });

describe('variants: dimensions and position (decisions §22)', () => {
  test('kept on create and PATCH (null clears); lists follow position then id; a variant added without one goes last', async () => {
    t = await createTestEngine();
    const product = await t.store.products.create({
      name: 'Box',
      status: 'active',
      variants: [
        { sku: 'BOX-A', price: 900, width: 10.5, height: 4, depth: 0, position: 5 },
        { sku: 'BOX-B', price: 800, position: 1 },
        { sku: 'BOX-C', price: 700 }, // its index, 2
      ],
    });
    expect(product.variants.map((v) => [v.sku, v.position])).toEqual([
      ['BOX-B', 1],
      ['BOX-C', 2],
      ['BOX-A', 5],
    ]);
    expect(product.variants[2]).toMatchObject({ width: 10.5, height: 4, depth: 0 });
    expect(product.variants[0]).toMatchObject({ width: null, height: null, depth: null });

    t.clock.advance(1000);
    const added = await t.store.products.createVariant(product.id, { sku: 'BOX-D', price: 600 });
    expect(added.position).toBe(6);
    t.clock.advance(1000);
    const first = await t.store.products.createVariant(product.id, { sku: 'BOX-E', price: 500, position: 0 });
    expect(first.position).toBe(0);

    const moved = await t.store.products.updateVariant(added.id, { position: 1, width: 3, depth: null });
    expect(moved).toMatchObject({ position: 1, width: 3, height: null, depth: null });
    const a = product.variants[2]?.id as string;
    expect(await t.store.products.updateVariant(a, { depth: null, height: 2.25 })).toMatchObject({
      width: 10.5,
      height: 2.25,
      depth: null,
    });

    // BOX-B and BOX-D now share position 1: the lower id first (BOX-B was created first).
    const expected = ['BOX-E', 'BOX-B', 'BOX-D', 'BOX-C', 'BOX-A'];
    expect((await t.store.products.get(product.id)).variants.map((v) => v.sku)).toEqual(expected);
    expect((await t.store.products.listVariants(product.id)).data.map((v) => v.sku)).toEqual(expected);
    expect((await t.store.products.getStorefront(product.id)).variants.map((v) => v.sku)).toEqual(expected);
    const newest = await t.store.products.listVariants(product.id, { sort: 'created_at' });
    // Newest first; the three created together by position, descending too.
    expect(newest.data.map((v) => v.sku)).toEqual(['BOX-E', 'BOX-D', 'BOX-A', 'BOX-C', 'BOX-B']);
  });
});

describe('variants: stock (decisions §22)', () => {
  test('the available units when tracked (after reservations too), null when not; the same on the storefront', async () => {
    t = await createTestEngine();
    const { product, variant } = await t.fixtures.product({ price: 1000, on_hand: 5 });
    expect(variant.stock).toBe(5);
    const untracked = await t.store.products.createVariant(product.id, {
      price: 1200,
      inventory: { track_inventory: false, on_hand: 9 },
    });
    expect(untracked.stock).toBeNull();

    const cart = await t.fixtures.cart([{ variant_id: variant.id, quantity: 2 }]);
    await t.checkout(cart.id);
    const after = await t.store.products.getStorefront(product.id);
    expect(after.variants.map((v) => [v.id, v.stock, v.inventory.available])).toEqual([
      [variant.id, 3, 3],
      [untracked.id, null, 9],
    ]);
    expect((await t.store.products.get(product.id)).variants[0]?.stock).toBe(3);
  });
});

describe('products: compare_at_price (decisions §22)', () => {
  test('the representative (cheapest active) variant’s, following variant changes; null when it has none', async () => {
    t = await createTestEngine();
    const product = await t.store.products.create({
      name: 'Lamp',
      status: 'active',
      variants: [
        { price: 3000, compare_at_price: 4000 },
        { price: 2000, compare_at_price: 2500 },
      ],
    });
    expect(product).toMatchObject({ price: usd(2000), compare_at_price: usd(2500) });
    const [dear, cheap] = product.variants.map((v) => v.id) as [string, string];

    await t.store.products.updateVariant(cheap, { is_active: false });
    let now = await t.store.products.getStorefront(product.id);
    expect(now).toMatchObject({ price: usd(3000), compare_at_price: usd(4000) });
    await t.store.products.updateVariant(dear, { compare_at_price: null });
    now = await t.store.products.get(product.id);
    expect(now).toMatchObject({ price: usd(3000), compare_at_price: null });
    await t.store.products.deleteVariant(dear);
    expect(await t.store.products.get(product.id)).toMatchObject({ price: null, compare_at_price: null });

    const listed = await t.store.products.listStorefront();
    expect(listed.data.find((p) => p.id === product.id)).toMatchObject({ compare_at_price: null });
  });
});

describe('cart items and order lines: option_values (decisions §22)', () => {
  test('`{ option name: value }` of the variant: read fresh on the cart, snapshotted on the order line', async () => {
    t = await createTestEngine();
    const product = await t.store.products.create({
      name: 'Tee',
      status: 'active',
      options: [
        { name: 'Size', values: ['S', 'M'] },
        { name: 'Colour', values: ['Red', 'Blue'] },
      ],
      variants: [
        { price: 1000, options: { Size: 'S', Colour: 'Red' }, inventory: { on_hand: 10 } },
        { price: 1100, options: { Size: 'M', Colour: 'Blue' }, inventory: { on_hand: 10 } },
      ],
    });
    const plain = await t.fixtures.product({ price: 500 });
    const [red, blue] = product.variants.map((v) => v.id) as [string, string];
    const cart = await t.fixtures.cart([
      { variant_id: red, quantity: 1 },
      { variant_id: plain.variant.id, quantity: 1 },
    ]);
    expect(cart.items.map((item) => [item.variant_name, item.option_values])).toEqual([
      ['S / Red', { Size: 'S', Colour: 'Red' }],
      [plain.product.name, {}],
    ]);

    const order = await t.checkout(cart.id);
    expect(order.lines.map((line) => line.option_values)).toEqual([{ Size: 'S', Colour: 'Red' }, {}]);

    // The variant's option values change: a cart shows them as they are, the order keeps its snapshot.
    await t.store.products.updateVariant(blue, { options: { Size: 'M', Colour: 'Red' } });
    await t.store.products.updateVariant(red, { options: { Size: 'S', Colour: 'Blue' } });
    const next = await t.fixtures.cart([{ variant_id: red, quantity: 1 }]);
    expect(next.items[0]?.option_values).toEqual({ Size: 'S', Colour: 'Blue' });
    expect((await t.store.orders.get(order.id)).lines[0]?.option_values).toEqual({
      Size: 'S',
      Colour: 'Red',
    });
  });
});

describe('admin products: sort=updated_at (decisions §22)', () => {
  test('newest change first by default, asc when asked; starting_after walks it; the storefront refuses it', async () => {
    t = await createTestEngine();
    const made: Product[] = [];
    for (let i = 0; i < 5; i++) {
      t.clock.advance(1000);
      made.push((await t.fixtures.product({ price: 100 + i })).product);
    }
    // Touch them in another order than created: 2, 0, 4.
    for (const index of [2, 0, 4]) {
      t.clock.advance(1000);
      await t.store.products.update(made[index]?.id as string, { metadata: { touched: index } });
    }
    const ids = (indexes: number[]) => indexes.map((i) => made[i]?.id);
    // 3 and 1 were last changed when they were created (1 before 3).
    const desc = ids([4, 0, 2, 3, 1]);
    expect((await t.store.products.list({ sort: 'updated_at' })).data.map((p) => p.id)).toEqual(desc);
    expect((await t.store.products.list({ sort: 'updated_at', order: 'asc' })).data.map((p) => p.id)).toEqual(
      [...desc].reverse(),
    );

    const walked: string[] = [];
    let cursor: string | undefined;
    for (;;) {
      const page = await t.store.products.list({ sort: 'updated_at', limit: 2, starting_after: cursor });
      walked.push(...page.data.map((p) => p.id));
      expect(page.total_count).toBe(5);
      if (!page.has_more) break;
      cursor = page.next_cursor ?? undefined;
    }
    expect(walked).toEqual(desc);
    await expect(t.store.products.listStorefront({ sort: 'updated_at' as never })).rejects.toMatchObject({
      code: 'parameter_invalid',
      param: 'sort',
    });
  });
});
