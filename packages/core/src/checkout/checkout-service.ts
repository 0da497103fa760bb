import type { Checkout } from '../carts/schemas';
import { orderToCheckoutWire } from '../orders/wire';
import { isRefusal, resolveProvider } from '../payments/payment-attempt';
import type { PaymentProvider, PaymentResult } from '../ports/payment-provider';
import type { PaymentRecord, Scope } from '../ports/storage';
import type { ServiceContext } from '../shared/context';
import { CommerceError } from '../shared/errors';
import { INTERIM, write } from '../shared/unit-of-work';
import { askProviderAbout } from './checkout-attempts';
import { type CheckoutCaller, claimCheckout } from './checkout-claim';
import { type AttemptSettlement, closeAttempt, settleAttempt } from './checkout-settlement';

export type { CheckoutCaller } from './checkout-claim';

/** The answer checkout gives for a settled attempt: the order, or the error that explains why not. */
function orderOrThrow(settled: AttemptSettlement) {
  switch (settled.kind) {
    case 'order':
      return orderToCheckoutWire(settled.order, settled.client_secret ?? null);
    case 'declined':
      throw new CommerceError('payment_failed', settled.message, {
        data: {
          payment_id: settled.attempt.id,
          payment_provider: settled.attempt.provider,
          decline_code: settled.code,
        },
      });
    case 'refused':
      throw settled.error;
    case 'closed':
      throw new CommerceError(
        'payment_failed',
        'The payment attempt was cancelled before an order was made',
        {
          data: { payment_id: settled.attempt.id, payment_provider: settled.attempt.provider },
        },
      );
  }
}

/** The refusal of a checkout while the cart's last attempt is open. */
function inProgress(attempt: PaymentRecord): CommerceError {
  return new CommerceError('cart_not_active', 'A payment for this cart is already in progress', {
    data: { status: 'active', payment_id: attempt.id },
  });
}

/**
 * Settles a stale attempt (`isStaleAttempt`) for a retried checkout: its provider is asked
 * (`askProviderAbout`, the attempt's own key and input: never a second charge) and the attempt
 * settled under its cart's lock (`settleAttempt`), exactly as reconciliation does — so a
 * concurrent retry, reconciliation run or the original request, if it still lives, settles it
 * once and every one of them sees the same order. Under an Idempotency-Key the order is stored as
 * this request's answer with it; any other outcome is interim (the checkout goes on). A provider
 * that cannot be reached leaves the attempt open and its error is the answer (502).
 */
async function settleStaleAttempt(
  ctx: ServiceContext,
  scope: Scope,
  attempt: PaymentRecord,
  provider: PaymentProvider,
): Promise<AttemptSettlement> {
  const answer = (settled: AttemptSettlement) => (settled.kind === 'order' ? orderOrThrow(settled) : INTERIM);
  let result: PaymentResult | null;
  try {
    result = await askProviderAbout(provider, attempt);
  } catch (error) {
    if (!isRefusal(error)) throw error;
    const closed = await closeAttempt(
      ctx,
      scope,
      attempt,
      { status: 'failed', failure_reason: error.code },
      { answer: () => INTERIM },
    );
    return { kind: 'refused', attempt: closed, error };
  }
  return settleAttempt(ctx, scope, attempt, provider, result, answer);
}

/**
 * Checkout (docs/contract.md#checkout): turns a cart into an order and takes payment, so that no
 * path charges twice or keeps money without an order.
 *
 * With a provider that `settlesInProcess` (manual), or a total of 0, all of it is ONE
 * transaction: the claim below asks the provider inside it and writes the order (or records the
 * decline) at once — see `settleInProcess`. Other providers (Stripe) take three steps:
 *
 * 0. **Provider check** (`resolveProvider`), before anything is read: `payment_provider` must name
 *    a provider registered on the engine (400 `parameter_invalid` on the field that named it),
 *    with `payment_method_id` when that provider needs one (400 `parameter_missing`).
 * 1. **Claim** (one transaction, `claimCheckout`): checks the cart and the request, reserves the
 *    units and records the payment attempt — `pending`, `order_id: null`, provider idempotency
 *    key `checkout_<cart>_<n>`, with a snapshot of the priced order — and commits. A cart whose
 *    attempt is still open answers 409 `cart_not_active`: a double-submitted checkout charges
 *    once. An open attempt that is stale (claimed `ATTEMPT_LEASE_MS` ago or more: its request
 *    died) is settled with its provider first (`settleStaleAttempt`): its order is the answer,
 *    or, released, the checkout is claimed again. A total of 0 takes no payment: the order is
 *    written in this same transaction.
 * 2. **Provider**, outside any transaction: `createPayment` with the server's amount and
 *    currency and the attempt's key. A definitive refusal thrown by the provider (e.g. 400
 *    `parameter_invalid` for an unknown `payment_method_id`) closes the attempt and is returned;
 *    an unknown outcome (network failure, timeout, crash: `payment_provider_unavailable`, 502, or
 *    500) leaves the attempt open — units still reserved — for `reconcile`.
 * 3. **Order** (one transaction, `settleAttempt`): a decline closes the attempt (402
 *    `payment_failed` with the provider's reason; no order, nothing reserved or counted, cart
 *    `active`, `payment.failed`); otherwise discount uses are counted, the number taken, the order
 *    written from the snapshot and linked to the attempt, the cart completed. `succeeded` →
 *    order `confirmed`, payment `completed`; `requires_action` (3-D Secure) and `pending` → both
 *    `pending`, and the 201 order's `payments[0].client_secret` lets the storefront authenticate;
 *    `awaiting_payment` (Stripe without `payment_method_id`: the storefront confirms the
 *    PaymentIntent with Stripe.js) → both `pending`, the order's `payment_status`
 *    `awaiting_payment` until it is settled or expires (`reconciliation/payment-expiry.ts`);
 *    the provider's webhook (`handleWebhook`) completes or fails it later. If the order is
 *    refused now (a discount ran out since the claim), the money is given back at once and the
 *    refusal returned (422).
 *
 * If the process dies anywhere in between, the attempt stays `pending` without an order and
 * `reconcile` settles it: it asks the provider (replaying the same key) and either writes the
 * order or gives the money back. The response is the Order in its storefront view with
 * `payment` (`{ client_secret, payment_intent_id }` when the provider gave a client secret:
 * Stripe; null otherwise — decisions §22).
 *
 * Events: `order.created`, `payment.created`, and when the provider took the money
 * `payment.completed` and `order.confirmed`; `payment.failed` for a declined or abandoned attempt;
 * `inventory.low` / `inventory.out_of_stock` when the reservation crosses a threshold.
 */
export function createCheckoutService(ctx: ServiceContext) {
  return {
    async checkout(scope: Scope, cartId: string, input: Checkout, caller: CheckoutCaller) {
      // Which providers exist is the engine's registry: checked first, as a part of the input.
      const chosen = resolveProvider(ctx, input);
      // Under an Idempotency-Key, each transaction stores the answer it leads to (docs/contract.md#idempotency):
      // the claim's when it settles in process; an attempt is interim (the order comes later).
      const claimOnce = () =>
        write(ctx, scope, (work) => claimCheckout(ctx, work, scope, cartId, input, caller, chosen), {
          answer: (claimed) =>
            claimed.kind === 'attempt' || claimed.kind === 'stale' ? INTERIM : orderOrThrow(claimed),
        });
      let claim = await claimOnce();
      if (claim.kind === 'stale') {
        // The request that claimed the cart's last attempt died (docs/payments.md#stale-attempts):
        // settle that attempt now, as reconciliation would. Its order (the provider took the
        // money) is this request's answer, as it would have been the first's; released, the
        // checkout goes on normally. A second claim that meets an open attempt again (a
        // concurrent retry claimed a new one meanwhile) answers 409 as usual.
        const settled = await settleStaleAttempt(ctx, scope, claim.attempt, claim.provider);
        if (settled.kind === 'order') return orderOrThrow(settled);
        claim = await claimOnce();
        if (claim.kind === 'stale') throw inProgress(claim.attempt);
      }
      if (claim.kind !== 'attempt') return orderOrThrow(claim);

      const { attempt, snapshot, provider } = claim;
      let result: PaymentResult;
      try {
        result = await provider.createPayment(snapshot.payment);
      } catch (error) {
        if (isRefusal(error)) {
          await closeAttempt(
            ctx,
            scope,
            attempt,
            { status: 'failed', failure_reason: error.code },
            {
              answer: () => {
                throw error;
              },
            },
          );
        }
        throw error;
      }
      return orderOrThrow(await settleAttempt(ctx, scope, attempt, provider, result, orderOrThrow));
    },
  };
}

export type CheckoutService = ReturnType<typeof createCheckoutService>;
