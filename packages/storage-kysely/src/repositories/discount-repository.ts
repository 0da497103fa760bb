import type { Mode, Scope } from '@cartwright/core';
import type {
  DiscountConditionRecord,
  DiscountRecord,
  DiscountRepository,
  DiscountUsageCounters,
  JsonObject,
  Page,
  PageRequest,
  Patch,
} from '@cartwright/core/storage';
import {
  type Compilable,
  type CompiledQuery,
  type Selectable,
  type SelectQueryBuilder,
  type SqlBool,
  sql,
} from 'kysely';
import type { DialectCapabilities } from '../dialects/dialect-capabilities';
import { type EncodedRow, insertRows, insertTemplate } from '../query/insert-template';
import { keysetList, runKeysetList } from '../query/keyset-list';
import type { QueryRunner } from '../query/query-runner';
import { rowFromJson, type Slots, sqliteJsonRow, template } from '../query/template';
import { updateArgs, updateTemplate } from '../query/update-template';
import type { Database, DiscountsTable } from '../schema/database';
import { TABLE_COLUMNS } from '../schema/table-columns';
import { scoped } from './scoped-args';

type ScopeSlots = 'store_id' | 'mode';

const insert = insertTemplate('discounts');
const insertUsage = insertTemplate('discount_usages');

const DISCOUNT_COLUMNS = TABLE_COLUMNS.discounts;
/** A discount row: its columns (Postgres), or ONE JSON array of them `r` (SQLite). */
type DiscountReadRow = Selectable<DiscountsTable> | { r: string };

/**
 * The columns of a discount read: Postgres `*`, SQLite ONE JSON array `r` (see `sqliteJsonRow`:
 * a 25-column row object cost ~12 µs more than the string). Read back with {@link discountRow}.
 */
function selectDiscount(
  query: SelectQueryBuilder<Database, 'discounts', object>,
  caps: DialectCapabilities,
): Compilable<DiscountReadRow> {
  return (
    caps.dialect === 'sqlite' ? query.select(sqliteJsonRow(DISCOUNT_COLUMNS).as('r')) : query.selectAll()
  ) as Compilable<DiscountReadRow>;
}

function discountRow(read: DiscountReadRow): Selectable<DiscountsTable> {
  return 'r' in read ? rowFromJson(DISCOUNT_COLUMNS, read.r) : read;
}

const get = template(({ db, caps }, p: Slots<ScopeSlots | 'id'>) =>
  selectDiscount(
    db
      .selectFrom('discounts')
      .where('store_id', '=', p.store_id)
      .where('mode', '=', p.mode)
      .where('id', '=', p.id)
      .where('deleted_at', 'is', null),
    caps,
  ),
);
const automaticOnly = template(({ db }, p: Slots<ScopeSlots>) =>
  db
    .selectFrom('discounts')
    .selectAll()
    .where('store_id', '=', p.store_id)
    .where('mode', '=', p.mode)
    .where('type', '=', 'automatic')
    .where(sql<SqlBool>`is_active = true`)
    .where('deleted_at', 'is', null)
    .orderBy('created_at')
    .orderBy('id'),
);
/**
 * Active automatic discounts and the discounts of some codes, oldest first (see `listForPricing`):
 * a UNION ALL of the two lookups, so each branch uses its own index (`discounts_type_idx`, the
 * code's unique index) instead of one OR that scans every discount of the store (a plain UNION
 * makes SQLite merge sorted branches through the primary key, and an ORDER BY here makes it merge
 * through the created-at index: a scan again). Unordered; a row both branches find comes twice:
 * `listForPricing` sorts the few rows and keeps each once.
 */
const forPricing = template(({ db, caps }, p: Slots<ScopeSlots | 'codes'>) => {
  const live = db
    .selectFrom('discounts')
    .where('store_id', '=', p.store_id)
    .where('mode', '=', p.mode)
    .where('deleted_at', 'is', null);
  const automatic = live.where('type', '=', 'automatic').where(sql<SqlBool>`is_active = true`);
  const coded = live.where(caps.inList(sql.ref('code_lower'), p.codes));
  if (caps.dialect === 'sqlite') {
    // ONE JSON array per row, as `selectDiscount`.
    const row = sqliteJsonRow(DISCOUNT_COLUMNS).as('r');
    return automatic.select(row).unionAll(coded.select(row)) as Compilable<DiscountReadRow>;
  }
  return automatic.selectAll().unionAll(coded.selectAll()) as Compilable<DiscountReadRow>;
});
/** Oldest first: `created_at`, then `id` (the order of every discount list). */
function byCreation(a: { created_at: unknown; id: string }, b: { created_at: unknown; id: string }): number {
  const at = Number(a.created_at) - Number(b.created_at);
  return at !== 0 ? at : a.id < b.id ? -1 : a.id > b.id ? 1 : 0;
}

const update = updateTemplate('discounts', { where: 'deleted_at is null' });
const softDelete = template(({ db }, p: Slots<ScopeSlots | 'id' | 'at'>) =>
  db
    .updateTable('discounts')
    .set({ deleted_at: p.at, updated_at: p.at })
    .where('store_id', '=', p.store_id)
    .where('mode', '=', p.mode)
    .where('id', '=', p.id)
    .where('deleted_at', 'is', null),
);

/**
 * The capped counter: `usage_count + 1` while under `usage_limit`. The row lock this UPDATE takes
 * serialises the uses of one discount until the transaction ends.
 */
const countUse = template(({ db }, p: Slots<ScopeSlots | 'id'>) =>
  db
    .updateTable('discounts')
    .set((eb) => ({ usage_count: eb('usage_count', '+', 1) }))
    .where('store_id', '=', p.store_id)
    .where('mode', '=', p.mode)
    .where('id', '=', p.id)
    .where('deleted_at', 'is', null)
    .where(sql<SqlBool>`(usage_limit is null or usage_count < usage_limit)`)
    .returning(['usage_count', 'usage_limit', 'per_customer_limit']),
);
/**
 * Postgres: {@link countUse} and, when it counted, the use's row, in ONE statement. No row back:
 * the cap refused and nothing changed.
 */
const countAndRecordUse = template(
  ({ db }, p: Slots<ScopeSlots | 'id' | 'use_id' | 'order_id' | 'customer_key' | 'at'>) => {
    const query = sql<UsageCountersRow>`with counted as (update discounts set usage_count = usage_count + 1 where store_id = ${p.store_id} and mode = ${p.mode} and id = ${p.id} and deleted_at is null and (usage_limit is null or usage_count < usage_limit) returning usage_count, usage_limit, per_customer_limit),
recorded as (insert into discount_usages (store_id, mode, id, discount_id, order_id, customer_key, created_at) select ${p.store_id}::text, ${p.mode}::text, ${p.use_id}::text, ${p.id}::text, ${p.order_id}::text, ${p.customer_key}::text, ${p.at}::bigint from counted)
select usage_count, usage_limit, per_customer_limit from counted`;
    return { compile: () => query.compile(db) as CompiledQuery<UsageCountersRow> };
  },
);
type UsageCountersRow = {
  usage_count: number | string;
  usage_limit: number | string | null;
  per_customer_limit: number | string | null;
};
const nullableNumber = (value: number | string | null) => (value === null ? null : Number(value));
function countersOf(row: UsageCountersRow): DiscountUsageCounters {
  return {
    usage_count: Number(row.usage_count),
    usage_limit: nullableNumber(row.usage_limit),
    per_customer_limit: nullableNumber(row.per_customer_limit),
  };
}
/** An order's recorded use of one discount, deleted when the use is given back. */
const deleteOrderUse = template(({ db }, p: Slots<ScopeSlots | 'discount_id' | 'order_id'>) =>
  db
    .deleteFrom('discount_usages')
    .where('store_id', '=', p.store_id)
    .where('mode', '=', p.mode)
    .where('discount_id', '=', p.discount_id)
    .where('order_id', '=', p.order_id),
);
/** Lowers the count by the uses given back (never below 0; deleted discounts included). */
const uncountUses = template(({ db }, p: Slots<ScopeSlots | 'id' | 'n'>) =>
  db
    .updateTable('discounts')
    .set((eb) => ({ usage_count: eb('usage_count', '-', p.n) }))
    .where('store_id', '=', p.store_id)
    .where('mode', '=', p.mode)
    .where('id', '=', p.id)
    .where('usage_count', '>=', p.n),
);
const usesByCustomer = template(({ db, caps }, p: Slots<ScopeSlots | 'ids' | 'customer_key'>) =>
  db
    .selectFrom('discount_usages')
    .select(['discount_id', sql<number | string>`count(*)`.as('uses')])
    .where('store_id', '=', p.store_id)
    .where('mode', '=', p.mode)
    .where(caps.inList(sql.ref('discount_id'), p.ids))
    .where('customer_key', '=', p.customer_key)
    .groupBy('discount_id'),
);

const list = keysetList({
  table: 'discounts',
  sorts: { created_at: ['created_at'] },
  filterKey: (f: { type: boolean; is_active: boolean }) => `${f.type ? 't' : ''}${f.is_active ? 'a' : ''}`,
  base: ({ db }, p: Slots<ScopeSlots | 'type' | 'is_active'>, f) => {
    let query = db
      .selectFrom('discounts')
      .where('store_id', '=', p.store_id)
      .where('mode', '=', p.mode)
      .where('deleted_at', 'is', null);
    if (f.type) query = query.where('type', '=', p.type);
    if (f.is_active) query = query.where('is_active', '=', p.is_active);
    return query;
  },
});

function decode(row: Selectable<DiscountsTable>, c: DialectCapabilities): DiscountRecord {
  return {
    id: row.id,
    store_id: row.store_id,
    mode: row.mode as Mode,
    name: row.name,
    description: row.description,
    code: row.code,
    type: row.type as DiscountRecord['type'],
    value_type: row.value_type as DiscountRecord['value_type'],
    value: row.value,
    target: row.target as DiscountRecord['target'],
    usage_limit: row.usage_limit,
    usage_count: row.usage_count,
    per_customer_limit: row.per_customer_limit,
    minimum_amount: row.minimum_amount,
    maximum_discount: row.maximum_discount,
    currency: row.currency,
    starts_at: row.starts_at,
    ends_at: row.ends_at,
    is_active: c.toBool(row.is_active),
    conditions: c.parseJson<DiscountConditionRecord[]>(row.conditions),
    metadata: c.parseJson<JsonObject>(row.metadata),
    created_at: row.created_at,
    updated_at: row.updated_at,
  };
}

function encode(record: DiscountRecord, c: DialectCapabilities): EncodedRow<'discounts'> {
  return {
    ...record,
    code_lower: record.code === null ? null : record.code.toLowerCase(),
    is_active: c.bool(record.is_active),
    conditions: c.json(record.conditions),
    metadata: c.json(record.metadata),
    deleted_at: null,
  };
}

/**
 * Discounts. Codes are unique per scope case-insensitively (a lower-cased `code_lower` column
 * carries the unique index); uses go through a capped counter with its log (`recordUsage`) and
 * its guarded undo (`releaseUsage`). The per-customer limit is core's (discounts/discount-usage.ts).
 */
export class KyselyDiscountRepository implements DiscountRepository {
  constructor(private readonly q: QueryRunner) {}

  async insert(record: DiscountRecord): Promise<void> {
    await insertRows(this.q, insert, 'discounts', [encode(record, this.q.caps)]);
  }

  async get(scope: Scope, id: string): Promise<DiscountRecord | null> {
    const row = await this.q.first(get, scoped(scope, { id }));
    return row ? decode(discountRow(row), this.q.caps) : null;
  }

  /**
   * One query for both sets pricing needs (the cart's codes and the automatic discounts), split
   * here: rows come oldest first, so `automatic` keeps the application order. Without codes, the
   * automatic discounts alone (their own ordered query).
   */
  async listForPricing(
    scope: Scope,
    codes: string[],
  ): Promise<{ automatic: DiscountRecord[]; by_code: DiscountRecord[] }> {
    if (codes.length === 0) {
      const rows = await this.q.rows(automaticOnly, scope);
      return { automatic: rows.map((row) => decode(row, this.q.caps)), by_code: [] };
    }
    const c = this.q.caps;
    const lower = new Set(codes.map((code) => code.toLowerCase()));
    const rows = (await this.q.rows(forPricing, scoped(scope, { codes: c.list([...lower]) }))).map(
      discountRow,
    );
    const automatic: DiscountRecord[] = [];
    const by_code: DiscountRecord[] = [];
    const seen = new Set<string>();
    for (const row of [...rows].sort(byCreation)) {
      if (seen.has(row.id)) continue; // found by both branches of the UNION ALL
      seen.add(row.id);
      const record = decode(row, c);
      if (record.type === 'automatic' && record.is_active) automatic.push(record);
      if (row.code_lower !== null && lower.has(row.code_lower)) by_code.push(record);
    }
    return { automatic, by_code };
  }

  list(
    scope: Scope,
    filter: { type?: 'code' | 'automatic' | undefined; is_active?: boolean | undefined },
    page: PageRequest<'created_at'>,
  ): Promise<Page<DiscountRecord>> {
    const c = this.q.caps;
    return runKeysetList(
      this.q,
      list,
      scope,
      { type: filter.type !== undefined, is_active: filter.is_active !== undefined },
      { type: filter.type, is_active: filter.is_active === undefined ? undefined : c.bool(filter.is_active) },
      page,
      (rows) => rows.map((row) => decode(row, c)),
    );
  }

  async update(
    scope: Scope,
    id: string,
    patch: Patch<
      DiscountRecord,
      | 'name'
      | 'description'
      | 'code'
      | 'value_type'
      | 'value'
      | 'target'
      | 'usage_limit'
      | 'per_customer_limit'
      | 'minimum_amount'
      | 'maximum_discount'
      | 'starts_at'
      | 'ends_at'
      | 'is_active'
      | 'conditions'
      | 'metadata'
    >,
  ): Promise<DiscountRecord | null> {
    const c = this.q.caps;
    const { shape, args } = updateArgs(
      {
        name: patch.name,
        description: patch.description,
        code: patch.code,
        code_lower: patch.code === undefined ? undefined : (patch.code?.toLowerCase() ?? null),
        value_type: patch.value_type,
        value: patch.value,
        target: patch.target,
        usage_limit: patch.usage_limit,
        per_customer_limit: patch.per_customer_limit,
        minimum_amount: patch.minimum_amount,
        maximum_discount: patch.maximum_discount,
        starts_at: patch.starts_at,
        ends_at: patch.ends_at,
        is_active: patch.is_active === undefined ? undefined : c.bool(patch.is_active),
        conditions: patch.conditions === undefined ? undefined : c.json(patch.conditions),
        metadata: patch.metadata === undefined ? undefined : c.json(patch.metadata),
        updated_at: patch.updated_at,
      },
      scoped(scope, { id }),
    );
    const row = await this.q.first(update, args, shape);
    return row ? decode(row, c) : null;
  }

  async delete(scope: Scope, id: string, at: number): Promise<boolean> {
    return (await this.q.affected(softDelete, scoped(scope, { id, at }))) > 0;
  }

  /**
   * The capped counter and the use's row: on Postgres one statement; elsewhere the guarded
   * UPDATE, then the row when it counted (the row lock taken first, as on Postgres).
   */
  async recordUsage(
    scope: Scope,
    use: { id: string; discount_id: string; order_id: string; customer_key: string; at: number },
  ): Promise<DiscountUsageCounters | null> {
    if (this.q.caps.dialect === 'postgres') {
      const counted = await this.q.first(
        countAndRecordUse,
        scoped(scope, {
          id: use.discount_id,
          use_id: use.id,
          order_id: use.order_id,
          customer_key: use.customer_key,
          at: use.at,
        }),
      );
      return counted ? countersOf(counted) : null;
    }
    const counted = await this.q.first(countUse, scoped(scope, { id: use.discount_id }));
    if (!counted) return null;
    await insertRows(this.q, insertUsage, 'discount_usages', [
      scoped(scope, {
        id: use.id,
        discount_id: use.discount_id,
        order_id: use.order_id,
        customer_key: use.customer_key,
        created_at: use.at,
      }),
    ]);
    return countersOf(counted);
  }

  /**
   * Deletes the order's use rows of the discount first (the statement that decides: a second,
   * concurrent release of the same use deletes nothing), then lowers `usage_count` by as many, in
   * the caller's transaction.
   */
  async releaseUsage(scope: Scope, use: { discount_id: string; order_id: string }): Promise<number> {
    const released = await this.q.affected(
      deleteOrderUse,
      scoped(scope, { discount_id: use.discount_id, order_id: use.order_id }),
    );
    if (released > 0) await this.q.affected(uncountUses, scoped(scope, { id: use.discount_id, n: released }));
    return released;
  }

  async countUsesByCustomer(
    scope: Scope,
    discount_ids: string[],
    customer_key: string,
  ): Promise<Record<string, number>> {
    const counts: Record<string, number> = {};
    for (const id of discount_ids) counts[id] = 0;
    if (discount_ids.length === 0) return counts;
    const rows = await this.q.rows(
      usesByCustomer,
      scoped(scope, {
        ids: this.q.caps.list(discount_ids),
        customer_key,
      }),
    );
    for (const row of rows) counts[row.discount_id] = Number(row.uses);
    return counts;
  }
}
