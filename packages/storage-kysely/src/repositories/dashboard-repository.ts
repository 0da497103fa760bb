import type { Scope } from '@cartwright/core';
import type {
  DashboardRepository,
  LowStockRow,
  Millis,
  OrderRecord,
  TimeWindow,
} from '@cartwright/core/storage';
import { type RawBuilder, type SqlBool, sql } from 'kysely';
import type { QueryRunner } from '../query/query-runner';
import { type Slots, shapedTemplate, template } from '../query/template';
import { scoped } from './scoped-args';

type ScopeSlots = 'store_id' | 'mode';

/**
 * The span units revenue is summed in: the largest that every bound of a request is a multiple of
 * (local midnights of whole-hour zones are whole UTC hours; of every zone in use today, whole
 * quarter hours), so each unit lies within one day and the sums group by plain integer division —
 * a few hundred to a few thousand groups, never a comparison per row and span.
 */
const UNITS = [3_600_000, 1_800_000, 900_000, 60_000, 1] as const;

function unitOf(bounds: readonly Millis[]): number {
  return UNITS.find((unit) => bounds.every((b) => b % unit === 0)) ?? 1;
}

/** `created_at` divided by `unit`, as an integer, in each dialect. */
function unitIndex(dialect: string, unit: number): RawBuilder<number> {
  return dialect === 'mysql'
    ? sql<number>`created_at div ${sql.lit(unit)}`
    : sql<number>`created_at / ${sql.lit(unit)}`;
}

/**
 * MariaDB prefers the primary key's `(store_id, mode)` prefix to the range of the `created_at`
 * index (every payment of the store, 2 s on a million): the index is named there.
 */
function indexHint(dialect: string, index: string): RawBuilder<unknown> {
  return dialect === 'mysql' ? sql` force index (${sql.raw(index)})` : sql``;
}

/**
 * Sums of completed payments (and payments since refunded) per unit of time, exchange credit
 * excluded; served by `payments_created_idx (store_id, mode, created_at)`.
 */
const paymentSums = shapedTemplate(
  (unit: number) => String(unit),
  ({ db, caps }, p: Slots<ScopeSlots | 'currency' | 'from' | 'to'>, unit: number) => {
    const statement = sql<{
      bucket: number | string;
      total: number | string;
    }>`select ${unitIndex(caps.dialect, unit)} as bucket, sum(amount) as total
      from payments${indexHint(caps.dialect, 'payments_created_idx')}
      where store_id = ${p.store_id} and mode = ${p.mode} and created_at >= ${p.from} and created_at < ${p.to}
        and currency = ${p.currency} and status in ('completed', 'refunded') and provider <> 'exchange_credit'
      group by 1`;
    return { compile: () => statement.compile(db) };
  },
);

/** Sums of completed refunds per unit of time; served by `refunds_created_idx`. */
const refundSums = shapedTemplate(
  (unit: number) => String(unit),
  ({ db, caps }, p: Slots<ScopeSlots | 'currency' | 'from' | 'to'>, unit: number) => {
    const statement = sql<{
      bucket: number | string;
      total: number | string;
    }>`select ${unitIndex(caps.dialect, unit)} as bucket, sum(amount) as total
      from refunds${indexHint(caps.dialect, 'refunds_created_idx')}
      where store_id = ${p.store_id} and mode = ${p.mode} and created_at >= ${p.from} and created_at < ${p.to}
        and currency = ${p.currency} and status = 'completed'
      group by 1`;
    return { compile: () => statement.compile(db) };
  },
);

/** The quarter hour of `revenue_buckets` (0032): every local midnight in use is a multiple of it. */
const BUCKET = 900_000;

/**
 * Net revenue per quarter hour from the pre-aggregate `revenue_buckets` (kept by triggers on
 * payments and refunds, migration 0032): at most 96 rows a day along its primary key, whatever
 * the number of payments.
 */
const bucketSums = template(({ db }, p: Slots<ScopeSlots | 'currency' | 'from' | 'to'>) =>
  db
    .selectFrom('revenue_buckets')
    .select(['bucket', 'amount as total'])
    .where('store_id', '=', p.store_id)
    .where('mode', '=', p.mode)
    .where('currency', '=', p.currency)
    .where('bucket', '>=', p.from)
    .where('bucket', '<', p.to),
);

/** The span of `bounds` (ascending) instant `at` falls in. */
function spanOf(bounds: readonly Millis[], at: Millis): number {
  let lo = 0;
  let hi = bounds.length - 1;
  while (hi - lo > 1) {
    const mid = (lo + hi) >> 1;
    if ((bounds[mid] as Millis) <= at) lo = mid;
    else hi = mid;
  }
  return lo;
}

/**
 * `status in ('pending', …)` with the statuses written into the statement (they are core's
 * constants, never input): a range per status of `orders_status_idx` on every engine, where a
 * list parameter (`json_table`, `= any($1)`) made MariaDB and PostgreSQL scan every order.
 */
function statusIn(statuses: readonly string[]): RawBuilder<SqlBool> {
  return sql<SqlBool>`status in (${sql.join(statuses.map((status) => sql.lit(status)))})`;
}

const statusKey = (statuses: readonly string[]) => statuses.join(',');

const countCreated = shapedTemplate(
  statusKey,
  ({ db }, p: Slots<ScopeSlots | 'from' | 'to'>, statuses: readonly string[]) =>
    db
      .selectFrom('orders')
      .select(sql<number | string>`count(*)`.as('n'))
      .where('store_id', '=', p.store_id)
      .where('mode', '=', p.mode)
      .where('created_at', '>=', p.from)
      .where('created_at', '<', p.to)
      .where(statusIn(statuses)),
);

/** Served by `orders_status_idx (store_id, mode, status, …)`, one range per status. */
const countWithStatus = shapedTemplate(
  statusKey,
  ({ db }, p: Slots<ScopeSlots>, statuses: readonly string[]) =>
    db
      .selectFrom('orders')
      .select(sql<number | string>`count(*)`.as('n'))
      .where('store_id', '=', p.store_id)
      .where('mode', '=', p.mode)
      .where(statusIn(statuses)),
);

/** Newest first along `orders_created_idx`, drafts skipped. */
const recent = template(({ db }, p: Slots<ScopeSlots | 'limit'>) =>
  db
    .selectFrom('orders')
    .select(['id', 'number', 'email', 'total', 'currency', 'status', 'created_at'])
    .where('store_id', '=', p.store_id)
    .where('mode', '=', p.mode)
    .where('status', '<>', 'draft')
    .orderBy('created_at', 'desc')
    .orderBy('id', 'desc')
    .limit(p.limit),
);

/**
 * Tracked stock at or below its safety stock (the predicate of the partial index
 * `inventory_items_low_stock_idx`), of live variants, lowest available first.
 */
const lowStock = template(({ db }, p: Slots<ScopeSlots | 'limit'>) =>
  db
    .selectFrom('inventory_items as i')
    .innerJoin('product_variants as v', (join) =>
      join
        .onRef('v.store_id', '=', 'i.store_id')
        .onRef('v.mode', '=', 'i.mode')
        .onRef('v.id', '=', 'i.variant_id'),
    )
    .innerJoin('products as pr', (join) =>
      join
        .onRef('pr.store_id', '=', 'v.store_id')
        .onRef('pr.mode', '=', 'v.mode')
        .onRef('pr.id', '=', 'v.product_id'),
    )
    .select([
      'i.variant_id as variant_id',
      'v.sku as sku',
      'pr.name as product_name',
      sql<number | string>`i.on_hand - i.reserved`.as('available'),
      'i.safety_stock as safety_stock',
    ])
    .where('i.store_id', '=', p.store_id)
    .where('i.mode', '=', p.mode)
    .where(sql<SqlBool>`i.on_hand <= i.safety_stock + i.reserved`)
    .where(sql<SqlBool>`i.track_inventory = true`)
    .where('v.deleted_at', 'is', null)
    .where('pr.deleted_at', 'is', null)
    .orderBy(sql`i.on_hand - i.reserved`)
    .orderBy('i.variant_id')
    .limit(p.limit),
);

/** The dashboard's sums (decisions §23): indexed aggregates, a few statements per request. */
export class KyselyDashboardRepository implements DashboardRepository {
  constructor(private readonly q: QueryRunner) {}

  async revenueBetween(scope: Scope, currency: string, bounds: readonly Millis[]): Promise<number[]> {
    const n = bounds.length - 1;
    if (n <= 0) return [];
    const unit = unitOf(bounds);
    const sums = new Array<number>(n).fill(0);
    if (unit % BUCKET === 0) {
      const from = (bounds[0] as Millis) / BUCKET;
      const to = (bounds[n] as Millis) / BUCKET;
      const rows = await this.q.rows(
        bucketSums,
        scoped(scope, { currency, from, to } as Record<string, unknown>) as never,
      );
      for (const row of rows as { bucket: number | string; total: number | string }[]) {
        const span = spanOf(bounds, Number(row.bucket) * BUCKET);
        sums[span] = (sums[span] ?? 0) + Number(row.total);
      }
      return sums;
    }
    const args = scoped(scope, { currency, from: bounds[0], to: bounds[n] } as Record<string, unknown>);
    const [paid, refunded] = await Promise.all([
      this.q.rows(paymentSums, args as never, unit),
      this.q.rows(refundSums, args as never, unit),
    ]);
    const add = (row: { bucket: number | string; total: number | string }, sign: 1 | -1) => {
      const span = spanOf(bounds, Number(row.bucket) * unit);
      sums[span] = (sums[span] ?? 0) + sign * Number(row.total);
    };
    for (const row of paid) add(row, 1);
    for (const row of refunded) add(row, -1);
    return sums;
  }

  countOrdersCreated(
    scope: Scope,
    statuses: readonly OrderRecord['status'][],
    windows: readonly TimeWindow[],
  ): Promise<number[]> {
    return Promise.all(
      windows.map(async (w) => {
        const row = await this.q.first(countCreated, scoped(scope, { from: w.from, to: w.to }), statuses);
        return Number(row?.n ?? 0);
      }),
    );
  }

  async countOrdersWithStatus(scope: Scope, statuses: readonly OrderRecord['status'][]): Promise<number> {
    const row = await this.q.first(countWithStatus, scoped(scope, {}), statuses);
    return Number(row?.n ?? 0);
  }

  async recentOrders(scope: Scope, limit: number) {
    const rows = await this.q.rows(recent, scoped(scope, { limit }));
    return rows.map((row) => ({
      id: row.id,
      number: Number(row.number),
      email: row.email,
      total: Number(row.total),
      currency: row.currency,
      status: row.status as OrderRecord['status'],
      created_at: Number(row.created_at),
    }));
  }

  async lowStock(scope: Scope, limit: number): Promise<LowStockRow[]> {
    const rows = await this.q.rows(lowStock, scoped(scope, { limit }));
    return rows.map((row) => ({
      variant_id: row.variant_id,
      sku: row.sku,
      product_name: row.product_name,
      available: Number(row.available),
      safety_stock: Number(row.safety_stock),
    }));
  }
}
