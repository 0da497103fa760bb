import type { Patch } from './conventions';
import type { CartAggregate, CartItemRecord, CartRecord, LockedCart } from './records';
import type { Millis, Scope } from './scope';

// Carts with their items, and the locks of cart writers.

/** The cart columns {@link CartRepository.update} writes. */
export type CartPatch = Patch<
  CartRecord,
  | 'customer_id'
  | 'session_id'
  | 'email'
  | 'shipping_address'
  | 'billing_address'
  | 'shipping_method_id'
  | 'discount_codes'
  | 'metadata'
  | 'locale'
  | 'region_id'
  | 'currency'
>;

export interface CartRepository {
  insert(cart: CartAggregate): Promise<void>;
  /**
   * `forUpdate` locks the row until the transaction ends (Postgres FOR UPDATE; SQLite's writer
   * lock) BEFORE the cart and its items are read, so the read sees everything the previous holder
   * of the lock committed (docs/contract.md#cart-concurrency: writes to one cart run one after another); it also
   * returns the cart's open checkout attempt ({@link LockedCart}).
   */
  get(scope: Scope, id: string, options: { forUpdate: true }): Promise<LockedCart | null>;
  get(scope: Scope, id: string, options?: { forUpdate?: false }): Promise<CartAggregate | null>;
  /**
   * Serialises the writers that choose or change a customer's active cart (merge): locks the
   * customer's row until the transaction ends (Postgres `FOR NO KEY UPDATE`, which does not block
   * rows that merely reference the customer; SQLite's writer lock). Reads after it see what the
   * previous holder committed. A customer id without a row locks nothing.
   */
  lockCustomer(scope: Scope, customer_id: string): Promise<void>;
  /**
   * The newest active cart of its owner: a guest session, or a customer (other than the cart
   * `except_cart_id`, when given). One statement.
   */
  getActive(
    scope: Scope,
    owner: { session_id: string } | { customer_id: string; except_cart_id?: string | undefined },
  ): Promise<CartAggregate | null>;
  /**
   * Writes the patch and returns the cart as stored, or null when there is no such cart in the
   * scope. With `{ returning: false }` the row is not read back, for a caller that holds the cart
   * (read `forUpdate` in this transaction) and builds the updated record itself: the same columns
   * are written, and the answer is whether the cart exists.
   */
  update(
    scope: Scope,
    id: string,
    patch: CartPatch,
    options?: { returning?: true },
  ): Promise<CartRecord | null>;
  update(scope: Scope, id: string, patch: CartPatch, options: { returning: false }): Promise<boolean>;
  /**
   * Compare-and-set of the status: `WHERE status = from`. Returns false when the cart was not in
   * `from` (e.g. a concurrent checkout completed it first).
   */
  transition(
    scope: Scope,
    id: string,
    from: CartRecord['status'],
    to: CartRecord['status'],
    at: Millis,
  ): Promise<boolean>;
  insertItem(scope: Scope, item: CartItemRecord): Promise<void>;
  updateItem(
    scope: Scope,
    cart_id: string,
    item_id: string,
    patch: Patch<CartItemRecord, 'quantity' | 'metadata'>,
  ): Promise<CartItemRecord | null>;
  deleteItem(scope: Scope, cart_id: string, item_id: string): Promise<boolean>;
}
