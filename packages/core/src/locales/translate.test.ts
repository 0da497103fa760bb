import { describe, expect, test } from 'vitest';
import type { ProductAggregate } from '../ports/storage';
import { translateLineNames, translateNamed, translateProduct, translationLookup } from './translate';

const product = {
  id: 'prod_1',
  name: 'T-Shirt',
  description: 'Cotton',
  options: [
    {
      id: 'opt_size',
      product_id: 'prod_1',
      name: 'Size',
      position: 0,
      values: [
        { id: 'optval_s', option_id: 'opt_size', value: 'Small', position: 0 },
        { id: 'optval_m', option_id: 'opt_size', value: 'Medium', position: 1 },
      ],
    },
    {
      id: 'opt_color',
      product_id: 'prod_1',
      name: 'Color',
      position: 1,
      values: [{ id: 'optval_red', option_id: 'opt_color', value: 'Red', position: 0 }],
    },
  ],
} as unknown as ProductAggregate;

const ko = translationLookup([
  { entity_type: 'product', entity_id: 'prod_1', field: 'name', value: '티셔츠' },
  { entity_type: 'option', entity_id: 'opt_size', field: 'name', value: '사이즈' },
  { entity_type: 'option_value', entity_id: 'optval_s', field: 'value', value: '스몰' },
  { entity_type: 'shipping_method', entity_id: 'ship_1', field: 'description', value: '빠른 배송' },
]);

describe('translateProduct', () => {
  test('translated fields replace the base text; the rest falls back to it', () => {
    const shown = translateProduct(product, ko);
    expect(shown.name).toBe('티셔츠');
    expect(shown.description).toBe('Cotton');
    expect(shown.options.map((o) => o.name)).toEqual(['사이즈', 'Color']);
    expect(shown.options[0]?.values.map((v) => v.value)).toEqual(['스몰', 'Medium']);
    expect(shown.options[1]).toBe(product.options[1]);
    // The stored record is left as it was.
    expect(product.name).toBe('T-Shirt');
  });

  test('no translation for it: the same object', () => {
    expect(translateProduct(product, translationLookup([]))).toBe(product);
    const other = translationLookup([
      { entity_type: 'product', entity_id: 'prod_2', field: 'name', value: 'x' },
    ]);
    expect(translateProduct(product, other)).toBe(product);
  });
});

describe('translateNamed', () => {
  test('name and description of a shipping method, with fallback', () => {
    const method = { id: 'ship_1', name: 'Express', description: 'Fast', price: 1 };
    expect(translateNamed('shipping_method', method, ko)).toEqual({ ...method, description: '빠른 배송' });
    expect(translateNamed('category', { id: 'ship_1', name: 'A', description: null }, ko).name).toBe('A');
  });
});

describe('translateLineNames', () => {
  test('product name, variant name and option values as the line shows them', () => {
    const entry = {
      product: { id: 'prod_1', name: 'T-Shirt' },
      variant: { option_value_ids: ['optval_s', 'optval_red'] },
      variant_name: 'Small / Red',
      option_values: { Size: 'Small', Color: 'Red' },
    };
    expect(translateLineNames(entry, product, ko)).toEqual({
      product_name: '티셔츠',
      variant_name: '스몰 / Red',
      option_values: { 사이즈: '스몰', Color: 'Red' },
    });
    expect(translateLineNames(entry, product, translationLookup([]))).toEqual({
      product_name: 'T-Shirt',
      variant_name: 'Small / Red',
      option_values: { Size: 'Small', Color: 'Red' },
    });
  });

  test('a variant without options is named after the (translated) product', () => {
    const entry = {
      product: { id: 'prod_1', name: 'T-Shirt' },
      variant: { option_value_ids: [] },
      variant_name: 'T-Shirt',
      option_values: {},
    };
    expect(translateLineNames(entry, { options: [] }, ko)).toEqual({
      product_name: '티셔츠',
      variant_name: '티셔츠',
      option_values: {},
    });
  });
});
