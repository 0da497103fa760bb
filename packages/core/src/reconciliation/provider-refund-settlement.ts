import { requireOrder } from '../orders/order-loading';
import { saveOrderProgress } from '../orders/order-progress';
import { markPaymentsRefunded } from '../orders/order-refunds';
import type { RefundResult } from '../ports/payment-provider';
import type { OrderAggregate, PaymentRecord, RefundRecord, Scope } from '../ports/storage';
import { completedRefundTotal, providerCallsInFlight } from '../refunds/refund-ledger';
import { paymentsToMarkRefunded } from '../refunds/refund-payments';
import { refundToWire } from '../refunds/wire';
import type { ServiceContext } from '../shared/context';
import { write } from '../shared/unit-of-work';

/** A refund's status at its provider, as `RefundResult.status`. */
export type ProviderRefundStatus = RefundResult['status'];

/** What {@link settleProviderRefund} did. */
export type ProviderRefundSettlementOutcome = 'refund_completed' | 'refund_failed' | 'unchanged';

/** What becomes of a refund when its provider reports `status` (see {@link providerRefundDecision}). */
export type ProviderRefundDecision = 'complete' | 'fail' | 'unchanged';

/**
 * The rule of a refund pending at its provider (pure). Only a refund that is `pending` and NOT in
 * flight (its effects applied: `providerCallsInFlight(refund) === null`) is settled by what the
 * provider reports: `succeeded` → `complete`, `failed` → `fail`. Anything else is `unchanged`: a
 * refund still in flight belongs to its request or to reconciliation's retry under the same
 * idempotency keys, a settled one stays as it is (provider deliveries are at least once and in
 * any order), and `pending` is what the refund already is.
 *
 * @example providerRefundDecision({ status: 'pending', provider_calls: null }, 'succeeded') // 'complete'
 * @example providerRefundDecision({ status: 'completed', provider_calls: null }, 'failed') // 'unchanged'
 */
export function providerRefundDecision(
  refund: Pick<RefundRecord, 'status' | 'provider_calls'>,
  status: ProviderRefundStatus,
): ProviderRefundDecision {
  if (refund.status !== 'pending' || providerCallsInFlight(refund) !== null) return 'unchanged';
  if (status === 'succeeded') return 'complete';
  if (status === 'failed') return 'fail';
  return 'unchanged';
}

/**
 * The `failure_message` of a refund that failed at its provider after it was applied: the
 * provider's reason, or a generic one. Its restock movements stay (its units stay refunded and
 * restocked). Pure.
 */
export function refundFailureMessage(message: string | null | undefined): string {
  return message ?? 'The payment provider could not refund';
}

/**
 * The refund and payments of an order once a refund pending at its provider settles (pure):
 * `complete` → the refund is `completed` and the payments its money now covers in full become
 * `refunded` (`paymentsToMarkRefunded` over every `completed` refund); `fail` → the refund is
 * `failed` with the provider's reason (`failure_message`) and the payments are as they were.
 * Returns the payments whose status changes in `marked`.
 */
export function settledRefundParts(
  order: Pick<OrderAggregate, 'payments' | 'refunds'>,
  refund: RefundRecord,
  decision: Exclude<ProviderRefundDecision, 'unchanged'>,
  failureMessage: string | null | undefined,
  now: number,
): { refund: RefundRecord; refunds: RefundRecord[]; marked: PaymentRecord[] } {
  const settled: RefundRecord =
    decision === 'complete'
      ? { ...refund, status: 'completed', updated_at: now }
      : {
          ...refund,
          status: 'failed',
          failure_message: refundFailureMessage(failureMessage),
          updated_at: now,
        };
  const refunds = order.refunds.map((r) => (r.id === refund.id ? settled : r));
  if (decision === 'fail') return { refund: settled, refunds, marked: [] };
  return {
    refund: settled,
    refunds,
    marked: paymentsToMarkRefunded(order.payments, completedRefundTotal(refunds)),
  };
}

/** What the provider said about a refund, beyond its status. */
export interface ProviderRefundDetail {
  /** The provider's reason, for `failed` (kept as the refund's `failure_message`). */
  failure_message?: string | null | undefined;
}

/**
 * Settles a refund that its provider answered `pending` (Stripe does for payment methods that
 * refund asynchronously) once the provider reports it final — from its webhook
 * (`handlePaymentWebhook`) or from reconciliation's `lookupRefund`. Such a refund was recorded
 * `pending` WITH its effects applied (units refunded and restocked, fulfillments shrunk, see
 * `settleRefund`), but its money counted nowhere: `refunded_total` counts `completed` refunds.
 *
 * Under the order's lock (`requireOrder(..., { forUpdate: true })`, as the other refund paths),
 * by {@link providerRefundDecision}:
 * - `succeeded` → the refund is `completed`; payments now covered in full become `refunded`; the
 *   order's progress is re-derived and saved (`refunded_total`, `payment_status`); event
 *   `payment.refunded` with the Refund `completed` — the spec's only refund event, sent once when
 *   the refund was recorded `pending` and sent again when a refund pending at the provider settles;
 * - `failed` → the refund is `failed`, the provider's reason in its `failure_message`.
 *   Its money no longer counts anywhere: the refundable amount is back (the order's refund path
 *   sums non-`failed` refunds), so the merchant can refund the money again, by amount. Its units
 *   stay refunded (lines' `refunded_quantity`) and its restock and fulfillment effects stay:
 *   the goods side already happened, undoing a restock could take units sold since, and a retry
 *   with `lines` would otherwise restock twice. Event `payment.refunded` with the Refund `failed`;
 * - anything else → `unchanged` (idempotent: deliveries are at least once, in any order).
 *
 * An unknown order → 404 `not_found` (thrown by `requireOrder`); an unknown refund → `unchanged`.
 */
export async function settleProviderRefund(
  ctx: ServiceContext,
  scope: Scope,
  orderId: string,
  refundId: string,
  status: ProviderRefundStatus,
  detail: ProviderRefundDetail = {},
): Promise<{ outcome: ProviderRefundSettlementOutcome; refund: RefundRecord | null }> {
  return write(ctx, scope, async (work) => {
    const { tx, now } = work;
    const order = await requireOrder(tx, scope, orderId, { forUpdate: true });
    const refund = order.refunds.find((r) => r.id === refundId);
    if (!refund) return { outcome: 'unchanged' as const, refund: null };
    const decision = providerRefundDecision(refund, status);
    if (decision === 'unchanged') return { outcome: 'unchanged' as const, refund };

    const parts = settledRefundParts(order, refund, decision, detail.failure_message, now);
    await tx.orders.updateRefund(scope, refund.id, {
      status: parts.refund.status,
      failure_message: parts.refund.failure_message,
      updated_at: now,
    });
    const payments = await markPaymentsRefunded(work, scope, order.payments, parts.marked);
    work.emit(scope, 'payment.refunded', refundToWire(parts.refund));
    await saveOrderProgress(work, scope, order, { ...order, refunds: parts.refunds, payments });
    return {
      outcome: decision === 'complete' ? ('refund_completed' as const) : ('refund_failed' as const),
      refund: parts.refund,
    };
  });
}
