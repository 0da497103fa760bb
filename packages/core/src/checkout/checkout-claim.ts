import { assertCartActive, type CartActor, canActOnCart, cartNotFound } from '../carts/cart-access';
import {
  assertPurchasable,
  cartPriceableItems,
  priceRecords,
  readPricingRecords,
} from '../carts/cart-pricing';
import type { Checkout } from '../carts/schemas';
import { addressFromInput } from '../carts/wire';
import { customerKeyOf } from '../discounts/discount-usage';
import { emitInventoryCrossings } from '../inventory/inventory-events';
import { linesInLocale } from '../locales/order-lines';
import { buildOrder } from '../orders/order-builder';
import { reserveLines } from '../orders/order-inventory';
import type { CreatePaymentInput, PaymentProvider } from '../ports/payment-provider';
import type {
  CartAggregate,
  InventoryChange,
  InventoryMovement,
  LockedCart,
  PaymentRecord,
  Scope,
} from '../ports/storage';
import { regionUnavailable } from '../regions/region-pricing-context';
import type { ServiceContext } from '../shared/context';
import { CommerceError } from '../shared/errors';
import type { Work } from '../shared/unit-of-work';
import {
  type CheckoutSnapshot,
  checkoutAttemptKey,
  isOpenAttempt,
  isStaleAttempt,
  lastCheckoutAttempt,
  snapshotValue,
} from './checkout-attempts';
import { type InProcessSettlement, settleInProcess } from './checkout-in-process';
import { writeCheckoutOrder } from './checkout-order';

/** Who is checking out: the key kind and the signed-in customer, if any (docs/contract.md#cart-ownership). */
export type CheckoutCaller = CartActor;

/** What the first checkout transaction leads to. */
export type CheckoutClaim =
  /**
   * Settled in this transaction: the order total is 0 (no payment, the order was written at
   * once), or the provider `settlesInProcess` and was asked here (`settleInProcess`): the order,
   * or the recorded decline / refusal to answer with once the transaction committed.
   */
  | InProcessSettlement
  /** An attempt was recorded (and committed) with the units reserved: now ask the provider. */
  | { kind: 'attempt'; attempt: PaymentRecord; snapshot: CheckoutSnapshot; provider: PaymentProvider }
  /**
   * The cart's last attempt is open and stale (`isStaleAttempt`: its request died): nothing was
   * reserved or recorded (only the body's cart fields were written); settle that attempt with its
   * own provider, then claim again.
   */
  | { kind: 'stale'; attempt: PaymentRecord; provider: PaymentProvider };

/**
 * A cart loaded for checkout (locked until the transaction ends), with the carts area's access
 * rule (docs/contract.md#cart-ownership: a publishable key reaches a customer's cart only with that
 * customer's token, otherwise 404).
 */
function checkoutCart(cart: LockedCart | null, id: string, caller: CheckoutCaller): CartAggregate {
  if (!cart || !canActOnCart(cart, caller)) throw cartNotFound(id);
  assertCartActive(cart);
  return cart;
}

/** Only the units a reservation actually moved (untracked variants are reported unchanged). */
function reservedMovements(changes: readonly InventoryChange[]): InventoryMovement[] {
  return changes
    .map((c) => ({ variant_id: c.after.variant_id, quantity: c.after.reserved - c.before.reserved }))
    .filter((m) => m.quantity > 0);
}

/**
 * Checkout's first transaction, the claim (docs/contract.md#checkout), with the `provider` checkout
 * resolved from the body before anything was read (`resolveProvider`). Under the cart's row lock:
 *
 * 1. the body's `shipping_address`, `billing_address` and `metadata` are written to the cart
 *    (they stay even if the payment is then declined, so a retry need not send them again);
 * 2. an attempt of this cart that is still open (pending, no order: another request is paying
 *    for it right now, or its process died and reconciliation has not settled it yet) → 409
 *    `cart_not_active` — a double-submitted checkout charges once — unless it is stale
 *    (`isStaleAttempt`: claimed at least `ATTEMPT_LEASE_MS` ago) and its provider is registered:
 *    then the claim ends with it (`stale`) and checkout settles it before claiming again;
 * 3. the checks, in this order: ≥ 1 item (422 `cart_empty`), a shipping address for physical
 *    items (422 `shipping_address_required`), the cart's shipping method still active when it
 *    has one (422 `shipping_method_unavailable`), an e-mail (400 `parameter_missing`: the body's,
 *    else the signed-in customer's, else the cart's), every item purchasable (422 `product_unavailable` / `insufficient_inventory`), no code on
 *    the cart exhausted (422 `discount_usage_limit_reached`: the customer saw it apply);
 * 4. inventory is reserved atomically (422 `insufficient_inventory`), and the order is priced
 *    and built (number 0) as the snapshot;
 * 5. total 0: no payment — discount uses, number, order and cart completion are written in this
 *    same transaction (`writeCheckoutOrder`) and the claim ends with the order; a provider that
 *    `settlesInProcess` (manual) is asked right here and the order (or the decline) is written
 *    in this same transaction too (`settleInProcess`); otherwise the attempt is inserted
 *    (`pending`, `order_id: null`, key `checkout_<cart>_<n>`) and committed.
 *
 * Why reserve here, before the provider is called, but count discount uses and take the order
 * number only once it answered: a reservation can be given back (`inventory.release`) when the
 * payment is declined or abandoned, so holding it during the call means no customer is charged
 * for stock that a concurrent checkout took meanwhile, and nothing is ever oversold (the
 * reservation is the same guarded update as before). Discount uses cannot be given back (the
 * storage has no "un-count"), and order numbers must stay gap-free, so both happen in the order
 * transaction — a declined payment leaves no order, no number and no use behind. The rare
 * checkout whose discount runs out between the two transactions is refunded at once (see
 * `checkout-settlement.ts`). With a provider that `settlesInProcess` there is no "between": a
 * discount found used up by the count rolls the whole checkout back, reservation included, and
 * nothing needs giving back (the provider did nothing outside the engine).
 */
export async function claimCheckout(
  ctx: ServiceContext,
  work: Work,
  scope: Scope,
  cartId: string,
  input: Checkout,
  caller: CheckoutCaller,
  provider: PaymentProvider,
): Promise<CheckoutClaim> {
  const { tx, now } = work;
  // Round trip 1: the cart's lock and the cart, and behind them (so they wait for the lock, as
  // every read after it always did) the store, the automatic discounts, the probe for the cart's
  // first checkout attempt, and the pricing reads that need only the cart's id: the variants of
  // its items and the method it names (subqueries on the cart's rows, as a cart write reads
  // them), and the caller's customer. A cart without codes or a region then needs no read of
  // its own before its stock is reserved.
  const [locked, foundStore, automatic, firstAttempt, purchasable, method, callerCustomer] =
    await Promise.all([
      tx.carts.get(scope, cartId, { forUpdate: true }),
      tx.stores.get(scope.store_id),
      tx.discounts.listForPricing(scope, []),
      tx.orders.getPayment(scope, { idempotency_key: checkoutAttemptKey(cartId, 1) }),
      tx.products.getPurchasableForCart(scope, cartId, []),
      tx.shippingMethods.getForCart(scope, cartId),
      caller.customer_id == null ? undefined : tx.customers.get(scope, caller.customer_id),
    ]);
  let cart = checkoutCart(locked, cartId, caller);
  // Read behind the lock, so of these very items and this method (a cart's items and method
  // change only under its lock).
  const prefetched = cart.id === cartId;

  // Round trip 2: the body's changes to the cart, and every read that needs the cart.
  const updating =
    input.shipping_address !== undefined ||
    input.billing_address !== undefined ||
    input.metadata !== undefined
      ? tx.carts.update(scope, cart.id, {
          updated_at: now,
          ...(input.shipping_address !== undefined && {
            shipping_address: addressFromInput(input.shipping_address),
          }),
          ...(input.billing_address !== undefined && {
            billing_address: addressFromInput(input.billing_address),
          }),
          ...(input.metadata !== undefined && { metadata: input.metadata }),
        })
      : null;
  const items = cartPriceableItems(cart);
  const [updated, last, customer, records] = await Promise.all([
    updating,
    lastCheckoutAttempt(tx, scope, cart.id, prefetched ? firstAttempt : undefined),
    cart.customer_id === null
      ? null
      : callerCustomer !== undefined && cart.customer_id === caller.customer_id
        ? callerCustomer
        : tx.customers.get(scope, cart.customer_id),
    readPricingRecords(tx, {
      scope,
      items,
      shipping_method_id: cart.shipping_method_id,
      discount_codes: cart.discount_codes,
      region_id: cart.region_id,
      known: prefetched
        ? {
            automatic: automatic.automatic,
            purchasable,
            purchasable_for: new Set(cart.items.map((item) => item.variant_id)),
            shipping_method:
              cart.shipping_method_id === null ? undefined : { id: cart.shipping_method_id, record: method },
          }
        : { automatic: automatic.automatic },
    }),
  ]);
  if (updated) cart = { ...cart, ...updated, items: cart.items };

  if (last.attempt !== null && isOpenAttempt(last.attempt)) {
    const owner = ctx.payments.get(last.attempt.provider);
    if (owner && isStaleAttempt(last.attempt, now)) {
      return { kind: 'stale', attempt: last.attempt, provider: owner };
    }
    throw new CommerceError('cart_not_active', 'A payment for this cart is already in progress', {
      data: { status: cart.status, payment_id: last.attempt.id },
    });
  }

  if (cart.items.length === 0) {
    throw new CommerceError('cart_empty', 'The cart has no items to check out');
  }

  if (!foundStore) throw new CommerceError('not_found', 'No such store');
  const store = foundStore;
  if (cart.region_id !== null && !records.region?.region?.is_active) {
    // Decisions §19: no checkout in an inactive region (nor in one deleted under the cart).
    throw regionUnavailable(cart.region_id);
  }
  const email = input.email ?? customer?.email ?? cart.email ?? null;
  const priced = await priceRecords(
    tx,
    {
      scope,
      store,
      items,
      shipping_method_id: cart.shipping_method_id,
      discount_codes: cart.discount_codes,
      customer: { id: customer?.id ?? null, email, tags: customer?.tags ?? [] },
      now,
      region_id: cart.region_id,
    },
    records,
  );

  const physical = [...priced.variants.values()].some((entry) => entry.product.type === 'physical');
  if (physical && cart.shipping_address === null) {
    throw new CommerceError(
      'shipping_address_required',
      'A shipping address is required for physical items',
      {
        param: 'shipping_address',
      },
    );
  }
  if (cart.shipping_method_id !== null && priced.shipping_method === null) {
    // Chosen on the cart, then deactivated or deleted: refuse rather than drop shipping silently.
    throw new CommerceError(
      'shipping_method_unavailable',
      `Shipping method '${cart.shipping_method_id}' is no longer available; choose another`,
      { param: 'shipping_method_id' },
    );
  }
  if (email === null) {
    throw new CommerceError('parameter_missing', 'email is required to check out as a guest', {
      param: 'email',
    });
  }
  assertPurchasable(priced, items, { missing: 'product_unavailable' });
  const exhausted = priced.pricing.rejected_codes.find((r) => r.reason === 'discount_usage_limit_reached');
  if (exhausted) {
    throw new CommerceError(
      'discount_usage_limit_reached',
      `Discount '${exhausted.code ?? exhausted.discount_id}' has reached its usage limit`,
      { data: { discount_id: exhausted.discount_id, code: exhausted.code } },
    );
  }

  const orderId = ctx.ids.next('ord');
  // The rows pricing read in this transaction are the reservation's `before` (no second read).
  const current = [...priced.variants.values()].map((entry) => entry.inventory);
  const reservations = await reserveLines(work, scope, items, undefined, current);
  const draft = buildOrder(
    ctx,
    {
      id: orderId,
      number: 0,
      scope,
      store,
      status: 'pending',
      customer_id: cart.customer_id,
      email,
      shipping_address: cart.shipping_address,
      billing_address: cart.billing_address,
      note: input.note ?? null,
      metadata: cart.metadata,
      cart_id: cart.id,
      inventory_reserved: true,
      now,
    },
    priced,
    items,
  );
  // Line names in the shopper's language (decisions §21), snapshotted with the order.
  if (cart.locale !== null)
    draft.lines = await linesInLocale(tx, scope, cart.locale, draft.lines, priced.variants);
  const customer_key = customerKeyOf(cart.customer_id, email);
  emitInventoryCrossings(work, scope, reservations);

  if (draft.total === 0) {
    const order = await writeCheckoutOrder(ctx, work, scope, {
      cart,
      draft,
      customer_key,
      payment: null,
      payment_row: 'new',
    });
    return { kind: 'order', order };
  }

  const n = last.n + 1;
  const paymentId = ctx.ids.next('pay');
  const reserved = reservedMovements(reservations);
  const payment: CreatePaymentInput = {
    amount: draft.total,
    currency: draft.currency,
    idempotency_key: checkoutAttemptKey(cart.id, n),
    ...(input.payment_method_id !== undefined && { payment_method_id: input.payment_method_id }),
    reference: {
      payment_id: paymentId,
      cart_id: cart.id,
      order_id: orderId,
      store_id: scope.store_id,
      mode: scope.mode,
    },
    email,
  };
  if (provider.settlesInProcess === true) {
    return settleInProcess(ctx, work, scope, { provider, cart, draft, customer_key, reserved, payment });
  }

  const snapshot: CheckoutSnapshot = { version: 1, order: draft, reserved, customer_key, payment };
  const attempt: PaymentRecord = {
    id: paymentId,
    store_id: scope.store_id,
    mode: scope.mode,
    order_id: null,
    provider: provider.name,
    provider_id: null,
    amount: draft.total,
    currency: draft.currency,
    status: 'pending',
    idempotency_key: snapshot.payment.idempotency_key,
    cart_id: cart.id,
    client_secret: null,
    failure_reason: null,
    note: null,
    metadata: {},
    checkout_snapshot: snapshotValue(snapshot),
    created_at: now,
    updated_at: now,
  };
  work.defer(tx.orders.insertPayment(attempt));
  return { kind: 'attempt', attempt, snapshot, provider };
}
