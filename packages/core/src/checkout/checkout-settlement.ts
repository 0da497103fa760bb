import { emitInventoryCrossings } from '../inventory/inventory-events';
import { releaseInventory } from '../inventory/inventory-writes';
import { providerFieldsOf } from '../payments/awaiting-payment';
import { isDeclined, isRefusal, paymentStatusOf } from '../payments/payment-attempt';
import type { PaymentRecordStatus } from '../payments/vocabulary';
import type { PaymentProvider, PaymentResult } from '../ports/payment-provider';
import type { CartRecord, OrderAggregate, PaymentRecord, Scope } from '../ports/storage';
import type { ServiceContext } from '../shared/context';
import { CommerceError } from '../shared/errors';
import { type Work, type WriteOptions, write } from '../shared/unit-of-work';
import { attemptToWire, isOpenAttempt, readSnapshot } from './checkout-attempts';
import { writeCheckoutOrder } from './checkout-order';

/** How a checkout attempt ended. */
export type AttemptSettlement =
  /**
   * The order was written (now, or before by another path: the same order). `client_secret`: the
   * provider's, for checkout's answer (`payment`), when it gave one.
   */
  | { kind: 'order'; order: OrderAggregate; client_secret?: string | null }
  /** The provider declined: no order, reservations released, `payment.failed` emitted. */
  | { kind: 'declined'; attempt: PaymentRecord; message: string; code: string | null }
  /**
   * The provider took (or held) the money but the order transaction refused (e.g. the discount
   * ran out meanwhile): the money was given back (refund or void), no order, `error` says why.
   */
  | { kind: 'refused'; attempt: PaymentRecord; error: CommerceError }
  /** The attempt had already been settled without an order (by reconciliation). */
  | { kind: 'closed'; attempt: PaymentRecord };

/** The attempt an operation settles: its id, and the cart it pays for (never changes). */
export type AttemptRef = Pick<PaymentRecord, 'id' | 'cart_id'>;

/**
 * Locks an attempt's cart (`forUpdate`) and reads the attempt under that lock. Every path that
 * settles an attempt — checkout itself, reconciliation — takes this lock first, so they run one
 * after the other and each sees what the other did: an attempt is settled exactly once. The
 * cart id comes from the caller's copy of the attempt (a payment's `cart_id` is written once, at
 * insert), so the attempt is read once, after the lock.
 */
async function lockAttempt(
  work: Work,
  scope: Scope,
  ref: AttemptRef,
): Promise<{ attempt: PaymentRecord; cart: CartRecord | null }> {
  const { tx } = work;
  const cart = ref.cart_id === null ? null : await tx.carts.get(scope, ref.cart_id, { forUpdate: true });
  const attempt = await tx.orders.getPayment(scope, ref.id);
  if (!attempt) throw new CommerceError('not_found', `No such payment: '${ref.id}'`);
  return { attempt, cart };
}

/** What closing an attempt without an order records. */
export interface CloseAttemptInput {
  status: Extract<PaymentRecordStatus, 'failed' | 'cancelled' | 'refunded'>;
  failure_reason: string | null;
  provider_id?: string | null | undefined;
}

/**
 * Closes an open attempt without an order, in one transaction: releases the units its claim
 * reserved, marks it (`failed`: declined; `cancelled`: voided or never charged; `refunded`: money
 * taken and given back), drops its snapshot, and emits `payment.failed` with the attempt
 * (`order_id: null`, `cart_id`). Returns the attempt as it stands; an attempt already settled is
 * returned unchanged (idempotent).
 */
export async function closeAttempt(
  ctx: ServiceContext,
  scope: Scope,
  ref: AttemptRef,
  input: CloseAttemptInput,
  options?: WriteOptions<PaymentRecord>,
): Promise<PaymentRecord> {
  return write(
    ctx,
    scope,
    async (work) => {
      const { tx, now } = work;
      const { attempt } = await lockAttempt(work, scope, ref);
      if (!isOpenAttempt(attempt)) return attempt;
      const snapshot = readSnapshot(attempt);
      if (snapshot.reserved.length > 0) {
        emitInventoryCrossings(work, scope, await releaseInventory(tx, scope, snapshot.reserved, now));
      }
      const closed = await tx.orders.updatePayment(
        scope,
        attempt.id,
        {
          status: input.status,
          failure_reason: input.failure_reason,
          provider_id: input.provider_id ?? attempt.provider_id,
          client_secret: null,
          checkout_snapshot: null,
          updated_at: now,
        },
        { expect_status: 'pending' },
      );
      if (!closed)
        throw new CommerceError('internal_error', `Checkout attempt '${attempt.id}' changed meanwhile`);
      work.emit(scope, 'payment.failed', attemptToWire(closed));
      return closed;
    },
    options,
  );
}

/**
 * The order transaction: writes the attempt's order from its snapshot with the provider's
 * outcome (`succeeded` → payment `completed`, order `confirmed`; `pending` / `requires_action` →
 * both `pending`, the `client_secret` kept for the storefront; `awaiting_payment` → the same, the
 * order's `payment_status` `awaiting_payment` until the storefront's confirmation is settled or
 * its deadline passes, see `payments/awaiting-payment.ts`). Returns null when the attempt was
 * closed meanwhile, or the order it already became.
 */
async function writeAttemptOrder(
  ctx: ServiceContext,
  scope: Scope,
  ref: AttemptRef,
  result: PaymentResult,
  options?: WriteOptions<OrderAggregate | null>,
): Promise<OrderAggregate | null> {
  return write(
    ctx,
    scope,
    async (work) => {
      const { tx, now } = work;
      const { attempt, cart } = await lockAttempt(work, scope, ref);
      if (attempt.order_id !== null) return tx.orders.get(scope, attempt.order_id);
      if (!isOpenAttempt(attempt)) return null;
      const snapshot = readSnapshot(attempt);
      const payment: PaymentRecord = {
        ...attempt,
        order_id: snapshot.order.id,
        status: paymentStatusOf(result),
        provider_id: result.provider_id ?? attempt.provider_id,
        ...providerFieldsOf(result, attempt.created_at, ctx.config, attempt.metadata),
        checkout_snapshot: null,
        updated_at: now,
      };
      return writeCheckoutOrder(ctx, work, scope, {
        cart: cart ?? { id: snapshot.order.cart_id ?? '', status: 'abandoned' },
        draft: snapshot.order,
        customer_key: snapshot.customer_key,
        payment,
        payment_row: 'attempt',
      });
    },
    options,
  );
}

/**
 * Gives back money the provider took (or holds) for an attempt that cannot become an order:
 * a `succeeded` payment is refunded in full, an uncaptured one (`pending`, `requires_action`) is
 * voided where the provider can, a manual one took nothing. The provider calls carry keys derived
 * from the attempt id, so a retry (reconciliation after a crash here) never refunds twice.
 * Returns the status to record. A refused refund throws `payment_provider_unavailable`: the
 * attempt stays open and reconciliation tries again.
 */
async function giveBack(
  provider: PaymentProvider,
  attempt: PaymentRecord,
  result: PaymentResult,
): Promise<'refunded' | 'cancelled'> {
  const provider_id = result.provider_id ?? attempt.provider_id;
  if (provider_id === null) return 'cancelled';
  if (result.status === 'succeeded') {
    const refund = await provider.refundPayment({
      provider_id,
      amount: attempt.amount,
      currency: attempt.currency,
      idempotency_key: `${attempt.id}_giveback`,
      reason: null,
    });
    if (refund.status === 'failed') {
      throw new CommerceError(
        'payment_provider_unavailable',
        `The provider refused to refund checkout attempt '${attempt.id}': ${refund.failure_message ?? 'no reason given'}`,
      );
    }
    return 'refunded';
  }
  if (provider.cancelPayment) {
    await provider.cancelPayment({ provider_id, idempotency_key: `${attempt.id}_void` });
  }
  return 'cancelled';
}

/**
 * Settles an open checkout attempt with the provider's outcome — checkout's second step, and
 * reconciliation's. `null` means the provider never saw the payment: the attempt is cancelled.
 *
 * - declined (`failed`, `cancelled`) → the attempt is closed (`failed` / `cancelled`), its units
 *   released, `payment.failed` emitted: no order, the cart stays `active`;
 * - otherwise the order transaction runs (`writeCheckoutOrder`). If a business rule refuses it
 *   (a discount that ran out since the claim), the money is given back (`giveBack`) and the
 *   attempt closed with that reason; any other failure (a crash, the database) leaves the
 *   attempt open for reconciliation, with its units still reserved.
 */
export async function settleAttempt(
  ctx: ServiceContext,
  scope: Scope,
  attempt: PaymentRecord,
  provider: PaymentProvider,
  result: PaymentResult | null,
  answer?: (settled: AttemptSettlement) => unknown,
): Promise<AttemptSettlement> {
  // Each path ends in one transaction; under an Idempotency-Key it stores the request's answer
  // for the settlement it leads to (`answer`: checkout's), in that same transaction.
  const answering = <T>(settlement: (value: T) => AttemptSettlement): WriteOptions<T> | undefined =>
    answer === undefined ? undefined : { answer: (value) => answer(settlement(value)) };
  if (result === null) {
    const closed = await closeAttempt(
      ctx,
      scope,
      attempt,
      { status: 'cancelled', failure_reason: 'unknown_to_provider' },
      answering((closed: PaymentRecord) => ({ kind: 'closed', attempt: closed })),
    );
    return { kind: 'closed', attempt: closed };
  }
  if (isDeclined(result)) {
    const declined = (closed: PaymentRecord): AttemptSettlement => ({
      kind: 'declined',
      attempt: closed,
      message: result.failure_message ?? 'The payment was declined',
      code: result.failure_code ?? null,
    });
    const closed = await closeAttempt(
      ctx,
      scope,
      attempt,
      {
        status: result.status === 'cancelled' ? 'cancelled' : 'failed',
        failure_reason: result.failure_code ?? result.failure_message ?? 'declined',
        provider_id: result.provider_id,
      },
      answering(declined),
    );
    return declined(closed);
  }
  let order: OrderAggregate | null;
  try {
    order = await writeAttemptOrder(
      ctx,
      scope,
      attempt,
      result,
      // null: settled without an order meanwhile (`closed` below; its answer needs only the attempt's id).
      answering((written: OrderAggregate | null) =>
        written === null
          ? { kind: 'closed', attempt }
          : { kind: 'order', order: written, client_secret: result.client_secret ?? null },
      ),
    );
  } catch (error) {
    if (!isRefusal(error)) throw error;
    const status = await giveBack(provider, attempt, result);
    const closed = await closeAttempt(
      ctx,
      scope,
      attempt,
      { status, failure_reason: error.code, provider_id: result.provider_id },
      answering((closed: PaymentRecord) => ({ kind: 'refused', attempt: closed, error })),
    );
    return { kind: 'refused', attempt: closed, error };
  }
  if (order === null) {
    const current = await ctx.storage.read((tx) => tx.orders.getPayment(scope, attempt.id));
    return { kind: 'closed', attempt: current ?? attempt };
  }
  return { kind: 'order', order, client_secret: result.client_secret ?? null };
}
