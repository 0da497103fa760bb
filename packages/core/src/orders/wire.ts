import { addressToWire } from '../carts/wire';
import type { DiscountValueType } from '../discounts/schemas';
import { AWAITING_PAYMENT_KEY } from '../payments/awaiting-payment';
import type {
  AppliedDiscountValue,
  FulfillmentRecord,
  OrderAggregate,
  OrderLineRecord,
  PaymentRecord,
  RefundRecord,
} from '../ports/storage';
import { iso, isoOrNull, money } from '../shared/wire-format';
import type { CheckoutResult, Fulfillment, Order, OrderLine, Payment, Refund } from './schemas';

/**
 * Serializers of the order area (spec "Order", "OrderLine", "Payment", "Fulfillment", "Refund").
 * Orders look the same to the admin and the storefront (no field is admin-only), so there is one
 * view. Every function is pure and allocation-light: it maps records already loaded in a fixed
 * number of queries.
 */

/** One order line: its snapshot and unit counts. */
export function orderLineToWire(line: OrderLineRecord, currency: string): OrderLine {
  return {
    id: line.id,
    variant_id: line.variant_id,
    product_id: line.product_id,
    product_name: line.product_name,
    variant_name: line.variant_name,
    sku: line.sku,
    image_url: line.image_url,
    quantity: line.quantity,
    fulfilled_quantity: line.fulfilled_quantity,
    refunded_quantity: line.refunded_quantity,
    unit_price: money(line.unit_price, currency),
    line_discount: money(line.line_discount, currency),
    line_total: money(line.line_total, currency),
    tax_amount: money(line.tax_amount, currency),
    option_values: line.option_values,
  };
}

/**
 * The payment metadata key under which a checkout attempt keeps its snapshot (the order to
 * write and the exact provider input, see `orders/checkout-attempts.ts`). Internal: the Payment
 * resource never shows it.
 */
export const CHECKOUT_SNAPSHOT_KEY = '_cartwright_checkout';

/** The payment metadata keys the Payment resource never shows (the engine's own bookkeeping). */
const INTERNAL_PAYMENT_KEYS = [CHECKOUT_SNAPSHOT_KEY, AWAITING_PAYMENT_KEY];

function publicMetadata(metadata: PaymentRecord['metadata']): PaymentRecord['metadata'] {
  if (!INTERNAL_PAYMENT_KEYS.some((key) => key in metadata)) return metadata;
  const rest = { ...metadata };
  for (const key of INTERNAL_PAYMENT_KEYS) delete rest[key];
  return rest;
}

/**
 * A payment (admin view). `order_id` is the empty string only for a failed checkout attempt that
 * never became an order (such payments appear in `payment.failed` events, never in an order).
 */
export function paymentToWire(payment: PaymentRecord): Payment {
  return {
    id: payment.id,
    order_id: payment.order_id ?? '',
    provider: payment.provider,
    provider_id: payment.provider_id,
    amount: money(payment.amount, payment.currency),
    status: payment.status,
    note: payment.note,
    metadata: publicMetadata(payment.metadata),
    created_at: iso(payment.created_at),
  };
}

/**
 * A payment as the storefront sees it: the admin view plus `client_secret` while the payment is
 * `pending` and the provider asked the customer to act (3-D Secure), so the storefront can run
 * the provider's authentication step.
 */
export function paymentToStorefrontWire(payment: PaymentRecord): Payment {
  const wire = paymentToWire(payment);
  return payment.status === 'pending' && payment.client_secret !== null
    ? { ...wire, client_secret: payment.client_secret }
    : wire;
}

/** A fulfillment with its lines. */
export function fulfillmentToWire(fulfillment: FulfillmentRecord): Fulfillment {
  return {
    id: fulfillment.id,
    order_id: fulfillment.order_id,
    status: fulfillment.status,
    tracking_number: fulfillment.tracking_number,
    tracking_url: fulfillment.tracking_url,
    carrier: fulfillment.carrier,
    lines: fulfillment.lines.map((l) => ({ order_line_id: l.order_line_id, quantity: l.quantity })),
    metadata: fulfillment.metadata,
    created_at: iso(fulfillment.created_at),
    shipped_at: isoOrNull(fulfillment.shipped_at),
    delivered_at: isoOrNull(fulfillment.delivered_at),
  };
}

/** A refund with its lines (its internal restock record is not shown). */
export function refundToWire(refund: RefundRecord): Refund {
  return {
    id: refund.id,
    order_id: refund.order_id,
    amount: money(refund.amount, refund.currency),
    reason: refund.reason,
    restock: refund.restock,
    status: refund.status,
    lines: refund.lines.map((l) => ({ order_line_id: l.order_line_id, quantity: l.quantity })),
    created_at: iso(refund.created_at),
  };
}

/** An applied discount as orders and carts show it. */
export function orderDiscountToWire(discount: AppliedDiscountValue, currency: string) {
  return {
    discount_id: discount.discount_id,
    code: discount.code,
    name: discount.name,
    value_type: discount.value_type as DiscountValueType,
    value: discount.value,
    saved: money(discount.saved, currency),
  };
}

const byCreation = <T extends { created_at: number; id: string }>(a: T, b: T) =>
  a.created_at - b.created_at || (a.id < b.id ? -1 : a.id > b.id ? 1 : 0);

/** The Order resource: lines in their order, payments, fulfillments and refunds oldest first. */
export function orderToWire(order: OrderAggregate): Order {
  const c = order.currency;
  return {
    id: order.id,
    number: order.number,
    status: order.status,
    payment_status: order.payment_status,
    fulfillment_status: order.fulfillment_status,
    customer_id: order.customer_id,
    email: order.email,
    shipping_address: addressToWire(order.shipping_address),
    billing_address: addressToWire(order.billing_address),
    lines: [...order.lines].sort((a, b) => a.position - b.position).map((line) => orderLineToWire(line, c)),
    subtotal: money(order.subtotal, c),
    discount_total: money(order.discount_total, c),
    shipping_total: money(order.shipping_total, c),
    tax_total: money(order.tax_total, c),
    total: money(order.total, c),
    refunded_total: money(order.refunded_total, c),
    applied_discounts: order.applied_discounts.map((d) => orderDiscountToWire(d, c)),
    shipping_method_name: order.shipping_method_name,
    note: order.note,
    payments: [...order.payments].sort(byCreation).map(paymentToWire),
    fulfillments: [...order.fulfillments].sort(byCreation).map(fulfillmentToWire),
    refunds: [...order.refunds].sort(byCreation).map(refundToWire),
    metadata: order.metadata,
    currency: order.currency,
    cancel_reason: order.cancel_reason,
    created_at: iso(order.created_at),
    updated_at: iso(order.updated_at),
    confirmed_at: isoOrNull(order.confirmed_at),
    cancelled_at: isoOrNull(order.cancelled_at),
    completed_at: isoOrNull(order.completed_at),
  };
}

/**
 * The Order as checkout's response and the signed-in customer's order views show it: the same
 * as {@link orderToWire}, with each payment in its storefront view (`client_secret` while
 * authentication is pending).
 */
export function orderToStorefrontWire(order: OrderAggregate): Order {
  return {
    ...orderToWire(order),
    payments: [...order.payments].sort(byCreation).map(paymentToStorefrontWire),
  };
}

/**
 * Checkout's answer (decisions §22): the order in its storefront view plus `payment` — what the
 * storefront needs to confirm or authenticate the payment in the browser, `{ client_secret,
 * payment_intent_id }` (the provider's payment id: Stripe's PaymentIntent), when the provider
 * gave a client secret for it (every Stripe checkout); null otherwise (manual, a total of 0).
 * `client_secret` is the provider's answer at checkout, which the order's payment keeps only
 * while the customer must act.
 */
export function orderToCheckoutWire(order: OrderAggregate, client_secret: string | null): CheckoutResult {
  const payment = order.payments.find((p) => p.provider_id !== null && p.cart_id === order.cart_id);
  return {
    ...orderToStorefrontWire(order),
    payment:
      payment?.provider_id && client_secret
        ? { client_secret, payment_intent_id: payment.provider_id }
        : null,
  };
}
