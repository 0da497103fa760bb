import type {
  InventoryChange,
  InventoryMovement,
  InventoryRecord,
  InventoryRepository,
  Page,
  PageRequest,
  Patch,
  Scope,
} from '@cartwright/core';
import { type SelectQueryBuilder, type SqlBool, sql } from 'kysely';
import { keysetList, runKeysetList } from '../query/keyset-list';
import type { QueryRunner } from '../query/query-runner';
import { type Slots, template } from '../query/template';
import { updateArgs, updateTemplate } from '../query/update-template';
import type { Database } from '../schema/database';
import { decodeInventory } from './catalog-codecs';

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
 * the exact `before` of each change. SQLite already holds the writer lock.
 */
const lockByVariantIds = template(({ db, caps }, p: Slots<ScopeSlots | 'ids'>) => {
  const query = db
    .selectFrom('inventory_items')
    .selectAll()
    .where('store_id', '=', p.store_id)
    .where('mode', '=', p.mode)
    .where(caps.inList(sql.ref('variant_id'), p.ids))
    .orderBy('variant_id');
  return caps.forUpdate ? query.forUpdate() : query;
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

/** The WHERE clause is both the selector and the guard: no oversell under any concurrency. */
const reserve = template(({ db }, p: Slots<ScopeSlots | 'variant_id' | 'quantity' | 'at'>) =>
  db
    .updateTable('inventory_items')
    .set((eb) => ({ reserved: eb('reserved', '+', p.quantity), updated_at: p.at }))
    .where('store_id', '=', p.store_id)
    .where('mode', '=', p.mode)
    .where('variant_id', '=', p.variant_id)
    .where(
      sql<SqlBool>`track_inventory = true and (allow_backorder = true or on_hand - reserved >= ${p.quantity})`,
    )
    .returningAll(),
);

/** `reserved -= from_reserved` (never below 0), `on_hand += to_on_hand`, tracked rows only. */
const move = template(({ db }, p: Slots<ScopeSlots | 'variant_id' | 'from_reserved' | 'to_on_hand' | 'at'>) =>
  db
    .updateTable('inventory_items')
    .set({
      reserved: sql`case when reserved >= ${p.from_reserved} then reserved - ${p.from_reserved} else 0 end`,
      on_hand: sql`on_hand + ${p.to_on_hand}`,
      updated_at: p.at,
    })
    .where('store_id', '=', p.store_id)
    .where('mode', '=', p.mode)
    .where('variant_id', '=', p.variant_id)
    .where(sql<SqlBool>`track_inventory = true`)
    .returningAll(),
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
    if (f.low_stock) query = query.where(sql<SqlBool>`on_hand - reserved <= safety_stock`);
    return query;
  },
});

type Refusal = { refused: 'below_reserved' };

/**
 * Inventory rows and their atomic movements. Every movement is one conditional UPDATE per
 * variant whose WHERE is the guard; `before` comes from the locked pre-read.
 */
export class KyselyInventoryRepository implements InventoryRepository {
  constructor(private readonly q: QueryRunner) {}

  async get(scope: Scope, id: string): Promise<InventoryRecord | null> {
    const row = await this.q.first(get, { ...scope, id });
    return row ? decodeInventory(row, this.q.caps) : null;
  }

  async getByVariantIds(scope: Scope, variant_ids: string[]): Promise<InventoryRecord[]> {
    if (variant_ids.length === 0) return [];
    const rows = await this.q.rows(byVariantIds, { ...scope, ids: this.q.caps.list(variant_ids) });
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
    const beforeRow = await this.q.first(lockById, { ...scope, id });
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
      { ...scope, id },
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
    const beforeRow = await this.q.first(lockById, { ...scope, id });
    if (!beforeRow) return null;
    const row = await this.q.first(adjust, { ...scope, id, delta, at });
    if (!row) return { refused: 'below_reserved' };
    return { before: decodeInventory(beforeRow, c), after: decodeInventory(row, c) };
  }

  async reserve(
    scope: Scope,
    movements: InventoryMovement[],
    at: number,
  ): Promise<
    | { ok: true; changes: InventoryChange[] }
    | { ok: false; refused: { variant_id: string; available: number } }
  > {
    const current = await this.#lock(
      scope,
      movements.map((movement) => movement.variant_id),
    );
    const changes: InventoryChange[] = [];
    for (const { variant_id, quantity } of movements) {
      const before = current.get(variant_id);
      if (!before) return { ok: false, refused: { variant_id, available: 0 } };
      if (!before.track_inventory) {
        changes.push({ before, after: before });
        continue;
      }
      const row = await this.q.first(reserve, { ...scope, variant_id, quantity, at });
      if (!row) return { ok: false, refused: { variant_id, available: before.on_hand - before.reserved } };
      const after = decodeInventory(row, this.q.caps);
      current.set(variant_id, after);
      changes.push({ before, after });
    }
    return { ok: true, changes };
  }

  release(scope: Scope, movements: InventoryMovement[], at: number): Promise<InventoryChange[]> {
    return this.#move(
      scope,
      movements.map(({ variant_id, quantity }) => ({ variant_id, from_reserved: quantity, to_on_hand: 0 })),
      at,
    );
  }

  ship(scope: Scope, movements: InventoryMovement[], at: number): Promise<InventoryChange[]> {
    return this.#move(
      scope,
      movements.map(({ variant_id, quantity }) => ({
        variant_id,
        from_reserved: quantity,
        to_on_hand: -quantity,
      })),
      at,
    );
  }

  restock(
    scope: Scope,
    movements: Array<{ variant_id: string; from_reserved: number; to_on_hand: number }>,
    at: number,
  ): Promise<InventoryChange[]> {
    return this.#move(scope, movements, at);
  }

  async #move(
    scope: Scope,
    movements: Array<{ variant_id: string; from_reserved: number; to_on_hand: number }>,
    at: number,
  ): Promise<InventoryChange[]> {
    const current = await this.#lock(
      scope,
      movements.map((movement) => movement.variant_id),
    );
    const changes: InventoryChange[] = [];
    for (const movement of movements) {
      const before = current.get(movement.variant_id);
      if (!before?.track_inventory) continue;
      const row = await this.q.first(move, { ...scope, ...movement, at });
      if (!row) continue;
      const after = decodeInventory(row, this.q.caps);
      current.set(movement.variant_id, after);
      changes.push({ before, after });
    }
    return changes;
  }

  async #lock(scope: Scope, variantIds: string[]): Promise<Map<string, InventoryRecord>> {
    const rows = await this.q.rows(lockByVariantIds, {
      ...scope,
      ids: this.q.caps.list([...new Set(variantIds)]),
    });
    return new Map(rows.map((row) => [row.variant_id, decodeInventory(row, this.q.caps)]));
  }
}
