import { askProviderAbout, isOpenAttempt } from '../checkout/checkout-attempts';
import { closeAttempt, settleAttempt } from '../checkout/checkout-settlement';
import { awaitingDeadline } from '../payments/awaiting-payment';
import { isRefusal } from '../payments/payment-attempt';
import type { PaymentProvider, PaymentResult } from '../ports/payment-provider';
import type { PaymentRecord, Scope } from '../ports/storage';
import type { ServiceContext } from '../shared/context';
import { walkOldestFirst } from '../shared/scheduling/pending-scan';
import { read } from '../shared/unit-of-work';
import { expireAwaitingPayment } from './payment-expiry';
import { syncOrderPayment } from './payment-sync';
import { MIN_PAGE, type RefundReconcileResult, reconcileRefunds } from './refund-reconciliation';

/** Options of `reconcile`. */
export interface ReconcileOptions {
  /**
   * Only payments created at least this long ago are examined, so checkouts still in flight are
   * left to finish. Default 10 minutes (longer than a provider call with its retries can take).
   * Settling an attempt that is still in flight is safe anyway — both paths take the cart's lock
   * and the first one settles it — but it makes the live request answer with the outcome
   * reconciliation chose.
   */
  olderThanMs?: number | undefined;
  /**
   * At most this many pending payments — and this many refunds in flight — are acted on per run,
   * oldest first. Default 500. Pending payments that wait for the admin (see `reconcilePayments`)
   * are passed over without counting.
   */
  limit?: number | undefined;
}

/** What reconciliation did with one pending payment. */
export type ReconcileOutcome =
  /** An open attempt whose money was taken (or is pending): its order was written. */
  | 'order_created'
  /** An open attempt the provider declined: closed, units released. */
  | 'declined'
  /** An open attempt whose order could no longer be written: the money was refunded / voided. */
  | 'refunded'
  | 'cancelled'
  /** A pending payment of an order (3-D Secure, lost webhook) that the provider completed or failed. */
  | 'payment_completed'
  /**
   * A payment the storefront was to confirm in the browser, not paid by its deadline: the order
   * was cancelled (`cancel_reason: "payment_expired"`) and the payment voided (payment-expiry.ts).
   */
  | 'payment_expired'
  | 'payment_failed'
  | 'late_payment_refunded'
  /** Nothing to do yet (manual payments wait for the admin; the customer has not authenticated). */
  | 'unchanged'
  /** The payment's provider is not registered in this engine. */
  | 'skipped'
  /** The provider could not be asked (it stays pending; the next run tries again). */
  | 'error';

export interface ReconcileResult {
  payment_id: string;
  store_id: string;
  mode: 'test' | 'live';
  provider: string;
  outcome: ReconcileOutcome;
  /** The order the payment belongs to after the run, if any. */
  order_id: string | null;
  /** Why, for `error` and `skipped`. */
  message?: string;
}

export interface ReconcileReport {
  /** Pending payments examined, including those passed over (waiting for the admin). */
  checked: number;
  /** What was done with each pending payment acted on (not those passed over). */
  results: ReconcileResult[];
  /** Refunds left in flight (recorded before their provider calls, never settled), settled now. */
  refunds: RefundReconcileResult[];
}

const DEFAULT_OLDER_THAN_MS = 10 * 60 * 1000;
const DEFAULT_LIMIT = 500;

async function reconcileAttempt(
  ctx: ServiceContext,
  scope: Scope,
  provider: PaymentProvider,
  attempt: PaymentRecord,
): Promise<Pick<ReconcileResult, 'outcome' | 'order_id'>> {
  let result: PaymentResult | null;
  try {
    result = await askProviderAbout(provider, attempt);
  } catch (error) {
    if (!isRefusal(error)) throw error;
    await closeAttempt(ctx, scope, attempt, { status: 'failed', failure_reason: error.code });
    return { outcome: 'declined', order_id: null };
  }
  const settled = await settleAttempt(ctx, scope, attempt, provider, result);
  switch (settled.kind) {
    case 'order':
      return { outcome: 'order_created', order_id: settled.order.id };
    case 'declined':
      return { outcome: 'declined', order_id: null };
    case 'refused':
      return { outcome: settled.attempt.status === 'refunded' ? 'refunded' : 'cancelled', order_id: null };
    case 'closed':
      return { outcome: 'cancelled', order_id: settled.attempt.order_id };
  }
}

/**
 * Whether a pending payment can only be settled by the admin, so that reconciliation has nothing
 * to ask anyone: not an open checkout attempt, and either without an order, without a provider id
 * (a manual payment), or of a provider that cannot look payments up. A payment of a provider that
 * is not registered is not passed over: it is reported (`skipped`).
 */
export function waitsForAdmin(ctx: Pick<ServiceContext, 'payments'>, payment: PaymentRecord): boolean {
  const provider = ctx.payments.get(payment.provider);
  if (!provider || isOpenAttempt(payment) || awaitingDeadline(payment) !== null) return false;
  return payment.order_id === null || payment.provider_id === null || !provider.lookupPayment;
}

/**
 * Whether a pending payment awaits the customer's confirmation in the browser and its deadline
 * has not passed: the provider's webhook settles it, so reconciliation passes over it without
 * asking anyone (a busy store has many such checkouts at any moment; asking the provider about
 * each on every run would cost a call apiece). Once the deadline passed, reconciliation asks the
 * provider once and settles or cancels it (`expireAwaitingPayment`).
 */
function waitsForCustomer(payment: PaymentRecord, now: number): boolean {
  const deadline = awaitingDeadline(payment);
  return deadline !== null && deadline > now;
}

async function reconcileOne(ctx: ServiceContext, payment: PaymentRecord): Promise<ReconcileResult> {
  const scope: Scope = { store_id: payment.store_id, mode: payment.mode };
  const base = {
    payment_id: payment.id,
    store_id: payment.store_id,
    mode: payment.mode,
    provider: payment.provider,
    order_id: payment.order_id,
  };
  const provider = ctx.payments.get(payment.provider);
  if (!provider) {
    return {
      ...base,
      outcome: 'skipped',
      message: `payment provider '${payment.provider}' is not registered`,
    };
  }
  try {
    if (isOpenAttempt(payment))
      return { ...base, ...(await reconcileAttempt(ctx, scope, provider, payment)) };
    if (awaitingDeadline(payment) !== null) {
      return { ...base, outcome: await expireAwaitingPayment(ctx, scope, payment, provider) };
    }
    if (payment.order_id === null || payment.provider_id === null || !provider.lookupPayment) {
      return { ...base, outcome: 'unchanged' };
    }
    const observed = await provider.lookupPayment({
      provider_id: payment.provider_id,
      idempotency_key: payment.idempotency_key ?? payment.id,
    });
    if (observed === null) return { ...base, outcome: 'unchanged' };
    return { ...base, outcome: await syncOrderPayment(ctx, scope, payment.id, provider, observed) };
  } catch (error) {
    return { ...base, outcome: 'error', message: error instanceof Error ? error.message : String(error) };
  }
}

/**
 * `engine.payments.reconcile({ olderThanMs })` — and the CLI's `cartwright reconcile`:
 * settles every payment left `pending` by a crash or a lost message, across all stores and modes,
 * oldest first, one at a time.
 *
 * - **Open checkout attempts** (pending, no order; the process died between recording the
 *   attempt and writing the order, or the provider could not be reached): the provider is asked
 *   with the attempt's idempotency key and original input, then the attempt is settled exactly as
 *   a live checkout would have (`settleAttempt`): money taken → the order is written from the
 *   attempt's snapshot (its units are still reserved); declined or unknown to the provider → the
 *   attempt is closed and its units released; the order refused by now (a discount ran out) →
 *   the money is refunded (or voided) and the attempt closed. Afterwards every charge maps to
 *   exactly one order or one refund.
 * - **Pending payments of orders** with a provider id (3-D Secure whose webhook was lost): the
 *   provider's current state is applied as its webhook would have been (`syncOrderPayment`).
 * - **Payments awaiting the customer's confirmation in the browser** (decisions §22): passed over
 *   until their deadline (`EngineConfig.payment_timeout_ms` after checkout; their webhook settles
 *   them before), then settled if the provider took the money, else their order is cancelled
 *   (`payment_expired`, `expireAwaitingPayment`).
 * - Manual payments of orders wait for the admin and are left alone.
 * - **Refunds left in flight** (recorded `pending` before their provider calls; the process died
 *   or the provider could not be reached): asked again under the same keys and settled
 *   (`reconcileRefunds`), with the same age threshold and limit.
 *
 * Failures are reported per payment (`error`) and retried by the next run; a run never throws
 * for one payment. At most `limit` payments are acted on per run. Pending payments that wait for
 * the admin ({@link waitsForAdmin}: unpaid manual orders, which may stay pending for weeks) are
 * passed over without counting and left out of `results` (they count in `checked`): the pending
 * payments are walked in keyset pages (`listPaymentsByStatus` … `after`), so however many of them
 * there are, they never hide the payments behind them that reconciliation can settle.
 */
export async function reconcilePayments(
  ctx: ServiceContext,
  options: ReconcileOptions = {},
): Promise<ReconcileReport> {
  const before = ctx.clock.now() - (options.olderThanMs ?? DEFAULT_OLDER_THAN_MS);
  const limit = options.limit ?? DEFAULT_LIMIT;
  const results: ReconcileResult[] = [];
  let checked = 0;
  if (limit > 0) {
    const pending = walkOldestFirst(
      (after, n) => read(ctx, (tx) => tx.orders.listPaymentsByStatus('pending', before, n, after)),
      Math.max(limit, MIN_PAGE),
    );
    const now = ctx.clock.now();
    for await (const payment of pending) {
      checked++;
      if (waitsForAdmin(ctx, payment) || waitsForCustomer(payment, now)) continue;
      results.push(await reconcileOne(ctx, payment));
      if (results.length >= limit) break;
    }
  }
  const refunds = await reconcileRefunds(ctx, before, limit);
  return { checked, results, refunds };
}
