import { recordDiscountUsage } from '../discounts/discount-usage';
import { settleOrder, statusEvent } from '../orders/order-progress';
import { orderToWire } from '../orders/wire';
import { paymentToWire } from '../payments/wire';
import type { CartRecord, OrderAggregate, PaymentRecord, Scope } from '../ports/storage';
import type { ServiceContext } from '../shared/context';
import { CommerceError } from '../shared/errors';
import { ORDER_NUMBER_PLACEHOLDER, type Work } from '../shared/unit-of-work';

/** What the order transaction of a checkout writes. */
export interface CheckoutOrderInput {
  /** The cart, read under its row lock in this transaction. */
  cart: Pick<CartRecord, 'id' | 'status'>;
  /** The order priced at the claim (`number` 0, no payments). */
  draft: OrderAggregate;
  customer_key: string;
  /**
   * The payment in its final state (`order_id`, `status`, provider fields set), or null when the
   * total is 0 and nothing was paid.
   */
  payment: PaymentRecord | null;
  /**
   * `attempt`: the payment is a checkout attempt recorded (pending) by an earlier transaction and
   * is linked to the order by a compare-and-set on `pending` (two-transaction checkout);
   * `new`: it is inserted with the order, once, in its final state (single-transaction checkout).
   */
  payment_row: 'attempt' | 'new';
}

/**
 * Writes a checkout's order inside the caller's transaction (docs/contract.md#money, #pricing, #checkout): counts
 * every discount's use atomically (422 `discount_usage_limit_reached` rolls everything back),
 * takes the next gap-free order number, inserts the order with the status its payment earns
 * (`settleOrder`: paid in full → `confirmed`) together with a new payment, or links the recorded
 * attempt to it (a compare-and-set on `pending`), and completes the cart. A cart that left `active` while its payment was in flight
 * (merged away: `abandoned`) is left as it is — the customer paid, so the order is written all
 * the same. Emits `order.created`, `payment.created`, `payment.completed` when the money was
 * taken, and `order.confirmed` for the status moves. Reservations were made by the claim and are
 * not repeated here.
 */
export async function writeCheckoutOrder(
  ctx: ServiceContext,
  work: Work,
  scope: Scope,
  input: CheckoutOrderInput,
): Promise<OrderAggregate> {
  const { tx, now } = work;
  const { draft, payment } = input;
  const using = recordDiscountUsage(ctx, work, scope, {
    order_id: draft.id,
    customer_key: input.customer_key,
    discounts: draft.applied_discounts,
  });
  if (input.payment_row === 'new' && work.numbersAtCommit) {
    return writeNumberedAtCommit(work, scope, input, using);
  }
  // One round trip: every discount use, the next number and the cart's completion, in that order
  // (the locks the first two take, in the order they always were; the cart's row is held by this
  // transaction already). Their results are checked in the order they were written before.
  const numbering = tx.orders.nextNumber(scope);
  const completing =
    input.cart.status === 'active'
      ? tx.carts.transition(scope, input.cart.id, 'active', 'completed', now)
      : Promise.resolve(true);
  const [used, numbered, completed] = await Promise.allSettled([using, numbering, completing]);
  if (used.status === 'rejected') throw used.reason;
  if (numbered.status === 'rejected') throw numbered.reason;
  const number = numbered.value;
  const { order, path } = settleOrder(
    { ...draft, number, payments: payment ? [payment] : [], created_at: now, updated_at: now },
    now,
  );
  if (payment && input.payment_row === 'attempt') {
    // The link is a compare-and-set whose answer decides: awaited (with the insert it follows).
    const inserting = tx.orders.insert({ ...order, payments: [] });
    const linking = tx.orders.updatePayment(
      scope,
      payment.id,
      {
        order_id: order.id,
        status: payment.status,
        provider_id: payment.provider_id,
        client_secret: payment.client_secret,
        failure_reason: payment.failure_reason,
        metadata: payment.metadata,
        checkout_snapshot: payment.checkout_snapshot,
        updated_at: now,
      },
      { expect_status: 'pending' },
    );
    const [inserted, linked] = await Promise.allSettled([inserting, linking]);
    if (inserted.status === 'rejected') throw inserted.reason;
    if (linked.status === 'rejected') throw linked.reason;
    if (!linked.value)
      throw new CommerceError('internal_error', `Checkout attempt '${payment.id}' was settled meanwhile`);
  } else {
    // The last write: awaited at the end, beside the outbox append (one round trip).
    work.defer(tx.orders.insert(input.payment_row === 'new' ? order : { ...order, payments: [] }));
  }
  if (completed.status === 'rejected') throw completed.reason;
  if (!completed.value) {
    throw new CommerceError('cart_not_active', 'This cart has already been checked out', {
      data: { status: 'completed' },
    });
  }
  emitOrderEvents(work, scope, order, path);
  return order;
}

/**
 * The single-transaction checkout on a storage that takes the order number in the COMMIT flight
 * (`orders.insertNumbered`: PostgreSQL), so the per-store counter row is locked for that one
 * round trip only, not from a round trip of its own to COMMIT. The discount uses are counted
 * first (their refusal decides); then the cart's completion, and the numbered order with the
 * outbox in one statement (`work.numberAtCommit`), travel with COMMIT. The order and its events carry {@link ORDER_NUMBER_PLACEHOLDER} until
 * the transaction committed (`work.numberAtCommit`).
 *
 * The cart's completion is a compare-and-set on `active` of a row this transaction locked and
 * read as `active`, so it cannot miss: it is not awaited.
 */
async function writeNumberedAtCommit(
  work: Work,
  scope: Scope,
  input: CheckoutOrderInput,
  using: Promise<void>,
): Promise<OrderAggregate> {
  const { tx, now } = work;
  const { draft, payment } = input;
  await using;
  const { order, path } = settleOrder(
    {
      ...draft,
      number: ORDER_NUMBER_PLACEHOLDER,
      payments: payment ? [payment] : [],
      created_at: now,
      updated_at: now,
    },
    now,
  );
  if (input.cart.status === 'active')
    work.defer(tx.carts.transition(scope, input.cart.id, 'active', 'completed', now));
  const wires = emitOrderEvents(work, scope, order, path);
  work.numberAtCommit(order, (number) => {
    order.number = number;
    for (const wire of wires) wire.number = number;
  });
  return order;
}

/**
 * `order.created`, `payment.created` (and `payment.completed` when the money was taken), and the
 * status events of `path`; answers the order wire objects it emitted (one, shared by them).
 */
function emitOrderEvents(
  work: Work,
  scope: Scope,
  order: OrderAggregate,
  path: ReturnType<typeof settleOrder>['path'],
): Array<{ number: number }> {
  const wire = orderToWire(order);
  work.emit(scope, 'order.created', wire);
  for (const p of order.payments) {
    const paymentWire = paymentToWire(p);
    work.emit(scope, 'payment.created', paymentWire);
    if (p.status === 'completed') work.emit(scope, 'payment.completed', paymentWire);
  }
  for (const status of path) {
    const type = statusEvent(status);
    if (type) work.emit(scope, type, wire);
  }
  return [wire];
}
