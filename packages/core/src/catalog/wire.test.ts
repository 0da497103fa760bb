import fc from 'fast-check';
import { describe, expect, test } from 'vitest';
import type { ProductAggregate, VariantWithInventory } from '../ports/storage';
import { productToWire } from './wire';

const scope = { store_id: 'store_1', mode: 'test' as const };

function variant(
  id: string,
  position: number,
  overrides: Partial<VariantWithInventory> = {},
): VariantWithInventory {
  return {
    ...scope,
    id,
    product_id: 'prod_1',
    sku: `SKU-${id}`,
    barcode: null,
    price: 2500,
    compare_at_price: null,
    cost_price: 1000,
    currency: 'USD',
    weight: 200,
    width: null,
    height: null,
    depth: null,
    is_active: true,
    option_value_ids: ['val_l', 'val_red'],
    position,
    metadata: {},
    created_at: 0,
    updated_at: 0,
    inventory: {
      ...scope,
      id: `inv_${id}`,
      variant_id: id,
      product_id: 'prod_1',
      track_inventory: true,
      allow_backorder: false,
      safety_stock: 2,
      on_hand: 10,
      reserved: 3,
      metadata: { bin: 'A1' },
      created_at: 0,
      updated_at: 0,
    },
    ...overrides,
  };
}

const product: ProductAggregate = {
  ...scope,
  id: 'prod_1',
  name: 'Shirt',
  slug: 'shirt',
  description: null,
  type: 'physical',
  status: 'active',
  tags: ['summer'],
  attributes: {},
  metadata: { origin: 'PT' },
  price: 2500,
  currency: 'USD',
  created_at: Date.UTC(2024, 0, 31),
  updated_at: Date.UTC(2024, 0, 31),
  options: [
    {
      id: 'opt_size',
      product_id: 'prod_1',
      name: 'Size',
      position: 1,
      values: [{ id: 'val_l', option_id: 'opt_size', value: 'L', position: 0 }],
    },
    {
      id: 'opt_colour',
      product_id: 'prod_1',
      name: 'Colour',
      position: 0,
      values: [{ id: 'val_red', option_id: 'opt_colour', value: 'Red', position: 0 }],
    },
  ],
  variants: [variant('var_2', 1, { is_active: false, price: 1000 }), variant('var_1', 0)],
  images: [
    {
      id: 'img_2',
      product_id: 'prod_1',
      url: 'https://x/2.png',
      alt_text: null,
      position: 1,
      width: null,
      height: null,
      variant_ids: [],
    },
    {
      id: 'img_1',
      product_id: 'prod_1',
      url: 'https://x/1.png',
      alt_text: 'front',
      position: 0,
      width: 10,
      height: 20,
      variant_ids: ['var_1'],
    },
  ],
};

describe('productToWire', () => {
  test('admin: every variant in position order, cost price and stock counts shown', () => {
    const wire = productToWire(product, 'admin');
    expect(wire.variants.map((v) => v.id)).toEqual(['var_1', 'var_2']);
    expect(wire.variants[0]?.cost_price).toEqual({ amount: 1000, currency: 'USD' });
    expect(wire.variants[0]?.inventory).toMatchObject({
      on_hand: 10,
      reserved: 3,
      safety_stock: 2,
      available: 7,
    });
    expect(wire.price).toEqual({ amount: 2500, currency: 'USD' });
    expect(wire.created_at).toBe('2024-01-31T00:00:00.000Z');
  });

  test('storefront: inactive variant var_2 hidden, cost_price null, only available stock', () => {
    const wire = productToWire(product, 'storefront');
    expect(wire.variants.map((v) => v.id)).toEqual(['var_1']);
    expect(wire.variants[0]?.cost_price).toBeNull();
    expect(wire.variants[0]?.inventory).toMatchObject({
      on_hand: null,
      reserved: null,
      safety_stock: null,
      available: 7,
    });
  });

  test('variants show width / height / depth, position and stock: available when tracked, null when not (decisions §22)', () => {
    const untracked = variant('var_3', 2, { width: 12.5, height: 0, depth: 3 });
    untracked.inventory = { ...untracked.inventory, track_inventory: false };
    const wire = productToWire({ ...product, variants: [...product.variants, untracked] }, 'storefront');
    expect(wire.variants.map((v) => [v.id, v.position, v.stock])).toEqual([
      ['var_1', 0, 7],
      ['var_3', 2, null],
    ]);
    expect(wire.variants[1]).toMatchObject({ width: 12.5, height: 0, depth: 3 });
    expect(wire.variants[0]).toMatchObject({ width: null, height: null, depth: null });
    // Oversold (reserved above on hand, backorders): stock follows `available`, negative too.
    const oversold = variant('var_1', 0);
    oversold.inventory = { ...oversold.inventory, on_hand: 1, reserved: 3 };
    const sold = productToWire({ ...product, variants: [oversold] }, 'admin');
    expect(sold.variants[0]?.stock).toBe(-2);
    expect(sold.variants[0]?.stock).toBe(sold.variants[0]?.inventory.available);
  });

  test('compare_at_price is the representative variant’s: the cheapest active one (first by position on a tie), null without one', () => {
    const at = (id: string, position: number, price: number, compare: number | null, active = true) =>
      variant(id, position, { price, compare_at_price: compare, is_active: active });
    const cases: [VariantWithInventory[], number | null][] = [
      [[at('var_a', 0, 2000, 2500), at('var_b', 1, 1500, 1800)], 1800],
      [[at('var_a', 0, 2000, 2500), at('var_b', 1, 1500, null)], null],
      // The cheaper variant is inactive: the representative is the other.
      [[at('var_a', 0, 2000, 2500), at('var_b', 1, 1500, 1800, false)], 2500],
      // Equal prices: the first in position order, whatever the storage order.
      [[at('var_b', 1, 1500, 1900), at('var_a', 0, 1500, 1700)], 1700],
      [[at('var_a', 0, 1500, 1700, false)], null],
      [[], null],
    ];
    for (const [variants, expected] of cases) {
      const wire = productToWire({ ...product, variants }, 'storefront');
      expect(wire.compare_at_price).toEqual(expected === null ? null : { amount: expected, currency: 'USD' });
    }
  });

  test('options and images by position; option values in option order (Red / L); variant images attached', () => {
    const wire = productToWire(product, 'admin');
    expect(wire.options.map((o) => o.name)).toEqual(['Colour', 'Size']);
    expect(wire.images.map((i) => i.id)).toEqual(['img_1', 'img_2']);
    expect(wire.variants[0]?.option_values.map((v) => v.value)).toEqual(['Red', 'L']);
    expect(wire.variants[0]?.images.map((i) => i.id)).toEqual(['img_1']);
    expect(wire.variants[1]?.images).toEqual([]);
  });
});

/** The serialisation before the issue-9 rewrite (sorted copies, filter/map chains), kept as the oracle. */
function referenceProductToWire(p: ProductAggregate, view: 'admin' | 'storefront') {
  const byPos = <T extends { position: number }>(a: T, b: T) => a.position - b.position;
  const iso = (ms: number) => new Date(ms).toISOString();
  const money = (amount: number | null, currency: string) => (amount == null ? null : { amount, currency });
  const image = (i: ProductAggregate['images'][number]) => ({
    id: i.id,
    url: i.url,
    alt_text: i.alt_text,
    position: i.position,
    width: i.width,
    height: i.height,
  });
  const optionValues = new Map<string, { wire: object; optionPosition: number }>();
  for (const option of p.options) {
    for (const value of option.values) {
      optionValues.set(value.id, {
        wire: { id: value.id, value: value.value, position: value.position },
        optionPosition: option.position,
      });
    }
  }
  const images = [...p.images].sort(byPos);
  const variants = [...p.variants].sort(byPos);
  const visible = view === 'admin' ? variants : variants.filter((v) => v.is_active);
  // The representative variant: the cheapest active one, the first in display order on a tie.
  const representative = variants.filter((v) => v.is_active).sort((a, b) => a.price - b.price)[0];
  return {
    id: p.id,
    name: p.name,
    slug: p.slug,
    description: p.description,
    type: p.type,
    status: p.status,
    tags: p.tags,
    category_ids: p.category_ids ?? [],
    attributes: p.attributes,
    images: images.map(image),
    options: [...p.options].sort(byPos).map((o) => ({
      id: o.id,
      name: o.name,
      position: o.position,
      values: [...o.values].sort(byPos).map((v) => ({ id: v.id, value: v.value, position: v.position })),
    })),
    variants: visible.map((v) => {
      const found: { wire: object; optionPosition: number }[] = [];
      for (const id of v.option_value_ids) {
        const value = optionValues.get(id);
        if (value !== undefined) found.push(value);
      }
      const admin = view === 'admin';
      return {
        id: v.id,
        product_id: v.product_id,
        sku: v.sku,
        barcode: v.barcode,
        price: money(v.price, v.currency),
        compare_at_price: money(v.compare_at_price, v.currency),
        cost_price: admin ? money(v.cost_price, v.currency) : null,
        weight: v.weight,
        width: v.width,
        height: v.height,
        depth: v.depth,
        is_active: v.is_active,
        position: v.position,
        stock: v.inventory.track_inventory ? v.inventory.on_hand - v.inventory.reserved : null,
        option_values: found.sort((a, b) => a.optionPosition - b.optionPosition).map((x) => x.wire),
        images: images.filter((i) => i.variant_ids.includes(v.id)).map(image),
        inventory: {
          id: v.inventory.id,
          variant_id: v.inventory.variant_id,
          track_inventory: v.inventory.track_inventory,
          allow_backorder: v.inventory.allow_backorder,
          safety_stock: admin ? v.inventory.safety_stock : null,
          on_hand: admin ? v.inventory.on_hand : null,
          reserved: admin ? v.inventory.reserved : null,
          available: v.inventory.on_hand - v.inventory.reserved,
          metadata: admin ? v.inventory.metadata : {},
        },
        metadata: v.metadata,
        created_at: iso(v.created_at),
        updated_at: iso(v.updated_at),
      };
    }),
    price: money(p.price, p.currency),
    compare_at_price: money(representative?.compare_at_price ?? null, p.currency),
    metadata: p.metadata,
    created_at: iso(p.created_at),
    updated_at: iso(p.updated_at),
  };
}

/** {@link variant} with its inventory tracked or not. */
function withTracking(tracked: boolean, ...args: Parameters<typeof variant>): VariantWithInventory {
  const built = variant(...args);
  return { ...built, inventory: { ...built.inventory, track_inventory: tracked } };
}

describe('productToWire equals the reference serialisation', () => {
  const position = fc.integer({ min: 0, max: 3 });
  const time = fc.integer({ min: 0, max: 4_102_444_800_000 });
  const aggregate = fc
    .record({
      options: fc.array(
        fc.record({
          position,
          values: fc.array(fc.record({ position, value: fc.string() }), { maxLength: 3 }),
        }),
        { maxLength: 3 },
      ),
      variants: fc.array(
        fc.record({
          position,
          is_active: fc.boolean(),
          picks: fc.array(fc.nat({ max: 12 }), { maxLength: 3 }),
          cost: fc.option(fc.nat(), { nil: null }),
          price: fc.integer({ min: 1, max: 3 }),
          compare: fc.option(fc.nat(), { nil: null }),
          width: fc.option(fc.double({ min: 0, max: 1e9, noNaN: true }), { nil: null }),
          tracked: fc.boolean(),
          created_at: time,
        }),
        { maxLength: 4 },
      ),
      images: fc.array(fc.record({ position, attach: fc.array(fc.nat({ max: 5 }), { maxLength: 2 }) }), {
        maxLength: 3,
      }),
      price: fc.option(fc.nat(), { nil: null }),
      created_at: time,
    })
    .map((shape): ProductAggregate => {
      const options = shape.options.map((o, i) => ({
        id: `opt_${i}`,
        product_id: 'prod_1',
        name: `O${i}`,
        position: o.position,
        values: o.values.map((v, j) => ({ id: `val_${i}_${j}`, option_id: `opt_${i}`, ...v })),
      }));
      const valueIds = [...options.flatMap((o) => o.values.map((v) => v.id)), 'val_unknown'];
      const variants = shape.variants.map((v, i) =>
        withTracking(v.tracked, `var_${i}`, v.position, {
          is_active: v.is_active,
          cost_price: v.cost,
          price: v.price,
          compare_at_price: v.compare,
          width: v.width,
          depth: v.width === null ? null : 1.5,
          created_at: v.created_at,
          option_value_ids: v.picks.map((k) => valueIds[k % valueIds.length] as string),
        }),
      );
      return {
        ...product,
        price: shape.price,
        created_at: shape.created_at,
        options,
        variants,
        images: shape.images.map((im, i) => ({
          id: `img_${i}`,
          product_id: 'prod_1',
          url: `https://x/${i}.png`,
          alt_text: null,
          position: im.position,
          width: null,
          height: null,
          variant_ids: im.attach.map((k) => `var_${k}`),
        })),
      };
    });

  test('same JSON text (values and key order) for random aggregates, both views', () => {
    fc.assert(
      fc.property(aggregate, fc.constantFrom('admin' as const, 'storefront' as const), (p, view) => {
        expect(JSON.stringify(productToWire(p, view))).toBe(JSON.stringify(referenceProductToWire(p, view)));
      }),
      { numRuns: 2000 },
    );
  });
});
