import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import {
  representativePrice,
  representativeVariant,
  withoutVariant,
  withVariant,
} from './representative-price';

const variant = fc.record({
  id: fc.constantFrom('a', 'b', 'c', 'd', 'e'),
  price: fc.integer({ min: 0, max: 1_000_000 }),
  is_active: fc.boolean(),
});

describe('representativePrice (docs/contract.md#representative-price)', () => {
  it('is the cheapest active variant, inactive ones ignored, null when none is active', () => {
    expect(representativePrice([])).toBeNull();
    expect(representativePrice([{ price: 500, is_active: false }])).toBeNull();
    expect(
      representativePrice([
        { price: 900, is_active: true },
        { price: 500, is_active: false },
        { price: 700, is_active: true },
      ]),
    ).toBe(700);
    expect(representativePrice([{ price: 0, is_active: true }])).toBe(0);
  });

  it('property: the minimum over the active variants, null exactly when there is none', () => {
    fc.assert(
      fc.property(fc.array(variant, { maxLength: 12 }), (variants) => {
        const active = variants.filter((v) => v.is_active).map((v) => v.price);
        const price = representativePrice(variants);
        if (active.length === 0) expect(price).toBeNull();
        else expect(price).toBe(Math.min(...active));
      }),
    );
  });

  it('property: after any sequence of variant adds, updates and deletes it is the minimum over the live active ones', () => {
    const op = fc.oneof(
      fc.record({ kind: fc.constant('put' as const), variant }),
      fc.record({ kind: fc.constant('delete' as const), id: fc.constantFrom('a', 'b', 'c', 'd', 'e') }),
    );
    fc.assert(
      fc.property(fc.array(op, { maxLength: 20 }), (ops) => {
        let live: { id: string; price: number; is_active: boolean }[] = [];
        const model = new Map<string, { price: number; is_active: boolean }>();
        for (const o of ops) {
          if (o.kind === 'put') {
            live = withVariant(live, o.variant);
            model.set(o.variant.id, o.variant);
          } else {
            live = withoutVariant(live, o.id);
            model.delete(o.id);
          }
        }
        expect(new Set(live.map((v) => v.id))).toEqual(new Set(model.keys()));
        const active = [...model.values()].filter((v) => v.is_active).map((v) => v.price);
        expect(representativePrice(live)).toBe(active.length === 0 ? null : Math.min(...active));
      }),
    );
  });
});

describe('representativeVariant (decisions §22: products show its compare_at_price)', () => {
  it('is the cheapest active variant itself; of equal prices the first given; null when none is active', () => {
    const a = { id: 'a', price: 900, is_active: true, compare_at_price: 1200 };
    const b = { id: 'b', price: 500, is_active: false, compare_at_price: 800 };
    const c = { id: 'c', price: 700, is_active: true, compare_at_price: null };
    const d = { id: 'd', price: 700, is_active: true, compare_at_price: 950 };
    expect(representativeVariant([a, b, c, d])).toBe(c);
    expect(representativeVariant([a, b, d, c])).toBe(d);
    expect(representativeVariant([a])?.compare_at_price).toBe(1200);
    expect(representativeVariant([b])).toBeNull();
    expect(representativeVariant([])).toBeNull();
  });

  it('property: its price is the representative price, and no earlier active variant is as cheap', () => {
    fc.assert(
      fc.property(fc.array(variant, { maxLength: 12 }), (variants) => {
        const chosen = representativeVariant(variants);
        expect(chosen?.price ?? null).toBe(representativePrice(variants));
        if (chosen === null) return;
        const before = variants.slice(0, variants.indexOf(chosen));
        expect(before.some((v) => v.is_active && v.price <= chosen.price)).toBe(false);
      }),
    );
  });
});
