import { describe, expect, it } from 'vitest';
import type { CartItemRecord, PurchasableVariant } from '../ports/storage';
import { CommerceError } from '../shared/errors';
import { planMerge } from './cart-merge';
import { assertPurchasable } from './cart-pricing';

function variant(
  id: string,
  options: {
    on_hand?: number;
    reserved?: number;
    track?: boolean;
    backorder?: boolean;
    active?: boolean;
    status?: 'active' | 'draft' | 'archived';
  } = {},
): PurchasableVariant {
  const scoped = { store_id: 'store_1', mode: 'test' as const };
  return {
    variant: {
      ...scoped,
      id,
      product_id: `prod_${id}`,
      sku: null,
      barcode: null,
      price: 1000,
      compare_at_price: null,
      cost_price: null,
      currency: 'USD',
      weight: null,
      width: null,
      height: null,
      depth: null,
      is_active: options.active ?? true,
      option_value_ids: [],
      position: 0,
      metadata: {},
      created_at: 0,
      updated_at: 0,
    },
    inventory: {
      ...scoped,
      id: `inv_${id}`,
      variant_id: id,
      product_id: `prod_${id}`,
      track_inventory: options.track ?? true,
      allow_backorder: options.backorder ?? false,
      safety_stock: 0,
      on_hand: options.on_hand ?? 10,
      reserved: options.reserved ?? 0,
      metadata: {},
      created_at: 0,
      updated_at: 0,
    },
    product: {
      id: `prod_${id}`,
      name: id,
      status: options.status ?? 'active',
      type: 'physical',
      tags: [],
      deleted: false,
    },
    variant_name: id,
    option_values: {},
    image_url: null,
  };
}

function item(id: string, variant_id: string, quantity: number): CartItemRecord {
  return {
    id,
    cart_id: 'cart_x',
    variant_id,
    quantity,
    metadata: { from: id },
    created_at: 0,
    updated_at: 0,
  };
}

const catalog = (...entries: PurchasableVariant[]) => new Map(entries.map((e) => [e.variant.id, e]));

describe('planMerge', () => {
  it('sums the same variant (3 + 4 = 7 with 10 available) and adds new variants (2)', () => {
    const plan = planMerge(
      [item('i1', 'a', 3)],
      [item('g1', 'a', 4), item('g2', 'b', 2)],
      catalog(variant('a'), variant('b')),
    );
    expect(plan.increased).toEqual([{ item: item('i1', 'a', 3), quantity: 7 }]);
    expect(plan.added).toEqual([{ variant_id: 'b', quantity: 2, metadata: { from: 'g2' } }]);
  });

  it('caps at available: 3 + 4 with on_hand 8, reserved 3 → 5', () => {
    const plan = planMerge(
      [item('i1', 'a', 3)],
      [item('g1', 'a', 4)],
      catalog(variant('a', { on_hand: 8, reserved: 3 })),
    );
    expect(plan.increased[0]?.quantity).toBe(5);
  });

  it('never lowers the customer’s own quantity when stock fell below it (4 held, 2 available → no change)', () => {
    const plan = planMerge([item('i1', 'a', 4)], [item('g1', 'a', 1)], catalog(variant('a', { on_hand: 2 })));
    expect(plan.increased).toEqual([]);
  });

  it('drops new items with nothing available, and unbuyable or unknown variants', () => {
    const plan = planMerge(
      [],
      [item('g1', 'a', 2), item('g2', 'b', 1), item('g3', 'c', 1), item('g4', 'gone', 1)],
      catalog(
        variant('a', { on_hand: 0 }),
        variant('b', { status: 'archived' }),
        variant('c', { active: false }),
      ),
    );
    expect(plan).toEqual({ increased: [], added: [] });
  });

  it('does not cap untracked or backorderable variants (50 + 50 = 100 with 0 on hand)', () => {
    const plan = planMerge(
      [item('i1', 'a', 50)],
      [item('g1', 'a', 50), item('g2', 'b', 7)],
      catalog(variant('a', { track: false, on_hand: 0 }), variant('b', { backorder: true, on_hand: 0 })),
    );
    expect(plan.increased[0]?.quantity).toBe(100);
    expect(plan.added).toEqual([{ variant_id: 'b', quantity: 7, metadata: { from: 'g2' } }]);
  });
});

describe('assertPurchasable', () => {
  const codeOf = (fn: () => void) => {
    try {
      fn();
      return null;
    } catch (error) {
      return CommerceError.is(error) ? { code: error.code, param: error.param, data: error.data } : 'other';
    }
  };

  it('checks the total of a variant over all items: 3 + 3 with 5 available → insufficient_inventory at the second', () => {
    const priced = { variants: catalog(variant('a', { on_hand: 5 })) };
    const items = [
      { key: '0', variant_id: 'a', quantity: 3 },
      { key: '1', variant_id: 'a', quantity: 3 },
    ];
    expect(codeOf(() => assertPurchasable(priced, items))).toEqual({
      code: 'insufficient_inventory',
      param: 'items[0][quantity]',
      data: { variant_id: 'a', requested: 6, available: 5 },
    });
    expect(codeOf(() => assertPurchasable(priced, items.slice(0, 1)))).toBeNull();
  });

  it('unknown variant → not_found (default) or product_unavailable; inactive → product_unavailable', () => {
    const priced = {
      variants: catalog(variant('off', { active: false }), variant('draft', { status: 'draft' })),
    };
    const unknown = [{ key: '0', variant_id: 'nope', quantity: 1 }];
    expect(codeOf(() => assertPurchasable(priced, unknown))).toMatchObject({
      code: 'not_found',
      param: 'items[0][variant_id]',
    });
    expect(
      codeOf(() =>
        assertPurchasable(priced, unknown, {
          missing: 'product_unavailable',
          param: (i, f) => `lines[${i}][${f}]`,
        }),
      ),
    ).toMatchObject({ code: 'product_unavailable', param: 'lines[0][variant_id]' });
    for (const id of ['off', 'draft']) {
      expect(
        codeOf(() => assertPurchasable(priced, [{ key: '0', variant_id: id, quantity: 1 }])),
      ).toMatchObject({
        code: 'product_unavailable',
      });
    }
  });
});
