import type { CreatedPosition, Patch } from './conventions';
import type { Page, PageRequest } from './pagination';
import type {
  EventRecord,
  FulfillmentRecord,
  FulfillmentTrackingEventRecord,
  OrderAggregate,
  OrderLineRecord,
  OrderRecord,
  PaymentRecord,
  RefundRecord,
} from './records';
import type { Millis, Scope } from './scope';

// Orders with their lines, payments, fulfillments and refunds.

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
  /** Decisions §19: orders in this currency (exact, upper case). */
  currency?: string | undefined;
  /** Decisions §19: orders priced in this region. */
  region_id?: string | undefined;
}

/** The orders of one customer in one status, summed ({@link OrderRepository.sumByCustomer}). */
export interface OrderSums {
  customer_id: string;
  status: OrderRecord['status'];
  /** How many orders. */
  count: number;
  /** Σ `paid_total`. */
  paid_total: number;
  /** Σ `refunded_total`. */
  refunded_total: number;
}

/** The outbox an order numbered at COMMIT is inserted with (`OrderRepository.insertNumbered`). */
export interface NumberedOutbox {
  events: readonly EventRecord[];
  /** The number the order's wire objects carry in `events` until the real one is known (an integer < 0). */
  placeholder: number;
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
  /**
   * Optional (PostgreSQL): inserts a new order (lines and payments, no fulfillments or refunds)
   * under the next number of its scope, with the transaction's outbox `events`, taken by the same
   * statement — so the counter row is locked only from this call to COMMIT, which the caller sends
   * with it (core's `work.defer`). `order.number` is ignored; in the data of `events`, the text
   * `"number":<placeholder>` becomes the number. Answers the number. Every statement is started at
   * the call. Gap-free and unique as {@link nextNumber}.
   */
  insertNumbered?(order: OrderAggregate, outbox: NumberedOutbox): Promise<number>;
  /** The order by id or by `{ number }`; `forUpdate` locks its row until the transaction ends. */
  get(
    scope: Scope,
    key: string | { number: number },
    options?: { forUpdate?: boolean },
  ): Promise<OrderAggregate | null>;
  list(
    scope: Scope,
    filter: OrderListFilter,
    page: PageRequest<'created_at' | 'number' | 'total'>,
  ): Promise<Page<OrderAggregate>>;
  /**
   * The orders of these customers summed per customer and status, drafts and cancelled ones
   * included, in one grouped statement: one row per (customer, status) that has orders (what
   * counts towards a customer's totals is core's rule).
   */
  sumByCustomer(
    scope: Scope,
    customer_ids: string[],
    options?: {
      /**
       * Sums `paid_total` and `refunded_total` over the orders in this currency only (the other
       * orders still count in `count`): `total_spent` counts store-currency orders (decisions §19).
       */
      spent_currency?: string | undefined;
    },
  ): Promise<OrderSums[]>;
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
      | 'confirmed_at'
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
            | 'returned_quantity'
            | 'returning_quantity'
          >
        >
    >,
  ): Promise<void>;

  insertPayment(record: PaymentRecord): Promise<void>;
  /**
   * A payment by id, or a checkout attempt by `{ idempotency_key }`, its provider idempotency key
   * (the newest, should there be several).
   */
  getPayment(scope: Scope, key: string | { idempotency_key: string }): Promise<PaymentRecord | null>;
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
      | 'carrier_code'
      | 'estimated_delivery'
      | 'lines'
      | 'metadata'
      | 'shipped_at'
      | 'delivered_at'
    >,
    options?: { expect_status?: FulfillmentRecord['status'] },
  ): Promise<FulfillmentRecord | null>;
  /**
   * Inserts a carrier tracking event of a fulfillment. `(fulfillment_id, sequence)` is unique in
   * the scope: a second insert of the same pair fails (core assigns the sequence while it holds
   * the order's row lock).
   */
  insertTrackingEvent(record: FulfillmentTrackingEventRecord): Promise<void>;
  /** The tracking events of a fulfillment, by `sequence` ascending (insertion order). */
  listTrackingEvents(scope: Scope, fulfillment_id: string): Promise<FulfillmentTrackingEventRecord[]>;

  insertRefund(record: RefundRecord): Promise<void>;
  updateRefund(
    scope: Scope,
    id: string,
    patch: Patch<
      RefundRecord,
      | 'status'
      | 'provider_refund_id'
      | 'metadata'
      | 'restock_movements'
      | 'provider_calls'
      | 'failure_message'
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
