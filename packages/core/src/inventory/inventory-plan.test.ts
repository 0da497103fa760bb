import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import type { InventoryRecord } from '../ports/storage';
import {
  holdsExpectation,
  type InventoryRows,
  planAdjust,
  planRelease,
  planReservation,
  planRestock,
  planSetOnHand,
  planShip,
  writesOf,
} from './inventory-plan';

const VARIANTS = ['var_a', 'var_b', 'var_c'] as const;

function row(variant_id: string, levels: Partial<InventoryRecord> = {}): InventoryRecord {
  return {
    id: `inv_${variant_id}`,
    store_id: 'sto_1',
    mode: 'test',
    variant_id,
    product_id: 'prod_1',
    track_inventory: true,
    allow_backorder: false,
    safety_stock: 0,
    on_hand: 10,
    reserved: 0,
    metadata: {},
    created_at: 1,
    updated_at: 1,
    ...levels,
  };
}

const rowsOf = (...records: InventoryRecord[]): InventoryRows =>
  new Map(records.map((r) => [r.variant_id, r]));

/** A consistent row: reserved ≥ 0 and, without backorder, reserved ≤ on_hand. */
const arbRow = (variant_id: string) =>
  fc
    .record({
      track_inventory: fc.boolean(),
      allow_backorder: fc.boolean(),
      on_hand: fc.integer({ min: 0, max: 30 }),
      reserved: fc.integer({ min: 0, max: 30 }),
    })
    .map((levels) =>
      row(variant_id, {
        ...levels,
        reserved: levels.allow_backorder ? levels.reserved : Math.min(levels.reserved, levels.on_hand),
      }),
    );

const arbRows = fc.tuple(...VARIANTS.map(arbRow)).map((records) => rowsOf(...records));
const arbVariant = fc.constantFrom(...VARIANTS, 'var_unknown');
const arbMovements = fc.array(
  fc.record({ variant_id: arbVariant, quantity: fc.integer({ min: 1, max: 12 }) }),
  { maxLength: 6 },
);

/** Applies writes to rows the way the storage's compare-and-set does (all or nothing). */
function applyWrites(rows: InventoryRows, writes: ReturnType<typeof writesOf>, at: number) {
  const next = new Map(rows);
  for (const w of writes) {
    const current = next.get(w.variant_id);
    if (!holdsExpectation(current, w.expect)) return { missed: true as const, rows };
    next.set(w.variant_id, { ...current!, ...w.set, updated_at: at });
  }
  return { missed: false as const, rows: next };
}

/** The last `after` per variant of a plan's changes, over the rows as they were. */
function finalRows(rows: InventoryRows, changes: ReadonlyArray<{ after: InventoryRecord }>): InventoryRows {
  const next = new Map(rows);
  for (const { after } of changes) next.set(after.variant_id, after);
  return next;
}

describe('planReservation', () => {
  it('reserves tracked rows, reports untracked unchanged, oversells only with backorder, refuses short and unknown', () => {
    const rows = rowsOf(
      row('var_a', { on_hand: 3 }),
      row('var_b', { track_inventory: false, on_hand: 0 }),
      row('var_c', { allow_backorder: true, on_hand: 1 }),
    );
    const ok = planReservation(
      rows,
      [
        { variant_id: 'var_a', quantity: 2 },
        { variant_id: 'var_b', quantity: 50 },
        { variant_id: 'var_c', quantity: 5 },
        { variant_id: 'var_a', quantity: 1 },
      ],
      9,
    );
    if (!ok.ok) throw new Error('expected ok');
    expect(ok.changes.map((c) => [c.before.reserved, c.after.reserved, c.after.updated_at])).toEqual([
      [0, 2, 9],
      [0, 0, 1],
      [0, 5, 9],
      [2, 3, 9],
    ]);
    expect(ok.changes[1]!.before).toBe(ok.changes[1]!.after);
    expect(planReservation(rows, [{ variant_id: 'var_a', quantity: 4 }], 9)).toEqual({
      ok: false,
      refused: { variant_id: 'var_a', requested: 4, available: 3 },
    });
    expect(
      planReservation(
        rows,
        [
          { variant_id: 'var_a', quantity: 2 },
          { variant_id: 'var_a', quantity: 2 },
        ],
        9,
      ),
    ).toEqual({ ok: false, refused: { variant_id: 'var_a', requested: 2, available: 1 } });
    expect(planReservation(rows, [{ variant_id: 'var_x', quantity: 1 }], 9)).toEqual({
      ok: false,
      refused: { variant_id: 'var_x', requested: 1, available: 0 },
    });
  });

  it('property: no oversell — a tracked row without backorder never ends with reserved > on_hand; totals add up; a refusal is justified', () => {
    fc.assert(
      fc.property(arbRows, arbMovements, (rows, movements) => {
        const result = planReservation(rows, movements, 5);
        if (!result.ok) {
          const { variant_id, requested, available } = result.refused;
          const before = rows.get(variant_id);
          expect(available).toBeGreaterThanOrEqual(0);
          if (before === undefined) expect(available).toBe(0);
          else {
            expect(before.track_inventory && !before.allow_backorder).toBe(true);
            expect(requested).toBeGreaterThan(available);
          }
          return;
        }
        const after = finalRows(rows, result.changes);
        for (const variant_id of VARIANTS) {
          const was = rows.get(variant_id)!;
          const now = after.get(variant_id)!;
          const asked = movements
            .filter((m) => m.variant_id === variant_id)
            .reduce((sum, m) => sum + m.quantity, 0);
          expect(now.on_hand).toBe(was.on_hand);
          expect(now.reserved).toBe(was.reserved + (was.track_inventory ? asked : 0));
          if (was.track_inventory && !was.allow_backorder)
            expect(now.reserved).toBeLessThanOrEqual(now.on_hand);
          expect(now.reserved).toBeGreaterThanOrEqual(0);
        }
        // The writes, applied by a compare-and-set to the rows as read, give the same rows.
        const applied = applyWrites(rows, writesOf(result.changes), 5);
        expect(applied.missed).toBe(false);
        for (const variant_id of VARIANTS) {
          const a = applied.rows.get(variant_id)!;
          const p = after.get(variant_id)!;
          expect([a.on_hand, a.reserved]).toEqual([p.on_hand, p.reserved]);
        }
      }),
    );
  });
});

describe('release, ship, restock', () => {
  it('release clamps at 0 and moves untracked rows too; unknown variants and no-ops are skipped', () => {
    const rows = rowsOf(row('var_a', { reserved: 3 }), row('var_b', { track_inventory: false, reserved: 2 }));
    const changes = planRelease(
      rows,
      [
        { variant_id: 'var_a', quantity: 5 },
        { variant_id: 'var_b', quantity: 1 },
        { variant_id: 'var_x', quantity: 1 },
        { variant_id: 'var_a', quantity: 1 },
      ],
      4,
    );
    expect(changes.map((c) => [c.before.variant_id, c.before.reserved, c.after.reserved])).toEqual([
      ['var_a', 3, 0],
      ['var_b', 2, 1],
    ]);
  });

  it('ship moves reserved units out of both counts, the rest out of on_hand of tracked rows only', () => {
    const rows = rowsOf(row('var_a', { reserved: 4 }), row('var_b', { track_inventory: false, reserved: 2 }));
    const changes = planShip(
      rows,
      [
        { variant_id: 'var_a', quantity: 3, from_reserved: 2 },
        { variant_id: 'var_b', quantity: 2, from_reserved: 0 },
        { variant_id: 'var_b', quantity: 1, from_reserved: 1 },
      ],
      6,
    );
    expect(
      changes.map((c) => [c.after.variant_id, c.after.on_hand, c.after.reserved, c.after.updated_at]),
    ).toEqual([
      ['var_a', 7, 2, 6],
      ['var_b', 9, 1, 6],
    ]);
  });

  it('restock leaves reserved and returns shipped units to on_hand of tracked rows only', () => {
    const rows = rowsOf(row('var_a', { reserved: 4, on_hand: 8 }), row('var_b', { track_inventory: false }));
    const changes = planRestock(
      rows,
      [
        { variant_id: 'var_a', from_reserved: 1, to_on_hand: 2 },
        { variant_id: 'var_b', from_reserved: 0, to_on_hand: 3 },
      ],
      7,
    );
    expect(changes.map((c) => [c.after.variant_id, c.after.on_hand, c.after.reserved])).toEqual([
      ['var_a', 10, 3],
    ]);
  });

  it('property: reserved never goes below 0, available = on_hand − reserved moves by exactly the unreserved shipped units', () => {
    const arbShip = fc.array(
      fc
        .record({
          variant_id: arbVariant,
          quantity: fc.integer({ min: 1, max: 10 }),
          from: fc.integer({ min: 0, max: 10 }),
        })
        .map(({ variant_id, quantity, from }) => ({
          variant_id,
          quantity,
          from_reserved: Math.min(from, quantity),
        })),
      { maxLength: 5 },
    );
    fc.assert(
      fc.property(arbRows, arbMovements, arbShip, (rows, releases, shipments) => {
        const released = finalRows(rows, planRelease(rows, releases, 2));
        const shipped = finalRows(released, planShip(released, shipments, 3));
        const restocks = shipments.map((s) => ({
          variant_id: s.variant_id,
          from_reserved: s.from_reserved,
          to_on_hand: s.quantity,
        }));
        const restocked = finalRows(shipped, planRestock(shipped, restocks, 4));
        for (const stage of [released, shipped, restocked]) {
          for (const r of stage.values()) expect(r.reserved).toBeGreaterThanOrEqual(0);
        }
        for (const variant_id of VARIANTS) {
          const was = rows.get(variant_id)!;
          expect(released.get(variant_id)!.on_hand).toBe(was.on_hand);
          const before = released.get(variant_id)!;
          const after = shipped.get(variant_id)!;
          const mine = shipments.filter((s) => s.variant_id === variant_id);
          const fromReserved = mine.reduce((sum, s) => sum + s.from_reserved, 0);
          const rest = mine.reduce((sum, s) => sum + s.quantity - s.from_reserved, 0);
          expect(after.on_hand).toBe(before.on_hand - fromReserved - (before.track_inventory ? rest : 0));
        }
      }),
    );
  });
});

describe('adjust and setOnHand', () => {
  it('never below reserved; positive deltas always pass; the change is reported even at 0', () => {
    const r = row('var_a', { on_hand: 10, reserved: 4 });
    expect(planAdjust(r, -6, 3)).toMatchObject({
      ok: true,
      change: { after: { on_hand: 4, updated_at: 3 } },
    });
    expect(planAdjust(r, -7, 3)).toEqual({ ok: false, requested: 7, available: 6 });
    expect(planAdjust(r, 0, 3)).toMatchObject({
      ok: true,
      change: { before: r, after: { on_hand: 10, updated_at: 3 } },
    });
    expect(planSetOnHand(r, 3, 3)).toEqual({ ok: false, requested: 7, available: 6 });
    expect(planSetOnHand(r, 12, 3)).toMatchObject({ ok: true, change: { after: { on_hand: 12 } } });
  });

  it('property: an accepted adjustment keeps on_hand ≥ reserved unless it only adds', () => {
    fc.assert(
      fc.property(arbRow('var_a'), fc.integer({ min: -40, max: 40 }), (r, delta) => {
        const result = planAdjust(r, delta, 2);
        if (!result.ok) {
          expect(delta).toBeLessThan(0);
          expect(r.on_hand + delta).toBeLessThan(r.reserved);
          return;
        }
        expect(result.change.after.on_hand).toBe(r.on_hand + delta);
        expect(result.change.after.reserved).toBe(r.reserved);
        if (delta < 0) expect(result.change.after.on_hand).toBeGreaterThanOrEqual(r.reserved);
      }),
    );
  });
});

describe('writesOf', () => {
  it('one write per variant, first before as expectation, last after as levels; unmoved variants skipped; by variant id', () => {
    const a = row('var_b', { reserved: 1 });
    const b = row('var_a');
    const changes = [
      { before: a, after: { ...a, reserved: 2 } },
      { before: b, after: b },
      { before: { ...a, reserved: 2 }, after: { ...a, reserved: 5 } },
    ];
    expect(writesOf(changes)).toEqual([
      {
        variant_id: 'var_b',
        expect: { on_hand: 10, reserved: 1, track_inventory: true, allow_backorder: false },
        set: { on_hand: 10, reserved: 5 },
      },
    ]);
  });

  it('property: a compare-and-set refuses writes planned on a stale row', () => {
    fc.assert(
      fc.property(arbRows, arbMovements, fc.integer({ min: 1, max: 5 }), (rows, movements, bump) => {
        const result = planReservation(rows, movements, 5);
        if (!result.ok) return;
        const writes = writesOf(result.changes);
        if (writes.length === 0) return;
        const stale = writes[0]!.variant_id;
        const moved = new Map(rows);
        moved.set(stale, { ...rows.get(stale)!, reserved: rows.get(stale)!.reserved + bump });
        expect(applyWrites(moved, writes, 6).missed).toBe(true);
      }),
    );
  });
});
