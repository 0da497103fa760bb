import { emitInventoryCrossings } from '../inventory/inventory-events';
import { restockInventory } from '../inventory/inventory-writes';
import type {
  FulfillmentRecord,
  OrderAggregate,
  OrderLineRecord,
  PaymentRecord,
  RefundRecord,
  Scope,
} from '../ports/storage';
import {
  computeRefund,
  type FulfillmentReduction,
  type PendingFulfillmentUnits,
  type RestockMovement,
  reduceFulfillments,
  splitRestock,
  unitsTakenByLine,
} from '../refunds';
import {
  cancelledUnitsByLine,
  completedRefundTotal,
  providerCallsInFlight,
  restockMovementValues,
  unitsInFlight,
} from '../refunds/refund-ledger';
import {
  needsProviderCall,
  paymentsToMarkRefunded,
  type RefundProviderOutcome,
  type RefundSlice,
  refundSlices,
  refundWithProviders,
} from '../refunds/refund-payments';
import type { RefundCreate } from '../refunds/schemas';
import { refundToWire } from '../refunds/wire';
import type { ServiceContext } from '../shared/context';
import { CommerceError } from '../shared/errors';
import { amountInStoreCurrency } from '../shared/money-input';
import { INTERIM, type Work, type WriteOptions, write } from '../shared/unit-of-work';
import { creditIssued } from './exchange-credit';
import { requireOrder } from './order-loading';
import { deriveProgress, saveOrderProgress } from './order-progress';
import { returnableByLine } from './returnable-units';

/**
 * Refunds (docs/contract.md#restock, #refunds). `POST /v1/admin/orders/{id}/refunds` computes the refund with
 * `computeRefund` — the amount defaults to what was paid for the given lines' units (discounted
 * line total, plus tax when prices exclude it), never more than paid minus refunded (422
 * `refund_exceeds_refundable`) nor more units than a line has left (422
 * `quantity_exceeds_refundable`) — has the providers refund it, then records it and lets
 * everything follow (`applyRefund`): line `refunded_quantity` (and `restocked_quantity`),
 * inventory and fulfillments (with `restock: true`: open unfulfilled units leave `reserved`;
 * then units of pending fulfillments, newest first, leave `reserved` and are taken out of those
 * fulfillments — a fulfillment left empty is cancelled, the line's `fulfilled_quantity` drops —;
 * these units are cancelled: they no longer have to ship; then shipped units return to
 * `on_hand`. With `restock: false` only money moves: no unit, and the units still ship), the
 * order's `refunded_total`, `payment_status`, `fulfillment_status` (`returned` when every
 * fulfilled unit came back) and status (it completes when every unit left to ship has shipped),
 * and payments fully covered become `refunded`.
 * Event `payment.refunded` with the Refund.
 *
 * No provider call is made inside a database transaction (the order row stays locked, and on
 * SQLite every writer waits, only for statements). A refund that needs one runs in three steps:
 * 1. one transaction records the refund `pending` with the provider calls it will make
 *    (`provider_calls`); its amount and units count as taken from then on, so a concurrent
 *    refund cannot take them too;
 * 2. the providers are asked, outside any transaction, under the keys `<refund id>_<payment id>`;
 * 3. one transaction settles it (`settleRefund`): `failed` (402 `payment_failed`, nothing else
 *    changes) or `completed` / `pending` at the provider with all its effects.
 * If the process dies or the provider cannot be reached between 1 and 3, the refund stays in
 * flight (the request fails; its amount stays taken) until `engine.orders.payments.reconcile()`
 * asks the providers again under the same keys and settles it — money is never refunded twice
 * and a refund the provider made is never lost. A refund without a provider call (amount 0, or
 * payments recorded under labels such as `cash`) is recorded and applied in one transaction.
 *
 * Decision: refunds are allowed in any order status, cancelled included (money taken for a
 * cancelled order goes back this way); a draft has nothing paid, so any amount is refused as
 * exceeding the refundable 0.
 */
export function createOrderRefunds(ctx: ServiceContext) {
  return {
    async create(scope: Scope, orderId: string, input: RefundCreate) {
      const begun = await write(
        ctx,
        scope,
        async (work) => {
          const { tx, now } = work;
          const order = await requireOrder(tx, scope, orderId, { forUpdate: true });
          const amount =
            input.amount !== undefined
              ? (amountInStoreCurrency(input.amount, order.currency, 'amount') ?? undefined)
              : undefined;
          const progress = deriveProgress(order);
          const outstanding = order.refunds
            .filter((r) => r.status !== 'failed')
            .reduce((sum, r) => sum + r.amount, 0);
          const inFlight = unitsInFlight(order);
          const cancelled = cancelledUnitsByLine(order);
          // Credit this order gave to exchange orders (decisions §18) is no longer refundable here.
          const credit = await creditIssued(tx, scope, order);
          const restockable = restockableByLine(order);
          const computed = computeRefund({
            lines: order.lines.map((line) => ({
              ...line,
              refunded_quantity: line.refunded_quantity + (inFlight.get(line.id) ?? 0),
              cancelled_quantity: cancelled.get(line.id) ?? 0,
              restockable: restockable.get(line.id),
            })),
            prices_include_tax: order.prices_include_tax,
            paid: progress.paid_total,
            refunded_total: outstanding + credit,
            request: { lines: input.lines, amount, restock: input.restock },
            inventory_reserved: order.inventory_reserved,
          });
          const slices =
            computed.amount > 0 ? refundSlices(order.payments, outstanding, computed.amount) : [];
          const refund: RefundRecord = {
            id: ctx.ids.next('ref'),
            store_id: scope.store_id,
            mode: scope.mode,
            order_id: order.id,
            amount: computed.amount,
            currency: order.currency,
            reason: input.reason ?? null,
            restock: input.restock,
            status: 'pending',
            lines: computed.lines,
            provider_refund_id: null,
            metadata: {},
            restock_movements: [],
            provider_calls: slices.map((s) => ({ payment_id: s.payment.id, amount: s.amount })),
            failure_message: null,
            created_at: now,
            updated_at: now,
          };
          if (!needsProviderCall(ctx, slices)) {
            const movements = restockMovements(order, refund);
            const settled: RefundRecord = {
              ...refund,
              status: 'completed',
              restock_movements: restockMovementValues(movements),
              provider_calls: null,
            };
            await tx.orders.insertRefund(settled);
            await applyRefund(work, scope, order, settled, movements);
            return { done: refundToWire(settled) };
          }
          await tx.orders.insertRefund(refund);
          return { refund, slices };
        },
        {
          // Under an Idempotency-Key: a refund settled at once answers here; one recorded before
          // its provider calls is interim (the answer comes with its settlement).
          answer: (begun) => ('done' in begun ? begun.done : INTERIM),
        },
      );
      if ('done' in begun) return begun.done;
      const outcome = await refundWithProviders(ctx, begun.refund, begun.slices);
      const answer = (settled: RefundRecord) => {
        if (settled.status === 'failed') {
          const failed = outcome.status === 'failed' ? outcome : null;
          throw new CommerceError(
            'payment_failed',
            failed?.message ?? 'The payment provider refused the refund',
            {
              data: { payment_id: failed?.payment_id ?? null },
            },
          );
        }
        return refundToWire(settled);
      };
      return answer(await settleRefund(ctx, scope, orderId, begun.refund.id, outcome, { answer }));
    },
  };
}

/**
 * The slices of a refund in flight, resolved against the order's payments (a payment that is gone
 * is skipped: nothing to ask).
 */
export function inFlightSlices(order: Pick<OrderAggregate, 'payments'>, refund: RefundRecord): RefundSlice[] {
  const payments = new Map(order.payments.map((p) => [p.id, p]));
  return (providerCallsInFlight(refund) ?? []).flatMap((call) => {
    const payment = payments.get(call.payment_id);
    return payment ? [{ payment, amount: call.amount }] : [];
  });
}

/**
 * Step 3 of a refund: under the order's lock, settles the refund in flight with what its
 * providers answered — `failed` changes nothing else; `completed` / `pending` applies it
 * (`applyRefund`). A refund settled meanwhile (by reconciliation, or a concurrent retry) is
 * returned as it is.
 */
export async function settleRefund(
  ctx: ServiceContext,
  scope: Scope,
  orderId: string,
  refundId: string,
  outcome: RefundProviderOutcome,
  options?: WriteOptions<RefundRecord>,
): Promise<RefundRecord> {
  return write(
    ctx,
    scope,
    async (work) => {
      const { tx, now } = work;
      const order = await requireOrder(tx, scope, orderId, { forUpdate: true });
      const refund = order.refunds.find((r) => r.id === refundId);
      if (!refund) throw new CommerceError('internal_error', `Refund '${refundId}' vanished while in flight`);
      if (providerCallsInFlight(refund) === null) return refund;
      if (outcome.status === 'failed') {
        const failed = await tx.orders.updateRefund(scope, refund.id, {
          status: 'failed',
          provider_calls: null,
          updated_at: now,
        });
        return failed ?? { ...refund, status: 'failed', provider_calls: null, updated_at: now };
      }
      const movements = restockMovements(order, refund);
      const settled: RefundRecord = {
        ...refund,
        status: outcome.status,
        provider_refund_id: outcome.provider_refund_id,
        restock_movements: restockMovementValues(movements),
        provider_calls: null,
        updated_at: now,
      };
      await tx.orders.updateRefund(scope, refund.id, {
        status: settled.status,
        provider_refund_id: settled.provider_refund_id,
        restock_movements: settled.restock_movements,
        provider_calls: null,
        updated_at: now,
      });
      await applyRefund(work, scope, order, settled, movements);
      return settled;
    },
    options,
  );
}

/**
 * Per order line, the units a refund with `restock: true` may take (decisions §10, §18): its open
 * unfulfilled units (fulfillable − fulfilled), its units in pending fulfillments, and its shipped
 * units still with the customer (`returnableByLine`: shipped − brought back by restocking refunds
 * − returned − held by open returns). A unit already back in stock is never restocked twice.
 */
export function restockableByLine(
  order: Pick<OrderAggregate, 'lines' | 'refunds' | 'fulfillments'>,
): Map<string, number> {
  const cancelled = cancelledUnitsByLine(order);
  const pending = pendingUnitsByLine(order.fulfillments);
  const out = returnableByLine(order);
  const result = new Map<string, number>();
  for (const line of order.lines) {
    const fulfillable = Math.max(0, line.quantity - (cancelled.get(line.id) ?? 0));
    const open = Math.max(0, fulfillable - line.fulfilled_quantity);
    const inPending = (pending.get(line.id) ?? []).reduce((sum, p) => sum + p.quantity, 0);
    result.set(line.id, open + inPending + (out.get(line.id) ?? 0));
  }
  return result;
}

/** Per order line, its units in fulfillments that have not shipped (`pending`). */
function pendingUnitsByLine(
  fulfillments: OrderAggregate['fulfillments'],
): Map<string, PendingFulfillmentUnits[]> {
  const byLine = new Map<string, PendingFulfillmentUnits[]>();
  for (const f of fulfillments) {
    if (f.status !== 'pending') continue;
    for (const l of f.lines) {
      const list = byLine.get(l.order_line_id) ?? [];
      list.push({ fulfillment_id: f.id, quantity: l.quantity, created_at: f.created_at });
      byLine.set(l.order_line_id, list);
    }
  }
  return byLine;
}

/**
 * Where a restocking refund's units go (`splitRestock`), computed from the order as it is now
 * (its lines, its earlier restocking refunds and its pending fulfillments at the moment the
 * effects are applied — for a refund left in flight, when it is settled): open unfulfilled units
 * (fulfillable − fulfilled) leave `reserved`, then units of pending fulfillments (newest first)
 * leave `reserved` and are taken out of them — all these are cancelled —, then shipped units go
 * back to `on_hand`. Refunds without restock took no unit: theirs still ship. Empty without
 * `restock`. A line the order reserved nothing for (`reserved_quantity` 0: its variant was
 * untracked when the order reserved) releases nothing from `reserved` (`from_reserved` 0),
 * whatever its variant's tracking is now; its units are still cancelled and taken out of
 * pending fulfillments.
 */
export function restockMovements(
  order: Pick<OrderAggregate, 'lines' | 'fulfillments' | 'inventory_reserved' | 'refunds'>,
  refund: Pick<RefundRecord, 'restock' | 'lines'>,
): RestockMovement[] {
  if (!refund.restock) return [];
  const byId = new Map(order.lines.map((line) => [line.id, line]));
  const pending = pendingUnitsByLine(order.fulfillments);
  const cancelled = cancelledUnitsByLine(order);
  return refund.lines.flatMap((l) => {
    const line = byId.get(l.order_line_id);
    if (!line) return [];
    const input = {
      ...line,
      cancelled_quantity: cancelled.get(line.id) ?? 0,
      pending_fulfillments: pending.get(line.id) ?? [],
    };
    const split = splitRestock(line.id, input, l.quantity, order.inventory_reserved);
    return [line.reserved_quantity > 0 ? split : { ...split, from_reserved: 0 }];
  });
}

/** An order's lines and fulfillments after a refund, and the fulfillments it shrank. */
export interface RefundedParts {
  /** Every line of the order; the refund's lines with their new refunded, restocked and fulfilled units. */
  lines: OrderLineRecord[];
  /** Every fulfillment of the order, those the refund shrank (or cancelled) as they are after it. */
  fulfillments: FulfillmentRecord[];
  /** The fulfillments the refund shrank, to write. */
  reductions: FulfillmentReduction[];
}

/**
 * What a refund does to an order's lines and fulfillments, in memory (pure): each refunded line
 * gains `refunded_quantity` (and `restocked_quantity` with `restock`) and loses from
 * `fulfilled_quantity` the units its movements took out of pending fulfillments; those
 * fulfillments lose the units (`reduceFulfillments`: a line at 0 is removed, a fulfillment left
 * without lines is `cancelled`, `updated_at` = `now`).
 */
export function refundedParts(
  order: Pick<OrderAggregate, 'lines' | 'fulfillments'>,
  refund: Pick<RefundRecord, 'restock' | 'lines'>,
  movements: readonly RestockMovement[],
  now: number,
): RefundedParts {
  const units = new Map(refund.lines.map((l) => [l.order_line_id, l.quantity]));
  const taken = unitsTakenByLine(movements);
  const lines = order.lines.map((line) => {
    const q = units.get(line.id);
    const out = taken.get(line.id) ?? 0;
    if (q === undefined && out === 0) return line;
    return {
      ...line,
      refunded_quantity: line.refunded_quantity + (q ?? 0),
      restocked_quantity: line.restocked_quantity + (refund.restock ? (q ?? 0) : 0),
      fulfilled_quantity: line.fulfilled_quantity - out,
    };
  });
  const reductions = reduceFulfillments(order.fulfillments, movements);
  const reduced = new Map(reductions.map((r) => [r.fulfillment_id, r]));
  const fulfillments = order.fulfillments.map((f): FulfillmentRecord => {
    const r = reduced.get(f.id);
    if (!r) return f;
    return { ...f, lines: r.lines, status: r.cancelled ? 'cancelled' : f.status, updated_at: now };
  });
  return { lines, fulfillments, reductions };
}

/**
 * Marks `refunded`, in the caller's transaction, the `payments` listed in `toMark` (those the
 * completed refunds now cover in full: `paymentsToMarkRefunded`), each with a compare-and-set on
 * `completed`. Returns every payment as it is after.
 */
export async function markPaymentsRefunded(
  work: Work,
  scope: Scope,
  payments: readonly PaymentRecord[],
  toMark: readonly PaymentRecord[],
): Promise<PaymentRecord[]> {
  const marked = new Set(toMark.map((p) => p.id));
  return Promise.all(
    payments.map(async (p) => {
      if (!marked.has(p.id)) return p;
      const updated = await work.tx.orders.updatePayment(
        scope,
        p.id,
        { status: 'refunded', updated_at: work.now },
        { expect_status: 'completed' },
      );
      return updated ?? p;
    }),
  );
}

/**
 * What follows a refund that took (or is taking) the money, in the caller's transaction (its
 * row is written already, with `movements` in its `restock_movements`): its lines' refunded (and
 * restocked) units, the pending fulfillments a restock took units out of (`refundedParts`;
 * compare-and-set on `pending`), inventory, payments covered in full (`refunded`), the order's
 * progress; events `payment.refunded` and inventory crossings.
 *
 * Decision: shrinking or cancelling a fulfillment this way emits no event — docs/contract.md#events list no
 * `fulfillment.updated` / `fulfillment.cancelled` type (the order's own cancellation emits none
 * for its fulfillments either); the Refund of `payment.refunded` and the order show it.
 * Returns the order as saved. Also applies a return's refund (returns/completion).
 */
export async function applyRefund(
  work: Work,
  scope: Scope,
  order: OrderAggregate,
  refund: RefundRecord,
  movements: readonly RestockMovement[],
): Promise<OrderAggregate> {
  const { tx, now } = work;

  const { lines, fulfillments, reductions } = refundedParts(order, refund, movements, now);
  const before = new Map(order.lines.map((l) => [l.id, l]));
  const changedLines = lines.filter((l) => before.get(l.id) !== l);
  if (changedLines.length > 0) {
    await tx.orders.updateLines(
      scope,
      order.id,
      changedLines.map((l) => ({
        id: l.id,
        refunded_quantity: l.refunded_quantity,
        restocked_quantity: l.restocked_quantity,
        fulfilled_quantity: l.fulfilled_quantity,
      })),
    );
  }
  for (const r of reductions) {
    const updated = await tx.orders.updateFulfillment(
      scope,
      r.fulfillment_id,
      { lines: r.lines, updated_at: now, ...(r.cancelled && { status: 'cancelled' as const }) },
      { expect_status: 'pending' },
    );
    if (!updated) {
      throw new CommerceError(
        'invalid_state_transition',
        `The fulfillment '${r.fulfillment_id}' is no longer pending; retry the refund`,
        { data: { fulfillment_id: r.fulfillment_id } },
      );
    }
  }

  const variantOf = new Map(order.lines.map((l) => [l.id, l.variant_id]));
  const restock = new Map<string, { variant_id: string; from_reserved: number; to_on_hand: number }>();
  for (const m of movements) {
    const variant_id = variantOf.get(m.order_line_id);
    if (variant_id === undefined || m.from_reserved + m.to_on_hand === 0) continue;
    const entry = restock.get(variant_id) ?? { variant_id, from_reserved: 0, to_on_hand: 0 };
    entry.from_reserved += m.from_reserved;
    entry.to_on_hand += m.to_on_hand;
    restock.set(variant_id, entry);
  }
  const changes = restock.size > 0 ? await restockInventory(tx, scope, [...restock.values()], now) : [];

  const refunds = [...order.refunds.filter((r) => r.id !== refund.id), refund];
  const payments = await markPaymentsRefunded(
    work,
    scope,
    order.payments,
    paymentsToMarkRefunded(order.payments, completedRefundTotal(refunds)),
  );

  work.emit(scope, 'payment.refunded', refundToWire(refund));
  const saved = await saveOrderProgress(work, scope, order, {
    ...order,
    lines,
    fulfillments,
    refunds,
    payments,
  });
  emitInventoryCrossings(work, scope, changes);
  return saved;
}
