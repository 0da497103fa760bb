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
import { type Slots, shapedTemplate, slot, template } from '../query/template';
import { scoped } from './scoped-args';

type ScopeSlots = 'store_id' | 'mode';

/** `case when created_at < b1 then 0 when created_at < b2 then 1 … end` over `n` spans. */
function bucketOf(p: object, n: number): RawBuilder<number> {
  const whens = Array.from(
    { length: n },
    (_, i) => sql`when created_at < ${slot(p, `b${i + 1}`)} then ${sql.lit(i)}`,
  );
  return sql<number>`case ${sql.join(whens, sql` `)} end`;
}

/**
 * Sums of completed payments (and payments since refunded) per span, exchange credit excluded;
 * served by `payments_created_idx (store_id, mode, created_at)`. One statement per span count.
 */
const paymentSums = shapedTemplate(
  (n: number) => String(n),
  ({ db }, p: Slots<ScopeSlots | 'currency' | 'from' | 'to'>, n: number) =>
    db
      .selectFrom('payments')
      .select([bucketOf(p, n).as('bucket'), sql<number | string>`sum(amount)`.as('total')])
      .where('store_id', '=', p.store_id)
      .where('mode', '=', p.mode)
      .where('created_at', '>=', p.from)
      .where('created_at', '<', p.to)
      .where('currency', '=', p.currency)
      .where(sql<SqlBool>`status in ('completed', 'refunded')`)
      .where('provider', '<>', 'exchange_credit')
      .groupBy(sql`1`),
);

/** Sums of completed refunds per span; served by `refunds_created_idx`. */
const refundSums = shapedTemplate(
  (n: number) => String(n),
  ({ db }, p: Slots<ScopeSlots | 'currency' | 'from' | 'to'>, n: number) =>
    db
      .selectFrom('refunds')
      .select([bucketOf(p, n).as('bucket'), sql<number | string>`sum(amount)`.as('total')])
      .where('store_id', '=', p.store_id)
      .where('mode', '=', p.mode)
      .where('created_at', '>=', p.from)
      .where('created_at', '<', p.to)
      .where('currency', '=', p.currency)
      .where('status', '=', 'completed')
      .groupBy(sql`1`),
);

const countCreated = template(({ db, caps }, p: Slots<ScopeSlots | 'statuses' | 'from' | 'to'>) =>
  db
    .selectFrom('orders')
    .select(sql<number | string>`count(*)`.as('n'))
    .where('store_id', '=', p.store_id)
    .where('mode', '=', p.mode)
    .where('created_at', '>=', p.from)
    .where('created_at', '<', p.to)
    .where(caps.inList(sql.ref('status'), p.statuses)),
);

/** Served by `orders_status_idx (store_id, mode, status, …)`, one range per status. */
const countWithStatus = template(({ db, caps }, p: Slots<ScopeSlots | 'statuses'>) =>
  db
    .selectFrom('orders')
    .select(sql<number | string>`count(*)`.as('n'))
    .where('store_id', '=', p.store_id)
    .where('mode', '=', p.mode)
    .where(caps.inList(sql.ref('status'), p.statuses)),
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
    const args: Record<string, unknown> = scoped(scope, {
      currency,
      from: bounds[0],
      to: bounds[n],
    } as Record<string, unknown>);
    for (let i = 1; i <= n; i++) args[`b${i}`] = bounds[i];
    const [paid, refunded] = await Promise.all([
      this.q.rows(paymentSums, args as never, n),
      this.q.rows(refundSums, args as never, n),
    ]);
    const sums = new Array<number>(n).fill(0);
    for (const row of paid) sums[Number(row.bucket)] = (sums[Number(row.bucket)] ?? 0) + Number(row.total);
    for (const row of refunded)
      sums[Number(row.bucket)] = (sums[Number(row.bucket)] ?? 0) - Number(row.total);
    return sums;
  }

  countOrdersCreated(
    scope: Scope,
    statuses: readonly OrderRecord['status'][],
    windows: readonly TimeWindow[],
  ): Promise<number[]> {
    const list = this.q.caps.list(statuses);
    return Promise.all(
      windows.map(async (w) => {
        const row = await this.q.first(
          countCreated,
          scoped(scope, { statuses: list, from: w.from, to: w.to }),
        );
        return Number(row?.n ?? 0);
      }),
    );
  }

  async countOrdersWithStatus(scope: Scope, statuses: readonly OrderRecord['status'][]): Promise<number> {
    const row = await this.q.first(countWithStatus, scoped(scope, { statuses: this.q.caps.list(statuses) }));
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
