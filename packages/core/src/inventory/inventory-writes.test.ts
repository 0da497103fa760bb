import { describe, expect, it } from 'vitest';
import type { InventoryRecord, InventoryRepository, InventoryWrite } from '../ports/storage';
import { reserveInventory } from './inventory-writes';

const scope = { store_id: 'sto_1', mode: 'test' } as const;

const row: InventoryRecord = {
  id: 'inv_a',
  store_id: 'sto_1',
  mode: 'test',
  variant_id: 'var_a',
  product_id: 'prod_1',
  track_inventory: true,
  allow_backorder: false,
  safety_stock: 0,
  on_hand: 5,
  reserved: 0,
  metadata: {},
  created_at: 1,
  updated_at: 1,
};

/**
 * What no real storage can be made to do: a compare-and-set that misses even on rows read with
 * the lock (the storages' own behaviour is proven by the conformance suite on SQLite and
 * Postgres). Records the calls core makes.
 */
function brokenInventory(calls: string[]): { inventory: InventoryRepository } {
  return {
    inventory: {
      get: (async (
        _scope: unknown,
        key: string | { variant_ids: string[] },
        options?: { lock?: boolean },
      ) => {
        if (typeof key === 'string') return row;
        calls.push(options?.lock === true ? 'read locked' : 'read');
        return [row];
      }) as InventoryRepository['get'],
      getItem: async () => ({ ...row, sku: null, version: 0 }),
      list: async () => ({ data: [], has_more: false, total_count: 0, next_cursor: null }) as never,
      apply: async (_scope, writes: readonly InventoryWrite[]) => {
        calls.push('apply');
        return writes.map((w) => w.variant_id);
      },
      updateSettings: async () => row,
    },
  };
}

describe('reserveInventory over a storage that does not hold its locks', () => {
  it('gives up after a bounded number of compare-and-set writes instead of looping', async () => {
    const calls: string[] = [];
    await expect(
      reserveInventory(brokenInventory(calls), scope, [{ variant_id: 'var_a', quantity: 1 }], 2, [row]),
    ).rejects.toThrow(/does not hold its inventory locks/);
    expect(calls).toEqual(['apply', 'read locked', 'apply', 'read locked', 'apply', 'read locked']);
  });

  it('a refusal planned on rows at hand is re-decided on rows read with the lock', async () => {
    const calls: string[] = [];
    const result = await reserveInventory(
      brokenInventory(calls),
      scope,
      [{ variant_id: 'var_a', quantity: 9 }],
      2,
      [{ ...row, on_hand: 0 }],
    );
    expect(result).toEqual({ ok: false, refused: { variant_id: 'var_a', requested: 9, available: 5 } });
    expect(calls).toEqual(['read locked']);
  });
});
