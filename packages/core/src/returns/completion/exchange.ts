import { assertPurchasable, loadAndPrice, type PriceableItem } from '../../carts/cart-pricing';
import { emitInventoryCrossings } from '../../inventory/inventory-events';
import { buildOrder } from '../../orders/order-builder';
import { reserveLines, withReservedQuantities } from '../../orders/order-inventory';
import { requireStoreIn } from '../../orders/order-loading';
import { settleOrder, statusEvent } from '../../orders/order-progress';
import { orderToWire } from '../../orders/wire';
import { EXCHANGE_CREDIT_PROVIDER } from '../../payments/vocabulary';
import { paymentToWire } from '../../payments/wire';
import type { OrderAggregate, PaymentRecord, Scope } from '../../ports/storage';
import type { ServiceContext } from '../../shared/context';
import type { Work } from '../../shared/unit-of-work';
import { type CompletionReturn, type ExchangeLine, type ExchangeSettlement, settleExchange } from './plan';

/** What {@link placeExchangeOrder} needs. */
export interface ExchangeOrderInput {
  /** The order the units were returned from (customer, e-mail and addresses are copied). */
  original: Pick<
    OrderAggregate,
    'id' | 'customer_id' | 'email' | 'shipping_address' | 'billing_address' | 'region_id'
  >;
  ret: Pick<CompletionReturn, 'id' | 'lines'>;
  /** The replacement lines (`CompletionPlan.exchange.lines`). */
  lines: readonly ExchangeLine[];
  /** The exchange credit (`CompletionPlan.exchange.credit`). */
  credit: number;
}

/** The exchange order as written, and how the credit settled against its total. */
export interface PlacedExchange {
  order: OrderAggregate;
  /** The `exchange_credit` payment on it (null when the credit was 0). */
  payment: PaymentRecord | null;
  settlement: ExchangeSettlement;
}

/**
 * Places the exchange order of a return (decisions §18 `complete`, `exchange`), in the caller's
 * transaction — the same one that completes the return:
 *
 * - a new order for the original order's customer, e-mail and addresses; lines = the exchange
 *   variants × quantities at today's catalog price, priced by the one pricing function with no
 *   discount (neither automatic nor code) and no shipping method (shipping 0); tax as usual (the
 *   store's rate and `prices_include_tax`); `metadata: { return_id }`; status `pending`, its stock
 *   reserved like an admin `pending` order. A variant that cannot be sold → 422
 *   `product_unavailable`, stock short → 422 `insufficient_inventory` (param
 *   `lines[i][exchange_variant_id]` / `lines[i][quantity]` of the return line asking for it); the
 *   caller's transaction then rolls back: nothing changes and the return stays `received`;
 * - a `completed` payment of provider `exchange_credit` (`EXCHANGE_CREDIT_PROVIDER`) of
 *   `min(credit, total)`, `metadata: { return_id, order_id }` (the original order). Paid in full →
 *   the order moves to `confirmed` (as any payment in full); below the total it stays `pending`,
 *   `partially_paid`, and the merchant takes the rest. The credit above the total is the caller's
 *   to refund on the original order (`settlement.surplus`).
 *
 * Exchange credit is not revenue: it is money the original order took (decisions §23 leaves the
 * `exchange_credit` payments out of revenue).
 *
 * Events, in order: `order.created`, `payment.created`, `payment.completed` (with a payment),
 * `order.confirmed` (paid in full), inventory thresholds crossed by the reservation.
 */
export async function placeExchangeOrder(
  ctx: Pick<ServiceContext, 'ids'>,
  work: Work,
  scope: Scope,
  input: ExchangeOrderInput,
): Promise<PlacedExchange> {
  const { tx, now } = work;
  const { original, ret } = input;
  const store = await requireStoreIn(tx, scope);
  const items: PriceableItem[] = input.lines.map((line, index) => ({
    key: String(index),
    variant_id: line.variant_id,
    quantity: line.quantity,
  }));
  // Errors name the first return line asking for the variant.
  const firstLineOf = (index: number) => {
    const variant = input.lines[index]?.variant_id;
    const at = ret.lines.findIndex((l) => l.exchange_variant_id === variant);
    return at >= 0 ? at : index;
  };
  const param = (index: number, field: 'variant_id' | 'quantity') =>
    `lines[${firstLineOf(index)}][${field === 'variant_id' ? 'exchange_variant_id' : 'quantity'}]`;

  const priced = await loadAndPrice(tx, {
    scope,
    store,
    items,
    shipping_method_id: null,
    discount_codes: [],
    customer: { id: original.customer_id, email: original.email, tags: [] },
    now,
    // In the original order's region and currency (decisions §19), as its exchange credit is.
    region_id: original.region_id,
    known: { automatic: [] }, // no discounts on an exchange
  });
  assertPurchasable(priced, items, { param });

  const id = ctx.ids.next('ord');
  const draft = buildOrder(
    ctx,
    {
      id,
      number: 0,
      scope,
      store,
      status: 'pending',
      customer_id: original.customer_id,
      email: original.email,
      shipping_address: original.shipping_address,
      billing_address: original.billing_address,
      note: null,
      metadata: { return_id: ret.id },
      cart_id: null,
      inventory_reserved: true,
      now,
    },
    priced,
    items,
  );
  const reservations = await reserveLines(
    work,
    scope,
    items,
    (i) => param(i, 'quantity'),
    [...priced.variants.values()].map((entry) => entry.inventory),
  );
  draft.lines = withReservedQuantities(draft.lines, reservations);
  draft.number = await tx.orders.nextNumber(scope);

  const settlement = settleExchange(input.credit, draft.total);
  const payment: PaymentRecord | null =
    settlement.payment > 0
      ? {
          id: ctx.ids.next('pay'),
          store_id: scope.store_id,
          mode: scope.mode,
          order_id: id,
          provider: EXCHANGE_CREDIT_PROVIDER,
          provider_id: null,
          amount: settlement.payment,
          currency: draft.currency,
          status: 'completed',
          idempotency_key: null,
          cart_id: null,
          client_secret: null,
          failure_reason: null,
          note: `Exchange credit from return ${ret.id} of order ${original.id}`,
          metadata: { return_id: ret.id, order_id: original.id },
          checkout_snapshot: null,
          created_at: now,
          updated_at: now,
        }
      : null;
  if (payment) draft.payments = [payment];

  const { order, path } = settleOrder(draft, now);
  await tx.orders.insert(order);
  const wire = orderToWire(order);
  work.emit(scope, 'order.created', wire);
  if (payment) {
    const paymentWire = paymentToWire(payment);
    work.emit(scope, 'payment.created', paymentWire);
    work.emit(scope, 'payment.completed', paymentWire);
  }
  for (const status of path) {
    const type = statusEvent(status);
    if (type) work.emit(scope, type, wire);
  }
  emitInventoryCrossings(work, scope, reservations);
  return { order, payment, settlement };
}
