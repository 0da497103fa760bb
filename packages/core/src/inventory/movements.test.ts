import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import type { InventoryLevels } from './inventory-levels';
import { adjust, release, reserve, restock, setOnHand, ship } from './movements';

const inv = (over: Partial<InventoryLevels> = {}): InventoryLevels => ({
  track_inventory: true,
  allow_backorder: false,
  safety_stock: 0,
  on_hand: 10,
  reserved: 0,
  ...over,
});

describe('reserve', () => {
  it('on_hand 10, reserved 2, reserve 3 → reserved 5', () => {
    expect(reserve(inv({ reserved: 2 }), 3)).toEqual({ ok: true, inventory: inv({ reserved: 5 }) });
  });

  it('the last unit can be taken: on_hand 1, reserve 1 → reserved 1', () => {
    expect(reserve(inv({ on_hand: 1 }), 1)).toEqual({
      ok: true,
      inventory: inv({ on_hand: 1, reserved: 1 }),
    });
  });

  it('short: on_hand 10, reserved 8, reserve 3 → refused, available 2', () => {
    expect(reserve(inv({ reserved: 8 }), 3)).toEqual({ ok: false, requested: 3, available: 2 });
  });

  it('backorder: on_hand 0, reserve 4 → reserved 4 (available −4)', () => {
    const result = reserve(inv({ on_hand: 0, allow_backorder: true }), 4);
    expect(result).toEqual({ ok: true, inventory: inv({ on_hand: 0, allow_backorder: true, reserved: 4 }) });
  });

  it('untracked: nothing is reserved', () => {
    const record = inv({ track_inventory: false, on_hand: 0 });
    expect(reserve(record, 4)).toEqual({ ok: true, inventory: record });
  });

  it('keeps the other fields of a storage record', () => {
    const record = { ...inv(), id: 'inv_1', variant_id: 'var_1' };
    const result = reserve(record, 1);
    expect(result.ok && result.inventory.id).toBe('inv_1');
  });

  it.each([0, -1, 1.5, Number.NaN])('quantity %s is a programming error', (q) => {
    expect(() => reserve(inv(), q)).toThrow(RangeError);
  });
});

describe('release', () => {
  it('reserved 5, release 3 → reserved 2', () => {
    expect(release(inv({ reserved: 5 }), 3)).toEqual(inv({ reserved: 2 }));
  });

  it('a stale reservation is clamped: reserved 1, release 3 → reserved 0', () => {
    expect(release(inv({ reserved: 1 }), 3)).toEqual(inv({ reserved: 0 }));
  });

  it('untracked since the reservation: the reserved units are given back all the same (issue 19)', () => {
    expect(release(inv({ track_inventory: false, reserved: 2 }), 2)).toEqual(
      inv({ track_inventory: false, reserved: 0 }),
    );
  });
});

describe('ship (decisions §10: on_hand −= q, reserved −= q)', () => {
  it('on_hand 10, reserved 5, ship 2 → on_hand 8, reserved 3', () => {
    expect(ship(inv({ reserved: 5 }), 2)).toEqual(inv({ on_hand: 8, reserved: 3 }));
  });

  it('ship never changes available when the units were reserved', () => {
    const before = inv({ reserved: 5 });
    const after = ship(before, 5);
    expect(after.on_hand - after.reserved).toBe(before.on_hand - before.reserved);
  });

  it('untracked, units never reserved: unchanged', () => {
    const record = inv({ track_inventory: false });
    expect(ship(record, 2, 0)).toBe(record);
  });

  it('untracked since the reservation: the reserved units leave on_hand and reserved (issue 19)', () => {
    expect(ship(inv({ track_inventory: false, reserved: 2 }), 2)).toEqual(
      inv({ track_inventory: false, on_hand: 8, reserved: 0 }),
    );
  });

  it('tracked since the order, units never reserved: on_hand only, reserved left to other orders', () => {
    expect(ship(inv({ reserved: 4 }), 2, 0)).toEqual(inv({ on_hand: 8, reserved: 4 }));
  });
});

describe('restock (decisions §10: unfulfilled units leave reserved, fulfilled go back to on_hand)', () => {
  it('on_hand 8, reserved 3; 1 from reserved, 2 to on_hand → on_hand 10, reserved 2', () => {
    expect(restock(inv({ on_hand: 8, reserved: 3 }), { from_reserved: 1, to_on_hand: 2 })).toEqual(
      inv({ on_hand: 10, reserved: 2 }),
    );
  });

  it('accepts a whole restock movement object (extra fields ignored)', () => {
    const movement = { order_line_id: 'line_1', from_reserved: 2, to_on_hand: 0, returned_quantity: 0 };
    expect(restock(inv({ reserved: 2 }), movement)).toEqual(inv({ reserved: 0 }));
  });

  it('untracked: reserved units are released, shipped units do not come back to a count not kept', () => {
    expect(
      restock(inv({ track_inventory: false, reserved: 1 }), { from_reserved: 1, to_on_hand: 1 }),
    ).toEqual(inv({ track_inventory: false, reserved: 0 }));
    const record = inv({ track_inventory: false });
    expect(restock(record, { from_reserved: 0, to_on_hand: 1 })).toBe(record);
  });

  it('negative parts are a programming error', () => {
    expect(() => restock(inv(), { from_reserved: -1, to_on_hand: 0 })).toThrow(RangeError);
    expect(() => restock(inv(), { from_reserved: 0, to_on_hand: 0.5 })).toThrow(RangeError);
  });
});

describe('adjust (decisions §8: signed delta, on_hand may not go below reserved)', () => {
  it('on_hand 10, reserved 4, adjust −6 → on_hand 4', () => {
    expect(adjust(inv({ reserved: 4 }), -6)).toEqual({
      ok: true,
      inventory: inv({ on_hand: 4, reserved: 4 }),
    });
  });

  it('on_hand 10, reserved 4, adjust −7 → refused, requested 7, available 6', () => {
    expect(adjust(inv({ reserved: 4 }), -7)).toEqual({ ok: false, requested: 7, available: 6 });
  });

  it('unreserved stock cannot go negative: on_hand 2, adjust −3 → refused', () => {
    expect(adjust(inv({ on_hand: 2 }), -3)).toEqual({ ok: false, requested: 3, available: 2 });
  });

  it('adding stock is always accepted, even while backorders keep on_hand below reserved', () => {
    const backordered = inv({ allow_backorder: true, on_hand: 0, reserved: 5 });
    expect(adjust(backordered, 3)).toEqual({ ok: true, inventory: { ...backordered, on_hand: 3 } });
  });

  it('untracked variants are adjusted too', () => {
    expect(adjust(inv({ track_inventory: false }), 5)).toEqual({
      ok: true,
      inventory: inv({ track_inventory: false, on_hand: 15 }),
    });
  });

  it('a zero delta returns the record unchanged', () => {
    const record = inv();
    expect(adjust(record, 0)).toEqual({ ok: true, inventory: record });
  });

  it('a fractional delta is a programming error', () => {
    expect(() => adjust(inv(), 0.5)).toThrow(RangeError);
  });
});

describe('setOnHand (PATCH on_hand: adjust by the difference)', () => {
  it('on_hand 10, reserved 4, set 3 → refused', () => {
    expect(setOnHand(inv({ reserved: 4 }), 3)).toEqual({ ok: false, requested: 7, available: 6 });
  });

  it('on_hand 10, reserved 4, set 4 → on_hand 4', () => {
    expect(setOnHand(inv({ reserved: 4 }), 4)).toEqual({
      ok: true,
      inventory: inv({ on_hand: 4, reserved: 4 }),
    });
  });

  it('a fractional count is a programming error', () => {
    expect(() => setOnHand(inv(), 1.5)).toThrow(RangeError);
  });
});

describe('movement invariants (property)', () => {
  type Op =
    | { kind: 'reserve' | 'release' | 'ship'; q: number }
    | { kind: 'restock'; r: number; h: number }
    | { kind: 'adjust'; d: number };
  const opArb: fc.Arbitrary<Op> = fc.oneof(
    fc.record({
      kind: fc.constantFrom('reserve', 'release', 'ship' as const),
      q: fc.integer({ min: 1, max: 20 }),
    }),
    fc.record({ kind: fc.constant('restock' as const), r: fc.nat(20), h: fc.nat(20) }),
    fc.record({ kind: fc.constant('adjust' as const), d: fc.integer({ min: -30, max: 30 }) }),
  );

  /**
   * A well-behaved caller: releases and ships only what it reserved, restocks from reserved only
   * what is still reserved (the service's bookkeeping); the movements must then keep
   * reserved ≥ 0 and on_hand ≥ reserved on a tracked variant without backorder.
   */
  it('tracked, no backorder: reserved ≥ 0 and on_hand ≥ reserved after any sequence', () => {
    fc.assert(
      fc.property(fc.nat(50), fc.array(opArb, { maxLength: 40 }), (start, ops) => {
        let state = inv({ on_hand: start });
        for (const op of ops) {
          const before = state;
          switch (op.kind) {
            case 'reserve': {
              const result = reserve(state, op.q);
              if (result.ok) state = result.inventory;
              else {
                expect(result.available).toBe(state.on_hand - state.reserved);
                expect(op.q).toBeGreaterThan(result.available);
              }
              break;
            }
            case 'release':
              state = release(state, Math.min(op.q, Math.max(1, state.reserved)));
              break;
            case 'ship':
              if (state.reserved > 0) state = ship(state, Math.min(op.q, state.reserved));
              break;
            case 'restock':
              state = restock(state, { from_reserved: Math.min(op.r, state.reserved), to_on_hand: op.h });
              break;
            case 'adjust': {
              const result = adjust(state, op.d);
              if (result.ok) state = result.inventory;
              else expect(state.on_hand + op.d).toBeLessThan(state.reserved);
              break;
            }
          }
          expect(state.reserved).toBeGreaterThanOrEqual(0);
          expect(state.on_hand).toBeGreaterThanOrEqual(state.reserved);
          if (op.kind === 'ship')
            expect(state.on_hand - state.reserved).toBe(before.on_hand - before.reserved);
        }
      }),
    );
  });

  it('any record, any quantities: release, ship and restock never make reserved negative', () => {
    fc.assert(
      fc.property(
        fc.nat(100),
        fc.nat(100),
        fc.integer({ min: 1, max: 200 }),
        fc.nat(200),
        (on_hand, reserved, q, h) => {
          const record = inv({ on_hand, reserved });
          expect(release(record, q).reserved).toBeGreaterThanOrEqual(0);
          expect(ship(record, q).reserved).toBeGreaterThanOrEqual(0);
          expect(restock(record, { from_reserved: q, to_on_hand: h }).reserved).toBeGreaterThanOrEqual(0);
        },
      ),
    );
  });

  it('reserve succeeds exactly when enough is available, on a tracked variant without backorder', () => {
    fc.assert(
      fc.property(fc.nat(100), fc.nat(100), fc.integer({ min: 1, max: 200 }), (on_hand, reservedRaw, q) => {
        const record = inv({ on_hand, reserved: Math.min(reservedRaw, on_hand) });
        const result = reserve(record, q);
        expect(result.ok).toBe(q <= record.on_hand - record.reserved);
        if (result.ok) expect(result.inventory.on_hand).toBeGreaterThanOrEqual(result.inventory.reserved);
      }),
    );
  });
});
