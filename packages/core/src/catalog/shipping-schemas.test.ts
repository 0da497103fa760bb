import { describe, expect, test } from 'vitest';
import { parseInput } from '../shared/schemas/parse';
import { expectRejected } from '../shared/schemas/test-helpers';
import {
  AdminShippingMethodListQuerySchema,
  ShippingMethodCreateSchema,
  ShippingMethodUpdateSchema,
} from './shipping-schemas';

describe('shipping methods (decisions §8)', () => {
  test('create: name and price required; defaults active, position 0', () => {
    expect(
      parseInput(ShippingMethodCreateSchema, { name: 'Standard', price: 500, free_shipping_threshold: 5000 }),
    ).toEqual({
      name: 'Standard',
      price: { amount: 500 },
      free_shipping_threshold: { amount: 5000 },
      is_active: true,
      position: 0,
      metadata: {},
    });
    expectRejected(ShippingMethodCreateSchema, { name: 'Standard' }, 'parameter_missing', 'price');
    expectRejected(ShippingMethodCreateSchema, { price: 500 }, 'parameter_missing', 'name');
    expectRejected(ShippingMethodCreateSchema, { name: 'S', price: -1 }, 'parameter_invalid', 'price');
  });

  test('update: threshold cleared with null; position an integer ≥ 0', () => {
    expect(parseInput(ShippingMethodUpdateSchema, { free_shipping_threshold: null })).toEqual({
      free_shipping_threshold: null,
    });
    expectRejected(ShippingMethodUpdateSchema, { position: -1 }, 'parameter_invalid', 'position');
  });

  test('list: is_active filter, sort by position ascending by default', () => {
    expect(
      parseInput(
        AdminShippingMethodListQuerySchema,
        { is_active: 'true', sort: 'position' },
        { location: 'query' },
      ),
    ).toMatchObject({
      is_active: true,
      sort: 'position',
      order: 'asc',
    });
  });
});
