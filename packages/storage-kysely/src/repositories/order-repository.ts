import type { Scope } from '@cartwright/core';
import type {
  CreatedPosition,
  EventRecord,
  FulfillmentRecord,
  FulfillmentTrackingEventRecord,
  NumberedOutbox,
  OrderAggregate,
  OrderLineRecord,
  OrderListFilter,
  OrderRecord,
  OrderRepository,
  OrderSums,
  Page,
  PageRequest,
  Patch,
  PaymentRecord,
  RefundRecord,
} from '@cartwright/core/storage';
import { type Kysely, type RawBuilder, type Selectable, type SqlBool, sql } from 'kysely';
import type { DialectCapabilities } from '../dialects/dialect-capabilities';
import { insertRows, insertTemplate } from '../query/insert-template';
import { keysetList, runKeysetList } from '../query/keyset-list';
import type { QueryRunner } from '../query/query-runner';
import { type Slots, shapedTemplate, slot, type Template, template } from '../query/template';
import { updateArgs, updateTemplate } from '../query/update-template';
import type { Database, OrdersTable } from '../schema/database';
import { TABLE_COLUMNS } from '../schema/table-columns';
import { containsPattern } from './catalog-codecs';
import { insertTree, insertTreeTemplate, TREE_MAX_ROWS, treeArgs, treeRows } from './insert-tree';
import {
  decodeFulfillment,
  decodeLine,
  decodeOrder,
  decodePayment,
  decodeRefund,
  decodeTrackingEvent,
  encodeFulfillment,
  encodeLine,
  encodeOrder,
  encodePayment,
  encodeRefund,
} from './order-codecs';
import { scoped } from './scoped-args';
import { encodeEvent } from './webhook-codecs';

type ScopeSlots = 'store_id' | 'mode';

/** Order numbers start at 1001 (docs/contract.md#order-numbers): the counter row is created at 1000. */
const FIRST_NUMBER = 1001;

const insertOrderRow = insertTemplate('orders');
const insertLineRow = insertTemplate('order_lines');
const insertPaymentRow = insertTemplate('payments');
const insertFulfillmentRow = insertTemplate('fulfillments');
const insertRefundRow = insertTemplate('refunds');
const insertTrackingEventRow = insertTemplate('fulfillment_tracking_events');
const insertCounter = insertTemplate('order_counters', { onConflictDoNothing: true });
const ORDER_TREE = ['orders', 'order_lines', 'payments'] as const;
const insertOrderTree = insertTreeTemplate(ORDER_TREE);

/** `last_number + 1 … RETURNING` under the counter row's lock: unique and gap-free. */
const incrementCounter = template(({ db }, p: Slots<ScopeSlots>) =>
  db
    .updateTable('order_counters')
    .set((eb) => ({ last_number: eb('last_number', '+', 1) }))
    .where('store_id', '=', p.store_id)
    .where('mode', '=', p.mode)
    .returning('last_number'),
);

const EVENT_COLUMNS = TABLE_COLUMNS.events as readonly string[];

/**
 * The `data` of an outbox row with the order's number: `replace(<data>::text,
 * '"number":<placeholder>', '"number":' || <number>)::jsonb`.
 */
const numberedData = (p: object, r: number, number: RawBuilder<unknown>) =>
  sql`replace(${slot(p, `e${r}_data`)}::text, ${slot(p, 'n_from')}, ${slot(p, 'n_to')} || ${number})::jsonb`;

const numberedEventRows = (p: object, count: number, number: RawBuilder<unknown>) =>
  Array.from({ length: count }, (_, r) =>
    Object.fromEntries(
      EVENT_COLUMNS.map((column) => [
        column,
        column === 'data' ? numberedData(p, r, number) : slot(p, `e${r}_${column}`),
      ]),
    ),
  );

/**
 * PostgreSQL: the next number, a new order and the transaction's outbox in ONE statement —
 * `WITH n AS (INSERT INTO order_counters … ON CONFLICT DO UPDATE SET last_number = last_number + 1
 * RETURNING last_number), t0 AS (INSERT INTO orders (…, number, …) VALUES (…, (SELECT last_number
 * FROM n), …)), t1 AS (lines), t2 AS (payments), e AS (INSERT INTO events … (data with the number))
 * SELECT last_number FROM n`. The counter row is created on first use (at 1001) by the same
 * upsert. One compiled statement per shape (row counts of the three tables, events).
 */
const insertNumberedTree = shapedTemplate(
  (counts: readonly number[]) => counts.join(':'),
  ({ db }, p: object, counts: readonly number[]) => {
    // Kysely types each CTE by its table; the statement only needs to compile (as insertTreeTemplate).
    let creator = (db as unknown as Kysely<Database>).with('n', (qc) =>
      qc
        .insertInto('order_counters')
        .values({ store_id: slot(p, 'n_store_id'), mode: slot(p, 'n_mode'), last_number: FIRST_NUMBER })
        .onConflict((oc) =>
          oc.columns(['store_id', 'mode']).doUpdateSet({ last_number: sql`order_counters.last_number + 1` }),
        )
        .returning('last_number'),
    ) as unknown as Kysely<Database>;
    const number = sql`(select last_number from n)`;
    ORDER_TREE.forEach((table, t) => {
      const count = counts[t] ?? 0;
      if (count === 0) return;
      let rows = treeRows(p, table, t, count);
      if (table === 'orders') rows = rows.map((row) => ({ ...row, number }));
      creator = creator.with(`t${t}`, (cte) =>
        cte.insertInto(table).values(rows as never),
      ) as unknown as Kysely<Database>;
    });
    const events = counts[ORDER_TREE.length] ?? 0;
    if (events > 0) {
      creator = creator.with('e', (cte) =>
        cte.insertInto('events').values(numberedEventRows(p, events, number) as never),
      ) as unknown as Kysely<Database>;
    }
    return (creator as unknown as Kysely<{ n: { last_number: string } }>)
      .selectFrom('n')
      .select('last_number');
  },
);

/** PostgreSQL: outbox rows beyond a numbered tree's share, with the number the counter holds now. */
const insertNumberedEvents = shapedTemplate(
  (count: number) => String(count),
  ({ db }, p: object, count: number) => {
    const number = sql`(select last_number from order_counters where store_id = ${slot(p, 'n_store_id')} and mode = ${slot(p, 'n_mode')})`;
    return db.insertInto('events').values(numberedEventRows(p, count, number) as never);
  },
);

/** The arguments of outbox rows `events` (as `e<row>_<column>`) and of the number's text. */
function numberedEventArgs(
  args: Record<string, unknown>,
  events: readonly EventRecord[],
  outbox: NumberedOutbox,
  c: DialectCapabilities,
): Record<string, unknown> {
  args.n_from = `"number":${outbox.placeholder}`;
  args.n_to = '"number":';
  events.forEach((event, r) => {
    const row = encodeEvent(event, c) as Record<string, unknown>;
    for (const column of EVENT_COLUMNS) args[`e${r}_${column}`] = row[column] ?? null;
  });
  return args;
}

const orderBy = (column: 'id' | 'number', forUpdate: boolean) =>
  template(({ db, caps }, p: Slots<ScopeSlots | 'key'>) => {
    const query = db
      .selectFrom('orders')
      .selectAll()
      .where('store_id', '=', p.store_id)
      .where('mode', '=', p.mode)
      .where(column, '=', p.key);
    return forUpdate && caps.forUpdate ? query.forUpdate() : query;
  });
const orderById = orderBy('id', false);
const orderByIdForUpdate = orderBy('id', true);
const orderByNumber = orderBy('number', false);
const orderByNumberForUpdate = orderBy('number', true);

const childrenOf = <T extends 'order_lines' | 'payments' | 'fulfillments' | 'refunds'>(
  table: T,
): Template<ScopeSlots | 'ids', Selectable<Database[T]>, undefined> =>
  template(({ db, caps }, p: Slots<ScopeSlots | 'ids'>) =>
    db
      .selectFrom(table as 'payments')
      .selectAll()
      .where('store_id', '=', p.store_id)
      .where('mode', '=', p.mode)
      .where(caps.inList(sql.ref('order_id'), p.ids))
      .orderBy('order_id')
      .orderBy(sql.ref(table === 'order_lines' ? 'position' : 'created_at'))
      .orderBy('id'),
  ) as unknown as Template<ScopeSlots | 'ids', Selectable<Database[T]>, undefined>;
const linesOf = childrenOf('order_lines');
const paymentsOf = childrenOf('payments');
const fulfillmentsOf = childrenOf('fulfillments');
const refundsOf = childrenOf('refunds');

const updateOrder = updateTemplate<'orders', 'expect_status'>('orders', {
  guard: (p) => sql<SqlBool>`status = ${p.expect_status}`,
});
const updateLine = updateTemplate<'order_lines', 'order_id'>('order_lines', {
  guard: (p) => sql<SqlBool>`order_id = ${p.order_id}`,
});

/**
 * Payments by id (the key: at most one row) or by idempotency key (normally one row; the newest
 * is picked in JS). No ORDER BY … LIMIT: on SQLite its sorter costs ~30 µs per call even when
 * nothing matches, and the idempotency-key probe runs on every checkout.
 */
const paymentBy = (column: 'id' | 'idempotency_key') =>
  template(({ db }, p: Slots<ScopeSlots | 'key'>) =>
    db
      .selectFrom('payments')
      .selectAll()
      .where('store_id', '=', p.store_id)
      .where('mode', '=', p.mode)
      .where(column, '=', p.key),
  );
const paymentById = paymentBy('id');
const paymentByIdempotencyKey = paymentBy('idempotency_key');

/** The newest row (created_at, then id) — what `order by created_at desc, id desc limit 1` gave. */
function newest<R extends { created_at: number | string; id: string }>(rows: readonly R[]): R | undefined {
  let best: R | undefined;
  for (const row of rows) {
    if (
      best === undefined ||
      Number(row.created_at) > Number(best.created_at) ||
      (Number(row.created_at) === Number(best.created_at) && row.id > best.id)
    ) {
      best = row;
    }
  }
  return best;
}
const updatePaymentRow = updateTemplate<'payments', 'expect_status'>('payments', {
  guard: (p) => sql<SqlBool>`status = ${p.expect_status}`,
});
/**
 * Rows of `table` in a status created before a time, across scopes, oldest first: what
 * reconciliation works through (payments: `payments_status_idx`; refunds in flight:
 * `refunds_pending_idx`).
 */
type ByStatusSlots = 'status' | 'before' | 'limit' | 'after_created_at' | 'after_id';

/**
 * Rows of `table` in a status, created before a cutoff, across scopes, by `(created_at, id)`
 * after a position (keyset; the first page starts after {@link START}).
 */
function byStatusAcrossScopes<T extends 'payments' | 'refunds'>(
  table: T,
): Template<ByStatusSlots, Selectable<Database[T]>> {
  // Built over the union of both tables; each instance reads one, so its rows are that table's.
  return template(({ db }, p: Slots<ByStatusSlots>) =>
    db
      .selectFrom(table as 'payments' | 'refunds')
      .selectAll()
      .where('status', '=', p.status)
      .where('created_at', '<', p.before)
      .where(
        sql<SqlBool>`(created_at > ${p.after_created_at} or (created_at = ${p.after_created_at} and id > ${p.after_id}))`,
      )
      .orderBy('created_at')
      .orderBy('id')
      .limit(p.limit),
  ) as unknown as Template<ByStatusSlots, Selectable<Database[T]>>;
}

/** Before every row: no timestamp is below it, no id below ''. */
const START: CreatedPosition = { created_at: Number.MIN_SAFE_INTEGER, id: '' };

function byStatusArgs(status: string, before: number, limit: number, after: CreatedPosition = START) {
  return { status, before, limit, after_created_at: after.created_at, after_id: after.id };
}
const paymentsByStatus = byStatusAcrossScopes('payments');

const fulfillmentById = template(({ db }, p: Slots<ScopeSlots | 'id'>) =>
  db
    .selectFrom('fulfillments')
    .selectAll()
    .where('store_id', '=', p.store_id)
    .where('mode', '=', p.mode)
    .where('id', '=', p.id),
);
const updateFulfillmentRow = updateTemplate<'fulfillments', 'expect_status'>('fulfillments', {
  guard: (p) => sql<SqlBool>`status = ${p.expect_status}`,
});
/** A fulfillment's carrier tracking events in insertion order (the primary key's prefix). */
const trackingEventsOf = template(({ db }, p: Slots<ScopeSlots | 'fulfillment_id'>) =>
  db
    .selectFrom('fulfillment_tracking_events')
    .selectAll()
    .where('store_id', '=', p.store_id)
    .where('mode', '=', p.mode)
    .where('fulfillment_id', '=', p.fulfillment_id)
    .orderBy('sequence'),
);
const updateRefundRow = updateTemplate('refunds');
const refundsByStatus = byStatusAcrossScopes('refunds');

/** The orders of some customers summed per customer and status (`sumByCustomer`). */
const sumsByCustomer = template(({ db, caps }, p: Slots<ScopeSlots | 'ids' | 'currency'>) =>
  db
    .selectFrom('orders')
    .select([
      'customer_id',
      'status',
      sql<number | string>`count(*)`.as('count'),
      // `currency`: only the orders in it are summed (null: all of them, `coalesce` keeps the
      // column's own value); `count` counts every order.
      sql<
        number | string
      >`sum(case when currency = coalesce(${p.currency}, currency) then paid_total else 0 end)`.as(
        'paid_total',
      ),
      sql<
        number | string
      >`sum(case when currency = coalesce(${p.currency}, currency) then refunded_total else 0 end)`.as(
        'refunded_total',
      ),
    ])
    .where('store_id', '=', p.store_id)
    .where('mode', '=', p.mode)
    .where(caps.inList(sql.ref('customer_id'), p.ids))
    .groupBy(['customer_id', 'status']),
);

interface OrderFilterShape {
  status: boolean;
  payment_status: boolean;
  fulfillment_status: boolean;
  customer_id: boolean;
  email: boolean;
  q: boolean;
  q_number: boolean;
  created_after: boolean;
  created_before: boolean;
  exclude_drafts: boolean;
  currency: boolean;
  region_id: boolean;
}

const list = keysetList({
  table: 'orders',
  sorts: { created_at: ['created_at'], number: ['number'], total: ['total'] },
  filterKey: (f: OrderFilterShape) =>
    Object.values(f)
      .map((flag) => (flag ? 1 : 0))
      .join(''),
  base: ({ db }, p: Slots<ScopeSlots | Exclude<keyof OrderFilterShape, 'exclude_drafts'>>, f) => {
    let query = db.selectFrom('orders').where('store_id', '=', p.store_id).where('mode', '=', p.mode);
    if (f.status) query = query.where('status', '=', p.status);
    if (f.payment_status) query = query.where('payment_status', '=', p.payment_status);
    if (f.fulfillment_status) query = query.where('fulfillment_status', '=', p.fulfillment_status);
    if (f.customer_id) query = query.where('customer_id', '=', p.customer_id);
    if (f.email) query = query.where('email_lower', '=', p.email);
    if (f.q && f.q_number) {
      query = query.where((eb) =>
        eb.or([eb('number', '=', p.q_number), sql<SqlBool>`email_lower like ${p.q} escape '\\'`]),
      );
    } else if (f.q) {
      query = query.where(sql<SqlBool>`email_lower like ${p.q} escape '\\'`);
    }
    if (f.created_after) query = query.where('created_at', '>=', p.created_after);
    if (f.created_before) query = query.where('created_at', '<=', p.created_before);
    if (f.exclude_drafts) query = query.where('status', '!=', 'draft');
    if (f.currency) query = query.where('currency', '=', p.currency);
    if (f.region_id) query = query.where('region_id', '=', p.region_id);
    return query;
  },
});

/**
 * Orders with lines, payments, fulfillments and refunds (five queries for any number of
 * orders), the per-scope number counter, and status compare-and-set updates.
 */
export class KyselyOrderRepository implements OrderRepository {
  /** PostgreSQL only (the port's optional member): see {@link numberedInsert}. */
  readonly insertNumbered?: (order: OrderAggregate, outbox: NumberedOutbox) => Promise<number>;

  constructor(private readonly q: QueryRunner) {
    if (q.caps.dialect === 'postgres')
      this.insertNumbered = (order, outbox) => this.numberedInsert(order, outbox);
  }

  /**
   * PostgreSQL: the number and the order (with its lines and payments) in one statement
   * ({@link insertNumberedTree}); lines beyond a tree's share follow in statements of their own,
   * started at the same call. The counter row's lock is taken by that statement and held to
   * COMMIT, which the caller sends in the same round trip.
   */
  private numberedInsert(order: OrderAggregate, outbox: NumberedOutbox): Promise<number> {
    const c = this.q.caps;
    if (order.fulfillments.length > 0 || order.refunds.length > 0 || order.payments.length > TREE_MAX_ROWS) {
      return Promise.reject(new Error('insertNumbered takes a new order: no fulfillments or refunds'));
    }
    const scope = { n_store_id: order.store_id, n_mode: order.mode };
    const lines = order.lines.map((line) => encodeLine(order, line, c));
    const inTree = lines.length <= TREE_MAX_ROWS ? lines : [];
    const rows = [
      [encodeOrder(order, c)],
      inTree,
      order.payments.map((payment) => encodePayment(payment, c)),
    ];
    const events = outbox.events.slice(0, TREE_MAX_ROWS);
    const args = numberedEventArgs(Object.assign(treeArgs(ORDER_TREE, rows), scope), events, outbox, c);
    const sent: Array<Promise<unknown>> = [
      this.q.rows(insertNumberedTree, args, [...rows.map((list) => list.length), events.length]),
    ];
    // Beyond a statement's share (≤ 100 rows per table), in statements of their own sent behind it.
    if (inTree !== lines) sent.push(insertRows(this.q, insertLineRow, 'order_lines', lines));
    for (let start = TREE_MAX_ROWS; start < outbox.events.length; start += TREE_MAX_ROWS) {
      const chunk = outbox.events.slice(start, start + TREE_MAX_ROWS);
      sent.push(
        this.q.affected(
          insertNumberedEvents,
          numberedEventArgs({ ...scope }, chunk, outbox, c),
          chunk.length,
        ),
      );
    }
    return Promise.all(sent).then(([result]) => {
      const row = (result as Array<{ last_number: string | number }>)[0];
      if (!row) throw new Error('order counter gave no number');
      return Number(row.last_number);
    });
  }

  /**
   * The counter row is created on first use (INSERT … ON CONFLICT DO NOTHING, so concurrent
   * first allocations agree); the increment holds its row lock until the transaction ends, so
   * allocations are serialised and a rollback gives the number back.
   */
  async nextNumber(scope: Scope): Promise<number> {
    let row = await this.q.first(incrementCounter, scope);
    if (!row) {
      await insertRows(this.q, insertCounter, 'order_counters', [
        scoped(scope, { last_number: FIRST_NUMBER - 1 }),
      ]);
      row = await this.q.first(incrementCounter, scope);
    }
    if (!row) throw new Error('order counter row is missing');
    return Number(row.last_number);
  }

  /**
   * SQLite: one INSERT per table with rows. Postgres: a new order with its lines and payments
   * (checkout, admin orders) in ONE statement ({@link insertTree}); orders that already carry
   * fulfillments or refunds, or more rows than a tree takes, go table by table.
   */
  async insert(order: OrderAggregate): Promise<void> {
    const c = this.q.caps;
    if (
      c.dialect === 'postgres' &&
      order.fulfillments.length === 0 &&
      order.refunds.length === 0 &&
      order.lines.length <= TREE_MAX_ROWS &&
      order.payments.length <= TREE_MAX_ROWS
    ) {
      await insertTree(this.q, insertOrderTree, ORDER_TREE, [
        [encodeOrder(order, c)],
        order.lines.map((line) => encodeLine(order, line, c)),
        order.payments.map((payment) => encodePayment(payment, c)),
      ]);
      return;
    }
    // Every statement started at once, in this order (the order row before the rows that
    // reference it): see insertRows.
    await Promise.all([
      insertRows(this.q, insertOrderRow, 'orders', [encodeOrder(order, c)]),
      insertRows(
        this.q,
        insertLineRow,
        'order_lines',
        order.lines.map((line) => encodeLine(order, line, c)),
      ),
      insertRows(
        this.q,
        insertPaymentRow,
        'payments',
        order.payments.map((payment) => encodePayment(payment, c)),
      ),
      insertRows(
        this.q,
        insertFulfillmentRow,
        'fulfillments',
        order.fulfillments.map((fulfillment) => encodeFulfillment(fulfillment, c)),
      ),
      insertRows(
        this.q,
        insertRefundRow,
        'refunds',
        order.refunds.map((refund) => encodeRefund(refund, c)),
      ),
    ]);
  }

  async get(
    scope: Scope,
    key: string | { number: number },
    options?: { forUpdate?: boolean },
  ): Promise<OrderAggregate | null> {
    const row =
      typeof key === 'string'
        ? await this.q.first(options?.forUpdate ? orderByIdForUpdate : orderById, scoped(scope, { key }))
        : await this.q.first(
            options?.forUpdate ? orderByNumberForUpdate : orderByNumber,
            scoped(scope, { key: key.number }),
          );
    return row ? ((await this.#load(scope, [row]))[0] ?? null) : null;
  }

  list(
    scope: Scope,
    filter: OrderListFilter,
    page: PageRequest<'created_at' | 'number' | 'total'>,
  ): Promise<Page<OrderAggregate>> {
    const q = filter.q === undefined || filter.q === '' ? undefined : filter.q;
    const qNumber = q !== undefined && /^\d{1,15}$/.test(q.trim()) ? Number(q.trim()) : undefined;
    const shape: OrderFilterShape = {
      status: filter.status !== undefined,
      payment_status: filter.payment_status !== undefined,
      fulfillment_status: filter.fulfillment_status !== undefined,
      customer_id: filter.customer_id !== undefined,
      email: filter.email !== undefined,
      q: q !== undefined,
      q_number: qNumber !== undefined,
      created_after: filter.created_after !== undefined,
      created_before: filter.created_before !== undefined,
      exclude_drafts: filter.exclude_drafts === true,
      currency: filter.currency !== undefined,
      region_id: filter.region_id !== undefined,
    };
    const args = {
      status: filter.status,
      payment_status: filter.payment_status,
      fulfillment_status: filter.fulfillment_status,
      customer_id: filter.customer_id,
      email: filter.email?.toLowerCase(),
      q: q === undefined ? undefined : containsPattern(q),
      q_number: qNumber,
      created_after: filter.created_after,
      created_before: filter.created_before,
      currency: filter.currency,
      region_id: filter.region_id,
    };
    return runKeysetList(this.q, list, scope, shape, args, page, (rows) => this.#load(scope, rows));
  }

  async sumByCustomer(
    scope: Scope,
    customer_ids: string[],
    options?: { spent_currency?: string | undefined },
  ): Promise<OrderSums[]> {
    if (customer_ids.length === 0) return [];
    const rows = await this.q.rows(
      sumsByCustomer,
      scoped(scope, { ids: this.q.caps.list(customer_ids), currency: options?.spent_currency ?? null }),
    );
    return rows.flatMap((row) =>
      row.customer_id === null
        ? []
        : [
            {
              customer_id: row.customer_id,
              status: row.status as OrderRecord['status'],
              count: Number(row.count),
              paid_total: Number(row.paid_total),
              refunded_total: Number(row.refunded_total),
            },
          ],
    );
  }

  async update(
    scope: Scope,
    id: string,
    patch: Patch<
      OrderRecord,
      | 'status'
      | 'payment_status'
      | 'fulfillment_status'
      | 'email'
      | 'customer_id'
      | 'shipping_address'
      | 'billing_address'
      | 'note'
      | 'metadata'
      | 'paid_total'
      | 'refunded_total'
      | 'inventory_reserved'
      | 'cancel_reason'
      | 'cancelled_at'
      | 'completed_at'
      | 'confirmed_at'
    >,
    options?: { expect_status?: OrderRecord['status'] },
  ): Promise<OrderRecord | null> {
    const c = this.q.caps;
    const { shape, args } = updateArgs(
      {
        status: patch.status,
        payment_status: patch.payment_status,
        fulfillment_status: patch.fulfillment_status,
        email: patch.email,
        email_lower: patch.email?.toLowerCase(),
        customer_id: patch.customer_id,
        shipping_address:
          patch.shipping_address === undefined ? undefined : c.jsonOrNull(patch.shipping_address),
        billing_address:
          patch.billing_address === undefined ? undefined : c.jsonOrNull(patch.billing_address),
        note: patch.note,
        metadata: patch.metadata === undefined ? undefined : c.json(patch.metadata),
        paid_total: patch.paid_total,
        refunded_total: patch.refunded_total,
        inventory_reserved:
          patch.inventory_reserved === undefined ? undefined : c.bool(patch.inventory_reserved),
        cancel_reason: patch.cancel_reason,
        cancelled_at: patch.cancelled_at,
        completed_at: patch.completed_at,
        confirmed_at: patch.confirmed_at,
        updated_at: patch.updated_at,
      },
      scoped(scope, { id }),
      options?.expect_status === undefined ? undefined : { expect_status: options.expect_status },
    );
    const row = await this.q.first(updateOrder, args, shape);
    return row ? decodeOrder(row, c) : null;
  }

  async updateLines(
    scope: Scope,
    order_id: string,
    lines: Array<
      Pick<OrderLineRecord, 'id'> &
        Partial<
          Pick<
            OrderLineRecord,
            | 'fulfilled_quantity'
            | 'shipped_quantity'
            | 'refunded_quantity'
            | 'restocked_quantity'
            | 'reserved_quantity'
            | 'returned_quantity'
            | 'returning_quantity'
          >
        >
    >,
  ): Promise<void> {
    for (const line of lines) {
      const { shape, args } = updateArgs(
        {
          fulfilled_quantity: line.fulfilled_quantity,
          shipped_quantity: line.shipped_quantity,
          refunded_quantity: line.refunded_quantity,
          restocked_quantity: line.restocked_quantity,
          reserved_quantity: line.reserved_quantity,
          returned_quantity: line.returned_quantity,
          returning_quantity: line.returning_quantity,
        },
        scoped(scope, { id: line.id }),
        { order_id },
      );
      if (shape.columns.length > 0) await this.q.rows(updateLine, args, shape);
    }
  }

  async insertPayment(record: PaymentRecord): Promise<void> {
    await insertRows(this.q, insertPaymentRow, 'payments', [encodePayment(record, this.q.caps)]);
  }

  async getPayment(scope: Scope, key: string | { idempotency_key: string }): Promise<PaymentRecord | null> {
    const row =
      typeof key === 'string'
        ? await this.q.first(paymentById, scoped(scope, { key }))
        : newest(await this.q.rows(paymentByIdempotencyKey, scoped(scope, { key: key.idempotency_key })));
    return row ? decodePayment(row, this.q.caps) : null;
  }

  async updatePayment(
    scope: Scope,
    id: string,
    patch: Patch<
      PaymentRecord,
      | 'status'
      | 'provider_id'
      | 'order_id'
      | 'client_secret'
      | 'failure_reason'
      | 'metadata'
      | 'checkout_snapshot'
    >,
    options?: { expect_status?: PaymentRecord['status'] },
  ): Promise<PaymentRecord | null> {
    const c = this.q.caps;
    const { shape, args } = updateArgs(
      {
        status: patch.status,
        provider_id: patch.provider_id,
        order_id: patch.order_id,
        client_secret: patch.client_secret,
        failure_reason: patch.failure_reason,
        metadata: patch.metadata === undefined ? undefined : c.json(patch.metadata),
        checkout_snapshot: nullableJson(patch.checkout_snapshot, c),
        updated_at: patch.updated_at,
      },
      scoped(scope, { id }),
      options?.expect_status === undefined ? undefined : { expect_status: options.expect_status },
    );
    const row = await this.q.first(updatePaymentRow, args, shape);
    return row ? decodePayment(row, c) : null;
  }

  async listPaymentsByStatus(
    status: PaymentRecord['status'],
    before: number,
    limit: number,
    after?: CreatedPosition,
  ): Promise<PaymentRecord[]> {
    const rows = await this.q.rows(paymentsByStatus, byStatusArgs(status, before, limit, after));
    return rows.map((row) => decodePayment(row, this.q.caps));
  }

  async insertFulfillment(record: FulfillmentRecord): Promise<void> {
    await insertRows(this.q, insertFulfillmentRow, 'fulfillments', [encodeFulfillment(record, this.q.caps)]);
  }

  async getFulfillment(scope: Scope, id: string): Promise<FulfillmentRecord | null> {
    const row = await this.q.first(fulfillmentById, scoped(scope, { id }));
    return row ? decodeFulfillment(row, this.q.caps) : null;
  }

  async updateFulfillment(
    scope: Scope,
    id: string,
    patch: Patch<
      FulfillmentRecord,
      | 'status'
      | 'tracking_number'
      | 'tracking_url'
      | 'carrier'
      | 'carrier_code'
      | 'estimated_delivery'
      | 'lines'
      | 'metadata'
      | 'shipped_at'
      | 'delivered_at'
    >,
    options?: { expect_status?: FulfillmentRecord['status'] },
  ): Promise<FulfillmentRecord | null> {
    const c = this.q.caps;
    const { shape, args } = updateArgs(
      {
        status: patch.status,
        tracking_number: patch.tracking_number,
        tracking_url: patch.tracking_url,
        carrier: patch.carrier,
        carrier_code: patch.carrier_code,
        estimated_delivery: patch.estimated_delivery,
        lines: patch.lines === undefined ? undefined : c.json(patch.lines),
        metadata: patch.metadata === undefined ? undefined : c.json(patch.metadata),
        shipped_at: patch.shipped_at,
        delivered_at: patch.delivered_at,
        updated_at: patch.updated_at,
      },
      scoped(scope, { id }),
      options?.expect_status === undefined ? undefined : { expect_status: options.expect_status },
    );
    const row = await this.q.first(updateFulfillmentRow, args, shape);
    return row ? decodeFulfillment(row, c) : null;
  }

  async insertTrackingEvent(record: FulfillmentTrackingEventRecord): Promise<void> {
    await insertRows(this.q, insertTrackingEventRow, 'fulfillment_tracking_events', [record]);
  }

  async listTrackingEvents(scope: Scope, fulfillment_id: string): Promise<FulfillmentTrackingEventRecord[]> {
    const rows = await this.q.rows(trackingEventsOf, scoped(scope, { fulfillment_id }));
    return rows.map(decodeTrackingEvent);
  }

  async insertRefund(record: RefundRecord): Promise<void> {
    await insertRows(this.q, insertRefundRow, 'refunds', [encodeRefund(record, this.q.caps)]);
  }

  async updateRefund(
    scope: Scope,
    id: string,
    patch: Patch<
      RefundRecord,
      | 'status'
      | 'provider_refund_id'
      | 'metadata'
      | 'restock_movements'
      | 'provider_calls'
      | 'failure_message'
    >,
  ): Promise<RefundRecord | null> {
    const c = this.q.caps;
    const { shape, args } = updateArgs(
      {
        status: patch.status,
        provider_refund_id: patch.provider_refund_id,
        metadata: patch.metadata === undefined ? undefined : c.json(patch.metadata),
        restock_movements:
          patch.restock_movements === undefined ? undefined : c.json(patch.restock_movements),
        provider_calls: nullableJson(patch.provider_calls, c),
        failure_message: patch.failure_message,
        updated_at: patch.updated_at,
      },
      scoped(scope, { id }),
    );
    const row = await this.q.first(updateRefundRow, args, shape);
    return row ? decodeRefund(row, c) : null;
  }

  async listRefundsByStatus(
    status: RefundRecord['status'],
    before: number,
    limit: number,
    after?: CreatedPosition,
  ): Promise<RefundRecord[]> {
    const rows = await this.q.rows(refundsByStatus, byStatusArgs(status, before, limit, after));
    return rows.map((row) => decodeRefund(row, this.q.caps));
  }

  /** Children of many orders in four queries, preserving the orders' order. */
  async #load(scope: Scope, rows: readonly Selectable<OrdersTable>[]): Promise<OrderAggregate[]> {
    if (rows.length === 0) return [];
    const c = this.q.caps;
    const ids = c.list(rows.map((row) => row.id));
    const aggregates = rows.map(
      (row): OrderAggregate => ({
        ...decodeOrder(row, c),
        lines: [],
        payments: [],
        fulfillments: [],
        refunds: [],
      }),
    );
    const byId = new Map(aggregates.map((order) => [order.id, order]));
    for (const row of await this.q.rows(linesOf, scoped(scope, { ids }))) {
      byId.get(row.order_id)?.lines.push(decodeLine(row, c));
    }
    for (const row of await this.q.rows(paymentsOf, scoped(scope, { ids }))) {
      if (row.order_id !== null) byId.get(row.order_id)?.payments.push(decodePayment(row, c));
    }
    for (const row of await this.q.rows(fulfillmentsOf, scoped(scope, { ids }))) {
      byId.get(row.order_id)?.fulfillments.push(decodeFulfillment(row, c));
    }
    for (const row of await this.q.rows(refundsOf, scoped(scope, { ids }))) {
      byId.get(row.order_id)?.refunds.push(decodeRefund(row, c));
    }
    return aggregates;
  }
}

/** A nullable JSON column's patch value: absent (undefined) stays absent, null clears. */
function nullableJson(value: unknown, c: DialectCapabilities): unknown {
  return value === undefined || value === null ? value : c.json(value);
}
