import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import type { InventoryLevelFilter } from '../ports/storage';
import { detectThresholdCrossings, isLowStock, LOW_STOCK_FILTER } from './thresholds';

const lv = (on_hand: number, reserved: number, safety_stock: number) => ({ on_hand, reserved, safety_stock });

describe('isLowStock (decisions §7: available ≤ safety_stock)', () => {
  it('available 3, safety 3 → low', () => expect(isLowStock(lv(5, 2, 3))).toBe(true));
  it('available 4, safety 3 → not low', () => expect(isLowStock(lv(6, 2, 3))).toBe(false));
  it('available 0, safety 0 → low', () => expect(isLowStock(lv(0, 0, 0))).toBe(true));
});

/** What `InventoryRepository.list` keeps for `filter`, as the port defines it. */
function keptByList(
  row: { on_hand: number; reserved: number; safety_stock: number },
  filter: InventoryLevelFilter,
) {
  if (filter.on_hand_at_most === undefined) return true;
  return row.on_hand <= filter.on_hand_at_most.reduce((sum, column) => sum + row[column], 0);
}

describe('LOW_STOCK_FILTER: the storage list filter of the low_stock rule', () => {
  it('keeps exactly the rows isLowStock calls low (property over any levels, backorders included)', () => {
    fc.assert(
      fc.property(
        fc.integer({ min: -1_000_000, max: 2_147_483_647 }),
        fc.integer({ min: 0, max: 2_147_483_647 }),
        fc.integer({ min: 0, max: 2_147_483_647 }),
        (on_hand, reserved, safety_stock) => {
          const row = lv(on_hand, reserved, safety_stock);
          return keptByList(row, LOW_STOCK_FILTER) === isLowStock(row);
        },
      ),
    );
  });

  it('is written as the partial index inventory_items_low_stock_idx reads it: on_hand ≤ safety_stock + reserved', () => {
    expect(LOW_STOCK_FILTER).toEqual({ on_hand_at_most: ['safety_stock', 'reserved'] });
  });
});

describe('detectThresholdCrossings (decisions §10)', () => {
  it('available 5 → 2 with safety 2 fires inventory.low', () => {
    expect(detectThresholdCrossings(lv(5, 0, 2), lv(5, 3, 2))).toEqual(['inventory.low']);
  });

  it('available 5 → 3 with safety 2 fires nothing', () => {
    expect(detectThresholdCrossings(lv(5, 0, 2), lv(5, 2, 2))).toEqual([]);
  });

  it('available 10 → 0 with safety 2 fires inventory.low then inventory.out_of_stock', () => {
    expect(detectThresholdCrossings(lv(10, 0, 2), lv(10, 10, 2))).toEqual([
      'inventory.low',
      'inventory.out_of_stock',
    ]);
  });

  it('available 1 → 0 with safety 0 fires both (low is "at or below")', () => {
    expect(detectThresholdCrossings(lv(1, 0, 0), lv(0, 0, 0))).toEqual([
      'inventory.low',
      'inventory.out_of_stock',
    ]);
  });

  it('already low, available 2 → 0 with safety 2 fires only inventory.out_of_stock', () => {
    expect(detectThresholdCrossings(lv(2, 0, 2), lv(2, 2, 2))).toEqual(['inventory.out_of_stock']);
  });

  it('already out of stock, 0 → −3 (backorder) fires nothing', () => {
    expect(detectThresholdCrossings(lv(0, 0, 2), lv(0, 3, 2))).toEqual([]);
  });

  it('restocking upward fires nothing: 0 → 10', () => {
    expect(detectThresholdCrossings(lv(0, 0, 2), lv(10, 0, 2))).toEqual([]);
  });

  it('raising safety stock over the available count fires inventory.low: safety 2 → 5 with available 4', () => {
    expect(detectThresholdCrossings(lv(4, 0, 2), lv(4, 0, 5))).toEqual(['inventory.low']);
  });

  it('fires exactly when the predicates flip (property)', () => {
    const side = fc.tuple(fc.integer({ min: -20, max: 50 }), fc.nat(50), fc.nat(10));
    fc.assert(
      fc.property(side, side, ([h1, r1, s1], [h2, r2, s2]) => {
        const before = lv(h1, r1, s1);
        const after = lv(h2, r2, s2);
        const events = detectThresholdCrossings(before, after);
        const a1 = h1 - r1;
        const a2 = h2 - r2;
        expect(events.includes('inventory.low')).toBe(a1 > s1 && a2 <= s2);
        expect(events.includes('inventory.out_of_stock')).toBe(a1 > 0 && a2 <= 0);
        expect(detectThresholdCrossings(after, after)).toEqual([]);
      }),
    );
  });
});
