import { CommerceError } from '../../errors';
import type { RefundResult } from '../../ports/payment-provider';
import type { PaymentRecord, RefundRecordStatus } from '../../ports/storage';
import { paymentStatusAfterRefunds } from '../../state';
import type { ServiceContext } from '../context';

/** A part of a refund taken from one payment. */
export interface RefundSlice {
  payment: PaymentRecord;
  amount: number;
}

/** Payments that took money, oldest first: the ones refunds draw on. */
export function refundablePayments(payments: readonly PaymentRecord[]): PaymentRecord[] {
  return payments
    .filter((p) => p.status === 'completed' || p.status === 'refunded')
    .sort((a, b) => a.created_at - b.created_at || (a.id < b.id ? -1 : a.id > b.id ? 1 : 0));
}

/**
 * How much of each payment the refunds up to `refunded` cover: refunds draw on payments oldest
 * first, each up to its amount (a fixed allocation, so it needs no per-payment column).
 *
 * @example refundedPerPayment([{ amount: 3000 }, { amount: 2000 }], 3500) // [3000, 500]
 */
export function refundedPerPayment(
  payments: ReadonlyArray<Pick<PaymentRecord, 'amount'>>,
  refunded: number,
): number[] {
  let start = 0;
  return payments.map((p) => {
    const covered = Math.min(Math.max(refunded - start, 0), p.amount);
    start += p.amount;
    return covered;
  });
}

/**
 * Splits a refund of `amount` over the payments, after refunds totalling `before` (every
 * non-failed refund: pending ones are money on its way back too).
 *
 * @example refundSlices([payA(3000), payB(2000)], 2500, 1000) // [{ payA, 500 }, { payB, 500 }]
 */
export function refundSlices(
  payments: readonly PaymentRecord[],
  before: number,
  amount: number,
): RefundSlice[] {
  const ordered = refundablePayments(payments);
  const was = refundedPerPayment(ordered, before);
  const now = refundedPerPayment(ordered, before + amount);
  return ordered
    .map((payment, i) => ({ payment, amount: (now[i] ?? 0) - (was[i] ?? 0) }))
    .filter((slice) => slice.amount > 0);
}

/**
 * Payment statuses after completed refunds totalling `completedRefunds`: a payment whose amount
 * the refunds cover becomes `refunded` (`paymentStatusAfterRefunds`). Returns only the payments
 * whose status changes.
 */
export function paymentsToMarkRefunded(
  payments: readonly PaymentRecord[],
  completedRefunds: number,
): PaymentRecord[] {
  const ordered = refundablePayments(payments);
  const covered = refundedPerPayment(ordered, completedRefunds);
  return ordered.filter(
    (p, i) =>
      p.status === 'completed' &&
      paymentStatusAfterRefunds({ amount: p.amount, refunded: covered[i] ?? 0 }) === 'refunded',
  );
}

/**
 * Asks each payment's provider to refund its slice (decisions §13: "the provider refunds the
 * money (manual: recorded)"). Payments whose `provider` is not a registered provider — labels such
 * as `cash` on payments the admin recorded — are refunded outside the engine and recorded as is.
 * All succeeded → `completed`; any pending → `pending`; any failure → 402 `payment_failed` (the
 * caller's transaction rolls back, nothing is recorded). Returns the refund status and the first
 * provider refund id.
 *
 * Each provider call carries the provider's payment id and the idempotency key
 * `<refund id>_<payment id>`, so a retried call never refunds twice.
 *
 * Known limit (issue 6): the provider is called inside the refund's transaction (the order row is
 * locked meanwhile, and on SQLite every writer waits). If the commit failed after the provider
 * refunded, the refund would not be recorded and a new request would get a new refund id. The
 * fix mirrors checkout: record the refund `pending` first, call the provider outside the
 * transaction, then complete it — which needs a storage listing of pending refunds for
 * reconciliation (`listRefundsByStatus`), not in the port today.
 */
export async function refundWithProviders(
  ctx: Pick<ServiceContext, 'payments'>,
  refundId: string,
  slices: readonly RefundSlice[],
  reason: string | null,
): Promise<{ status: RefundRecordStatus; provider_refund_id: string | null }> {
  let status: RefundRecordStatus = 'completed';
  let provider_refund_id: string | null = null;
  for (const { payment, amount } of slices) {
    const provider = ctx.payments.get(payment.provider);
    if (!provider) continue;
    const result: RefundResult = await provider.refundPayment({
      provider_id: payment.provider_id,
      amount,
      currency: payment.currency,
      idempotency_key: `${refundId}_${payment.id}`,
      reason,
    });
    if (result.status === 'failed') {
      throw new CommerceError(
        'payment_failed',
        result.failure_message ?? 'The payment provider refused the refund',
        {
          data: { payment_id: payment.id },
        },
      );
    }
    if (result.status === 'pending') status = 'pending';
    provider_refund_id ??= result.provider_refund_id;
  }
  return { status, provider_refund_id };
}
