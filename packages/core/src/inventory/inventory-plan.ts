import type { InventoryChange, InventoryMovement, InventoryRecord, InventoryWrite } from '../ports/storage';
import { adjust, type MovementResult, release, reserve, restock, setOnHand, ship } from './movements';

/**
 * The inventory rules applied to rows, once (docs/contract.md#inventory): every movement of
 * stock — reservation, release, shipment, restock, adjustment, an absolute `on_hand` — is planned
 * here on the rows as read, and the plan is written with `InventoryRepository.apply`, a
 * compare-and-set that refuses any row no longer holding what the plan read
 * ({@link writesOf}). Pure: no storage, no clock.
 *
 * A plan's changes are in movement order, one per movement that moved a row (a variant listed
 * twice moves twice, each movement seeing the previous one); each `after` carries `updated_at:
 * at`. Unknown variants are refused by a reservation and skipped by the other movements.
 */

/** Rows by variant id, as read (or as planned so far). */
export type InventoryRows = ReadonlyMap<string, InventoryRecord>;

/** A reservation refused: the variant, the units asked for, and the units available (≥ 0). */
export interface ReservationRefusal {
  variant_id: string;
  requested: number;
  available: number;
}

export type ReservationPlan =
  | { ok: true; changes: InventoryChange[] }
  | { ok: false; refused: ReservationRefusal };

/** A shipment of `quantity` units, `from_reserved` of them reserved by the order. */
export interface InventoryShipment {
  variant_id: string;
  quantity: number;
  from_reserved: number;
}

/** A refund's restock: `from_reserved` unshipped units, `to_on_hand` shipped units back. */
export interface InventoryRestock {
  variant_id: string;
  from_reserved: number;
  to_on_hand: number;
}

/**
 * Runs `step` over the movements in order on a working copy of `rows`, collecting a change for
 * every movement that moved its row. `step` returns the new row, the row itself (nothing moved),
 * or a refusal that stops the plan.
 */
function plan<M extends { variant_id: string }, R>(
  rows: InventoryRows,
  movements: readonly M[],
  at: number,
  step: (row: InventoryRecord | undefined, movement: M) => InventoryRecord | undefined | { refused: R },
): { ok: true; changes: InventoryChange[] } | { ok: false; refused: R } {
  const current = new Map(rows);
  const changes: InventoryChange[] = [];
  for (const movement of movements) {
    const before = current.get(movement.variant_id);
    const moved = step(before, movement);
    if (moved === undefined || before === undefined) continue;
    if ('refused' in moved) return { ok: false, refused: moved.refused };
    if (moved.on_hand === before.on_hand && moved.reserved === before.reserved) continue;
    const after: InventoryRecord = { ...moved, updated_at: at };
    current.set(movement.variant_id, after);
    changes.push({ before, after });
  }
  return { ok: true, changes };
}

/**
 * Reserves every movement or refuses at the first that cannot be (docs/contract.md#reservations):
 * an unknown variant is refused with 0 available; an untracked one reserves nothing and is
 * reported with `before === after`; a tracked one without backorder is refused when fewer than
 * `quantity` units are available at that point.
 *
 * @example planReservation(rows, [{ variant_id: 'v1', quantity: 2 }], 5)
 */
export function planReservation(
  rows: InventoryRows,
  movements: readonly InventoryMovement[],
  at: number,
): ReservationPlan {
  const current = new Map(rows);
  const changes: InventoryChange[] = [];
  for (const { variant_id, quantity } of movements) {
    const before = current.get(variant_id);
    if (!before) return { ok: false, refused: { variant_id, requested: quantity, available: 0 } };
    if (!before.track_inventory) {
      changes.push({ before, after: before });
      continue;
    }
    const result = reserve(before, quantity);
    if (!result.ok)
      return { ok: false, refused: { variant_id, requested: quantity, available: result.available } };
    const after: InventoryRecord = { ...result.inventory, updated_at: at };
    current.set(variant_id, after);
    changes.push({ before, after });
  }
  return { ok: true, changes };
}

/** Releases reservations the caller recorded (`reserved −= q`, never below 0, whatever the tracking). */
export function planRelease(
  rows: InventoryRows,
  movements: readonly InventoryMovement[],
  at: number,
): InventoryChange[] {
  return changesOf(
    plan(rows, movements, at, (row, { quantity }) => (row && quantity > 0 ? release(row, quantity) : row)),
  );
}

/** Ships units: see `ship` in movements.ts. */
export function planShip(
  rows: InventoryRows,
  movements: readonly InventoryShipment[],
  at: number,
): InventoryChange[] {
  return changesOf(
    plan(rows, movements, at, (row, { quantity, from_reserved }) =>
      row && quantity > 0 ? ship(row, quantity, from_reserved) : row,
    ),
  );
}

/** Returns a refund's units to stock: see `restock` in movements.ts. */
export function planRestock(
  rows: InventoryRows,
  movements: readonly InventoryRestock[],
  at: number,
): InventoryChange[] {
  return changesOf(
    plan(rows, movements, at, (row, { from_reserved, to_on_hand }) =>
      row ? restock(row, { from_reserved, to_on_hand }) : row,
    ),
  );
}

function changesOf(result: { ok: true; changes: InventoryChange[] } | { ok: false }): InventoryChange[] {
  return result.ok ? result.changes : [];
}

/** The outcome of an admin change of one row's `on_hand`: the change, or `below_reserved`. */
export type OnHandPlan =
  | { ok: true; change: InventoryChange }
  | { ok: false; requested: number; available: number };

/**
 * `on_hand += delta` (`POST /v1/admin/inventory/{id}/adjust`), refused when a negative delta would
 * leave `on_hand` below `reserved` (see `adjust` in movements.ts). The change is reported (and
 * written, bumping `updated_at`) even when nothing moves.
 */
export function planAdjust(row: InventoryRecord, delta: number, at: number): OnHandPlan {
  return onHandPlan(row, adjust(row, delta), at);
}

/** An absolute `on_hand` (`PATCH /v1/admin/inventory/{id}`): the rule of {@link planAdjust}. */
export function planSetOnHand(row: InventoryRecord, on_hand: number, at: number): OnHandPlan {
  return onHandPlan(row, setOnHand(row, on_hand), at);
}

function onHandPlan(
  before: InventoryRecord,
  result: MovementResult<InventoryRecord>,
  at: number,
): OnHandPlan {
  if (!result.ok) return result;
  return { ok: true, change: { before, after: { ...result.inventory, updated_at: at } } };
}

/** The fields of a row the rules read: a write expects all of them unchanged. */
export function expectationOf(row: InventoryRecord): InventoryWrite['expect'] {
  return {
    on_hand: row.on_hand,
    reserved: row.reserved,
    track_inventory: row.track_inventory,
    allow_backorder: row.allow_backorder,
  };
}

/**
 * The compare-and-set writes of a plan's changes: per variant, the row as first read (`expect`)
 * and its last planned levels (`set`); variants the changes leave as they were are not written.
 * Ordered by variant id.
 */
export function writesOf(changes: readonly InventoryChange[]): InventoryWrite[] {
  const byVariant = new Map<string, { first: InventoryRecord; last: InventoryRecord }>();
  for (const { before, after } of changes) {
    const entry = byVariant.get(before.variant_id);
    if (entry) entry.last = after;
    else byVariant.set(before.variant_id, { first: before, last: after });
  }
  const writes: InventoryWrite[] = [];
  for (const [variant_id, { first, last }] of byVariant) {
    if (first.on_hand === last.on_hand && first.reserved === last.reserved) continue;
    writes.push({
      variant_id,
      expect: expectationOf(first),
      set: { on_hand: last.on_hand, reserved: last.reserved },
    });
  }
  return writes.sort((a, b) => (a.variant_id < b.variant_id ? -1 : a.variant_id > b.variant_id ? 1 : 0));
}

/** Whether a row still holds what a write expects (the compare of the compare-and-set). */
export function holdsExpectation(
  row: InventoryRecord | undefined,
  expect: InventoryWrite['expect'],
): boolean {
  return (
    row !== undefined &&
    row.on_hand === expect.on_hand &&
    row.reserved === expect.reserved &&
    row.track_inventory === expect.track_inventory &&
    row.allow_backorder === expect.allow_backorder
  );
}
