import type { Payment } from '../payments/schemas';
import { paymentToWire } from '../payments/wire';
import type { CreatePaymentInput, PaymentProvider, PaymentResult } from '../ports/payment-provider';
import type {
  InventoryMovement,
  JsonObject,
  OrderAggregate,
  PaymentRecord,
  Repositories,
  Scope,
} from '../ports/storage';
import { CommerceError } from '../shared/errors';

/**
 * A checkout attempt is a `PaymentRecord` written and committed BEFORE the provider
 * is called: `status: 'pending'`, `order_id: null`, `cart_id`, and an `idempotency_key`
 * `checkout_<cart id>_<n>` — the n-th attempt to pay for that cart. The same key goes to the
 * provider, so a retried or replayed call (reconciliation) never charges twice; a new attempt
 * after a decline gets the next n, so the customer can pay with another card (Stripe refuses a
 * key reused with other parameters).
 *
 * Its `checkout_snapshot` column (which the wire never shows) keeps the {@link CheckoutSnapshot}:
 * everything needed to write the order later without re-reading the cart or the catalog, and the
 * exact provider input to replay. The snapshot is dropped (null) once the attempt is settled.
 */
export interface CheckoutSnapshot {
  version: 1;
  /** The order to write, priced when the attempt was claimed: `number` 0, no payments yet. */
  order: OrderAggregate;
  /** The units the claim reserved (tracked variants only): released if no order comes of it. */
  reserved: InventoryMovement[];
  /** What per-customer discount limits count by (customer id, else lower-cased e-mail). */
  customer_key: string;
  /** The exact `createPayment` input; reconciliation replays it verbatim. */
  payment: CreatePaymentInput;
}

/** The provider idempotency key of the n-th checkout attempt of a cart. */
export function checkoutAttemptKey(cart_id: string, n: number): string {
  return `checkout_${cart_id}_${n}`;
}

/**
 * Finds the last of a contiguous run of attempts `1..k` (k ≥ 0) by probing keys: doubling until a
 * miss, then bisecting — about 2·log2(k) look-ups instead of k. Attempts are contiguous because
 * each is inserted under the cart's row lock with the number after the last one.
 *
 * @example await findLastAttempt(async (n) => (n <= 5 ? `a${n}` : null)) // { n: 5, attempt: 'a5' }
 */
export async function findLastAttempt<T>(
  probe: (n: number) => Promise<T | null>,
): Promise<{ n: number; attempt: T | null }> {
  let found: T | null = null;
  let low = 0; // exists (or 0)
  let high = 1; // unknown, then missing
  for (;;) {
    const hit = await probe(high);
    if (hit === null) break;
    found = hit;
    low = high;
    high *= 2;
  }
  while (high - low > 1) {
    const mid = low + Math.floor((high - low) / 2);
    const hit = await probe(mid);
    if (hit === null) high = mid;
    else {
      found = hit;
      low = mid;
    }
  }
  return { n: low, attempt: found };
}

/**
 * The last checkout attempt of a cart and its number (0 and null when there is none). `first`:
 * the attempt of key `checkout_<cart_id>_1` (or null) when the caller read it already.
 */
export function lastCheckoutAttempt(
  tx: Repositories,
  scope: Scope,
  cart_id: string,
  first?: PaymentRecord | null,
): Promise<{ n: number; attempt: PaymentRecord | null }> {
  return findLastAttempt((n) =>
    n === 1 && first !== undefined
      ? Promise.resolve(first)
      : tx.orders.getPayment(scope, { idempotency_key: checkoutAttemptKey(cart_id, n) }),
  );
}

/**
 * How long an open attempt is presumed in flight: the longest a live checkout can be waiting for
 * its provider call — Stripe's 30 s request timeout, once retried (`maxNetworkRetries` 1), with
 * 5 s to spare. Past it, the request that claimed the attempt has either settled it or died
 * (docs/payments.md#stale-attempts).
 */
export const ATTEMPT_LEASE_MS = 65_000;

/**
 * Whether an open attempt is **stale**: claimed (`created_at`) at least {@link ATTEMPT_LEASE_MS}
 * ago. A retried checkout of its cart settles a stale attempt with the provider at once
 * (`checkout-service.ts`) instead of answering 409 `cart_not_active`; a younger one may still be
 * in flight, and a second checkout then answers 409 (a double-submitted checkout charges once).
 */
export function isStaleAttempt(payment: PaymentRecord, now: number): boolean {
  return isOpenAttempt(payment) && now - payment.created_at >= ATTEMPT_LEASE_MS;
}

/**
 * What the provider says about an open attempt: `lookupPayment` with the attempt's key and its
 * exact original input (a provider such as Stripe replays the creation under the same key, which
 * never charges twice); a provider without a lookup is asked again with `createPayment` and the
 * same key, which every provider must treat idempotently (manual has no side effects at all).
 * `null`: the provider never saw the payment.
 */
export async function askProviderAbout(
  provider: PaymentProvider,
  attempt: PaymentRecord,
): Promise<PaymentResult | null> {
  const snapshot = readSnapshot(attempt);
  if (provider.lookupPayment) {
    return provider.lookupPayment({
      provider_id: attempt.provider_id,
      idempotency_key: snapshot.payment.idempotency_key,
      original: snapshot.payment,
    });
  }
  return provider.createPayment(snapshot.payment);
}

/** Whether a payment is a checkout attempt still waiting to be settled (no order, pending). */
export function isOpenAttempt(payment: PaymentRecord): boolean {
  return payment.order_id === null && payment.status === 'pending' && payment.cart_id !== null;
}

/**
 * The `checkout_snapshot` value that stores a snapshot on its attempt. The snapshot is
 * JSON-shaped already (plain records of strings, numbers, booleans and nulls; absent optional
 * fields are dropped when the storage serialises the column), so it is referenced as is, not
 * deep-copied: the records it holds are freshly built by the claim and never mutated afterwards.
 */
export function snapshotValue(snapshot: CheckoutSnapshot): JsonObject {
  return snapshot as unknown as JsonObject;
}

/**
 * The snapshot an open attempt carries; a settled attempt has none (500: it cannot be written).
 * A snapshot taken before order lines recorded their reservation (`reserved_quantity`)
 * gets it from the snapshot's exact `reserved` movements; one taken before orders had a region
 * gets `region_id: null`.
 */
export function readSnapshot(attempt: PaymentRecord): CheckoutSnapshot {
  const raw = attempt.checkout_snapshot;
  if (raw === null || raw.version !== 1) {
    throw new CommerceError('internal_error', `Payment '${attempt.id}' has no checkout snapshot`);
  }
  let snapshot = raw as unknown as CheckoutSnapshot;
  // A snapshot taken before orders had a region (decisions §19) was priced in the store's settings.
  if (snapshot.order !== undefined && snapshot.order.region_id === undefined) {
    snapshot = { ...snapshot, order: { ...snapshot.order, region_id: null } };
  }
  const lines: unknown = snapshot.order?.lines;
  if (
    !Array.isArray(lines) ||
    snapshot.order.lines.every((line) => typeof line.reserved_quantity === 'number')
  )
    return snapshot;
  const reserved = new Set(snapshot.reserved.map((m) => m.variant_id));
  return {
    ...snapshot,
    order: {
      ...snapshot.order,
      lines: snapshot.order.lines.map((line) => ({
        ...line,
        reserved_quantity: reserved.has(line.variant_id) ? line.quantity : 0,
      })),
    },
  };
}

/**
 * A settled attempt as `payment.failed` shows it: the Payment with `order_id: null` (no order
 * came of it) and the `cart_id` it paid for.
 */
export function attemptToWire(attempt: PaymentRecord): Omit<Payment, 'order_id'> & {
  order_id: null;
  cart_id: string | null;
} {
  return { ...paymentToWire(attempt), order_id: null, cart_id: attempt.cart_id };
}
