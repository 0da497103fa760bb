import type { Scope } from '@cartwright/core';
import type {
  InventoryChange,
  InventoryMovement,
  InventoryRecord,
  InventoryRepository,
  Page,
  PageRequest,
  Patch,
} from '@cartwright/core/storage';
import {
  type Compilable,
  CompiledQuery,
  type Kysely,
  type RawBuilder,
  type Selectable,
  type SelectQueryBuilder,
  type SqlBool,
  sql,
} from 'kysely';
import { keysetList, runKeysetList } from '../query/keyset-list';
import type { QueryRunner } from '../query/query-runner';
import {
  type Args,
  type BuildContext,
  type Slots,
  shapedTemplate,
  slot,
  type Template,
  template,
} from '../query/template';
import { updateArgs, updateTemplate } from '../query/update-template';
import type { Database, InventoryItemsTable } from '../schema/database';
import { decodeInventory } from './catalog-codecs';
import { scoped } from './scoped-args';

type ScopeSlots = 'store_id' | 'mode';

/** The variant of the inventory row is not soft-deleted (admin reads hide deleted variants). */
const liveVariant = sql<SqlBool>`exists (select 1 from product_variants v where v.store_id = inventory_items.store_id and v.mode = inventory_items.mode and v.id = inventory_items.variant_id and v.deleted_at is null)`;

const get = template(({ db }, p: Slots<ScopeSlots | 'id'>) =>
  db
    .selectFrom('inventory_items')
    .selectAll()
    .where('store_id', '=', p.store_id)
    .where('mode', '=', p.mode)
    .where('id', '=', p.id)
    .where(liveVariant),
);

const byVariantIds = template(({ db, caps }, p: Slots<ScopeSlots | 'ids'>) =>
  db
    .selectFrom('inventory_items')
    .selectAll()
    .where('store_id', '=', p.store_id)
    .where('mode', '=', p.mode)
    .where(caps.inList(sql.ref('variant_id'), p.ids)),
);

/**
 * The rows an atomic movement is about to change, locked on Postgres (FOR UPDATE, in variant
 * order so that concurrent movements of several variants cannot deadlock) — their values are
 * the exact `before` of each change. SQLite already holds the writer lock: no lock, and no
 * ORDER BY either (its sorter alone costs about as much as the read).
 */
const lockByVariantIds = template(({ db, caps }, p: Slots<ScopeSlots | 'ids'>) => {
  const query = db
    .selectFrom('inventory_items')
    .selectAll()
    .where('store_id', '=', p.store_id)
    .where('mode', '=', p.mode)
    .where(caps.inList(sql.ref('variant_id'), p.ids));
  return caps.forUpdate ? query.orderBy('variant_id').forUpdate() : query;
});

const lockById = template(({ db, caps }, p: Slots<ScopeSlots | 'id'>) => {
  const query = db
    .selectFrom('inventory_items')
    .selectAll()
    .where('store_id', '=', p.store_id)
    .where('mode', '=', p.mode)
    .where('id', '=', p.id)
    .where(liveVariant);
  return caps.forUpdate ? query.forUpdate() : query;
});

/** Variants per multi-row movement statement (one compiled statement per count up to this). */
const MOVE_CHUNK = 50;

/** `case variant_id when $v0 then $<name>0 … end`: a per-variant integer of a multi-row statement. */
function perVariant(p: object, n: number, name: string) {
  const branches = Array.from(
    { length: n },
    (_, i) => sql`when ${slot(p, `v${i}`)} then cast(${slot(p, `${name}${i}`)} as integer)`,
  );
  return sql<number>`case variant_id ${sql.join(branches, sql` `)} end`;
}

/** `variant_id in ($v0, …)`. */
function variantIn(p: object, n: number) {
  const ids = Array.from({ length: n }, (_, i) => sql`${slot(p, `v${i}`)}`);
  return sql<SqlBool>`variant_id in (${sql.join(ids)})`;
}

/** What a multi-row movement returns: the moved columns (the rest is the locked `before`). */
type MovedColumns = Pick<
  Selectable<InventoryItemsTable>,
  'variant_id' | 'reserved' | 'on_hand' | 'updated_at'
>;

/**
 * `reserved += q_i` for n variants in ONE statement. The WHERE clause is both the selector and
 * the guard, per row: no oversell under any concurrency (a refused row is simply not updated).
 * `exact`: also a compare-and-set on rows the caller read earlier in this transaction (SQLite's
 * `reserve` with `current`): each row must still hold the `reserved` (`r<i>`) and `on_hand`
 * (`h<i>`) it was read with, so when every planned row is updated its new values are exactly the
 * planned ones and nothing needs to come back.
 */
function reservationUpdate({ db }: BuildContext, p: Slots<ScopeSlots | 'at'>, n: number, exact: boolean) {
  const quantity = perVariant(p, n, 'q');
  const update = db
    .updateTable('inventory_items')
    .set({ reserved: sql`reserved + ${quantity}`, updated_at: p.at })
    .where('store_id', '=', p.store_id)
    .where('mode', '=', p.mode)
    .where(variantIn(p, n))
    .where(
      sql<SqlBool>`track_inventory = true and (allow_backorder = true or on_hand - reserved >= ${quantity})`,
    );
  return exact
    ? update.where(sql<SqlBool>`reserved = ${perVariant(p, n, 'r')} and on_hand = ${perVariant(p, n, 'h')}`)
    : update;
}

/**
 * {@link reservationUpdate}, RETURNING only the moved columns (a refused row is missing from
 * them): on SQLite `RETURNING *` of several rows costs three times the update itself.
 */
const reserveMany = shapedTemplate(
  (n: number) => String(n),
  (ctx, p: Slots<ScopeSlots | 'at'>, n: number) =>
    reservationUpdate(ctx, p, n, false).returning(['variant_id', 'reserved', 'on_hand', 'updated_at']),
);

/**
 * {@link reservationUpdate} as a compare-and-set, without RETURNING, which on SQLite costs about
 * as much as the update itself (3 rows: 33 → 20 µs).
 */
const reserveExactMany = shapedTemplate(
  (n: number) => String(n),
  (ctx, p: Slots<ScopeSlots | 'at'>, n: number) => reservationUpdate(ctx, p, n, true),
);
/** Brackets {@link reserveExactMany} on SQLite, so that a mismatch can be undone exactly. */
const SAVEPOINT = CompiledQuery.raw('savepoint cartwright_reserve');
const RELEASE = CompiledQuery.raw('release savepoint cartwright_reserve');
const ROLLBACK_TO = CompiledQuery.raw('rollback to savepoint cartwright_reserve');

/**
 * Sets `reserved` and `on_hand` of n variants in ONE statement, to values computed from the rows
 * locked just before (see `#move`, which decides what applies to untracked rows).
 */
const setMany = shapedTemplate(
  (n: number) => String(n),
  ({ db }, p: Slots<ScopeSlots | 'at'>, n: number) =>
    db
      .updateTable('inventory_items')
      .set({ reserved: perVariant(p, n, 'r'), on_hand: perVariant(p, n, 'h'), updated_at: p.at })
      .where('store_id', '=', p.store_id)
      .where('mode', '=', p.mode)
      .where(variantIn(p, n))
      .returning(['variant_id', 'reserved', 'on_hand', 'updated_at']),
);

const adjust = template(({ db }, p: Slots<ScopeSlots | 'id' | 'delta' | 'at'>) =>
  db
    .updateTable('inventory_items')
    .set({ on_hand: sql`on_hand + ${p.delta}`, updated_at: p.at })
    .where('store_id', '=', p.store_id)
    .where('mode', '=', p.mode)
    .where('id', '=', p.id)
    .where(sql<SqlBool>`on_hand + ${p.delta} >= reserved`)
    .returningAll(),
);

const update = updateTemplate<'inventory_items', 'guard_on_hand'>('inventory_items', {
  guard: (p) => sql<SqlBool>`${p.guard_on_hand} >= reserved`,
});

/**
 * `low_stock=true`: available (`on_hand − reserved`) ≤ `safety_stock`, written exactly as the
 * predicate of the partial index `inventory_items_low_stock_idx` (0009_inventory_low_stock), which
 * both engines use only when the query repeats it.
 */
const LOW_STOCK = sql<SqlBool>`on_hand <= safety_stock + reserved`;

const list = keysetList({
  table: 'inventory_items',
  sorts: { created_at: ['created_at'] },
  filterKey: (f: { low_stock: boolean }) => (f.low_stock ? 'low' : ''),
  base: ({ db }, p, f) => {
    let query: SelectQueryBuilder<Database, 'inventory_items', object> = db
      .selectFrom('inventory_items')
      .where('store_id', '=', p.store_id)
      .where('mode', '=', p.mode)
      .where(liveVariant);
    if (f.low_stock) query = query.where(LOW_STOCK);
    return query;
  },
});

/**
 * Postgres: the locking read and the guarded `reserved += q` of every variant in ONE statement.
 * `old` locks the rows in variant order (FOR UPDATE, materialised, so concurrent reservations of
 * several variants cannot deadlock) and yields their exact `before`; `upd` updates them through
 * `old` — a row is only written after `old` locked it — with the same per-row guard as
 * {@link reserveMany} (READ COMMITTED re-checks it on the latest row version); the result is
 * every locked row with its moved columns, null where the guard refused or the variant is
 * untracked. `m` carries the total quantity per variant.
 */
const reserveInOneStatement = template(({ db }, p: Slots<ScopeSlots | 'ids' | 'quantities' | 'at'>) =>
  compilable<Selectable<InventoryItemsTable> & MovedAs>(
    db,
    sql`with m as (select * from unnest(${p.ids}::text[], ${p.quantities}::int[]) as m(variant_id, q)),
old as materialized (select i.* from inventory_items i where i.store_id = ${p.store_id} and i.mode = ${p.mode} and i.variant_id = any(${p.ids}::text[]) order by i.variant_id for update),
upd as (update inventory_items i set reserved = i.reserved + m.q, updated_at = ${p.at} from old join m on m.variant_id = old.variant_id where i.store_id = old.store_id and i.mode = old.mode and i.id = old.id and i.track_inventory = true and (i.allow_backorder = true or i.on_hand - i.reserved >= m.q) returning i.variant_id, i.reserved, i.on_hand, i.updated_at)
select old.*, upd.reserved as moved_reserved, upd.on_hand as moved_on_hand, upd.updated_at as moved_updated_at from old left join upd on upd.variant_id = old.variant_id`,
  ),
);

/** The moved columns of {@link reserveInOneStatement}'s rows (null: not updated). */
interface MovedAs {
  moved_reserved: number | null;
  moved_on_hand: number | null;
  moved_updated_at: number | null;
}

/** A raw statement as a template body (compiled by the build-only Kysely instance). */
function compilable<R>(db: Kysely<Database>, query: RawBuilder<unknown>): Compilable<R> {
  return { compile: () => query.compile(db) as CompiledQuery<R> };
}

/** The outcome of applying movements, in order, to locked rows (see `reserve`). */
type ReservePlan =
  | { ok: true; changes: InventoryChange[]; totals: Map<string, number> }
  | { ok: false; refused: { variant_id: string; available: number } };

/**
 * Applies reservations in order to the locked rows: unknown variant → refused with 0 available;
 * untracked → reported unchanged (before === after); tracked without backorder and short →
 * refused with what is available at that point (a variant listed twice sees its first movement).
 * `totals`: the quantity to add per tracked variant. Pure.
 */
function planReservation(
  locked: ReadonlyMap<string, InventoryRecord>,
  movements: readonly InventoryMovement[],
  at: number,
): ReservePlan {
  const current = new Map(locked);
  const changes: InventoryChange[] = [];
  const totals = new Map<string, number>();
  for (const { variant_id, quantity } of movements) {
    const before = current.get(variant_id);
    if (!before) return { ok: false, refused: { variant_id, available: 0 } };
    if (!before.track_inventory) {
      changes.push({ before, after: before });
      continue;
    }
    const available = before.on_hand - before.reserved;
    if (!before.allow_backorder && available < quantity) {
      return { ok: false, refused: { variant_id, available } };
    }
    const after: InventoryRecord = { ...before, reserved: before.reserved + quantity, updated_at: at };
    current.set(variant_id, after);
    changes.push({ before, after });
    totals.set(variant_id, (totals.get(variant_id) ?? 0) + quantity);
  }
  return { ok: true, changes, totals };
}

/**
 * The plan's result once written: every tracked variant must have been updated (the guard is
 * the last line of defence; a row it refused is reported refused and the caller rolls back).
 */
function reservationResult(
  plan: ReservePlan,
  moved: ReadonlyMap<
    string,
    { reserved: number | string; on_hand: number | string; updated_at: number | string }
  >,
):
  | { ok: true; changes: InventoryChange[] }
  | { ok: false; refused: { variant_id: string; available: number } } {
  if (!plan.ok) return plan;
  for (const variant_id of plan.totals.keys()) {
    if (!moved.has(variant_id)) {
      const before = plan.changes.find((change) => change.before.variant_id === variant_id)?.before;
      return { ok: false, refused: { variant_id, available: before ? before.on_hand - before.reserved : 0 } };
    }
  }
  return { ok: true, changes: withStoredAfter(plan.changes, moved) };
}

type Refusal = { refused: 'below_reserved' };

/**
 * The changes with each variant's LAST `after` carrying the moved columns as stored (the
 * UPDATE's RETURNING), so what callers see is exactly what the database holds.
 */
function withStoredAfter(
  changes: InventoryChange[],
  stored: ReadonlyMap<
    string,
    { reserved: number | string; on_hand: number | string; updated_at: number | string }
  >,
): InventoryChange[] {
  const seen = new Set<string>();
  for (let i = changes.length - 1; i >= 0; i--) {
    const change = changes[i]!;
    const variant_id = change.after.variant_id;
    const row = stored.get(variant_id);
    if (row === undefined || seen.has(variant_id)) continue;
    seen.add(variant_id);
    changes[i] = {
      before: change.before,
      after: {
        ...change.after,
        reserved: Number(row.reserved),
        on_hand: Number(row.on_hand),
        updated_at: Number(row.updated_at),
      },
    };
  }
  return changes;
}

/**
 * Inventory rows and their atomic movements. Every movement is one conditional UPDATE per
 * variant whose WHERE is the guard; `before` comes from the locked pre-read.
 */
export class KyselyInventoryRepository implements InventoryRepository {
  constructor(private readonly q: QueryRunner) {}

  async get(scope: Scope, id: string): Promise<InventoryRecord | null> {
    const row = await this.q.first(get, scoped(scope, { id }));
    return row ? decodeInventory(row, this.q.caps) : null;
  }

  async getByVariantIds(scope: Scope, variant_ids: string[]): Promise<InventoryRecord[]> {
    if (variant_ids.length === 0) return [];
    const rows = await this.q.rows(byVariantIds, scoped(scope, { ids: this.q.caps.list(variant_ids) }));
    return rows.map((row) => decodeInventory(row, this.q.caps));
  }

  list(
    scope: Scope,
    filter: { low_stock?: boolean | undefined },
    page: PageRequest<'created_at'>,
  ): Promise<Page<InventoryRecord>> {
    return runKeysetList(this.q, list, scope, { low_stock: filter.low_stock === true }, {}, page, (rows) =>
      rows.map((row) => decodeInventory(row, this.q.caps)),
    );
  }

  async update(
    scope: Scope,
    id: string,
    patch: Patch<
      InventoryRecord,
      'track_inventory' | 'allow_backorder' | 'safety_stock' | 'on_hand' | 'metadata'
    >,
  ): Promise<InventoryChange | Refusal | null> {
    const c = this.q.caps;
    const beforeRow = await this.q.first(lockById, scoped(scope, { id }));
    if (!beforeRow) return null;
    const { shape, args } = updateArgs(
      {
        track_inventory: patch.track_inventory === undefined ? undefined : c.bool(patch.track_inventory),
        allow_backorder: patch.allow_backorder === undefined ? undefined : c.bool(patch.allow_backorder),
        safety_stock: patch.safety_stock,
        on_hand: patch.on_hand,
        metadata: patch.metadata === undefined ? undefined : c.json(patch.metadata),
        updated_at: patch.updated_at,
      },
      scoped(scope, { id }),
      patch.on_hand === undefined ? undefined : { guard_on_hand: patch.on_hand },
    );
    const row = await this.q.first(update, args, shape);
    if (!row) return patch.on_hand === undefined ? null : { refused: 'below_reserved' };
    return { before: decodeInventory(beforeRow, c), after: decodeInventory(row, c) };
  }

  async adjust(
    scope: Scope,
    id: string,
    delta: number,
    at: number,
  ): Promise<InventoryChange | Refusal | null> {
    const c = this.q.caps;
    const beforeRow = await this.q.first(lockById, scoped(scope, { id }));
    if (!beforeRow) return null;
    const row = await this.q.first(adjust, scoped(scope, { id, delta, at }));
    if (!row) return { refused: 'below_reserved' };
    return { before: decodeInventory(beforeRow, c), after: decodeInventory(row, c) };
  }

  /**
   * SQLite: two statements whatever the number of variants — the read of every row (their exact
   * `before`: the transaction holds the writer lock), then, when no movement is refused, one
   * guarded UPDATE of all tracked rows ({@link reserveMany}); the refusal is decided on the read
   * rows ({@link planReservation}), so nothing is written when one is refused. With
   * `options.current` covering every variant (rows read earlier in this transaction, which on
   * SQLite nobody else can have changed since), the read is skipped: one compare-and-set UPDATE
   * without RETURNING inside a savepoint ({@link #reserveFromCurrent}). Postgres: ONE statement that locks, reads and updates
   * ({@link reserveInOneStatement}; `current` is ignored — its rows were read without a lock); a
   * refusal found in its result leaves the other rows updated, which the contract allows (the
   * caller's transaction rolls back).
   */
  async reserve(
    scope: Scope,
    movements: InventoryMovement[],
    at: number,
    options?: { current?: readonly InventoryRecord[] },
  ): Promise<
    | { ok: true; changes: InventoryChange[] }
    | { ok: false; refused: { variant_id: string; available: number } }
  > {
    const c = this.q.caps;
    if (movements.length === 0) return { ok: true, changes: [] };
    if (c.dialect === 'postgres') {
      const quantities = new Map<string, number>();
      for (const { variant_id, quantity } of movements) {
        quantities.set(variant_id, (quantities.get(variant_id) ?? 0) + quantity);
      }
      const rows = await this.q.rows(
        reserveInOneStatement,
        scoped(scope, {
          ids: c.list([...quantities.keys()]),
          quantities: [...quantities.values()],
          at,
        }),
      );
      const locked = new Map(rows.map((row) => [row.variant_id, decodeInventory(row, c)]));
      const moved = new Map<string, { reserved: number; on_hand: number; updated_at: number }>();
      for (const row of rows) {
        if (row.moved_reserved === null || row.moved_on_hand === null || row.moved_updated_at === null)
          continue;
        moved.set(row.variant_id, {
          reserved: row.moved_reserved,
          on_hand: row.moved_on_hand,
          updated_at: row.moved_updated_at,
        });
      }
      return reservationResult(planReservation(locked, movements, at), moved);
    }
    if (options?.current !== undefined) {
      const fast = await this.#reserveFromCurrent(scope, movements, at, options.current);
      if (fast !== undefined) return fast;
    }
    const plan = planReservation(
      await this.#lock(
        scope,
        movements.map((movement) => movement.variant_id),
      ),
      movements,
      at,
    );
    if (!plan.ok) return plan;
    return reservationResult(
      plan,
      await this.#updateMany(reserveMany, scope, at, plan.totals, (total) => ({ q: total })),
    );
  }

  /**
   * SQLite reservation planned on rows the caller read earlier in this transaction: only the
   * guarded compare-and-set UPDATE runs ({@link reserveExactMany}, bracketed by a savepoint).
   * Returns undefined — nothing written, the caller takes the reading path — when `current`
   * lacks a variant or the plan refuses (refusals are always reported from rows read afresh), or
   * when not every planned row was updated: then some row no longer held what `current` said (a
   * caller bug) or the guard refused it, and the savepoint is rolled back, so the reading path
   * starts from the rows exactly as they were. When every planned row was updated, each held the
   * `reserved` and `on_hand` of `current`, so the plan's changes are exactly what is stored.
   */
  async #reserveFromCurrent(
    scope: Scope,
    movements: InventoryMovement[],
    at: number,
    current: readonly InventoryRecord[],
  ): Promise<{ ok: true; changes: InventoryChange[] } | undefined> {
    const rows = new Map<string, InventoryRecord>();
    for (const row of current) {
      if (row.store_id === scope.store_id && row.mode === scope.mode) rows.set(row.variant_id, row);
    }
    for (const movement of movements) if (!rows.has(movement.variant_id)) return undefined;
    const plan = planReservation(rows, movements, at);
    if (!plan.ok) return undefined;
    if (plan.totals.size === 0) return { ok: true, changes: plan.changes };
    await this.q.execute(SAVEPOINT);
    const entries = [...plan.totals];
    let updated = 0;
    for (let start = 0; start < entries.length; start += MOVE_CHUNK) {
      const chunk = entries.slice(start, start + MOVE_CHUNK);
      const args: Record<string, unknown> & Args<ScopeSlots | 'at'> = scoped(scope, { at });
      for (let i = 0; i < chunk.length; i++) {
        const [variant_id, total] = chunk[i]!;
        const before = rows.get(variant_id)!;
        args[`v${i}`] = variant_id;
        args[`q${i}`] = total;
        args[`r${i}`] = before.reserved;
        args[`h${i}`] = before.on_hand;
      }
      updated += await this.q.affected(reserveExactMany, args, chunk.length);
    }
    if (updated === entries.length) {
      await this.q.execute(RELEASE);
      return { ok: true, changes: plan.changes };
    }
    await this.q.execute(ROLLBACK_TO);
    await this.q.execute(RELEASE);
    return undefined;
  }

  release(scope: Scope, movements: InventoryMovement[], at: number): Promise<InventoryChange[]> {
    return this.#move(
      scope,
      movements.map(({ variant_id, quantity }) => ({ variant_id, release: quantity, with: 0, tracked: 0 })),
      at,
    );
  }

  ship(
    scope: Scope,
    movements: Array<{ variant_id: string; quantity: number; from_reserved: number }>,
    at: number,
  ): Promise<InventoryChange[]> {
    return this.#move(
      scope,
      movements.map(({ variant_id, quantity, from_reserved }) => ({
        variant_id,
        release: from_reserved,
        with: -from_reserved,
        tracked: -(quantity - from_reserved),
      })),
      at,
    );
  }

  restock(
    scope: Scope,
    movements: Array<{ variant_id: string; from_reserved: number; to_on_hand: number }>,
    at: number,
  ): Promise<InventoryChange[]> {
    return this.#move(
      scope,
      movements.map(({ variant_id, from_reserved, to_on_hand }) => ({
        variant_id,
        release: from_reserved,
        with: 0,
        tracked: to_on_hand,
      })),
      at,
    );
  }

  /**
   * Two statements whatever the number of variants: the locking read, then one UPDATE setting
   * every moved row to the values the movements lead to — applied in order on the locked rows, so
   * a variant listed twice moves twice. Per movement: `reserved -= release` (never below 0) and
   * `on_hand += with` on every row — they settle a reservation the caller recorded, whatever the
   * row's `track_inventory` is now —, then `on_hand += tracked` on tracked rows only.
   * Unknown variants, and rows the movements leave as they were, are skipped.
   */
  async #move(
    scope: Scope,
    movements: Array<{ variant_id: string; release: number; with: number; tracked: number }>,
    at: number,
  ): Promise<InventoryChange[]> {
    const current = await this.#lock(
      scope,
      movements.map((movement) => movement.variant_id),
    );
    const changes: InventoryChange[] = [];
    const finals = new Map<string, InventoryRecord>();
    for (const movement of movements) {
      const before = current.get(movement.variant_id);
      if (!before) continue;
      const reserved = before.reserved >= movement.release ? before.reserved - movement.release : 0;
      const on_hand = before.on_hand + movement.with + (before.track_inventory ? movement.tracked : 0);
      if (reserved === before.reserved && on_hand === before.on_hand) continue;
      const after: InventoryRecord = {
        ...before,
        reserved,
        on_hand,
        updated_at: at,
      };
      current.set(movement.variant_id, after);
      finals.set(movement.variant_id, after);
      changes.push({ before, after });
    }
    const rows = await this.#updateMany(setMany, scope, at, finals, (after) => ({
      r: after.reserved,
      h: after.on_hand,
    }));
    return withStoredAfter(
      changes.filter((change) => rows.has(change.before.variant_id)),
      rows,
    );
  }

  /**
   * Runs a multi-row movement template over `byVariant` (chunks of {@link MOVE_CHUNK}), binding
   * `v<i>` to the variant id and each of `values(entry)` as `<name><i>`. Returns the updated rows
   * by variant id.
   */
  async #updateMany<T>(
    t: Template<string, MovedColumns, number>,
    scope: Scope,
    at: number,
    byVariant: ReadonlyMap<string, T>,
    values: (entry: T) => Record<string, number>,
  ): Promise<Map<string, MovedColumns>> {
    const updated = new Map<string, MovedColumns>();
    const entries = [...byVariant];
    for (let start = 0; start < entries.length; start += MOVE_CHUNK) {
      const chunk = entries.slice(start, start + MOVE_CHUNK);
      const args: Record<string, unknown> = scoped(scope, { at });
      chunk.forEach(([variant_id, entry], i) => {
        args[`v${i}`] = variant_id;
        for (const [name, value] of Object.entries(values(entry))) args[`${name}${i}`] = value;
      });
      for (const row of await this.q.rows(t, args, chunk.length)) updated.set(row.variant_id, row);
    }
    return updated;
  }

  async #lock(scope: Scope, variantIds: string[]): Promise<Map<string, InventoryRecord>> {
    const rows = await this.q.rows(
      lockByVariantIds,
      scoped(scope, {
        ids: this.q.caps.list([...new Set(variantIds)]),
      }),
    );
    return new Map(rows.map((row) => [row.variant_id, decodeInventory(row, this.q.caps)]));
  }
}
