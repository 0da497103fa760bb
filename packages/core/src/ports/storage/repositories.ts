import type { Page, PageRequest } from './pagination';
import type {
  ApiKeyRecord,
  CartAggregate,
  CartItemRecord,
  CartRecord,
  ClaimedDelivery,
  CustomerAddressRecord,
  CustomerRecord,
  CustomerTokenRecord,
  CustomerTotals,
  DiscountRecord,
  DiscountUsageRefusal,
  EventRecord,
  FulfillmentRecord,
  ImageRecord,
  InventoryRecord,
  LockedCart,
  NotificationRecord,
  OptionRecord,
  OrderAggregate,
  OrderLineRecord,
  OrderRecord,
  OrganizationRecord,
  PasswordResetRecord,
  PaymentRecord,
  ProductAggregate,
  ProductRecord,
  PurchasableVariant,
  RefundRecord,
  ShippingMethodRecord,
  StoreRecord,
  VariantRecord,
  WebhookAttemptRecord,
  WebhookDeliveryRecord,
  WebhookRecord,
} from './records';
import type { Millis, Scope } from './scope';

/**
 * Repository conventions:
 * - Scoped methods never see another scope's rows: a foreign id is "not found" (null / false).
 * - `insert*` take complete records (ids and timestamps come from the service's IdGenerator and
 *   Clock); `update*` take a patch of mutable columns plus `updated_at` and return the new record,
 *   or null when no row matched (including a failed guard).
 * - Uniqueness violations surface as CommerceError (`duplicate_slug`, `duplicate_sku`,
 *   `duplicate_email`, `duplicate_code`) with `param`, translated in one place by the adapter.
 * - Aggregates are loaded in a fixed number of queries whatever the page size (no N+1).
 * - Soft-deleted rows (products, variants, discounts, shipping methods, webhooks, customers) are
 *   invisible to every read except where stated.
 */
export type Patch<T, K extends keyof T> = Partial<Pick<T, K>> & { updated_at: Millis };

/**
 * A row's place in a list ordered by `(created_at, id)`, ascending: a list read `after` it starts
 * with the next row (keyset pages over rows that may change while they are walked).
 */
export interface CreatedPosition {
  created_at: Millis;
  id: string;
}

// ---------------------------------------------------------------- organization, store, keys

export interface OrganizationRepository {
  /** The first organization, if any (one per installation today). */
  getFirst(): Promise<OrganizationRecord | null>;
  get(id: string): Promise<OrganizationRecord | null>;
  insert(record: OrganizationRecord): Promise<void>;
  update(
    id: string,
    patch: Patch<OrganizationRecord, 'name' | 'billing_email' | 'metadata' | 'plan'>,
  ): Promise<OrganizationRecord | null>;
}

export interface StoreRepository {
  getFirst(): Promise<StoreRecord | null>;
  get(id: string): Promise<StoreRecord | null>;
  insert(record: StoreRecord): Promise<void>;
  update(
    id: string,
    patch: Patch<
      StoreRecord,
      'name' | 'currency' | 'timezone' | 'prices_include_tax' | 'tax_rate' | 'metadata'
    >,
  ): Promise<StoreRecord | null>;
  /** Whether the store has any product or order in either mode (currency is then locked). */
  hasCatalogOrOrders(store_id: string): Promise<boolean>;
}

export interface ApiKeyRepository {
  /** Global lookup by hash (the key tells its own store and mode). Revoked keys included. */
  findByHash(key_hash: string): Promise<ApiKeyRecord | null>;
  insert(record: ApiKeyRecord): Promise<void>;
  get(scope: Scope, id: string): Promise<ApiKeyRecord | null>;
  list(scope: Scope, page: PageRequest<'created_at'>): Promise<Page<ApiKeyRecord>>;
  /** Sets revoked_at; returns false if no such unrevoked key. */
  revoke(scope: Scope, id: string, at: Millis): Promise<boolean>;
  /**
   * Gives an unrevoked key a new secret in place (same `id`): replaces `key_hash` and
   * `key_prefix`, so the old secret is unknown from the commit on. Returns the record after, or
   * null if no such unrevoked key.
   */
  rotate(
    scope: Scope,
    id: string,
    secret: { key_hash: string; key_prefix: string },
  ): Promise<ApiKeyRecord | null>;
  /** Best-effort, may be throttled by the caller. */
  touch(id: string, at: Millis): Promise<void>;
}

export interface CustomerTokenRepository {
  insert(record: CustomerTokenRecord): Promise<void>;
  /** Scoped lookup by hash; expired tokens are returned (the caller checks `expires_at`). */
  findByHash(scope: Scope, token_hash: string): Promise<CustomerTokenRecord | null>;
  /** Revokes one token (sign-out). True when it existed. */
  delete(scope: Scope, id: string): Promise<boolean>;
  /**
   * Revokes every token of the customer, except `except_id` when given (the token of the caller
   * who changed the password stays signed in).
   */
  deleteForCustomer(scope: Scope, customer_id: string, except_id?: string): Promise<void>;
}

/** Password reset tokens (docs/contract.md#password-reset). */
export interface PasswordResetRepository {
  /**
   * Stores a new reset token for the customer and deletes every earlier one of that customer, in
   * the caller's transaction (a newer request voids older ones).
   */
  replace(record: PasswordResetRecord): Promise<void>;
  /**
   * Claims a token by its hash: deletes it and returns it, whatever its `expires_at` (the caller
   * checks expiry). Atomic: of concurrent claims of one token exactly one gets the record, the
   * others null — a reset token is single-use.
   */
  consume(scope: Scope, token_hash: string): Promise<PasswordResetRecord | null>;
  /** Deletes the customer's reset tokens (customer deleted, or password set another way). */
  deleteForCustomer(scope: Scope, customer_id: string): Promise<void>;
}

// ---------------------------------------------------------------- catalog

export interface ProductListFilter {
  status?: ProductRecord['status'] | undefined;
  type?: ProductRecord['type'] | undefined;
  /** Case-insensitive partial name match. */
  q?: string | undefined;
  /** All of these tags (AND). */
  tags?: string[] | undefined;
  /** Inclusive bounds on the representative price; products without one never match a bound. */
  price_min?: number | undefined;
  price_max?: number | undefined;
}

export interface ProductRepository {
  /**
   * Inserts a product with its options (and values), variants (each with its inventory) and
   * images; `price` is stored as given. Uniqueness: slug per scope → duplicate_slug; variant sku per
   * scope → duplicate_sku (param `variants[i][sku]`).
   */
  insert(product: ProductAggregate): Promise<void>;
  /**
   * The live product with its parts. `forUpdate` locks the product row until the transaction
   * ends (Postgres FOR UPDATE; SQLite's writer lock), so that checks against its parts (variant
   * option combinations, positions, new option values) hold until the write that follows.
   */
  get(scope: Scope, id: string, options?: { forUpdate?: boolean }): Promise<ProductAggregate | null>;
  getBySlug(scope: Scope, slug: string): Promise<ProductAggregate | null>;
  getMany(scope: Scope, ids: string[]): Promise<ProductAggregate[]>;
  list(
    scope: Scope,
    filter: ProductListFilter,
    page: PageRequest<'created_at' | 'name' | 'price'>,
  ): Promise<Page<ProductAggregate>>;
  update(
    scope: Scope,
    id: string,
    patch: Patch<
      ProductRecord,
      'name' | 'slug' | 'description' | 'type' | 'status' | 'tags' | 'attributes' | 'metadata' | 'price'
    >,
  ): Promise<ProductRecord | null>;
  /** Soft delete of the product and its variants. */
  delete(scope: Scope, id: string, at: Millis): Promise<boolean>;

  /** Adds options/values (used when a variant introduces a new value of an existing option). */
  insertOptions(scope: Scope, options: OptionRecord[]): Promise<void>;
  /** Inserts a variant with its inventory (the product's `price` is the caller's to update). */
  insertVariant(variant: VariantRecord, inventory: InventoryRecord): Promise<void>;
  getVariant(scope: Scope, id: string): Promise<(VariantRecord & { inventory: InventoryRecord }) | null>;
  updateVariant(
    scope: Scope,
    id: string,
    patch: Patch<
      VariantRecord,
      | 'sku'
      | 'barcode'
      | 'price'
      | 'compare_at_price'
      | 'cost_price'
      | 'weight'
      | 'is_active'
      | 'option_value_ids'
      | 'metadata'
    >,
  ): Promise<VariantRecord | null>;
  /** Soft delete (the product's `price` is the caller's to update). */
  deleteVariant(scope: Scope, id: string, at: Millis): Promise<boolean>;
  insertImage(scope: Scope, image: ImageRecord): Promise<void>;
  deleteImage(scope: Scope, product_id: string, image_id: string): Promise<boolean>;
  /**
   * Variants by id with their inventory and product fields, in one query; unknown or deleted
   * variants are absent from the result.
   */
  getPurchasable(scope: Scope, variant_ids: string[]): Promise<PurchasableVariant[]>;
}

export interface InventoryMovement {
  variant_id: string;
  quantity: number;
}

/** The before/after of one inventory row changed by an atomic movement. */
export interface InventoryChange {
  before: InventoryRecord;
  after: InventoryRecord;
}

/**
 * A compare-and-set of one inventory row (`InventoryRepository.apply`): the row of `variant_id`
 * must still hold every field of `expect` (the fields the inventory rules read), and then takes
 * the levels of `set`.
 */
export interface InventoryWrite {
  variant_id: string;
  expect: Pick<InventoryRecord, 'on_hand' | 'reserved' | 'track_inventory' | 'allow_backorder'>;
  set: Pick<InventoryRecord, 'on_hand' | 'reserved'>;
}

/**
 * Inventory rows: reads, one atomic compare-and-set of stock levels, and the settings. The
 * inventory RULES (availability, backorder, `on_hand` never below `reserved`, the arithmetic of
 * every movement) are core's (`inventory/inventory-plan.ts`, driven by
 * `inventory/inventory-writes.ts`): core reads rows, plans, and writes the plan with `apply`,
 * whose per-row precondition is the last judge — no oversell under any concurrency, across
 * processes, whatever core read.
 */
export interface InventoryRepository {
  /**
   * One row by id, or null (also when its variant is soft-deleted). `lock`: the row is locked
   * until the transaction ends (Postgres `FOR UPDATE`; SQLite's transaction already holds the
   * writer lock), so an `apply` expecting what it returned cannot miss. One statement.
   */
  get(scope: Scope, id: string, options?: { lock?: boolean }): Promise<InventoryRecord | null>;
  /**
   * The rows of these variants (unknown ones absent), deleted variants included. `lock`: as in
   * `get`, taken in variant-id order (Postgres), so concurrent movements of several variants
   * cannot deadlock. One statement whatever the number of variants.
   */
  getByVariantIds(
    scope: Scope,
    variant_ids: string[],
    options?: { lock?: boolean },
  ): Promise<InventoryRecord[]>;
  /** `low_stock`: only rows with available (on_hand − reserved) ≤ safety_stock. One statement. */
  list(
    scope: Scope,
    filter: { low_stock?: boolean | undefined },
    page: PageRequest<'created_at'>,
  ): Promise<Page<InventoryRecord>>;
  /**
   * Atomically writes every row or none: each write is a compare-and-set — the row of
   * `variant_id` must still hold `expect` (on_hand, reserved, track_inventory, allow_backorder)
   * and then takes `set` and `updated_at = at`. Returns the variant ids whose row did not hold
   * its expectation (or does not exist); when that list is non-empty NOTHING was written. At most
   * one write per variant. Locking: every row named is locked until the transaction ends, in
   * variant-id order (Postgres), matched or not, so re-reading them with `lock` and applying
   * again cannot miss and cannot deadlock. Cost: no write → nothing; else one statement
   * (Postgres), or one UPDATE per 50 rows inside a savepoint (SQLite; a miss adds its rollback
   * and one read). Errors: a miss is a result, not an error; two writes of one variant throw a
   * RangeError (a caller bug); database failures are thrown as the storage translates them.
   */
  apply(scope: Scope, writes: readonly InventoryWrite[], at: Millis): Promise<string[]>;
  /**
   * The settings of one row (and `updated_at`), returning the row as stored, or null when it does
   * not exist. The levels move only through `apply`. One statement.
   */
  updateSettings(
    scope: Scope,
    id: string,
    patch: Patch<InventoryRecord, 'track_inventory' | 'allow_backorder' | 'safety_stock' | 'metadata'>,
  ): Promise<InventoryRecord | null>;
}

export interface ShippingMethodRepository {
  insert(record: ShippingMethodRecord): Promise<void>;
  get(scope: Scope, id: string): Promise<ShippingMethodRecord | null>;
  /** Ordered by position, then created_at. */
  list(
    scope: Scope,
    filter: { is_active?: boolean | undefined },
    page: PageRequest<'created_at' | 'position'>,
  ): Promise<Page<ShippingMethodRecord>>;
  update(
    scope: Scope,
    id: string,
    patch: Patch<
      ShippingMethodRecord,
      'name' | 'description' | 'price' | 'free_shipping_threshold' | 'is_active' | 'position' | 'metadata'
    >,
  ): Promise<ShippingMethodRecord | null>;
  delete(scope: Scope, id: string, at: Millis): Promise<boolean>;
}

// ---------------------------------------------------------------- discounts

export interface DiscountRepository {
  /** Code uniqueness per scope, case-insensitive → duplicate_code (param `code`). */
  insert(record: DiscountRecord): Promise<void>;
  get(scope: Scope, id: string): Promise<DiscountRecord | null>;
  /**
   * What pricing reads, in one query: `automatic`, the active automatic discounts oldest first
   * (the application order of docs/contract.md#discounts), and `by_code`, the live discounts whose
   * code is one of `codes`, matched case-insensitively, active or not (absent codes are absent;
   * any order).
   */
  listForPricing(
    scope: Scope,
    codes: string[],
  ): Promise<{ automatic: DiscountRecord[]; by_code: DiscountRecord[] }>;
  list(
    scope: Scope,
    filter: { type?: 'code' | 'automatic' | undefined; is_active?: boolean | undefined },
    page: PageRequest<'created_at'>,
  ): Promise<Page<DiscountRecord>>;
  update(
    scope: Scope,
    id: string,
    patch: Patch<
      DiscountRecord,
      | 'name'
      | 'description'
      | 'code'
      | 'value_type'
      | 'value'
      | 'target'
      | 'usage_limit'
      | 'per_customer_limit'
      | 'minimum_amount'
      | 'maximum_discount'
      | 'starts_at'
      | 'ends_at'
      | 'is_active'
      | 'conditions'
      | 'metadata'
    >,
  ): Promise<DiscountRecord | null>;
  delete(scope: Scope, id: string, at: Millis): Promise<boolean>;
  /**
   * Counts one use atomically: `usage_count += 1 WHERE usage_count < usage_limit` (the WHERE is
   * the guard, and the row lock it takes serialises uses of one discount), then, under that
   * lock, checks `per_customer_limit` against recorded uses of `customer_key` (customer id, else
   * lower-cased e-mail) and records the use. On refusal nothing is changed.
   */
  recordUsage(
    scope: Scope,
    use: { id: string; discount_id: string; order_id: string; customer_key: string; at: Millis },
  ): Promise<{ ok: true } | { ok: false; refused: DiscountUsageRefusal }>;
  /** Prior uses per discount by one customer key, for pricing previews. */
  countUsesByCustomer(
    scope: Scope,
    discount_ids: string[],
    customer_key: string,
  ): Promise<Record<string, number>>;
}

// ---------------------------------------------------------------- customers

export interface CustomerRepository {
  /** duplicate_email (param `email`) when the e-mail exists in the scope (case-insensitive). */
  insert(record: CustomerRecord): Promise<void>;
  get(scope: Scope, id: string): Promise<CustomerRecord | null>;
  /** Case-insensitive. */
  getByEmail(scope: Scope, email: string): Promise<CustomerRecord | null>;
  list(
    scope: Scope,
    filter: { q?: string | undefined; status?: 'active' | 'disabled' | undefined; tag?: string | undefined },
    page: PageRequest<'created_at'>,
  ): Promise<Page<CustomerRecord>>;
  update(
    scope: Scope,
    id: string,
    patch: Patch<
      CustomerRecord,
      | 'email'
      | 'first_name'
      | 'last_name'
      | 'phone'
      | 'external_id'
      | 'status'
      | 'tags'
      | 'metadata'
      | 'password_hash'
    >,
  ): Promise<CustomerRecord | null>;
  delete(scope: Scope, id: string, at: Millis): Promise<boolean>;
  /** Derived from orders in one grouped query. Missing ids get zeros. */
  totals(scope: Scope, customer_ids: string[]): Promise<Record<string, CustomerTotals>>;

  insertAddress(record: CustomerAddressRecord): Promise<void>;
  getAddress(scope: Scope, customer_id: string, id: string): Promise<CustomerAddressRecord | null>;
  /** The addresses of these customers (one or a page of them), oldest first, in one query. */
  listAddresses(scope: Scope, customer_ids: string[]): Promise<CustomerAddressRecord[]>;
  updateAddress(
    scope: Scope,
    customer_id: string,
    id: string,
    patch: Patch<
      CustomerAddressRecord,
      | 'name'
      | 'company'
      | 'line1'
      | 'line2'
      | 'city'
      | 'state'
      | 'postal_code'
      | 'country'
      | 'phone'
      | 'type'
      | 'is_default'
    >,
  ): Promise<CustomerAddressRecord | null>;
  deleteAddress(scope: Scope, customer_id: string, id: string): Promise<boolean>;
  /** Clears is_default on the customer's other addresses. */
  clearDefaultAddress(scope: Scope, customer_id: string, except_id: string): Promise<void>;
}

// ---------------------------------------------------------------- carts

/** The cart columns {@link CartRepository.update} and {@link CartRepository.set} write. */
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
  /** The newest active cart of a guest session / of a customer. */
  getActiveBySession(scope: Scope, session_id: string): Promise<CartAggregate | null>;
  getActiveByCustomer(
    scope: Scope,
    customer_id: string,
    except_cart_id?: string,
  ): Promise<CartAggregate | null>;
  update(scope: Scope, id: string, patch: CartPatch): Promise<CartRecord | null>;
  /**
   * {@link CartRepository.update} without reading the row back, for a caller that holds the cart
   * (read `forUpdate` in this transaction) and builds the updated record itself: the same columns
   * are written, nothing is returned. False when there is no such cart in the scope.
   */
  set(scope: Scope, id: string, patch: CartPatch): Promise<boolean>;
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

// ---------------------------------------------------------------- orders

export interface OrderListFilter {
  status?: OrderRecord['status'] | undefined;
  payment_status?: OrderRecord['payment_status'] | undefined;
  fulfillment_status?: OrderRecord['fulfillment_status'] | undefined;
  customer_id?: string | undefined;
  /** Case-insensitive exact match. */
  email?: string | undefined;
  /** Matches the order number exactly or the e-mail partially (case-insensitive). */
  q?: string | undefined;
  /** Inclusive bounds. */
  created_after?: Millis | undefined;
  created_before?: Millis | undefined;
  /** Storefront lists never show drafts. */
  exclude_drafts?: boolean | undefined;
}

export interface OrderRepository {
  /**
   * Allocates the next order number of the scope (1001, 1002, …) inside the caller's
   * transaction: gap-free, since a rolled-back transaction gives its number back, and unique
   * under any concurrency across processes (a counter row updated with `+ 1 … RETURNING`).
   */
  nextNumber(scope: Scope): Promise<number>;
  /** Inserts the order with its lines, payments, fulfillments and refunds. */
  insert(order: OrderAggregate): Promise<void>;
  get(scope: Scope, id: string, options?: { forUpdate?: boolean }): Promise<OrderAggregate | null>;
  getByNumber(scope: Scope, number: number): Promise<OrderAggregate | null>;
  list(
    scope: Scope,
    filter: OrderListFilter,
    page: PageRequest<'created_at' | 'number' | 'total'>,
  ): Promise<Page<OrderAggregate>>;
  /**
   * Updates order columns. With `expect_status`, a compare-and-set: no row changes unless the
   * order is still in that status (returns null then).
   */
  update(
    scope: Scope,
    id: string,
    patch: Patch<
      OrderRecord,
      | 'status'
      | 'payment_status'
      | 'fulfillment_status'
      | 'email'
      | 'customer_id'
      | 'shipping_address'
      | 'billing_address'
      | 'note'
      | 'metadata'
      | 'paid_total'
      | 'refunded_total'
      | 'inventory_reserved'
      | 'cancel_reason'
      | 'cancelled_at'
      | 'completed_at'
    >,
    options?: { expect_status?: OrderRecord['status'] },
  ): Promise<OrderRecord | null>;
  updateLines(
    scope: Scope,
    order_id: string,
    lines: Array<
      Pick<OrderLineRecord, 'id'> &
        Partial<
          Pick<
            OrderLineRecord,
            | 'fulfilled_quantity'
            | 'shipped_quantity'
            | 'refunded_quantity'
            | 'restocked_quantity'
            | 'reserved_quantity'
          >
        >
    >,
  ): Promise<void>;

  insertPayment(record: PaymentRecord): Promise<void>;
  getPayment(scope: Scope, id: string): Promise<PaymentRecord | null>;
  /** A checkout attempt by its provider idempotency key (reconciliation). */
  getPaymentByIdempotencyKey(scope: Scope, key: string): Promise<PaymentRecord | null>;
  updatePayment(
    scope: Scope,
    id: string,
    patch: Patch<
      PaymentRecord,
      | 'status'
      | 'provider_id'
      | 'order_id'
      | 'client_secret'
      | 'failure_reason'
      | 'metadata'
      | 'checkout_snapshot'
    >,
    options?: { expect_status?: PaymentRecord['status'] },
  ): Promise<PaymentRecord | null>;
  /**
   * Payments in `status` created before `before`, across scopes, oldest first by `(created_at,
   * id)` (reconciliation); with `after`, only those after that position (keyset pages).
   */
  listPaymentsByStatus(
    status: PaymentRecord['status'],
    before: Millis,
    limit: number,
    after?: CreatedPosition,
  ): Promise<PaymentRecord[]>;

  insertFulfillment(record: FulfillmentRecord): Promise<void>;
  getFulfillment(scope: Scope, id: string): Promise<FulfillmentRecord | null>;
  /**
   * Patches a fulfillment; with `expect_status` only while it is in that status (compare-and-set:
   * the `WHERE` is the guard), else null. `lines` replaces its lines as a whole (a restocking
   * refund takes unshipped units out of a pending fulfillment).
   */
  updateFulfillment(
    scope: Scope,
    id: string,
    patch: Patch<
      FulfillmentRecord,
      | 'status'
      | 'tracking_number'
      | 'tracking_url'
      | 'carrier'
      | 'lines'
      | 'metadata'
      | 'shipped_at'
      | 'delivered_at'
    >,
    options?: { expect_status?: FulfillmentRecord['status'] },
  ): Promise<FulfillmentRecord | null>;

  insertRefund(record: RefundRecord): Promise<void>;
  updateRefund(
    scope: Scope,
    id: string,
    patch: Patch<
      RefundRecord,
      'status' | 'provider_refund_id' | 'metadata' | 'restock_movements' | 'provider_calls' | 'failure_message'
    >,
  ): Promise<RefundRecord | null>;
  /**
   * Refunds in `status` created before `before`, across scopes, oldest first by `(created_at, id)`
   * (reconciliation of refunds left in flight); with `after`, only those after that position.
   */
  listRefundsByStatus(
    status: RefundRecord['status'],
    before: Millis,
    limit: number,
    after?: CreatedPosition,
  ): Promise<RefundRecord[]>;
}

// ---------------------------------------------------------------- idempotency

export type IdempotencyBegin =
  | { outcome: 'started' }
  | { outcome: 'replay'; status: number; body: string }
  | { outcome: 'mismatch' }
  | { outcome: 'in_progress' };

export interface IdempotencyRepository {
  /**
   * First writer wins: inserts an in-progress record holding `claim_token` (INSERT … ON CONFLICT
   * DO NOTHING). A key is scoped to its caller: the record's key is (scope, `caller`, `key`).
   * When it exists: a different `operation` or `request_hash` → mismatch; completed → replay;
   * in progress with `locked_until` in the future → in_progress; in progress but expired lock, or
   * past `expires_at` → taken over by this caller (started), with this call's `claim_token`.
   */
  begin(
    scope: Scope,
    input: {
      key: string;
      caller: string;
      claim_token: string;
      operation: string;
      request_hash: string;
      now: Millis;
      lock_ms: number;
      ttl_ms: number;
    },
  ): Promise<IdempotencyBegin>;
  /**
   * Stores the response as a compare-and-set on the claim: only while the record still holds
   * `claim.claim_token` (in progress, or completed by this same claim). Returns false when the claim
   * was taken over (its lock expired) — the caller's transaction must then roll back its effect.
   */
  complete(
    scope: Scope,
    claim: IdempotencyClaimRef,
    response: { status: number; body: string },
  ): Promise<boolean>;
  /**
   * Extends the lock of a claim that is still this token's (compare-and-set); false when it was
   * taken over. Interim transactions of a request call it so that a stale claim commits nothing.
   */
  renew(scope: Scope, claim: IdempotencyClaimRef, locked_until: Millis): Promise<boolean>;
  /** Forget an in-progress key held by this claim (the request failed in a way that should not be replayed). */
  release(scope: Scope, claim: IdempotencyClaimRef): Promise<void>;
  /** Housekeeping: delete records past `expires_at`. */
  purgeExpired(now: Millis): Promise<number>;
}

/** One request's claim on an idempotency key. */
export interface IdempotencyClaimRef {
  key: string;
  caller: string;
  claim_token: string;
}

// ---------------------------------------------------------------- events, webhooks

export interface EventRepository {
  /** Appends to the outbox inside the caller's transaction. */
  append(events: EventRecord[]): Promise<void>;
  /**
   * Fan-out: claims up to `limit` events not yet dispatched (oldest first; Postgres
   * `FOR UPDATE SKIP LOCKED`), asks `makeDelivery` for each active webhook of the event's scope
   * and inserts the deliveries it returns (null: the webhook does not receive that event — core
   * decides, `receivesEvent`), and marks the events dispatched — all in the caller's
   * transaction. Returns the number of events handled.
   */
  dispatch(
    limit: number,
    now: Millis,
    makeDelivery: (event: EventRecord, webhook: WebhookRecord) => WebhookDeliveryRecord | null,
  ): Promise<number>;
}

export interface WebhookRepository {
  insert(record: WebhookRecord): Promise<void>;
  get(scope: Scope, id: string): Promise<WebhookRecord | null>;
  list(scope: Scope, page: PageRequest<'created_at'>): Promise<Page<WebhookRecord>>;
  update(
    scope: Scope,
    id: string,
    patch: Patch<
      WebhookRecord,
      'url' | 'events' | 'events_since' | 'is_active' | 'consecutive_failures' | 'metadata'
    >,
  ): Promise<WebhookRecord | null>;
  delete(scope: Scope, id: string, at: Millis): Promise<boolean>;

  /**
   * Claims due deliveries across all scopes so that no two workers ever hold the same one:
   * pending, `next_attempt_at <= now`, not leased (or lease expired), webhook active; sets
   * `lease_until = now + lease_ms`, `leased_by = worker_id`. Postgres: `FOR UPDATE SKIP LOCKED`.
   */
  claimDue(input: {
    now: Millis;
    limit: number;
    lease_ms: number;
    worker_id: string;
  }): Promise<ClaimedDelivery[]>;
  /**
   * Records one attempt's result for a delivery this worker holds (guard: `leased_by = worker_id`),
   * clears the lease, and updates the delivery (`status`, `attempt_count`, `next_attempt_at`,
   * last_*). Returns false if the lease was lost (another worker took over after expiry).
   */
  recordAttempt(input: {
    delivery_id: string;
    worker_id: string;
    attempt: WebhookAttemptRecord;
    status: WebhookDeliveryRecord['status'];
    next_attempt_at: Millis | null;
    at: Millis;
  }): Promise<boolean>;
  /** Gives a claimed delivery back untouched (shutdown). */
  releaseLease(delivery_id: string, worker_id: string): Promise<void>;
  /** Success → 0; failure → +1. Returns the webhook after the change. */
  recordOutcome(
    scope: Scope,
    webhook_id: string,
    succeeded: boolean,
    at: Millis,
  ): Promise<WebhookRecord | null>;
  /** Deactivation: every pending delivery of the webhook becomes cancelled. */
  cancelPendingDeliveries(scope: Scope, webhook_id: string, at: Millis): Promise<number>;
  /**
   * Secret rotation, atomically: `previous_secret` becomes the current `secret` (an older previous
   * one is dropped), `secret` the new one, `previous_secret_expires_at` as given. Two concurrent
   * rotations both take effect in turn (the second keeps the first's secret as previous).
   * Returns the webhook after the change, or null for an unknown (or deleted) webhook.
   */
  rotateSecret(
    scope: Scope,
    id: string,
    input: { secret: string; previous_secret_expires_at: Millis; at: Millis },
  ): Promise<WebhookRecord | null>;
  /** One delivery of this webhook, with its attempts; null if unknown or of another webhook. */
  getDelivery(
    scope: Scope,
    webhook_id: string,
    delivery_id: string,
  ): Promise<(WebhookDeliveryRecord & { attempts: WebhookAttemptRecord[] }) | null>;
  /**
   * Claims one delivery of one webhook for a manual re-send, whatever its status, unless another
   * worker holds an unexpired lease on it: sets `status = 'pending'`,
   * `next_attempt_at = lease_until = now + lease_ms`, `leased_by = worker_id` (so a sender that
   * dies is taken over by `claimDue` once the lease expires, and deactivating the webhook
   * meanwhile cancels it). Null when the delivery is unknown, of another webhook, or leased.
   */
  claimDelivery(input: {
    scope: Scope;
    webhook_id: string;
    delivery_id: string;
    now: Millis;
    lease_ms: number;
    worker_id: string;
  }): Promise<ClaimedDelivery | null>;
  listDeliveries(
    scope: Scope,
    webhook_id: string,
    page: PageRequest<'created_at'>,
  ): Promise<Page<WebhookDeliveryRecord & { attempts: WebhookAttemptRecord[] }>>;
}

export interface NotificationRepository {
  insert(record: NotificationRecord): Promise<void>;
  list(scope: Scope, page: PageRequest<'created_at'>): Promise<Page<NotificationRecord>>;
}

/**
 * Request counters shared by every process on the database (the strict per-address rate limits:
 * failed authentication, guest order look-ups, sign-in). Not scoped to a store: a client address
 * is the same client whatever store it probes.
 */
export interface RateLimitRepository {
  /**
   * Counts one request in `bucket`'s fixed window that starts at `window_start` (epoch ms) and
   * returns the requests counted in it so far, this one included — one atomic statement (an
   * upsert): a newer window starts the count over; a hit for an older window (a process whose
   * clock lags) counts in the newer one.
   */
  hit(bucket: string, window_start: Millis): Promise<number>;
  /** Deletes the counters of windows that started before `before`; returns how many. */
  prune(before: Millis): Promise<number>;
}
