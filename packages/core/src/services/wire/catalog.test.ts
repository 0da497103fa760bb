import { describe, expect, test } from 'vitest';
import type { ProductAggregate, VariantWithInventory } from '../../ports/storage';
import { productToWire } from './catalog';

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

  test('options and images by position; option values in option order (Red / L); variant images attached', () => {
    const wire = productToWire(product, 'admin');
    expect(wire.options.map((o) => o.name)).toEqual(['Colour', 'Size']);
    expect(wire.images.map((i) => i.id)).toEqual(['img_1', 'img_2']);
    expect(wire.variants[0]?.option_values.map((v) => v.value)).toEqual(['Red', 'L']);
    expect(wire.variants[0]?.images.map((i) => i.id)).toEqual(['img_1']);
    expect(wire.variants[1]?.images).toEqual([]);
  });
});
