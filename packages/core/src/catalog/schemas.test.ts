import { describe, expect, test } from 'vitest';
import { parseInput } from '../shared/schemas/parse';
import { expectRejected, inputErrorOf } from '../shared/schemas/test-helpers';
import {
  AdminProductListQuerySchema,
  ImageCreateSchema,
  ProductCreateSchema,
  ProductUpdateSchema,
  StorefrontProductListQuerySchema,
  VariantCreateSchema,
  VariantListQuerySchema,
  VariantUpdateSchema,
} from './schemas';

const tee = {
  name: 'Tee',
  options: [
    { name: 'Size', values: ['S', 'M'] },
    { name: 'Color', values: ['Red', 'Blue'] },
  ],
  variants: [
    { sku: 'TEE-S-RED', price: 1999, options: { Size: 'S', Color: 'Red' }, inventory: { on_hand: 5 } },
    { sku: 'TEE-M-BLUE', price: { amount: 2199, currency: 'USD' }, options: { Size: 'M', Color: 'Blue' } },
  ],
};

describe('ProductCreate', () => {
  test('a minimal product gets the defaults of decisions §9 (physical, draft, empty lists)', () => {
    expect(parseInput(ProductCreateSchema, { name: 'Mug' })).toEqual({
      name: 'Mug',
      type: 'physical',
      status: 'draft',
      tags: [],
      category_ids: [],
      attributes: {},
      metadata: {},
      images: [],
      options: [],
      variants: [],
    });
  });

  test('options, variants by option names, inventory and images are accepted; prices normalised', () => {
    const product = parseInput(ProductCreateSchema, {
      ...tee,
      slug: 'classic-tee',
      images: [{ url: 'https://cdn.example.com/tee.png', alt_text: 'Tee', width: 800, height: 600 }],
    });
    expect(product.variants[0]?.price).toEqual({ amount: 1999 });
    expect(product.variants[1]?.price).toEqual({ amount: 2199, currency: 'USD' });
    expect(product.variants[0]?.is_active).toBe(true);
    expect(product.variants[0]?.inventory).toEqual({ on_hand: 5 });
    expect(product.images).toHaveLength(1);
  });

  test('name is required; a blank name is invalid', () => {
    expectRejected(ProductCreateSchema, {}, 'parameter_missing', 'name');
    expectRejected(ProductCreateSchema, { name: ' ' }, 'parameter_invalid', 'name');
  });

  test('unknown type or status values are refused', () => {
    expectRejected(ProductCreateSchema, { name: 'X', type: 'gift' }, 'parameter_invalid', 'type');
    expectRejected(ProductCreateSchema, { name: 'X', status: 'published' }, 'parameter_invalid', 'status');
  });

  test('slugs: lowercase words with single hyphens', () => {
    expectRejected(ProductCreateSchema, { name: 'X', slug: 'Classic Tee' }, 'parameter_invalid', 'slug');
    expectRejected(ProductCreateSchema, { name: 'X', slug: 'a--b' }, 'parameter_invalid', 'slug');
  });

  test('an unknown field is parameter_unknown (strict body)', () => {
    expectRejected(ProductCreateSchema, { name: 'X', price: 100 }, 'parameter_unknown', 'price');
  });

  test('a variant needs a price; negative prices and float prices are refused', () => {
    expectRejected(
      ProductCreateSchema,
      { name: 'X', variants: [{ sku: 'A' }] },
      'parameter_missing',
      'variants[0][price]',
    );
    expectRejected(
      ProductCreateSchema,
      { name: 'X', variants: [{ price: -1 }] },
      'parameter_invalid',
      'variants[0][price]',
    );
    expectRejected(
      ProductCreateSchema,
      { name: 'X', variants: [{ price: 9.99 }] },
      'parameter_invalid',
      'variants[0][price]',
    );
  });

  test('inventory counts are integers ≥ 0', () => {
    expectRejected(
      ProductCreateSchema,
      { name: 'X', variants: [{ price: 1, inventory: { on_hand: -1 } }] },
      'parameter_invalid',
      'variants[0][inventory][on_hand]',
    );
    expectRejected(
      ProductCreateSchema,
      { name: 'X', variants: [{ price: 1, inventory: { stock: 3 } }] },
      'parameter_unknown',
      'variants[0][inventory][stock]',
    );
  });

  test('image URLs must be absolute http(s)', () => {
    expectRejected(
      ProductCreateSchema,
      { name: 'X', images: [{ url: '/tee.png' }] },
      'parameter_invalid',
      'images[0][url]',
    );
  });

  test('a variant value that is not among the option values → variants[0][options][Size]', () => {
    const error = expectRejected(
      ProductCreateSchema,
      { ...tee, variants: [{ price: 1, options: { Size: 'XL', Color: 'Red' } }] },
      'parameter_invalid',
      'variants[0][options][Size]',
    );
    expect(error.message).toBe('variants[0][options][Size] must be one of: S, M');
  });

  test('a variant naming an unknown option → invalid', () => {
    expectRejected(
      ProductCreateSchema,
      { ...tee, variants: [{ price: 1, options: { Size: 'S', Color: 'Red', Fit: 'Slim' } }] },
      'parameter_invalid',
      'variants[0][options][Fit]',
    );
  });

  test('a variant leaving out an option → parameter_missing variants[0][options][Color]', () => {
    expectRejected(
      ProductCreateSchema,
      { ...tee, variants: [{ price: 1, options: { Size: 'S' } }] },
      'parameter_missing',
      'variants[0][options][Color]',
    );
  });

  test('a variant without options on a product with options → parameter_missing', () => {
    expectRejected(
      ProductCreateSchema,
      { ...tee, variants: [{ price: 1 }] },
      'parameter_missing',
      'variants[0][options]',
    );
  });

  test('two variants with the same combination → the second is invalid', () => {
    const error = expectRejected(
      ProductCreateSchema,
      {
        ...tee,
        variants: [
          { price: 1, options: { Size: 'S', Color: 'Red' } },
          { price: 2, options: { Color: 'Red', Size: 'S' } },
        ],
      },
      'parameter_invalid',
      'variants[1][options]',
    );
    expect(error.message).toContain('variants[0]');
  });

  test('option_value_ids cannot be used at product creation', () => {
    expectRejected(
      ProductCreateSchema,
      { ...tee, variants: [{ price: 1, option_value_ids: ['optval_1', 'optval_2'] }] },
      'parameter_invalid',
      'variants[0][option_value_ids]',
    );
  });

  test('options on a product without options → invalid', () => {
    expectRejected(
      ProductCreateSchema,
      { name: 'X', variants: [{ price: 1, options: { Size: 'S' } }] },
      'parameter_invalid',
      'variants[0][options]',
    );
  });

  test('duplicate option names and values are refused', () => {
    expectRejected(
      ProductCreateSchema,
      {
        name: 'X',
        options: [
          { name: 'Size', values: ['S'] },
          { name: 'Size', values: ['M'] },
        ],
      },
      'parameter_invalid',
      'options[1][name]',
    );
    expectRejected(
      ProductCreateSchema,
      { name: 'X', options: [{ name: 'Size', values: ['S', 'S'] }] },
      'parameter_invalid',
      'options[0][values][1]',
    );
    expectRejected(
      ProductCreateSchema,
      { name: 'X', options: [{ name: 'Size', values: [] }] },
      'parameter_invalid',
      'options[0][values]',
    );
  });
});

describe('ProductUpdate', () => {
  test('spec fields plus slug and type; description may be cleared with null', () => {
    expect(
      parseInput(ProductUpdateSchema, {
        status: 'archived',
        description: null,
        tags: ['sale'],
        attributes: { a: 1 },
      }),
    ).toEqual({ status: 'archived', description: null, tags: ['sale'], attributes: { a: 1 } });
  });

  test('variants are not edited through the product', () => {
    expectRejected(ProductUpdateSchema, { variants: [] }, 'parameter_unknown', 'variants');
  });

  test('status must be draft, active or archived', () => {
    expectRejected(ProductUpdateSchema, { status: 'deleted' }, 'parameter_invalid', 'status');
  });
});

describe('VariantCreate / VariantUpdate', () => {
  test('by option_value_ids', () => {
    const variant = parseInput(VariantCreateSchema, {
      price: 500,
      option_value_ids: ['optval_1'],
      weight: 120.5,
    });
    expect(variant).toMatchObject({ price: { amount: 500 }, option_value_ids: ['optval_1'], weight: 120.5 });
  });

  test('options and option_value_ids together are refused', () => {
    expectRejected(
      VariantCreateSchema,
      { price: 1, options: { Size: 'S' }, option_value_ids: ['optval_1'] },
      'parameter_invalid',
      'option_value_ids',
    );
  });

  test('weight is grams ≥ 0', () => {
    expectRejected(VariantCreateSchema, { price: 1, weight: -3 }, 'parameter_invalid', 'weight');
  });

  test('width / height / depth are numbers ≥ 0 (null clears); position an integer ≥ 0 (decisions §22)', () => {
    expect(
      parseInput(VariantCreateSchema, { price: 1, width: 10.5, height: 0, depth: 2, position: 3 }),
    ).toMatchObject({ width: 10.5, height: 0, depth: 2, position: 3 });
    expect(parseInput(VariantUpdateSchema, { width: null, position: 0 })).toEqual({
      width: null,
      position: 0,
    });
    for (const field of ['width', 'height', 'depth'] as const) {
      expectRejected(VariantCreateSchema, { price: 1, [field]: -0.5 }, 'parameter_invalid', field);
      expectRejected(VariantUpdateSchema, { [field]: '10' }, 'parameter_invalid', field);
      expectRejected(VariantUpdateSchema, { [field]: 1e10 }, 'parameter_invalid', field);
    }
    expectRejected(VariantCreateSchema, { price: 1, position: -1 }, 'parameter_invalid', 'position');
    expectRejected(VariantCreateSchema, { price: 1, position: 1.5 }, 'parameter_invalid', 'position');
    expectRejected(VariantUpdateSchema, { position: null }, 'parameter_invalid', 'position');
    expectRejected(VariantUpdateSchema, { position: 2 ** 31 }, 'parameter_invalid', 'position');
    // The product's variants take them too.
    expectRejected(
      ProductCreateSchema,
      { name: 'X', variants: [{ price: 1, depth: -1 }] },
      'parameter_invalid',
      'variants[0][depth]',
    );
  });

  test('update: everything optional; compare_at_price cleared with null', () => {
    expect(parseInput(VariantUpdateSchema, { compare_at_price: null, is_active: false })).toEqual({
      compare_at_price: null,
      is_active: false,
    });
    expect(parseInput(VariantUpdateSchema, {})).toEqual({});
    expectRejected(VariantUpdateSchema, { price: null }, 'parameter_invalid', 'price');
  });
});

describe('ImageCreate', () => {
  test('url required; sizes positive integers; variant_ids accepted', () => {
    expect(parseInput(ImageCreateSchema, { url: 'https://x.io/a.jpg', variant_ids: ['var_1'] })).toEqual({
      url: 'https://x.io/a.jpg',
      variant_ids: ['var_1'],
    });
    expectRejected(ImageCreateSchema, {}, 'parameter_missing', 'url');
    expectRejected(ImageCreateSchema, { url: 'https://x.io/a.jpg', width: 0 }, 'parameter_invalid', 'width');
  });
});

describe('product list queries (decisions §7)', () => {
  test('storefront: q, tag (comma list, AND), price bounds, sort by price ascending by default', () => {
    const query = parseInput(
      StorefrontProductListQuerySchema,
      { q: 'tee', tag: 'summer,sale', price_min: '1000', price_max: '5000', sort: 'price', limit: '10' },
      { location: 'query' },
    );
    expect(query).toEqual({
      q: 'tee',
      tag: ['summer', 'sale'],
      price_min: 1000,
      price_max: 5000,
      sort: 'price',
      order: 'asc',
      limit: 10,
    });
  });

  test("storefront: price_min 'cheap' and -1 refused; sort 'popularity' refused", () => {
    expectRejected(
      StorefrontProductListQuerySchema,
      { price_min: 'cheap' },
      'parameter_invalid',
      'price_min',
      'query',
    );
    expectRejected(
      StorefrontProductListQuerySchema,
      { price_max: '-1' },
      'parameter_invalid',
      'price_max',
      'query',
    );
    expectRejected(
      StorefrontProductListQuerySchema,
      { sort: 'popularity' },
      'parameter_invalid',
      'sort',
      'query',
    );
  });

  test('admin: status and type filters, unknown values → 400', () => {
    expect(parseInput(AdminProductListQuerySchema, { status: 'draft', type: 'digital' })).toMatchObject({
      status: 'draft',
      type: 'digital',
      sort: 'created_at',
      order: 'desc',
    });
    expect(inputErrorOf(AdminProductListQuerySchema, { status: 'live' }, 'query').param).toBe('status');
    expect(inputErrorOf(AdminProductListQuerySchema, { type: 'food' }, 'query').param).toBe('type');
  });

  test('admin: sort=updated_at, newest first unless order is given; the storefront does not offer it (decisions §22)', () => {
    expect(
      parseInput(AdminProductListQuerySchema, { sort: 'updated_at' }, { location: 'query' }),
    ).toMatchObject({
      sort: 'updated_at',
      order: 'desc',
    });
    expect(
      parseInput(AdminProductListQuerySchema, { sort: 'updated_at', order: 'asc' }, { location: 'query' }),
    ).toMatchObject({ sort: 'updated_at', order: 'asc' });
    expectRejected(
      StorefrontProductListQuerySchema,
      { sort: 'updated_at' },
      'parameter_invalid',
      'sort',
      'query',
    );
  });

  test('variants: position ascending by default; created_at newest first; other sorts → 400', () => {
    expect(parseInput(VariantListQuerySchema, {}, { location: 'query' })).toMatchObject({
      sort: 'position',
      order: 'asc',
    });
    expect(parseInput(VariantListQuerySchema, { sort: 'created_at' }, { location: 'query' })).toMatchObject({
      sort: 'created_at',
      order: 'desc',
    });
    expectRejected(VariantListQuerySchema, { sort: 'price' }, 'parameter_invalid', 'sort', 'query');
  });
});
