import { describe, expect, test } from 'vitest';
import type { ProductAggregate, VariantWithInventory } from '../ports/storage';
import { parseRate } from '../regions/exchange-rate';
import {
  productInRegionToWire,
  regionPriceMap,
  regionProductPriceOf,
  representativeInRegion,
  storefrontRegionOf,
} from './product-in-region';
import { productToWire } from './wire';

const EUR = { currency: 'EUR', store_currency: 'USD', rate: parseRate('0.9') };
const EUR_NO_RATE = { ...EUR, rate: null };
const USD = { currency: 'USD', store_currency: 'USD', rate: null };

const v = (id: string, price: number, is_active = true, compare_at_price: number | null = null) => ({
  id,
  price,
  compare_at_price,
  is_active,
});

describe('representativeInRegion (decisions §19)', () => {
  test('the cheapest active variant by the price rule, with its compare_at_price', () => {
    const variants = [v('a', 3000, true, 3500), v('b', 2000, true, 2600), v('c', 100, false)];
    expect(representativeInRegion(variants, new Map(), EUR)).toEqual({ price: 1800, compare_at_price: 2340 });
    // A region price makes another variant the cheapest; its own compare_at_price (null) comes with it.
    const prices = new Map([['a', { price: 1000, compare_at_price: null }]]);
    expect(representativeInRegion(variants, prices, EUR)).toEqual({ price: 1000, compare_at_price: null });
  });

  test('inactive variants never count, even with a region price; ties keep the first in display order', () => {
    const prices = new Map([['c', { price: 1, compare_at_price: null }]]);
    expect(
      representativeInRegion([v('a', 500, true, 900), v('b', 500), v('c', 100, false)], prices, USD),
    ).toEqual({
      price: 500,
      compare_at_price: 900,
    });
  });

  test('no rate: only variants with a region price are sold; none → null', () => {
    expect(representativeInRegion([v('a', 500), v('b', 700)], new Map(), EUR_NO_RATE)).toEqual({
      price: null,
      compare_at_price: null,
    });
    const prices = new Map([['b', { price: 650, compare_at_price: 700 }]]);
    expect(regionProductPriceOf('prod_1', [v('a', 500), v('b', 700)], prices, EUR_NO_RATE)).toEqual({
      product_id: 'prod_1',
      price: 650,
      compare_at_price: 700,
    });
  });
});

describe('storefrontRegionOf', () => {
  const rates = [
    { from_currency: 'USD', to_currency: 'EUR', rate: '0.92' },
    { from_currency: 'EUR', to_currency: 'JPY', rate: '160' },
  ];
  test('the direct store → region rate only; none in the store currency', () => {
    expect(storefrontRegionOf({ id: 'reg_eu', currency: 'EUR' }, 'USD', rates)).toEqual({
      id: 'reg_eu',
      currency: 'EUR',
      store_currency: 'USD',
      rate: parseRate('0.92'),
    });
    // USD → EUR → JPY is not a direct pair: no rate.
    expect(storefrontRegionOf({ id: 'reg_jp', currency: 'JPY' }, 'USD', rates).rate).toBeNull();
    expect(storefrontRegionOf({ id: 'reg_us', currency: 'USD' }, 'USD', rates).rate).toBeNull();
  });
});

function variant(id: string, position: number, price: number, is_active = true): VariantWithInventory {
  return {
    id,
    store_id: 's',
    mode: 'test',
    product_id: 'prod_1',
    sku: id,
    barcode: null,
    price,
    compare_at_price: price + 100,
    cost_price: 10,
    currency: 'USD',
    weight: null,
    width: null,
    height: null,
    depth: null,
    is_active,
    option_value_ids: [],
    position,
    metadata: {},
    created_at: 0,
    updated_at: 0,
    inventory: {
      id: `inv_${id}`,
      store_id: 's',
      mode: 'test',
      variant_id: id,
      product_id: 'prod_1',
      track_inventory: true,
      allow_backorder: false,
      safety_stock: 0,
      on_hand: 5,
      reserved: 0,
      metadata: {},
      created_at: 0,
      updated_at: 0,
    },
  };
}

const product: ProductAggregate = {
  id: 'prod_1',
  store_id: 's',
  mode: 'test',
  name: 'Tee',
  slug: 'tee',
  description: null,
  type: 'physical',
  status: 'active',
  tags: [],
  category_ids: [],
  attributes: {},
  metadata: {},
  price: 1000,
  currency: 'USD',
  created_at: 0,
  updated_at: 0,
  options: [],
  // Out of display order on purpose: the wire orders by position.
  variants: [variant('var_b', 1, 1000), variant('var_a', 0, 1500), variant('var_x', 2, 1, false)],
  images: [],
};

describe('productInRegionToWire', () => {
  test('without a region: productToWire itself', () => {
    expect(productInRegionToWire(product, 'storefront', null, new Map())).toEqual(
      productToWire(product, 'storefront'),
    );
  });

  test('every price in the region currency; a variant not sold there has price null; the rest of the wire unchanged', () => {
    const prices = regionPriceMap([{ variant_id: 'var_a', price: 700, compare_at_price: null }]);
    const region = { id: 'reg_eu', ...EUR_NO_RATE };
    const wire = productInRegionToWire(product, 'storefront', region, prices);
    const base = productToWire(product, 'storefront');
    expect(wire.variants.map((w) => [w.id, w.price, w.compare_at_price])).toEqual([
      ['var_a', { amount: 700, currency: 'EUR' }, null],
      ['var_b', null, null],
    ]);
    expect(wire.price).toEqual({ amount: 700, currency: 'EUR' });
    expect(wire.compare_at_price).toBeNull();
    expect({ ...wire, variants: [], price: null, compare_at_price: null }).toEqual({
      ...base,
      variants: [],
      price: null,
      compare_at_price: null,
    });
    // The key order of the wire is kept (the bytes of both paths are compared).
    expect(Object.keys(wire)).toEqual(Object.keys(base));
    expect(Object.keys(wire.variants[0] ?? {})).toEqual(Object.keys(base.variants[0] ?? {}));
  });

  test('converted at the rate, rounded once per amount', () => {
    const wire = productInRegionToWire(product, 'storefront', { id: 'reg_eu', ...EUR }, new Map());
    expect(wire.variants.map((w) => [w.price?.amount, w.compare_at_price?.amount])).toEqual([
      [1350, 1440],
      [900, 990],
    ]);
    expect(wire.price).toEqual({ amount: 900, currency: 'EUR' });
    expect(wire.compare_at_price).toEqual({ amount: 990, currency: 'EUR' });
  });
});
