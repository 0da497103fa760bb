import { describe, expect, test } from 'vitest';
import { parseInput } from '../shared/schemas/parse';
import { expectRejected } from '../shared/schemas/test-helpers';
import { InventoryAdjustSchema, InventoryListQuerySchema, InventoryUpdateSchema } from './schemas';

describe('InventoryUpdate', () => {
  test('settings and an absolute on_hand', () => {
    const patch = {
      track_inventory: true,
      allow_backorder: false,
      safety_stock: 2,
      on_hand: 10,
      metadata: { bin: 'A1' },
    };
    expect(parseInput(InventoryUpdateSchema, patch)).toEqual(patch);
  });

  test('negative counts and fractions are refused', () => {
    expectRejected(InventoryUpdateSchema, { on_hand: -1 }, 'parameter_invalid', 'on_hand');
    expectRejected(InventoryUpdateSchema, { safety_stock: 1.5 }, 'parameter_invalid', 'safety_stock');
  });

  test('reserved and available are not settable', () => {
    expectRejected(InventoryUpdateSchema, { reserved: 0 }, 'parameter_unknown', 'reserved');
    expectRejected(InventoryUpdateSchema, { available: 3 }, 'parameter_unknown', 'available');
  });
});

describe('InventoryAdjust', () => {
  test('a signed integer delta with an optional reason', () => {
    expect(parseInput(InventoryAdjustSchema, { quantity: -3, reason: 'damaged' })).toEqual({
      quantity: -3,
      reason: 'damaged',
    });
    expect(parseInput(InventoryAdjustSchema, { quantity: 12 })).toEqual({ quantity: 12 });
  });

  test('quantity required and an integer', () => {
    expectRejected(InventoryAdjustSchema, {}, 'parameter_missing', 'quantity');
    expectRejected(InventoryAdjustSchema, { quantity: '3' }, 'parameter_invalid', 'quantity');
    expectRejected(InventoryAdjustSchema, { quantity: 0.5 }, 'parameter_invalid', 'quantity');
  });
});

describe('inventory list query', () => {
  test("low_stock 'true' / 'false' → boolean", () => {
    expect(parseInput(InventoryListQuerySchema, { low_stock: 'true' }, { location: 'query' }).low_stock).toBe(
      true,
    );
    expect(
      parseInput(InventoryListQuerySchema, { low_stock: 'false' }, { location: 'query' }).low_stock,
    ).toBe(false);
  });

  test("low_stock 'yes' → parameter_invalid, 'low_stock must be true or false'", () => {
    const error = expectRejected(
      InventoryListQuerySchema,
      { low_stock: 'yes' },
      'parameter_invalid',
      'low_stock',
      'query',
    );
    expect(error.message).toBe('low_stock must be true or false');
  });
});
