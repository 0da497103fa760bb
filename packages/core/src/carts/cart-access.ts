import type { CartRecord, LockedCart } from '../ports/storage';
import { CommerceError } from '../shared/errors';

/**
 * Who acts on a cart: the kind of API key, and the customer of the `X-Customer-Token` header when
 * one was sent (null otherwise).
 */
export interface CartActor {
  key_type: 'secret' | 'publishable';
  customer_id: string | null;
}

/**
 * docs/contract.md#cart-ownership: a secret key may act on any cart; a publishable key may act on a guest cart (no
 * `customer_id`) by its id, and on a customer's cart only with that customer's token.
 */
export function canActOnCart(cart: Pick<CartRecord, 'customer_id'>, actor: CartActor): boolean {
  return actor.key_type === 'secret' || cart.customer_id === null || cart.customer_id === actor.customer_id;
}

/** 404 `not_found` for a cart the actor may not see, so cart ids are not probeable (docs/contract.md#cart-ownership). */
export function cartNotFound(id: string): CommerceError {
  return new CommerceError('not_found', `No such cart: '${id}'`);
}

/** 409 `cart_not_active` (docs/contract.md#carts): completed and abandoned carts cannot change. */
export function assertCartActive(cart: Pick<CartRecord, 'id' | 'status'>): void {
  if (cart.status !== 'active') {
    throw new CommerceError('cart_not_active', `Cart '${cart.id}' is ${cart.status} and cannot be changed`, {
      data: { status: cart.status },
    });
  }
}

/**
 * 409 `cart_not_active` (docs/contract.md#carts) for a cart read `forUpdate` that may not change now: not
 * `active`, or with an open checkout attempt — its order will be written from the attempt's
 * snapshot, so a change made meanwhile would be answered 200 and then lost (the attempt settles
 * by checkout, reconciliation or a webhook; a declined one lets the cart change again).
 */
export function assertCartWritable(
  cart: Pick<LockedCart, 'id' | 'status' | 'open_checkout_payment_id'>,
): void {
  assertCartActive(cart);
  if (cart.open_checkout_payment_id !== null) {
    throw new CommerceError(
      'cart_not_active',
      `A checkout of cart '${cart.id}' is in progress; the cart cannot change until it completes or fails`,
      { data: { status: cart.status, payment_id: cart.open_checkout_payment_id } },
    );
  }
}

/**
 * docs/contract.md#cart-ownership: setting `customer_id` with a publishable key needs that customer's token
 * (403 `forbidden`, param `customer_id`); a secret key may set any customer of the scope.
 */
export function assertMaySetCustomer(customer_id: string, actor: CartActor): void {
  if (actor.key_type !== 'secret' && actor.customer_id !== customer_id) {
    throw new CommerceError(
      'forbidden',
      "Setting customer_id with a publishable key requires that customer's X-Customer-Token",
      { param: 'customer_id' },
    );
  }
}
