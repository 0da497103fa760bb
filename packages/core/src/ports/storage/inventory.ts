import type { Patch } from './conventions';
import type { Page, PageRequest } from './pagination';
import type { InventoryRecord } from './records';
import type { Millis, Scope } from './scope';

// Inventory rows: reads, the atomic compare-and-set of stock levels, settings.

export interface InventoryMovement {
  variant_id: string;
  quantity: number;
}

/** The before/after of one inventory row changed by an atomic movement. */
export interface InventoryChange {
  before: InventoryRecord;
  after: InventoryRecord;
}

/**
 * An inventory row as the admin inventory reads show it (decisions §22): the row, its variant's
 * `sku`, and `version`, the version of its stock level — 0 when the row is inserted, + 1 by every
 * `apply` that writes it (core sends only writes that move `on_hand` or `reserved`), never moved
 * by `updateSettings`: a counter that increases with each stock change.
 */
export interface InventoryItemRecord extends InventoryRecord {
  sku: string | null;
  version: number;
}

/** A level column of an inventory row that `InventoryRepository.list` can compare `on_hand` with. */
export type InventoryLevelColumn = 'reserved' | 'safety_stock';

/** What `InventoryRepository.list` filters by. */
export interface InventoryLevelFilter {
  /** Only rows whose `on_hand` ≤ the sum of these columns of the same row. */
  on_hand_at_most?: readonly InventoryLevelColumn[] | undefined;
}

/**
 * A compare-and-set of one inventory row (`InventoryRepository.apply`): the row of `variant_id`
 * must still hold every field of `expect` (the fields the inventory rules read), and then takes
 * the levels of `set`.
 */
export interface InventoryWrite {
  variant_id: string;
  expect: Pick<InventoryRecord, 'on_hand' | 'reserved' | 'track_inventory' | 'allow_backorder'>;
  set: Pick<InventoryRecord, 'on_hand' | 'reserved'>;
}

/**
 * Inventory rows: reads, one atomic compare-and-set of stock levels, and the settings. The
 * inventory RULES (availability, backorder, `on_hand` never below `reserved`, the arithmetic of
 * every movement) are core's (`inventory/inventory-plan.ts`, driven by
 * `inventory/inventory-writes.ts`): core reads rows, plans, and writes the plan with `apply`,
 * whose per-row precondition is the last judge — no oversell under any concurrency, across
 * processes, whatever core read.
 */
export interface InventoryRepository {
  /**
   * One row by id, or null (also when its variant is soft-deleted). `lock`: the row is locked
   * until the transaction ends (Postgres `FOR UPDATE`; SQLite's transaction already holds the
   * writer lock), so an `apply` expecting what it returned cannot miss. One statement.
   */
  get(scope: Scope, id: string, options?: { lock?: boolean }): Promise<InventoryRecord | null>;
  /**
   * With `{ variant_ids }`: the rows of these variants (unknown ones absent), deleted variants
   * included. `lock`: as by id, taken in variant-id order (Postgres), so concurrent movements of
   * several variants cannot deadlock. One statement whatever the number of variants.
   */
  get(scope: Scope, key: { variant_ids: string[] }, options?: { lock?: boolean }): Promise<InventoryRecord[]>;
  /**
   * One row by id with its variant's SKU and its level's version, or null (also when its variant
   * is soft-deleted). No lock: reads what is committed, or this transaction's own writes. One
   * statement.
   */
  getItem(scope: Scope, id: string): Promise<InventoryItemRecord | null>;
  /**
   * The rows of the scope, each with its variant's SKU and its level's version, as `getItem`. With
   * `filter.on_hand_at_most`, only the rows whose `on_hand` is at most the sum of those columns of
   * the same row (an empty list: at most 0) — a comparison core's rules define (the admin
   * `low_stock` filter is `['safety_stock', 'reserved']`: available ≤ safety_stock). Page and count
   * are one statement each; for `['safety_stock', 'reserved']` an adapter keeps them index-backed
   * (reading only the matching rows). One statement.
   */
  list(
    scope: Scope,
    filter: InventoryLevelFilter,
    page: PageRequest<'created_at'>,
  ): Promise<Page<InventoryItemRecord>>;
  /**
   * Atomically writes every row or none: each write is a compare-and-set — the row of
   * `variant_id` must still hold `expect` (on_hand, reserved, track_inventory, allow_backorder)
   * and then takes `set`, `updated_at = at` and its `version` + 1 (see `InventoryItemRecord`). Returns the variant ids whose row did not hold
   * its expectation (or does not exist); when that list is non-empty NOTHING was written. At most
   * one write per variant. Locking: every row named is locked until the transaction ends, in
   * variant-id order (Postgres), matched or not, so re-reading them with `lock` and applying
   * again cannot miss and cannot deadlock. Cost: no write → nothing; else one statement
   * (Postgres), or one UPDATE per 50 rows inside a savepoint (SQLite; a miss adds its rollback
   * and one read). Errors: a miss is a result, not an error; two writes of one variant throw a
   * RangeError (a caller bug); database failures are thrown as the storage translates them.
   */
  apply(scope: Scope, writes: readonly InventoryWrite[], at: Millis): Promise<string[]>;
  /**
   * The settings of one row (and `updated_at`), returning the row as stored, or null when it does
   * not exist. The levels move only through `apply`. One statement.
   */
  updateSettings(
    scope: Scope,
    id: string,
    patch: Patch<InventoryRecord, 'track_inventory' | 'allow_backorder' | 'safety_stock' | 'metadata'>,
  ): Promise<InventoryRecord | null>;
}
