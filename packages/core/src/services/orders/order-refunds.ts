import { CommerceError } from '../../errors';
import type { OrderAggregate, RefundRecord, Scope } from '../../ports/storage';
import { computeRefund, type RestockMovement, splitRestock } from '../../refunds';
import type { RefundCreate } from '../../schemas/orders';
import { amountInStoreCurrency } from '../carts/money-input';
import type { ServiceContext } from '../context';
import { emitInventoryCrossings } from '../inventory-events';
import { type Work, write } from '../unit-of-work';
import { refundToWire } from '../wire/orders';
import { requireOrder } from './order-loading';
import { deriveProgress, saveOrderProgress } from './order-progress';
import { inFlightMetadata, providerCallsInFlight, restockMetadata, unitsInFlight } from './refund-ledger';
import {
  needsProviderCall,
  paymentsToMarkRefunded,
  type RefundProviderOutcome,
  type RefundSlice,
  refundSlices,
  refundWithProviders,
} from './refund-payments';

/**
 * Refunds (decisions §10, §13). `POST /v1/admin/orders/{id}/refunds` computes the refund with
 * `computeRefund` — the amount defaults to what was paid for the given lines' units (discounted
 * line total, plus tax when prices exclude it), never more than paid minus refunded (422
 * `refund_exceeds_refundable`) nor more units than a line has left (422
 * `quantity_exceeds_refundable`) — has the providers refund it, then records it and lets
 * everything follow (`applyRefund`): line `refunded_quantity` (and `restocked_quantity`),
 * inventory (with `restock: true`: unfulfilled units leave `reserved`, shipped ones return to
 * `on_hand`), the order's `refunded_total`, `payment_status` and `fulfillment_status`
 * (`returned` when every fulfilled unit came back), and payments fully covered become `refunded`.
 * Event `payment.refunded` with the Refund.
 *
 * No provider call is made inside a database transaction (the order row stays locked, and on
 * SQLite every writer waits, only for statements). A refund that needs one runs in three steps:
 * 1. one transaction records the refund `pending` with the provider calls it will make
 *    (`inFlightMetadata`); its amount and units count as taken from then on, so a concurrent
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
      const begun = await write(ctx, async (work) => {
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
        const computed = computeRefund({
          lines: order.lines.map((line) => {
            const units = inFlight.get(line.id);
            return units === undefined
              ? line
              : { ...line, refunded_quantity: line.refunded_quantity + units };
          }),
          prices_include_tax: order.prices_include_tax,
          paid: progress.paid_total,
          refunded_total: outstanding,
          request: { lines: input.lines, amount, restock: input.restock },
          inventory_reserved: order.inventory_reserved,
        });
        const slices = computed.amount > 0 ? refundSlices(order.payments, outstanding, computed.amount) : [];
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
          metadata: inFlightMetadata(slices.map((s) => ({ payment_id: s.payment.id, amount: s.amount }))),
          created_at: now,
          updated_at: now,
        };
        if (!needsProviderCall(ctx, slices)) {
          const movements = restockMovements(order, refund);
          const settled: RefundRecord = {
            ...refund,
            status: 'completed',
            metadata: restockMetadata(movements),
          };
          await tx.orders.insertRefund(settled);
          await applyRefund(work, scope, order, settled, movements);
          return { done: refundToWire(settled) };
        }
        await tx.orders.insertRefund(refund);
        return { refund, slices };
      });
      if ('done' in begun) return begun.done;
      const outcome = await refundWithProviders(ctx, begun.refund.id, begun.slices, begun.refund.reason);
      const settled = await settleRefund(ctx, scope, orderId, begun.refund.id, outcome);
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
): Promise<RefundRecord> {
  return write(ctx, async (work) => {
    const { tx, now } = work;
    const order = await requireOrder(tx, scope, orderId, { forUpdate: true });
    const refund = order.refunds.find((r) => r.id === refundId);
    if (!refund) throw new CommerceError('internal_error', `Refund '${refundId}' vanished while in flight`);
    if (providerCallsInFlight(refund) === null) return refund;
    if (outcome.status === 'failed') {
      const failed = await tx.orders.updateRefund(scope, refund.id, {
        status: 'failed',
        metadata: {},
        updated_at: now,
      });
      return failed ?? { ...refund, status: 'failed', metadata: {}, updated_at: now };
    }
    const movements = restockMovements(order, refund);
    const settled: RefundRecord = {
      ...refund,
      status: outcome.status,
      provider_refund_id: outcome.provider_refund_id,
      metadata: restockMetadata(movements),
      updated_at: now,
    };
    await tx.orders.updateRefund(scope, refund.id, {
      status: settled.status,
      provider_refund_id: settled.provider_refund_id,
      metadata: settled.metadata,
      updated_at: now,
    });
    await applyRefund(work, scope, order, settled, movements);
    return settled;
  });
}

/**
 * Where a restocking refund's units go (`splitRestock`), computed from the order as it is now:
 * units refunded before took the unfulfilled units first. Empty without `restock`.
 */
function restockMovements(order: OrderAggregate, refund: RefundRecord): RestockMovement[] {
  if (!refund.restock) return [];
  const byId = new Map(order.lines.map((line) => [line.id, line]));
  return refund.lines.flatMap((l) => {
    const line = byId.get(l.order_line_id);
    return line ? [splitRestock(line.id, line, l.quantity, order.inventory_reserved)] : [];
  });
}

/**
 * What follows a refund that took (or is taking) the money, in the caller's transaction (its
 * row is written already, with `movements` in its metadata): its lines' refunded (and
 * restocked) units, inventory, payments covered in full (`refunded`), the order's progress;
 * events `payment.refunded` and inventory crossings.
 */
async function applyRefund(
  work: Work,
  scope: Scope,
  order: OrderAggregate,
  refund: RefundRecord,
  movements: readonly RestockMovement[],
): Promise<void> {
  const { tx, now } = work;

  const units = new Map(refund.lines.map((l) => [l.order_line_id, l.quantity]));
  const lines = order.lines.map((line) => {
    const q = units.get(line.id);
    if (q === undefined) return line;
    return {
      ...line,
      refunded_quantity: line.refunded_quantity + q,
      restocked_quantity: line.restocked_quantity + (refund.restock ? q : 0),
    };
  });
  if (units.size > 0) {
    await tx.orders.updateLines(
      scope,
      order.id,
      lines
        .filter((l) => units.has(l.id))
        .map((l) => ({
          id: l.id,
          refunded_quantity: l.refunded_quantity,
          restocked_quantity: l.restocked_quantity,
        })),
    );
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
  const changes = restock.size > 0 ? await tx.inventory.restock(scope, [...restock.values()], now) : [];

  const refunds = [...order.refunds.filter((r) => r.id !== refund.id), refund];
  const completedRefunds = refunds
    .filter((r) => r.status === 'completed')
    .reduce((sum, r) => sum + r.amount, 0);
  const marked = new Set(paymentsToMarkRefunded(order.payments, completedRefunds).map((p) => p.id));
  const payments = await Promise.all(
    order.payments.map(async (p) => {
      if (!marked.has(p.id)) return p;
      const updated = await tx.orders.updatePayment(
        scope,
        p.id,
        { status: 'refunded', updated_at: now },
        { expect_status: 'completed' },
      );
      return updated ?? p;
    }),
  );

  work.emit(scope, 'payment.refunded', refundToWire(refund));
  await saveOrderProgress(work, scope, order, { ...order, lines, refunds, payments });
  emitInventoryCrossings(work, scope, changes);
}
