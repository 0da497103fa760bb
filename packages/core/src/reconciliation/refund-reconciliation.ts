import { inFlightSlices, settleRefund } from '../orders/order-refunds';
import type { PaymentProvider, RefundResult } from '../ports/payment-provider';
import type { OrderAggregate, RefundRecord, Scope } from '../ports/storage';
import { providerCallsInFlight } from '../refunds/refund-ledger';
import { refundablePayments, refundWithProviders } from '../refunds/refund-payments';
import type { ServiceContext } from '../shared/context';
import { walkOldestFirst } from '../shared/scheduling/pending-scan';
import { read } from '../shared/unit-of-work';
import { providerRefundDecision, settleProviderRefund } from './provider-refund-settlement';

/** What reconciliation did with one refund left in flight or pending at its provider. */
export type RefundReconcileOutcome =
  /** The providers refunded the money: the refund is `completed`. */
  | 'refund_completed'
  /** The provider is still processing it: the refund is applied and stays `pending`. */
  | 'refund_pending'
  /** A provider refused: the refund is `failed` (see order-refunds.ts / provider-refund-settlement.ts). */
  | 'refund_failed'
  /** A provider could not be asked (the refund stays as it was; the next run tries again). */
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

/** The fields of a result that name the refund. */
function resultBase(refund: RefundRecord): Omit<RefundReconcileResult, 'outcome' | 'message'> {
  return { refund_id: refund.id, order_id: refund.order_id, store_id: refund.store_id, mode: refund.mode };
}

async function reconcileRefund(ctx: ServiceContext, refund: RefundRecord): Promise<RefundReconcileResult> {
  const scope: Scope = { store_id: refund.store_id, mode: refund.mode };
  const base = resultBase(refund);
  try {
    const order = await read(ctx, (tx) => tx.orders.get(scope, refund.order_id));
    const current = order?.refunds.find((r) => r.id === refund.id);
    if (!order || !current || providerCallsInFlight(current) === null) {
      return { ...base, outcome: outcomeOf(current ?? refund) };
    }
    const outcome = await refundWithProviders(ctx, current, inFlightSlices(order, current));
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
 * The providers that may know a refund pending at its provider: the registered providers with
 * `lookupRefund` of the order's payments that took money, oldest payment first, each once. A
 * refund records one `provider_refund_id` (its first provider slice's), and the refund does not
 * record which provider made it, so each candidate is asked in turn until one knows the id.
 */
function lookupProviders(
  ctx: Pick<ServiceContext, 'payments'>,
  order: Pick<OrderAggregate, 'payments'>,
): PaymentProvider[] {
  const found: PaymentProvider[] = [];
  for (const payment of refundablePayments(order.payments)) {
    const provider = ctx.payments.get(payment.provider);
    if (provider?.lookupRefund && !found.includes(provider)) found.push(provider);
  }
  return found;
}

/** A refund pending at its provider, with what reconciliation needs to ask about it. */
interface PendingAtProvider {
  refund: RefundRecord;
  provider_refund_id: string;
  providers: PaymentProvider[];
}

/**
 * Whether reconciliation can ask about a refund pending at its provider: applied (not in
 * flight), with a `provider_refund_id`, and a provider of its order that has `lookupRefund`.
 * Reads the order (the refund row does not name its provider). Null when there is nothing to ask.
 */
async function pendingAtProvider(
  ctx: ServiceContext,
  refund: RefundRecord,
): Promise<PendingAtProvider | null> {
  if (refund.status !== 'pending' || providerCallsInFlight(refund) !== null) return null;
  const provider_refund_id = refund.provider_refund_id;
  if (provider_refund_id === null) return null;
  const order = await read(ctx, (tx) =>
    tx.orders.get({ store_id: refund.store_id, mode: refund.mode }, refund.order_id),
  );
  if (!order) return null;
  const providers = lookupProviders(ctx, order);
  return providers.length === 0 ? null : { refund, provider_refund_id, providers };
}

/**
 * Asks the providers about a refund pending at one of them (`lookupRefund`) and settles it with
 * `settleProviderRefund` when the answer is final. A refund no provider knows is reported
 * `error` (and asked again next run).
 */
async function reconcilePendingAtProvider(
  ctx: ServiceContext,
  pending: PendingAtProvider,
): Promise<RefundReconcileResult> {
  const { refund } = pending;
  const base = resultBase(refund);
  try {
    let answer: RefundResult | null = null;
    for (const provider of pending.providers) {
      answer = (await provider.lookupRefund?.({ provider_refund_id: pending.provider_refund_id })) ?? null;
      if (answer !== null) break;
    }
    if (answer === null) {
      return {
        ...base,
        outcome: 'error',
        message: `No payment provider of the order knows the refund '${pending.provider_refund_id}'`,
      };
    }
    if (providerRefundDecision(refund, answer.status) === 'unchanged') {
      return { ...base, outcome: outcomeOf(refund) };
    }
    const scope: Scope = { store_id: refund.store_id, mode: refund.mode };
    const settled = await settleProviderRefund(ctx, scope, refund.order_id, refund.id, answer.status, {
      failure_message: answer.failure_message,
    });
    return { ...base, outcome: outcomeOf(settled.refund ?? refund) };
  } catch (error) {
    return { ...base, outcome: 'error', message: error instanceof Error ? error.message : String(error) };
  }
}

/**
 * Settles refunds across all stores and modes, created before `before`, oldest first, acting on
 * at most `limit` of them (each costs provider calls), in two walks over the `pending` refunds
 * (keyset pages, `walkOldestFirst`):
 *
 * 1. refunds a crash or an unreachable provider left IN FLIGHT (recorded `pending` before their
 *    provider calls, never settled; see order-refunds.ts): each provider is asked again for the
 *    same slice under the same idempotency key (`<refund id>_<payment id>`: a provider that
 *    refunded already answers with that refund, none refunds twice), then the refund is settled
 *    as the live request would have (`settleRefund`);
 * 2. with what `limit` leaves, refunds PENDING AT THE PROVIDER (applied, waiting for the provider
 *    to finish: a Stripe refund still processing) that have a `provider_refund_id` and a provider
 *    with `lookupRefund`: the provider is asked and a final answer is settled with
 *    `settleProviderRefund` (`refund_completed` / `refund_failed`; still processing →
 *    `refund_pending`, the refund stays). This catches a lost or never configured refund webhook.
 *
 * Refunds in flight come first so that however many refunds wait at their provider, they never
 * hide a refund in flight (money refunded at the provider but not recorded) behind them; a refund
 * walk 1 settled is not asked again in walk 2 of the same run. Refunds
 * pending at a provider without `lookupRefund` (or without a `provider_refund_id`) are passed
 * over without counting against `limit`; they settle by webhook only. Failures are reported per
 * refund and retried by the next run.
 */
export async function reconcileRefunds(
  ctx: ServiceContext,
  before: number,
  limit: number,
): Promise<RefundReconcileResult[]> {
  const results: RefundReconcileResult[] = [];
  if (limit <= 0) return results;
  const walk = () =>
    walkOldestFirst(
      (after, n) => read(ctx, (tx) => tx.orders.listRefundsByStatus('pending', before, n, after)),
      Math.max(limit, MIN_PAGE),
    );
  for await (const refund of walk()) {
    if (providerCallsInFlight(refund) === null) continue;
    results.push(await reconcileRefund(ctx, refund));
    if (results.length >= limit) return results;
  }
  const settledNow = new Set(results.map((r) => r.refund_id));
  for await (const refund of walk()) {
    if (settledNow.has(refund.id)) continue;
    const pending = await pendingAtProvider(ctx, refund);
    if (pending === null) continue;
    results.push(await reconcilePendingAtProvider(ctx, pending));
    if (results.length >= limit) break;
  }
  return results;
}

/** Rows per page when walking pending rows (a small `limit` still reads in useful pages). */
export const MIN_PAGE = 100;
