import { assertPurchasable, type PriceableItem } from '../carts/cart-pricing';
import { requireOrder, requireStoreIn } from '../orders/order-loading';
import { saveOrderProgress } from '../orders/order-progress';
import { settleRefund } from '../orders/order-refunds';
import type {
  OrderAggregate,
  Page,
  RefundRecord,
  ReturnLineRecord,
  ReturnListFilter,
  ReturnRecord,
  ReturnStatus,
  Scope,
} from '../ports/storage';
import { refundWithProviders } from '../refunds/refund-payments';
import type { ServiceContext } from '../shared/context';
import { CommerceError } from '../shared/errors';
import { INTERIM, read, type Work, write } from '../shared/unit-of-work';
import { applyReturnCompletion, type RefundInFlight } from './completion';
import { assertLinesReturnable, assertOrderReturnable } from './return-rules';
import { assertReturnTransition, type ReturnMoveContext } from './return-transitions';
import type {
  AdminReturnListQuery,
  Return,
  ReturnAction,
  ReturnCreate,
  ReturnReceive,
  StorefrontReturnListQuery,
} from './schemas';
import { returnToWire } from './wire';

/** Who acts on a return: the merchant, or a signed-in customer (only on their own orders and returns). */
export type ReturnActor = { kind: 'admin' } | { kind: 'customer'; customer_id: string };

const ADMIN: ReturnActor = { kind: 'admin' };

/** The events a return raises, one per state entered (decisions §18). */
const EVENT_OF = {
  requested: 'return.requested',
  approved: 'return.approved',
  rejected: 'return.rejected',
  received: 'return.received',
  completed: 'return.completed',
  cancelled: 'return.cancelled',
} as const satisfies Record<ReturnStatus, string>;

/** The timestamp column a status sets. */
const STAMP_OF = {
  approved: 'approved_at',
  rejected: 'rejected_at',
  received: 'received_at',
  completed: 'completed_at',
  cancelled: 'cancelled_at',
} as const;

function notFound(id: string): CommerceError {
  return new CommerceError('not_found', `No such return: '${id}'`);
}

function unknownCursor(id: string): CommerceError {
  return new CommerceError('parameter_invalid', `No such object for starting_after: '${id}'`, {
    param: 'starting_after',
  });
}

/**
 * The answer of a completion whose refund waited for its provider: the completed Return, or 402
 * `payment_failed` when the provider refused the refund (the return stays completed).
 */
function answerOf(refund: RefundRecord, wire: Return): Return {
  if (refund.status === 'failed') {
    throw new CommerceError(
      'payment_failed',
      `The return was completed but the payment provider refused its refund '${refund.id}'; refund the customer another way`,
      { data: { refund_id: refund.id, return_id: wire.id } },
    );
  }
  return wire;
}

/** Whether `actor` may see `ret` (a customer sees only their own). */
function visibleTo(ret: ReturnRecord | null, actor: ReturnActor): ret is ReturnRecord {
  return ret !== null && (actor.kind === 'admin' || ret.customer_id === actor.customer_id);
}

/**
 * Per order line, `delta` units added to (or taken from) its `returning_quantity` — and, with
 * `returned`, to its `returned_quantity` — in memory and in storage (the caller holds the order's
 * row lock). Returns the order with its lines changed.
 */
async function moveLineUnits(
  work: Work,
  scope: Scope,
  order: OrderAggregate,
  lines: readonly Pick<ReturnLineRecord, 'order_line_id' | 'quantity'>[],
  sign: 1 | -1,
  returned: boolean,
): Promise<OrderAggregate> {
  const units = new Map<string, number>();
  for (const l of lines) units.set(l.order_line_id, (units.get(l.order_line_id) ?? 0) + l.quantity);
  const changed = order.lines.map((line) => {
    const q = units.get(line.id);
    if (q === undefined) return line;
    return {
      ...line,
      returning_quantity: Math.max(0, line.returning_quantity + sign * q),
      returned_quantity: line.returned_quantity + (returned ? q : 0),
    };
  });
  const updates = changed
    .filter((line) => units.has(line.id))
    .map((line) => ({
      id: line.id,
      returning_quantity: line.returning_quantity,
      ...(returned && { returned_quantity: line.returned_quantity }),
    }));
  if (updates.length > 0) await work.tx.orders.updateLines(scope, order.id, updates);
  return { ...order, lines: changed };
}

/**
 * Returns and exchanges (decisions §18, docs/returns-and-exchanges.md). Every move of a return
 * locks its order's row first (`requireOrder(…, { forUpdate: true })`) and then reads the return
 * again, so concurrent requests on one order — two returns for its last unit, a return completed
 * twice — run one after the other and each sees the other's result: creation never puts more
 * units into open returns than are returnable, and a return completes once.
 */
export function createReturnService(ctx: ServiceContext) {
  /**
   * Loads a return the actor may see, locks its order, reads the return again under the lock and
   * checks the move `to`. Returns both.
   */
  async function lockForMove(
    work: Work,
    scope: Scope,
    id: string,
    to: ReturnStatus,
    actor: ReturnActor,
  ): Promise<{ ret: ReturnRecord; order: OrderAggregate }> {
    const { tx } = work;
    const found = await tx.returns.get(scope, id);
    if (!visibleTo(found, actor)) throw notFound(id);
    const order = await requireOrder(tx, scope, found.order_id, { forUpdate: true });
    const ret = await tx.returns.get(scope, id);
    if (!ret) throw notFound(id);
    const context: ReturnMoveContext['actor'] = actor.kind === 'admin' ? 'admin' : 'customer';
    assertReturnTransition(ret.status, to, context);
    return { ret, order };
  }

  /** Writes a move (compare-and-set on the status read) and queues its event. */
  async function saveMove(
    work: Work,
    scope: Scope,
    ret: ReturnRecord,
    to: Exclude<ReturnStatus, 'requested'>,
    extra: {
      admin_notes?: string | null | undefined;
      refund_id?: string | null;
      exchange_order_id?: string | null;
    },
  ): Promise<ReturnRecord> {
    const updated = await work.tx.returns.update(
      scope,
      ret.id,
      {
        status: to,
        [STAMP_OF[to]]: work.now,
        updated_at: work.now,
        ...(extra.admin_notes !== undefined && { admin_notes: extra.admin_notes }),
        ...(extra.refund_id !== undefined && { refund_id: extra.refund_id }),
        ...(extra.exchange_order_id !== undefined && { exchange_order_id: extra.exchange_order_id }),
      },
      { expect_status: ret.status },
    );
    if (!updated) {
      throw new CommerceError(
        'invalid_state_transition',
        `The return '${ret.id}' changed while this request ran; retry it`,
        {
          data: { status: ret.status },
        },
      );
    }
    const wire = returnToWire(updated);
    work.emit(scope, EVENT_OF[to], wire);
    return updated;
  }

  /** reject / cancel: the return's units become returnable again; nothing else moves. */
  async function close(
    scope: Scope,
    id: string,
    to: 'rejected' | 'cancelled',
    actor: ReturnActor,
    input: ReturnAction,
  ): Promise<Return> {
    return write(ctx, scope, async (work) => {
      const { ret, order } = await lockForMove(work, scope, id, to, actor);
      await moveLineUnits(work, scope, order, ret.lines, -1, false);
      return returnToWire(await saveMove(work, scope, ret, to, { admin_notes: input.admin_notes }));
    });
  }

  return {
    /**
     * `POST /v1/admin/orders/{id}/returns` (→ `approved`, `approved_at` = `created_at`) and
     * `POST /v1/storefront/orders/{id}/returns` (→ `requested`; the customer's own orders only,
     * others and drafts 404; held to the store's `return_window_days`). Under the order's row lock:
     * the order is neither draft nor cancelled (409 `invalid_state_transition`), then each line
     * (`assertLinesReturnable`: 404, 422 `return_window_expired`, 422
     * `quantity_exceeds_returnable`), then an exchange's variants (404, 422 `product_unavailable`,
     * 422 `insufficient_inventory`: checked, not reserved). The lines' units are held
     * (`returning_quantity`) until the return is rejected, cancelled or completed. Event
     * `return.requested` / `return.approved`.
     */
    async create(
      scope: Scope,
      orderId: string,
      input: ReturnCreate,
      actor: ReturnActor = ADMIN,
    ): Promise<Return> {
      return write(ctx, scope, async (work) => {
        const { tx, now } = work;
        const order = await requireOrder(tx, scope, orderId, { forUpdate: true });
        if (
          actor.kind === 'customer' &&
          (order.customer_id !== actor.customer_id || order.status === 'draft')
        ) {
          throw new CommerceError('not_found', `No such order: '${orderId}'`);
        }
        assertOrderReturnable(order);
        const window =
          actor.kind === 'customer'
            ? { days: (await requireStoreIn(tx, scope)).return_window_days, now }
            : null;
        assertLinesReturnable(order, input.lines, window);

        if (input.return_type === 'exchange') {
          const items: PriceableItem[] = input.lines.map((line, index) => ({
            key: String(index),
            variant_id: line.exchange_variant_id as string,
            quantity: line.quantity,
          }));
          const ids = [...new Set(items.map((item) => item.variant_id))];
          const purchasable = await tx.products.getPurchasable(scope, ids);
          assertPurchasable(
            { variants: new Map(purchasable.map((entry) => [entry.variant.id, entry])) },
            items,
            {
              param: (index, field) =>
                field === 'variant_id' ? `lines[${index}][exchange_variant_id]` : `lines[${index}][quantity]`,
            },
          );
        }

        const byId = new Map(order.lines.map((line) => [line.id, line]));
        const id = ctx.ids.next('ret');
        const status: ReturnStatus = actor.kind === 'admin' ? 'approved' : 'requested';
        const record: ReturnRecord = {
          id,
          store_id: scope.store_id,
          mode: scope.mode,
          order_id: order.id,
          customer_id: order.customer_id,
          status,
          return_type: input.return_type,
          reason: input.reason ?? null,
          reason_category: input.reason_category ?? null,
          refund_id: null,
          exchange_order_id: null,
          admin_notes: input.admin_notes ?? null,
          customer_notes: input.customer_notes ?? null,
          metadata: (input.metadata ?? {}) as ReturnRecord['metadata'],
          lines: input.lines.map((line, position) => ({
            id: ctx.ids.next('retl'),
            return_id: id,
            order_line_id: line.order_line_id,
            quantity: line.quantity,
            reason: line.reason ?? null,
            condition: line.condition ?? null,
            exchange_variant_id: line.exchange_variant_id ?? null,
            product_name: byId.get(line.order_line_id)?.product_name ?? '',
            position,
          })),
          created_at: now,
          updated_at: now,
          approved_at: status === 'approved' ? now : null,
          received_at: null,
          completed_at: null,
          rejected_at: null,
          cancelled_at: null,
        };
        await tx.returns.insert(record);
        await moveLineUnits(work, scope, order, record.lines, 1, false);
        const wire = returnToWire(record);
        work.emit(scope, EVENT_OF[status], wire);
        return wire;
      });
    },

    /** `GET /v1/admin/returns` and (with a customer) `GET /v1/storefront/returns`: newest first. */
    async list(
      scope: Scope,
      query: AdminReturnListQuery | StorefrontReturnListQuery,
      actor: ReturnActor = ADMIN,
    ): Promise<Page<Return>> {
      const filter: ReturnListFilter = {
        status: query.status,
        order_id: query.order_id,
        customer_id:
          actor.kind === 'customer' ? actor.customer_id : (query as AdminReturnListQuery).customer_id,
        created_after: 'created_after' in query ? query.created_after : undefined,
        created_before: 'created_before' in query ? query.created_before : undefined,
      };
      const page = await read(ctx, async (tx) => {
        const after = query.starting_after;
        // A customer's cursor must be one of their own returns: another's is answered as unknown.
        if (after !== undefined && actor.kind === 'customer') {
          if (!visibleTo(await tx.returns.get(scope, after), actor)) throw unknownCursor(after);
        }
        return tx.returns.list(scope, filter, {
          limit: query.limit,
          starting_after: after,
          sort: 'created_at',
          order: query.order,
        });
      });
      return { ...page, data: page.data.map(returnToWire) };
    },

    /** `GET /v1/admin/returns/{id}`, `GET /v1/storefront/returns/{id}` (another customer's → 404). */
    async get(scope: Scope, id: string, actor: ReturnActor = ADMIN): Promise<Return> {
      const ret = await read(ctx, (tx) => tx.returns.get(scope, id));
      if (!visibleTo(ret, actor)) throw notFound(id);
      return returnToWire(ret);
    },

    /** `requested → approved`. Event `return.approved`. */
    async approve(scope: Scope, id: string, input: ReturnAction): Promise<Return> {
      return write(ctx, scope, async (work) => {
        const { ret } = await lockForMove(work, scope, id, 'approved', ADMIN);
        return returnToWire(await saveMove(work, scope, ret, 'approved', { admin_notes: input.admin_notes }));
      });
    },

    /** `requested | received → rejected`: its units are returnable again. Event `return.rejected`. */
    reject(scope: Scope, id: string, input: ReturnAction): Promise<Return> {
      return close(scope, id, 'rejected', ADMIN, input);
    },

    /**
     * `approved → received`; `lines: [{ id, condition }]` replaces the inspected lines' condition
     * (an id not of this return → 404, `lines[i][id]`). Moves neither stock nor money. Event
     * `return.received`.
     */
    async receive(scope: Scope, id: string, input: ReturnReceive): Promise<Return> {
      return write(ctx, scope, async (work) => {
        const { ret } = await lockForMove(work, scope, id, 'received', ADMIN);
        const inspected = input.lines ?? [];
        const own = new Set(ret.lines.map((line) => line.id));
        inspected.forEach((line, index) => {
          if (!own.has(line.id)) {
            throw new CommerceError('not_found', `No such line of return '${ret.id}': '${line.id}'`, {
              param: `lines[${index}][id]`,
            });
          }
        });
        if (inspected.length > 0) await work.tx.returns.updateLines(scope, ret.id, inspected);
        const conditions = new Map(inspected.map((line) => [line.id, line.condition]));
        const withConditions: ReturnRecord = {
          ...ret,
          lines: ret.lines.map((line) =>
            conditions.has(line.id) ? { ...line, condition: conditions.get(line.id) ?? null } : line,
          ),
        };
        const saved = await saveMove(work, scope, withConditions, 'received', {
          admin_notes: input.admin_notes,
        });
        return returnToWire(saved);
      });
    },

    /**
     * `received → completed`, in ONE transaction (decisions §18): the lines' units count as
     * returned (`returned_quantity`; `fulfillment_status` `returned` once every shipped unit came
     * back), then `applyReturnCompletion` (returns/completion): restock by condition, the refund
     * (capped at paid − refunded − pending) or the exchange order. A refund through a registered
     * provider (Stripe) is recorded in flight and asked after the commit, like any refund (a
     * refusal → 402 `payment_failed`; the return stays completed, its stock back). Event
     * `return.completed`.
     */
    async complete(scope: Scope, id: string): Promise<Return> {
      const done = await write(
        ctx,
        scope,
        async (work) => {
          const { ret, order } = await lockForMove(work, scope, id, 'completed', ADMIN);
          const counted = await moveLineUnits(work, scope, order, ret.lines, -1, true);
          const outcome = await applyReturnCompletion(ctx, work, scope, counted, ret);
          // A refund applied at once saved the order's progress; otherwise it is saved here.
          if (outcome.refund === null || outcome.in_flight !== null) {
            await saveOrderProgress(work, scope, order, outcome.order);
          }
          const saved = await saveMove(work, scope, ret, 'completed', {
            refund_id: outcome.refund?.id ?? null,
            exchange_order_id: outcome.exchange?.order.id ?? null,
          });
          return { wire: returnToWire(saved), in_flight: outcome.in_flight };
        },
        // Under an Idempotency-Key: a refund left for its provider answers with its settlement.
        { answer: (value) => (value.in_flight === null ? value.wire : INTERIM) },
      );
      const pending: RefundInFlight | null = done.in_flight;
      if (pending === null) return done.wire;
      // Steps 2 and 3 of a refund in flight (orders/order-refunds.ts), after the commit.
      const outcome = await refundWithProviders(ctx, pending.refund, pending.slices);
      const answer = (refund: RefundRecord) => answerOf(refund, done.wire);
      return answer(await settleRefund(ctx, scope, pending.order_id, pending.refund.id, outcome, { answer }));
    },

    /** `requested → cancelled` (customer or admin), `approved → cancelled` (admin). Event `return.cancelled`. */
    cancel(scope: Scope, id: string, actor: ReturnActor = ADMIN): Promise<Return> {
      return close(scope, id, 'cancelled', actor, {});
    },
  };
}
