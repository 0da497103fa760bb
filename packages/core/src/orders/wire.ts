import { addressToWire } from '../carts/wire';
import type { DiscountValueType } from '../discounts/schemas';
import { fulfillmentToWire } from '../fulfillments/wire';
import { paymentToStorefrontWire, paymentToWire } from '../payments/wire';
import type { AppliedDiscountValue, OrderAggregate, OrderLineRecord } from '../ports/storage';
import { refundToWire } from '../refunds/wire';
import { iso, isoOrNull, money } from '../shared/wire-format';
import { returnableByLine } from './returnable-units';
import type { CheckoutResult, Order, OrderLine } from './schemas';

/**
 * Serializers of the order area (spec "Order", "OrderLine"); an order's payments, fulfillments
 * and refunds are serialized by their contexts (payments/wire.ts, fulfillments/wire.ts,
 * refunds/wire.ts). Orders look the same to the admin and the storefront (no field is
 * admin-only), so there is one view. Every function is pure and allocation-light: it maps records
 * already loaded in a fixed number of queries.
 */

/**
 * One order line: its snapshot and unit counts; `returnable_quantity` (decisions §18) as
 * `returnableByLine` computed it for the order (0 when not given).
 */
export function orderLineToWire(line: OrderLineRecord, currency: string, returnable = 0): OrderLine {
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
    returnable_quantity: returnable,
    unit_price: money(line.unit_price, currency),
    line_discount: money(line.line_discount, currency),
    line_total: money(line.line_total, currency),
    tax_amount: money(line.tax_amount, currency),
    option_values: line.option_values,
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
  const returnable = returnableByLine(order);
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
    lines: [...order.lines]
      .sort((a, b) => a.position - b.position)
      .map((line) => orderLineToWire(line, c, returnable.get(line.id))),
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
    region_id: order.region_id,
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
