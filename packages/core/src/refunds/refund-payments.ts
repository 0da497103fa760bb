import { isRefusal } from '../payments/payment-attempt';
import { paymentStatusAfterRefunds } from '../payments/payment-transitions';
import type { RefundResult } from '../ports/payment-provider';
import type { PaymentRecord, RefundRecord } from '../ports/storage';
import type { ServiceContext } from '../shared/context';

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

/** What the providers answered for a refund's slices. */
export type RefundProviderOutcome =
  | { status: 'completed' | 'pending'; provider_refund_id: string | null }
  | { status: 'failed'; payment_id: string; message: string };

/** Whether any slice is drawn on a payment whose provider is registered (so a call is needed). */
export function needsProviderCall(
  ctx: Pick<ServiceContext, 'payments'>,
  slices: readonly RefundSlice[],
): boolean {
  return slices.some(({ payment }) => ctx.payments.get(payment.provider) !== undefined);
}

/**
 * Asks each payment's provider to refund its slice (docs/contract.md#refunds: "the provider refunds the
 * money (manual: recorded)"). Payments whose `provider` is not a registered provider — labels such
 * as `cash` on payments the admin recorded — are refunded outside the engine and recorded as is.
 * All succeeded → `completed`; any pending → `pending`; a provider that answers `failed` or
 * throws a refusal (a {@link CommerceError} other than `payment_provider_unavailable` /
 * `internal_error`) → `failed`, and the slices after it are not asked. Any other error (the
 * provider could not be reached: the outcome is unknown) is thrown; the refund stays in flight
 * and a retry — `settleRefund` after reconciliation — asks again under the same keys.
 *
 * Each provider call carries the provider's payment id and the idempotency key
 * `<refund id>_<payment id>`, so a retried call never refunds twice, and our ids as its
 * `reference` (the refund's id, order, store and mode), which the provider keeps in its
 * metadata so that a refund it settles later finds its way back through its webhook.
 *
 * Known limit: a refund drawn on two payments of registered providers whose second call fails
 * after the first succeeded is recorded `failed` although the first slice was refunded (one
 * refund record has one status). Orders paid by two provider payments are rare (checkout makes
 * one payment); the provider's records show the slice.
 */
export async function refundWithProviders(
  ctx: Pick<ServiceContext, 'payments'>,
  refund: Pick<RefundRecord, 'id' | 'order_id' | 'store_id' | 'mode' | 'reason'>,
  slices: readonly RefundSlice[],
): Promise<RefundProviderOutcome> {
  const refundId = refund.id;
  const reason = refund.reason;
  const reference = {
    refund_id: refundId,
    order_id: refund.order_id,
    store_id: refund.store_id,
    mode: refund.mode,
  };
  let status: 'completed' | 'pending' = 'completed';
  let provider_refund_id: string | null = null;
  for (const { payment, amount } of slices) {
    const provider = ctx.payments.get(payment.provider);
    if (!provider) continue;
    let result: RefundResult;
    try {
      result = await provider.refundPayment({
        provider_id: payment.provider_id,
        amount,
        currency: payment.currency,
        idempotency_key: `${refundId}_${payment.id}`,
        reason,
        reference,
      });
    } catch (error) {
      if (!isRefusal(error)) throw error;
      return { status: 'failed', payment_id: payment.id, message: error.message };
    }
    if (result.status === 'failed') {
      return {
        status: 'failed',
        payment_id: payment.id,
        message: result.failure_message ?? 'The payment provider refused the refund',
      };
    }
    if (result.status === 'pending') status = 'pending';
    provider_refund_id ??= result.provider_refund_id;
  }
  return { status, provider_refund_id };
}
