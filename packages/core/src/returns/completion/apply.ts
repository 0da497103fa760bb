import { emitInventoryCrossings } from '../../inventory/inventory-events';
import { restockInventory } from '../../inventory/inventory-writes';
import { creditIssued } from '../../orders/exchange-credit';
import { applyRefund, settleRefund } from '../../orders/order-refunds';
import type { InventoryChange, OrderAggregate, RefundRecord, Scope } from '../../ports/storage';
import {
  needsProviderCall,
  type RefundSlice,
  refundSlices,
  refundWithProviders,
} from '../../refunds/refund-payments';
import type { ServiceContext } from '../../shared/context';
import type { Work } from '../../shared/unit-of-work';
import { type PlacedExchange, placeExchangeOrder } from './exchange';
import {
  type CompletionPlan,
  type CompletionReturn,
  outstandingRefunds,
  type PlannedRefund,
  planReturnCompletion,
  surplusRefund,
} from './plan';

/** A refund recorded `pending` whose provider calls are to be made after the transaction commits. */
export interface RefundInFlight {
  order_id: string;
  refund: RefundRecord;
  slices: RefundSlice[];
}

/** What {@link applyReturnCompletion} did. */
export interface CompletionOutcome {
  plan: CompletionPlan;
  /** The original order after the refund (or as it was given, without one). */
  order: OrderAggregate;
  /** The refund on the original order (the return's `refund_id`), or null. */
  refund: RefundRecord | null;
  /**
   * Set when the refund draws on a payment of a registered provider (Stripe): it is recorded
   * `pending` with its provider calls and applied only when settled — call
   * {@link settleReturnRefund} with it AFTER the transaction committed (never inside it).
   */
  in_flight: RefundInFlight | null;
  /** `exchange` returns: the exchange order (the return's `exchange_order_id`). */
  exchange: PlacedExchange | null;
  /** The inventory rows the restock moved (their threshold events are already queued). */
  stock: InventoryChange[];
}

/**
 * Applies the completion of a return (decisions §18 `complete`) in the caller's transaction —
 * `planReturnCompletion`, then its effects:
 *
 * 1. the exchange order, for an `exchange` (`placeExchangeOrder`; 422 `insufficient_inventory` /
 *    `product_unavailable` → the caller's transaction rolls back, the return stays `received`);
 * 2. stock: restocked units back to `on_hand` (`inventory.*` events as usual); written-off units
 *    move nothing;
 * 3. the refund on the original order — the return's (`refund`), or the exchange credit above the
 *    exchange order's total — recorded like any refund through the order's payments: without a
 *    registered provider (manual, `cash` …) it is `completed` and applied here (`payment.refunded`,
 *    the order's `refunded_total`, `payment_status`); with one (Stripe) it is recorded `pending`
 *    with its provider calls (`in_flight`), its amount already taken from what is refundable, and
 *    settled after commit by {@link settleReturnRefund} (or by reconciliation after a crash).
 *
 * `order`: the original order, read with its row locked (`requireOrder(…, { forUpdate: true })`)
 * in this transaction, as the caller left it (e.g. with the lines' `returned_quantity` already
 * counted: the refund saves the order's progress from it). The caller then marks the return
 * `completed` (with `refund?.id`, `exchange?.order.id`) and emits `return.completed`.
 */
export async function applyReturnCompletion(
  ctx: Pick<ServiceContext, 'ids' | 'payments'>,
  work: Work,
  scope: Scope,
  order: OrderAggregate,
  ret: CompletionReturn,
): Promise<CompletionOutcome> {
  const credit_issued = await creditIssued(work.tx, scope, order);
  const plan = planReturnCompletion({ order, ret, credit_issued });

  let exchange: PlacedExchange | null = null;
  let planned: PlannedRefund | null = plan.refund;
  if (plan.exchange) {
    exchange = await placeExchangeOrder(ctx, work, scope, {
      original: order,
      ret,
      lines: plan.exchange.lines,
      credit: plan.exchange.credit,
    });
    planned = surplusRefund(ret, exchange.settlement.surplus);
  }

  const stock = plan.restock.length > 0 ? await restockInventory(work.tx, scope, plan.restock, work.now) : [];

  let result: Pick<CompletionOutcome, 'order' | 'refund' | 'in_flight'> = {
    order,
    refund: null,
    in_flight: null,
  };
  if (planned) result = await recordRefund(ctx, work, scope, order, planned);
  emitInventoryCrossings(work, scope, stock);
  return { plan, exchange, stock, ...result };
}

/**
 * Records a planned refund on the order as `POST …/refunds` would (order-refunds.ts), in the
 * caller's transaction: split over the payments oldest first after every non-failed refund;
 * applied at once when no registered provider is involved, else left in flight.
 */
async function recordRefund(
  ctx: Pick<ServiceContext, 'ids' | 'payments'>,
  work: Work,
  scope: Scope,
  order: OrderAggregate,
  planned: PlannedRefund,
): Promise<Pick<CompletionOutcome, 'order' | 'refund' | 'in_flight'>> {
  const { tx, now } = work;
  const slices = refundSlices(order.payments, outstandingRefunds(order), planned.amount);
  const refund: RefundRecord = {
    id: ctx.ids.next('ref'),
    store_id: scope.store_id,
    mode: scope.mode,
    order_id: order.id,
    amount: planned.amount,
    currency: order.currency,
    reason: planned.reason,
    restock: false,
    status: 'pending',
    lines: planned.lines.map((l) => ({ order_line_id: l.order_line_id, quantity: l.quantity })),
    provider_refund_id: null,
    metadata: {},
    restock_movements: [],
    provider_calls: slices.map((s) => ({ payment_id: s.payment.id, amount: s.amount })),
    failure_message: null,
    created_at: now,
    updated_at: now,
  };
  if (!needsProviderCall(ctx, slices)) {
    const settled: RefundRecord = { ...refund, status: 'completed', provider_calls: null };
    await tx.orders.insertRefund(settled);
    const after = await applyRefund(work, scope, order, settled, []);
    return { order: after, refund: settled, in_flight: null };
  }
  await tx.orders.insertRefund(refund);
  return {
    order: { ...order, refunds: [...order.refunds, refund] },
    refund,
    in_flight: { order_id: order.id, refund, slices },
  };
}

/**
 * Step 2 and 3 of a refund in flight (see order-refunds.ts), after the completing transaction
 * committed: asks the providers (keys `<refund id>_<payment id>`), then settles the refund in
 * its own transaction (`completed` / `pending` with its effects, or `failed`). Returns the refund
 * as settled. A provider that cannot be reached throws; the refund stays in flight for
 * `engine.orders.payments.reconcile()`. A `failed` refund leaves the return completed (its stock
 * came back); the merchant refunds another way.
 */
export async function settleReturnRefund(
  ctx: ServiceContext,
  scope: Scope,
  inFlight: RefundInFlight,
): Promise<RefundRecord> {
  const outcome = await refundWithProviders(ctx, inFlight.refund, inFlight.slices);
  return settleRefund(ctx, scope, inFlight.order_id, inFlight.refund.id, outcome);
}
