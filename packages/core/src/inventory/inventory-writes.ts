import type {
  InventoryChange,
  InventoryMovement,
  InventoryRecord,
  Patch,
  Repositories,
  Scope,
} from '../ports/storage';
import {
  expectationOf,
  type InventoryRestock,
  type InventoryRows,
  type InventoryShipment,
  type OnHandPlan,
  planAdjust,
  planRelease,
  planReservation,
  planRestock,
  planSetOnHand,
  planShip,
  type ReservationPlan,
  writesOf,
} from './inventory-plan';

/**
 * Stock movements on storage: core's rules (inventory-plan.ts) written through the port's
 * compare-and-set (`InventoryRepository.apply`). The flow of every movement:
 *
 * 1. Plan on the rows at hand: `current` (rows the caller read earlier in this transaction, e.g.
 *    checkout's `getPurchasable`), else the rows read with `lock`.
 * 2. `apply` the plan's writes; each expects its row as planned on, so a row changed since
 *    (Postgres read without a lock, concurrent change) refuses, and then nothing is written.
 * 3. On a miss — or a refusal decided on unlocked rows — read the rows again WITH the lock and
 *    plan again. A locked read cannot miss (`apply` also keeps every row it named locked), so
 *    this ends after at most {@link MAX_APPLIES} writes; more means the storage does not honour
 *    its locks, which is a bug (thrown as such).
 *
 * Statements: SQLite checkout (current rows): one UPDATE (in a savepoint); Postgres checkout: one
 * statement; movements without `current`: the locked read + one write.
 */

type InventoryTx = Pick<Repositories, 'inventory'>;

/**
 * Writes per movement at most: the first on rows at hand, the next on rows read with the lock
 * (which cannot miss), and one spare before calling the storage broken.
 */
const MAX_APPLIES = 3;

async function lockedRows(
  tx: InventoryTx,
  scope: Scope,
  variantIds: readonly string[],
): Promise<InventoryRows> {
  const rows = await tx.inventory.get(scope, { variant_ids: [...new Set(variantIds)] }, { lock: true });
  return new Map(rows.map((row) => [row.variant_id, row]));
}

/** The rows of `current` in this scope covering every variant, or undefined. */
function rowsAtHand(
  scope: Scope,
  variantIds: readonly string[],
  current: readonly InventoryRecord[] | undefined,
): InventoryRows | undefined {
  if (current === undefined) return undefined;
  const rows = new Map<string, InventoryRecord>();
  for (const row of current) {
    if (row.store_id === scope.store_id && row.mode === scope.mode) rows.set(row.variant_id, row);
  }
  return variantIds.every((id) => rows.has(id)) ? rows : undefined;
}

/**
 * Plans on the rows at hand (or locked rows) and writes the plan (see the module comment).
 * `plan` returns the changes, or a refusal — final only when decided on locked rows.
 */
async function settle<R>(
  tx: InventoryTx,
  scope: Scope,
  variantIds: readonly string[],
  at: number,
  plan: (rows: InventoryRows) => { ok: true; changes: InventoryChange[] } | { ok: false; refused: R },
  current?: readonly InventoryRecord[],
): Promise<{ ok: true; changes: InventoryChange[] } | { ok: false; refused: R }> {
  let rows = rowsAtHand(scope, variantIds, current);
  let locked = rows === undefined;
  if (rows === undefined) rows = await lockedRows(tx, scope, variantIds);
  for (let applies = 0; ; ) {
    const result = plan(rows);
    if (result.ok) {
      const writes = writesOf(result.changes);
      if (writes.length === 0) return result;
      if (applies === MAX_APPLIES) {
        throw new Error(
          `inventory: ${MAX_APPLIES} compare-and-set writes missed, the last on rows read with a lock: the storage does not hold its inventory locks`,
        );
      }
      applies += 1;
      const missed = await tx.inventory.apply(scope, writes, at);
      if (missed.length === 0) return result;
    } else if (locked) {
      return result;
    }
    rows = await lockedRows(tx, scope, variantIds);
    locked = true;
  }
}

/**
 * Reserves every movement or none (see `planReservation`). `current`: the rows of these variants
 * as read earlier in this same transaction (checkout's `getPurchasable` rows), planned on first.
 * A refusal is always decided on rows read with the lock. On refusal nothing was written.
 */
export function reserveInventory(
  tx: InventoryTx,
  scope: Scope,
  movements: readonly InventoryMovement[],
  at: number,
  current?: readonly InventoryRecord[],
): Promise<ReservationPlan> {
  if (movements.length === 0) return Promise.resolve({ ok: true, changes: [] });
  return settle(
    tx,
    scope,
    movements.map((m) => m.variant_id),
    at,
    (rows) => planReservation(rows, movements, at),
    current,
  );
}

async function moveAll<M extends { variant_id: string }>(
  tx: InventoryTx,
  scope: Scope,
  movements: readonly M[],
  at: number,
  planner: (rows: InventoryRows, movements: readonly M[], at: number) => InventoryChange[],
): Promise<InventoryChange[]> {
  if (movements.length === 0) return [];
  const result = await settle<never>(
    tx,
    scope,
    movements.map((m) => m.variant_id),
    at,
    (rows) => ({ ok: true, changes: planner(rows, movements, at) }),
  );
  return result.ok ? result.changes : [];
}

/** Releases reservations the caller recorded (see `planRelease`); returns the rows moved. */
export function releaseInventory(
  tx: InventoryTx,
  scope: Scope,
  movements: readonly InventoryMovement[],
  at: number,
): Promise<InventoryChange[]> {
  return moveAll(tx, scope, movements, at, planRelease);
}

/** Ships units (see `planShip`); returns the rows moved. */
export function shipInventory(
  tx: InventoryTx,
  scope: Scope,
  movements: readonly InventoryShipment[],
  at: number,
): Promise<InventoryChange[]> {
  return moveAll(tx, scope, movements, at, planShip);
}

/** Returns a refund's units to stock (see `planRestock`); returns the rows moved. */
export function restockInventory(
  tx: InventoryTx,
  scope: Scope,
  movements: readonly InventoryRestock[],
  at: number,
): Promise<InventoryChange[]> {
  return moveAll(tx, scope, movements, at, planRestock);
}

/** A change of `on_hand` the rules refused: it would go below `reserved`. */
export interface BelowReserved {
  refused: 'below_reserved';
}

/**
 * Writes an admin change of one locked row's `on_hand` (planned by `plan`): a compare-and-set
 * when a level moves, else only `updated_at` (so `apply` — and the level's version — sees stock
 * changes only).
 */
async function writeOnHand(
  tx: InventoryTx,
  scope: Scope,
  row: InventoryRecord,
  plan: OnHandPlan,
  at: number,
): Promise<InventoryChange | BelowReserved> {
  if (!plan.ok) return { refused: 'below_reserved' };
  const { before, after } = plan.change;
  if (after.on_hand === before.on_hand && after.reserved === before.reserved) {
    // Nothing moves: no level write (the level's version counts stock changes), `updated_at` only.
    await tx.inventory.updateSettings(scope, row.id, { updated_at: at });
    return plan.change;
  }
  const missed = await tx.inventory.apply(
    scope,
    [
      {
        variant_id: row.variant_id,
        expect: expectationOf(before),
        set: { on_hand: after.on_hand, reserved: after.reserved },
      },
    ],
    at,
  );
  if (missed.length > 0) {
    throw new Error(
      'inventory: a compare-and-set missed on a row read with a lock: the storage does not hold its inventory locks',
    );
  }
  return plan.change;
}

/**
 * `on_hand += delta` of the row `id` (see `planAdjust`): null when it does not exist (or its
 * variant is deleted), `below_reserved` when refused (nothing written). Two statements.
 */
export async function adjustInventory(
  tx: InventoryTx,
  scope: Scope,
  id: string,
  delta: number,
  at: number,
): Promise<InventoryChange | BelowReserved | null> {
  const row = await tx.inventory.get(scope, id, { lock: true });
  if (!row) return null;
  return writeOnHand(tx, scope, row, planAdjust(row, delta, at), at);
}

const SETTINGS = ['track_inventory', 'allow_backorder', 'safety_stock', 'metadata'] as const;

/**
 * Settings and an absolute `on_hand` of the row `id` (`PATCH /v1/admin/inventory/{id}`): null
 * when it does not exist, `below_reserved` when the new `on_hand` would go below `reserved`
 * (nothing written). The locked read, then the `on_hand` write when it is given, then the
 * settings when any is given (or nothing else was written: `updated_at` moves all the same).
 */
export async function updateInventory(
  tx: InventoryTx,
  scope: Scope,
  id: string,
  patch: Patch<
    InventoryRecord,
    'track_inventory' | 'allow_backorder' | 'safety_stock' | 'on_hand' | 'metadata'
  >,
): Promise<InventoryChange | BelowReserved | null> {
  const row = await tx.inventory.get(scope, id, { lock: true });
  if (!row) return null;
  const { on_hand, ...settings } = patch;
  let change: InventoryChange = { before: row, after: row };
  if (on_hand !== undefined) {
    const written = await writeOnHand(
      tx,
      scope,
      row,
      planSetOnHand(row, on_hand, patch.updated_at),
      patch.updated_at,
    );
    if ('refused' in written) return written;
    change = written;
  }
  const hasSettings = SETTINGS.some((key) => settings[key] !== undefined);
  if (on_hand === undefined || hasSettings) {
    const after = await tx.inventory.updateSettings(scope, id, settings);
    if (!after) return null;
    change = { before: row, after };
  }
  return change;
}
