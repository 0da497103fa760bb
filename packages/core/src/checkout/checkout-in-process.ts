import { emitInventoryCrossings } from '../inventory/inventory-events';
import { releaseInventory } from '../inventory/inventory-writes';
import { providerFieldsOf } from '../payments/awaiting-payment';
import { declineMessage, isDeclined, isRefusal, paymentStatusOf } from '../payments/payment-attempt';
import type { PaymentRecordStatus } from '../payments/vocabulary';
import type { CreatePaymentInput, PaymentProvider, PaymentResult } from '../ports/payment-provider';
import type { CartRecord, InventoryMovement, OrderAggregate, PaymentRecord, Scope } from '../ports/storage';
import type { ServiceContext } from '../shared/context';
import type { Work } from '../shared/unit-of-work';
import { attemptToWire } from './checkout-attempts';
import { writeCheckoutOrder } from './checkout-order';
import type { AttemptSettlement } from './checkout-settlement';

/** What the single-transaction checkout needs from the claim. */
export interface InProcessCheckout {
  provider: PaymentProvider;
  /** The cart, locked by the claim and still `active`. */
  cart: Pick<CartRecord, 'id' | 'status'>;
  /** The priced order (`number` 0, no payments). */
  draft: OrderAggregate;
  customer_key: string;
  /** The units the claim reserved (tracked variants only), released again on a decline. */
  reserved: InventoryMovement[];
  /** The provider input: the same key (`checkout_<cart>_<n>`) and ids as a recorded attempt. */
  payment: CreatePaymentInput;
}

/** The outcomes of a single-transaction checkout (a subset of an attempt's settlements). */
export type InProcessSettlement = Extract<AttemptSettlement, { kind: 'order' | 'declined' | 'refused' }>;

/**
 * Checkout's provider step and order write for a provider that `settlesInProcess` (the manual
 * one), inside the claim's transaction: the provider is asked, and then
 *
 * - it accepted (`pending`, `succeeded`, `requires_action`): discount uses, number, order, and
 *   the payment row — inserted once, already in its final state and linked to the order — and
 *   the cart completed, by `writeCheckoutOrder`. Nothing is read back: the records built here are
 *   the ones returned. A business refusal there (a discount used up concurrently) throws and
 *   rolls the whole transaction back: no order, number, use, reservation or payment remains —
 *   the same outcome as a refusal found by the claim's own checks.
 * - it declined (`failed` / `cancelled`), or threw a refusal (`isRefusal`): exactly what the
 *   two-transaction path leaves behind — the reservation is released again (its threshold events
 *   stay, as they were committed with the claim there), one payment row is inserted in its final
 *   state (`failed` / `cancelled`, `order_id: null`, the attempt's key and `cart_id`, the reason
 *   in `failure_reason`), `payment.failed` is emitted, the cart stays `active` with the body's
 *   addresses and metadata — and the transaction COMMITS; the caller answers 402
 *   `payment_failed` (or rethrows the refusal) afterwards.
 * - it threw anything else: the contract of `settlesInProcess` says it cannot; the error
 *   propagates and the transaction rolls back entirely (nothing happened at a provider that does
 *   no I/O, so there is nothing to reconcile).
 */
export async function settleInProcess(
  ctx: ServiceContext,
  work: Work,
  scope: Scope,
  input: InProcessCheckout,
): Promise<InProcessSettlement> {
  const { provider, draft, payment: request } = input;
  let result: PaymentResult;
  try {
    result = await provider.createPayment(request);
  } catch (error) {
    if (!isRefusal(error)) throw error;
    const attempt = await recordClosedAttempt(work, scope, input, {
      status: 'failed',
      failure_reason: error.code,
      provider_id: null,
    });
    return { kind: 'refused', attempt, error };
  }
  if (isDeclined(result)) {
    const attempt = await recordClosedAttempt(work, scope, input, {
      status: result.status === 'cancelled' ? 'cancelled' : 'failed',
      failure_reason: result.failure_code ?? result.failure_message ?? 'declined',
      provider_id: result.provider_id,
    });
    return { kind: 'declined', attempt, message: declineMessage(result), code: result.failure_code ?? null };
  }
  const fields = providerFieldsOf(result, work.now, ctx.config);
  const payment: PaymentRecord = {
    ...paymentRecord(work, scope, input, {
      order_id: draft.id,
      status: paymentStatusOf(result),
      provider_id: result.provider_id ?? null,
      client_secret: fields.client_secret,
      failure_reason: null,
    }),
    metadata: fields.metadata,
  };
  const order = await writeCheckoutOrder(ctx, work, scope, {
    cart: input.cart,
    draft,
    customer_key: input.customer_key,
    payment,
    payment_row: 'new',
  });
  return { kind: 'order', order, client_secret: result.client_secret ?? null };
}

/** The payment row of this checkout with its outcome fields. */
function paymentRecord(
  work: Work,
  scope: Scope,
  input: InProcessCheckout,
  outcome: Pick<PaymentRecord, 'order_id' | 'status' | 'provider_id' | 'client_secret' | 'failure_reason'>,
): PaymentRecord {
  const { payment } = input;
  return {
    id: payment.reference.payment_id,
    store_id: scope.store_id,
    mode: scope.mode,
    provider: input.provider.name,
    amount: payment.amount,
    currency: payment.currency,
    idempotency_key: payment.idempotency_key,
    cart_id: input.cart.id,
    note: null,
    metadata: {},
    checkout_snapshot: null,
    created_at: work.now,
    updated_at: work.now,
    ...outcome,
  };
}

/**
 * A declined or refused attempt, as `closeAttempt` leaves it on the two-transaction path: units
 * released, the payment row in its final state (no order), `payment.failed` emitted.
 */
async function recordClosedAttempt(
  work: Work,
  scope: Scope,
  input: InProcessCheckout,
  closed: {
    status: Extract<PaymentRecordStatus, 'failed' | 'cancelled'>;
    failure_reason: string;
    provider_id: string | null;
  },
): Promise<PaymentRecord> {
  if (input.reserved.length > 0) {
    emitInventoryCrossings(work, scope, await releaseInventory(work.tx, scope, input.reserved, work.now));
  }
  const attempt = paymentRecord(work, scope, input, {
    order_id: null,
    status: closed.status,
    provider_id: closed.provider_id,
    client_secret: null,
    failure_reason: closed.failure_reason,
  });
  work.defer(work.tx.orders.insertPayment(attempt));
  work.emit(scope, 'payment.failed', attemptToWire(attempt));
  return attempt;
}
