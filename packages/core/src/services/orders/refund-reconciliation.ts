import type { RefundRecord, Scope } from '../../ports/storage';
import type { ServiceContext } from '../context';
import { read } from '../unit-of-work';
import { inFlightSlices, settleRefund } from './order-refunds';
import { walkOldestFirst } from './pending-scan';
import { providerCallsInFlight } from './refund-ledger';
import { refundWithProviders } from './refund-payments';

/** What reconciliation did with one refund left in flight. */
export type RefundReconcileOutcome =
  /** The providers refunded (or are refunding) the money: the refund was applied. */
  | 'refund_completed'
  | 'refund_pending'
  /** A provider refused: the refund is `failed`, nothing else changed. */
  | 'refund_failed'
  /** A provider could not be asked (the refund stays in flight; the next run tries again). */
  | 'error';

export interface RefundReconcileResult {
  refund_id: string;
  order_id: string;
  store_id: string;
  mode: 'test' | 'live';
  outcome: RefundReconcileOutcome;
  /** Why, for `error`. */
  message?: string;
}

async function reconcileRefund(ctx: ServiceContext, refund: RefundRecord): Promise<RefundReconcileResult> {
  const scope: Scope = { store_id: refund.store_id, mode: refund.mode };
  const base = {
    refund_id: refund.id,
    order_id: refund.order_id,
    store_id: refund.store_id,
    mode: refund.mode,
  };
  try {
    const order = await read(ctx, (tx) => tx.orders.get(scope, refund.order_id));
    const current = order?.refunds.find((r) => r.id === refund.id);
    if (!order || !current || providerCallsInFlight(current) === null) {
      return { ...base, outcome: outcomeOf(current ?? refund) };
    }
    const outcome = await refundWithProviders(
      ctx,
      current.id,
      inFlightSlices(order, current),
      current.reason,
    );
    const settled = await settleRefund(ctx, scope, order.id, current.id, outcome);
    return { ...base, outcome: outcomeOf(settled) };
  } catch (error) {
    return { ...base, outcome: 'error', message: error instanceof Error ? error.message : String(error) };
  }
}

function outcomeOf(refund: Pick<RefundRecord, 'status'>): RefundReconcileOutcome {
  return refund.status === 'completed'
    ? 'refund_completed'
    : refund.status === 'failed'
      ? 'refund_failed'
      : 'refund_pending';
}

/**
 * Settles the refunds a crash or an unreachable provider left in flight (recorded `pending`
 * before their provider calls, never settled; see order-refunds.ts), across all stores and modes,
 * oldest first, created before `before`, at most `limit` of them: each provider is asked again for
 * the same slice under the same idempotency key (`<refund id>_<payment id>`: a provider that
 * refunded already answers with that refund, none refunds twice), then the refund is settled as
 * the live request would have (`settleRefund`). Refunds `pending` at the provider with their
 * effects applied (a Stripe refund still processing) are not in flight: they are passed over
 * without counting against `limit` — the pending refunds are walked in keyset pages — so however
 * many of them there are, they never hide a refund in flight behind them. Failures are reported
 * per refund and retried by the next run.
 */
export async function reconcileRefunds(
  ctx: ServiceContext,
  before: number,
  limit: number,
): Promise<RefundReconcileResult[]> {
  const results: RefundReconcileResult[] = [];
  if (limit <= 0) return results;
  const pending = walkOldestFirst(
    (after, n) => read(ctx, (tx) => tx.orders.listRefundsByStatus('pending', before, n, after)),
    Math.max(limit, MIN_PAGE),
  );
  for await (const refund of pending) {
    if (providerCallsInFlight(refund) === null) continue;
    results.push(await reconcileRefund(ctx, refund));
    if (results.length >= limit) break;
  }
  return results;
}

/** Rows per page when walking pending rows (a small `limit` still reads in useful pages). */
export const MIN_PAGE = 100;
