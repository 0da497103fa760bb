import type { Scope } from '@cartwright/core';
import type {
  InventoryItemRecord,
  InventoryLevelColumn,
  InventoryLevelFilter,
  InventoryRecord,
  InventoryRepository,
  InventoryWrite,
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
import type { DialectCapabilities } from '../dialects/dialect-capabilities';
import { keysetList, runKeysetList } from '../query/keyset-list';
import type { QueryRunner } from '../query/query-runner';
import { type Args, type Slots, shapedTemplate, slot, template } from '../query/template';
import { updateArgs, updateTemplate } from '../query/update-template';
import type { Database, InventoryItemsTable } from '../schema/database';
import { decodeInventory } from './catalog-codecs';
import { scoped } from './scoped-args';

type ScopeSlots = 'store_id' | 'mode';

/** The variant of the inventory row is not soft-deleted (admin reads hide deleted variants). */
const liveVariant = sql<SqlBool>`exists (select 1 from product_variants v where v.store_id = inventory_items.store_id and v.mode = inventory_items.mode and v.id = inventory_items.variant_id and v.deleted_at is null)`;

/**
 * The SKU of the row's variant: one primary-key lookup per row returned (a select-list subquery,
 * so a list evaluates it only for the rows of its page, and a `FOR UPDATE` never locks the
 * variant).
 */
const variantSku = sql<
  string | null
>`(select v.sku from product_variants v where v.store_id = inventory_items.store_id and v.mode = inventory_items.mode and v.id = inventory_items.variant_id)`;

/** A row with its variant's SKU, as `getItem` and `list` return it. */
type ItemRow = Selectable<InventoryItemsTable> & { sku: string | null };

function decodeItem(row: ItemRow, c: DialectCapabilities): InventoryItemRecord {
  const record = decodeInventory(row, c) as InventoryItemRecord;
  record.sku = row.sku;
  record.version = Number(row.version);
  return record;
}

const getItem = template(({ db }, p: Slots<ScopeSlots | 'id'>) =>
  db
    .selectFrom('inventory_items')
    .selectAll()
    .select(variantSku.as('sku'))
    .where('store_id', '=', p.store_id)
    .where('mode', '=', p.mode)
    .where('id', '=', p.id)
    .where(liveVariant),
);

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
 * `get({ variant_ids })` with `lock`: the rows locked on Postgres (FOR UPDATE, in variant order so
 * that concurrent movements of several variants cannot deadlock). SQLite already holds the writer lock: no lock, and no
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

/**
 * MariaDB locks inventory rows by primary key only, in key order (`#lockInKeyOrder`): the
 * ids of the variants' rows (a plain read, no lock), then the rows by id. InnoDB locks a row
 * reached through a secondary index in that index first and in the primary key second, and a
 * row reached by id in the primary key alone: two transactions locking one row both ways — a
 * checkout reading by variant, an adjustment by id then writing by variant — deadlock.
 */
const idsOfVariants = template(({ db, caps }, p: Slots<ScopeSlots | 'ids'>) =>
  db
    .selectFrom('inventory_items')
    .select('id')
    .where('store_id', '=', p.store_id)
    .where('mode', '=', p.mode)
    .where(caps.inList(sql.ref('variant_id'), p.ids)),
);

const lockByIds = template(({ db, caps }, p: Slots<ScopeSlots | 'ids'>) =>
  db
    .selectFrom('inventory_items')
    .selectAll()
    .where('store_id', '=', p.store_id)
    .where('mode', '=', p.mode)
    .where(caps.inList(sql.ref('id'), p.ids))
    .orderBy('id')
    .forUpdate(),
);

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

/** Rows per compare-and-set statement on SQLite (one compiled statement per count up to this). */
const CAS_CHUNK = 50;

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

/**
 * The compare-and-set of n rows in ONE statement (SQLite): each row of `v<i>` must still hold
 * `on_hand = eh<i>`, `reserved = er<i>`, `track_inventory = et<i>`, `allow_backorder = eb<i>`,
 * and then takes `on_hand = h<i>`, `reserved = r<i>` and `version + 1`. No RETURNING (on SQLite it costs about as
 * much as the update itself): the affected count tells whether every row matched.
 */
const casMany = shapedTemplate(
  (n: number) => String(n),
  ({ db }, p: Slots<ScopeSlots | 'at'>, n: number) =>
    db
      .updateTable('inventory_items')
      .set({
        on_hand: perVariant(p, n, 'h'),
        reserved: perVariant(p, n, 'r'),
        updated_at: p.at,
        version: sql<number>`version + 1`,
      })
      .where('store_id', '=', p.store_id)
      .where('mode', '=', p.mode)
      .where(variantIn(p, n))
      .where(
        sql<SqlBool>`on_hand = ${perVariant(p, n, 'eh')} and reserved = ${perVariant(p, n, 'er')} and track_inventory = ${perVariant(p, n, 'et')} and allow_backorder = ${perVariant(p, n, 'eb')}`,
      ),
);

/** Brackets {@link casMany} on SQLite, so that a partial match is undone exactly. */
const SAVEPOINT = CompiledQuery.raw('savepoint cartwright_inventory');
const RELEASE = CompiledQuery.raw('release savepoint cartwright_inventory');
const ROLLBACK_TO = CompiledQuery.raw('rollback to savepoint cartwright_inventory');

/**
 * Up to this many writes, PostgreSQL's `apply` binds one parameter per value (one prepared
 * statement per count, {@link applyInOneStatement}); more, seven array parameters.
 */
const APPLY_VALUE_SLOTS = 16;

/** The columns of `w`, the writes as rows, in the order of their values. */
const APPLY_COLUMNS = sql.raw('w(variant_id, eh, er, et, eb, h, r)');

/**
 * The compare-and-set of every write in ONE statement (Postgres). `w` holds the writes; `old`
 * locks every named row in variant order (FOR UPDATE, materialised: concurrent movements of
 * several variants cannot deadlock) and yields its latest committed version; `missed` lists the
 * writes whose row is absent or differs from `expect`; `upd` writes every row (levels,
 * `updated_at`, `version + 1`) only when nothing missed (a data-modifying CTE runs whether or not
 * it is read). The rows stay locked either way.
 *
 * Shaped by the number of writes (`count`, ≤ {@link APPLY_VALUE_SLOTS}; 0: the array form). With
 * `unnest` over seven array parameters and `variant_id = any($ids)`, PostgreSQL planned the
 * statement at every execution (pg_stat_statements over the checkout flow: plans 1.00 per call,
 * ~0.7 ms of the server per order); as a `values` list with one parameter per value (the first
 * row cast, the others take its types) and `variant_id in ($a, $b, …)`, the generic plan is as
 * good as a custom one and the statement is planned once per connection and count.
 */
const applyInOneStatement = shapedTemplate(
  (count: number) => String(count),
  ({ db }, p: Slots<ScopeSlots | 'ids' | 'eh' | 'er' | 'et' | 'eb' | 'h' | 'r' | 'at'>, count: number) => {
    let rows: RawBuilder<unknown>;
    let named: RawBuilder<SqlBool>;
    if (count > 0) {
      const values = Array.from({ length: count }, (_, i) => {
        const [v, eh, er, et, eb, h, r] = ['v', 'eh', 'er', 'et', 'eb', 'h', 'r'].map((name) =>
          slot(p, `${name}${i}`),
        );
        return i === 0
          ? sql`(${v}::text, ${eh}::int, ${er}::int, ${et}::bool, ${eb}::bool, ${h}::int, ${r}::int)`
          : sql`(${sql.join([v, eh, er, et, eb, h, r])})`;
      });
      rows = sql`(values ${sql.join(values)})`;
      named = sql<SqlBool>`i.variant_id in (${sql.join(Array.from({ length: count }, (_, i) => slot(p, `v${i}`)))})`;
    } else {
      rows = sql`unnest(${p.ids}::text[], ${p.eh}::int[], ${p.er}::int[], ${p.et}::bool[], ${p.eb}::bool[], ${p.h}::int[], ${p.r}::int[])`;
      named = sql<SqlBool>`i.variant_id = any(${p.ids}::text[])`;
    }
    return compilable<{ variant_id: string }>(
      db,
      sql`with w as (select * from ${rows} as ${APPLY_COLUMNS}),
old as materialized (select i.id, i.variant_id, i.on_hand, i.reserved, i.track_inventory, i.allow_backorder from inventory_items i where i.store_id = ${p.store_id} and i.mode = ${p.mode} and ${named} order by i.variant_id for update),
missed as materialized (select w.variant_id from w left join old o on o.variant_id = w.variant_id where o.id is null or o.on_hand <> w.eh or o.reserved <> w.er or o.track_inventory <> w.et or o.allow_backorder <> w.eb),
upd as (update inventory_items i set on_hand = w.h, reserved = w.r, updated_at = ${p.at}, version = i.version + 1 from old o join w on w.variant_id = o.variant_id where i.store_id = ${p.store_id} and i.mode = ${p.mode} and i.id = o.id and not exists (select 1 from missed) returning i.variant_id)
select variant_id from missed`,
    );
  },
);

/** A raw statement as a template body (compiled by the build-only Kysely instance). */
function compilable<R>(db: Kysely<Database>, query: RawBuilder<unknown>): Compilable<R> {
  return { compile: () => query.compile(db) as CompiledQuery<R> };
}

/** The settings of one row (levels move only through `apply`), RETURNING the row as stored. */
const updateSettings = updateTemplate('inventory_items');

/** The columns `on_hand` may be compared with, in the order the comparison is written. */
const LEVEL_COLUMNS: readonly InventoryLevelColumn[] = ['safety_stock', 'reserved'];

/**
 * `filter.on_hand_at_most` as the statement's shape: the columns in {@link LEVEL_COLUMNS} order
 * (so core's low-stock filter, `['safety_stock', 'reserved']`, is written
 * `on_hand <= safety_stock + reserved`), or null for no filter.
 */
function atMostKey(filter: InventoryLevelFilter): string | null {
  const columns = filter.on_hand_at_most;
  if (columns === undefined) return null;
  for (const column of columns) {
    if (!LEVEL_COLUMNS.includes(column)) throw new RangeError(`Unknown inventory level column '${column}'`);
  }
  return LEVEL_COLUMNS.flatMap((known) => columns.filter((column) => column === known)).join(' + ');
}

/**
 * `on_hand <= <sum of the columns>`. Written for `['safety_stock', 'reserved']` exactly as the
 * predicate of the partial index `inventory_items_low_stock_idx` (0009_inventory_low_stock), which
 * both engines use only when the query repeats it: the admin `low_stock` page and count then read
 * only the matching rows.
 */
function onHandAtMost(sum: string): RawBuilder<SqlBool> {
  return sql<SqlBool>`on_hand <= ${sql.raw(sum === '' ? '0' : sum)}`;
}

const list = keysetList({
  table: 'inventory_items',
  sorts: { created_at: ['created_at'] },
  filterKey: (f: { at_most: string | null }) => (f.at_most === null ? '' : `<=${f.at_most}`),
  base: ({ db }, p, f) => {
    let query: SelectQueryBuilder<Database, 'inventory_items', object> = db
      .selectFrom('inventory_items')
      .where('store_id', '=', p.store_id)
      .where('mode', '=', p.mode)
      .where(liveVariant);
    if (f.at_most !== null) query = query.where(onHandAtMost(f.at_most));
    return query;
  },
  select: (_ctx, query) => query.selectAll().select(variantSku.as('sku')),
});

/** Whether a stored row still holds a write's expectation. */
function holds(row: InventoryRecord | undefined, expect: InventoryWrite['expect']): boolean {
  return (
    row !== undefined &&
    row.on_hand === expect.on_hand &&
    row.reserved === expect.reserved &&
    row.track_inventory === expect.track_inventory &&
    row.allow_backorder === expect.allow_backorder
  );
}

/**
 * Inventory rows: reads (optionally locked), the compare-and-set of stock levels (`apply`) and
 * the settings. No inventory rule lives here: core plans every movement
 * (`@cartwright/core` inventory-plan.ts) and this only refuses a plan whose rows changed.
 */
export class KyselyInventoryRepository implements InventoryRepository {
  constructor(private readonly q: QueryRunner) {}

  get(scope: Scope, id: string, options?: { lock?: boolean }): Promise<InventoryRecord | null>;
  get(scope: Scope, key: { variant_ids: string[] }, options?: { lock?: boolean }): Promise<InventoryRecord[]>;
  async get(
    scope: Scope,
    key: string | { variant_ids: string[] },
    options?: { lock?: boolean },
  ): Promise<InventoryRecord | null | InventoryRecord[]> {
    if (typeof key !== 'string') return this.#byVariantIds(scope, key.variant_ids, options);
    const row = await this.q.first(options?.lock === true ? lockById : get, scoped(scope, { id: key }));
    return row ? decodeInventory(row, this.q.caps) : null;
  }

  async #byVariantIds(
    scope: Scope,
    variant_ids: string[],
    options?: { lock?: boolean },
  ): Promise<InventoryRecord[]> {
    if (variant_ids.length === 0) return [];
    if (options?.lock === true && this.q.caps.dialect === 'mysql') {
      return (await this.#lockInKeyOrder(scope, variant_ids)).map((row) => decodeInventory(row, this.q.caps));
    }
    const rows = await this.q.rows(
      options?.lock === true ? lockByVariantIds : byVariantIds,
      scoped(scope, { ids: this.q.caps.list(variant_ids) }),
    );
    return rows.map((row) => decodeInventory(row, this.q.caps));
  }

  async getItem(scope: Scope, id: string): Promise<InventoryItemRecord | null> {
    const row = await this.q.first(getItem, scoped(scope, { id }));
    return row ? decodeItem(row, this.q.caps) : null;
  }

  list(
    scope: Scope,
    filter: InventoryLevelFilter,
    page: PageRequest<'created_at'>,
  ): Promise<Page<InventoryItemRecord>> {
    return runKeysetList(this.q, list, scope, { at_most: atMostKey(filter) }, {}, page, (rows) =>
      rows.map((row) => decodeItem(row, this.q.caps)),
    );
  }

  async updateSettings(
    scope: Scope,
    id: string,
    patch: Patch<InventoryRecord, 'track_inventory' | 'allow_backorder' | 'safety_stock' | 'metadata'>,
  ): Promise<InventoryRecord | null> {
    const c = this.q.caps;
    const { shape, args } = updateArgs(
      {
        track_inventory: patch.track_inventory === undefined ? undefined : c.bool(patch.track_inventory),
        allow_backorder: patch.allow_backorder === undefined ? undefined : c.bool(patch.allow_backorder),
        safety_stock: patch.safety_stock,
        metadata: patch.metadata === undefined ? undefined : c.json(patch.metadata),
        updated_at: patch.updated_at,
      },
      scoped(scope, { id }),
    );
    const row = await this.q.first(updateSettings, args, shape);
    return row ? decodeInventory(row, c) : null;
  }

  /**
   * Postgres: ONE statement ({@link applyInOneStatement}: a `values` list of the writes up to
   * {@link APPLY_VALUE_SLOTS}, arrays beyond). SQLite (whose transaction holds the
   * writer lock): {@link casMany} per {@link CAS_CHUNK} rows inside a savepoint; when fewer rows
   * than written matched, the savepoint is rolled back and the rows read to name the misses.
   */
  async apply(scope: Scope, writes: readonly InventoryWrite[], at: number): Promise<string[]> {
    if (writes.length === 0) return [];
    const c = this.q.caps;
    if (new Set(writes.map((w) => w.variant_id)).size !== writes.length) {
      throw new RangeError('inventory.apply: at most one write per variant');
    }
    if (c.dialect === 'postgres') {
      const count = writes.length <= APPLY_VALUE_SLOTS ? writes.length : 0;
      const args: Record<string, unknown> &
        Args<ScopeSlots | 'ids' | 'eh' | 'er' | 'et' | 'eb' | 'h' | 'r' | 'at'> =
        count > 0
          ? scoped(scope, { ids: null, eh: null, er: null, et: null, eb: null, h: null, r: null, at })
          : scoped(scope, {
              ids: c.list(writes.map((w) => w.variant_id)),
              eh: writes.map((w) => w.expect.on_hand),
              er: writes.map((w) => w.expect.reserved),
              et: writes.map((w) => w.expect.track_inventory),
              eb: writes.map((w) => w.expect.allow_backorder),
              h: writes.map((w) => w.set.on_hand),
              r: writes.map((w) => w.set.reserved),
              at,
            });
      for (let i = 0; i < count; i++) {
        const { variant_id, expect, set } = writes[i]!;
        args[`v${i}`] = variant_id;
        args[`eh${i}`] = expect.on_hand;
        args[`er${i}`] = expect.reserved;
        args[`et${i}`] = expect.track_inventory;
        args[`eb${i}`] = expect.allow_backorder;
        args[`h${i}`] = set.on_hand;
        args[`r${i}`] = set.reserved;
      }
      const rows = await this.q.rows(applyInOneStatement, args, count);
      return rows.map((row) => row.variant_id);
    }
    // MariaDB: the rows locked first, by primary key (see idsOfVariants), then compared and set.
    if (c.dialect === 'mysql') {
      await this.#lockInKeyOrder(
        scope,
        writes.map((w) => w.variant_id),
      );
    }
    await this.q.execute(SAVEPOINT);
    let matched = 0;
    for (let start = 0; start < writes.length; start += CAS_CHUNK) {
      const chunk = writes.slice(start, start + CAS_CHUNK);
      const args: Record<string, unknown> & Args<ScopeSlots | 'at'> = scoped(scope, { at });
      for (let i = 0; i < chunk.length; i++) {
        const { variant_id, expect, set } = chunk[i]!;
        args[`v${i}`] = variant_id;
        args[`h${i}`] = set.on_hand;
        args[`r${i}`] = set.reserved;
        args[`eh${i}`] = expect.on_hand;
        args[`er${i}`] = expect.reserved;
        args[`et${i}`] = c.bool(expect.track_inventory);
        args[`eb${i}`] = c.bool(expect.allow_backorder);
      }
      matched += await this.q.affected(casMany, args, chunk.length);
    }
    if (matched === writes.length) {
      await this.q.execute(RELEASE);
      return [];
    }
    await this.q.execute(ROLLBACK_TO);
    await this.q.execute(RELEASE);
    const current = new Map(
      (
        await this.#byVariantIds(
          scope,
          writes.map((w) => w.variant_id),
          { lock: true },
        )
      ).map((row) => [row.variant_id, row]),
    );
    return writes.filter((w) => !holds(current.get(w.variant_id), w.expect)).map((w) => w.variant_id);
  }

  /** MariaDB: these variants' rows, locked by primary key in key order (see {@link idsOfVariants}). */
  async #lockInKeyOrder(scope: Scope, variant_ids: readonly string[]) {
    const c = this.q.caps;
    const ids = await this.q.rows(idsOfVariants, scoped(scope, { ids: c.list([...variant_ids]) }));
    if (ids.length === 0) return [];
    // A row's variant never changes: the rows locked by id are the variants' rows.
    return this.q.rows(lockByIds, scoped(scope, { ids: c.list(ids.map((row) => row.id)) }));
  }
}
