import { describe, expect, it } from 'vitest';
import { CommerceError } from '../shared/errors';
import { checkAvailability, insufficientInventoryError } from './availability';
import { availableOf, type InventoryLevels } from './inventory-levels';

const inv = (over: Partial<InventoryLevels> = {}): InventoryLevels => ({
  track_inventory: true,
  allow_backorder: false,
  safety_stock: 0,
  on_hand: 10,
  reserved: 0,
  ...over,
});

describe('availableOf (decisions §10: available = on_hand − reserved)', () => {
  it('on_hand 10, reserved 3 → 7', () => {
    expect(availableOf(inv({ reserved: 3 }))).toBe(7);
  });

  it('backorders can make it negative: on_hand 0, reserved 2 → −2', () => {
    expect(availableOf(inv({ on_hand: 0, reserved: 2 }))).toBe(-2);
  });
});

describe('checkAvailability', () => {
  it('on_hand 5, reserved 2: 3 units ok', () => {
    expect(checkAvailability(inv({ on_hand: 5, reserved: 2 }), 3)).toEqual({ ok: true });
  });

  it('on_hand 5, reserved 2: 4 units short, available 3', () => {
    expect(checkAvailability(inv({ on_hand: 5, reserved: 2 }), 4)).toEqual({ ok: false, available: 3 });
  });

  it('untracked: always ok, even with nothing on hand', () => {
    expect(checkAvailability(inv({ track_inventory: false, on_hand: 0 }), 1000)).toEqual({ ok: true });
  });

  it('allow_backorder: always ok', () => {
    expect(checkAvailability(inv({ allow_backorder: true, on_hand: 0, reserved: 5 }), 10)).toEqual({
      ok: true,
    });
  });

  it('over-reserved record reports available 0, not a negative number', () => {
    expect(checkAvailability(inv({ on_hand: 1, reserved: 3 }), 1)).toEqual({ ok: false, available: 0 });
  });
});

describe('insufficientInventoryError', () => {
  it('is a 422 insufficient_inventory with param and data { variant_id, requested, available }', () => {
    const error = insufficientInventoryError('var_1', 4, 3, 'items[1][quantity]');
    expect(CommerceError.is(error)).toBe(true);
    expect(error.code).toBe('insufficient_inventory');
    expect(error.type).toBe('invalid_request_error');
    expect(error.param).toBe('items[1][quantity]');
    expect(error.data).toEqual({ variant_id: 'var_1', requested: 4, available: 3 });
    expect(error.message).toBe("Insufficient inventory for variant 'var_1': 4 requested, 3 available");
  });

  it('defaults param to quantity and never reports a negative available', () => {
    const error = insufficientInventoryError('var_1', 2, -5);
    expect(error.param).toBe('quantity');
    expect(error.data).toEqual({ variant_id: 'var_1', requested: 2, available: 0 });
  });
});
