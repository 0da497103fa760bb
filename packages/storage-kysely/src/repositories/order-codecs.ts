import type { Mode } from '@cartwright/core';
import type {
  AddressValue,
  AppliedDiscountValue,
  FulfillmentLineValue,
  FulfillmentRecord,
  FulfillmentTrackingEventRecord,
  JsonObject,
  OrderLineRecord,
  OrderRecord,
  PaymentRecord,
  RefundProviderCallValue,
  RefundRecord,
  RestockMovementValue,
} from '@cartwright/core/storage';
import type { Selectable } from 'kysely';
import type { DialectCapabilities } from '../dialects/dialect-capabilities';
import type { EncodedRow } from '../query/insert-template';
import type {
  FulfillmentsTable,
  FulfillmentTrackingEventsTable,
  OrderLinesTable,
  OrdersTable,
  PaymentsTable,
  RefundsTable,
} from '../schema/database';

/** Row ⇄ record conversions of orders and their children. */

export function decodeOrder(row: Selectable<OrdersTable>, c: DialectCapabilities): OrderRecord {
  return {
    id: row.id,
    store_id: row.store_id,
    mode: row.mode as Mode,
    number: row.number,
    status: row.status as OrderRecord['status'],
    payment_status: row.payment_status as OrderRecord['payment_status'],
    fulfillment_status: row.fulfillment_status as OrderRecord['fulfillment_status'],
    customer_id: row.customer_id,
    email: row.email,
    shipping_address: c.parseJson<AddressValue | null>(row.shipping_address) ?? null,
    billing_address: c.parseJson<AddressValue | null>(row.billing_address) ?? null,
    region_id: row.region_id ?? null,
    currency: row.currency,
    subtotal: row.subtotal,
    discount_total: row.discount_total,
    shipping_total: row.shipping_total,
    tax_total: row.tax_total,
    total: row.total,
    paid_total: row.paid_total,
    refunded_total: row.refunded_total,
    prices_include_tax: c.toBool(row.prices_include_tax),
    tax_rate: row.tax_rate,
    shipping_method_id: row.shipping_method_id,
    shipping_method_name: row.shipping_method_name,
    shipping_discount: row.shipping_discount,
    shipping_tax: row.shipping_tax,
    applied_discounts: c.parseJson<AppliedDiscountValue[]>(row.applied_discounts),
    note: row.note,
    metadata: c.parseJson<JsonObject>(row.metadata),
    cart_id: row.cart_id,
    inventory_reserved: c.toBool(row.inventory_reserved),
    cancel_reason: row.cancel_reason,
    created_at: row.created_at,
    updated_at: row.updated_at,
    confirmed_at: row.confirmed_at,
    cancelled_at: row.cancelled_at,
    completed_at: row.completed_at,
  };
}

export function encodeOrder(order: OrderRecord, c: DialectCapabilities): EncodedRow<'orders'> {
  return {
    store_id: order.store_id,
    mode: order.mode,
    id: order.id,
    number: order.number,
    status: order.status,
    payment_status: order.payment_status,
    fulfillment_status: order.fulfillment_status,
    customer_id: order.customer_id,
    email: order.email,
    email_lower: order.email.toLowerCase(),
    shipping_address: c.jsonOrNull(order.shipping_address),
    billing_address: c.jsonOrNull(order.billing_address),
    region_id: order.region_id,
    currency: order.currency,
    subtotal: order.subtotal,
    discount_total: order.discount_total,
    shipping_total: order.shipping_total,
    tax_total: order.tax_total,
    total: order.total,
    paid_total: order.paid_total,
    refunded_total: order.refunded_total,
    prices_include_tax: c.bool(order.prices_include_tax),
    tax_rate: order.tax_rate,
    shipping_method_id: order.shipping_method_id,
    shipping_method_name: order.shipping_method_name,
    shipping_discount: order.shipping_discount,
    shipping_tax: order.shipping_tax,
    applied_discounts: c.json(order.applied_discounts),
    note: order.note,
    metadata: c.json(order.metadata),
    cart_id: order.cart_id,
    inventory_reserved: c.bool(order.inventory_reserved),
    cancel_reason: order.cancel_reason,
    created_at: order.created_at,
    updated_at: order.updated_at,
    confirmed_at: order.confirmed_at,
    cancelled_at: order.cancelled_at,
    completed_at: order.completed_at,
  };
}

export function decodeLine(row: Selectable<OrderLinesTable>, c: DialectCapabilities): OrderLineRecord {
  return {
    id: row.id,
    order_id: row.order_id,
    variant_id: row.variant_id,
    product_id: row.product_id,
    product_name: row.product_name,
    variant_name: row.variant_name,
    sku: row.sku,
    image_url: row.image_url,
    option_values: c.parseJson<Record<string, string>>(row.option_values) ?? {},
    quantity: row.quantity,
    fulfilled_quantity: row.fulfilled_quantity,
    shipped_quantity: row.shipped_quantity,
    refunded_quantity: row.refunded_quantity,
    restocked_quantity: row.restocked_quantity,
    reserved_quantity: row.reserved_quantity,
    returned_quantity: row.returned_quantity,
    returning_quantity: row.returning_quantity,
    unit_price: row.unit_price,
    line_discount: row.line_discount,
    line_total: row.line_total,
    tax_amount: row.tax_amount,
    position: row.position,
  };
}

export function encodeLine(
  scope: { store_id: string; mode: string },
  line: OrderLineRecord,
  c: DialectCapabilities,
): EncodedRow<'order_lines'> {
  // Scope keys first: `{ ...line, store_id, mode }` adds keys after a spread, which V8 (Node 20)
  // builds on a slow path (µs per line); OrderLineRecord has no scope keys, so it is the same row
  // but for `option_values`, written as the engine's JSON.
  const row: EncodedRow<'order_lines'> = { store_id: scope.store_id, mode: scope.mode, ...line };
  row.option_values = c.json(line.option_values);
  return row;
}

export function decodePayment(row: Selectable<PaymentsTable>, c: DialectCapabilities): PaymentRecord {
  return {
    id: row.id,
    store_id: row.store_id,
    mode: row.mode as Mode,
    order_id: row.order_id,
    provider: row.provider,
    provider_id: row.provider_id,
    amount: row.amount,
    currency: row.currency,
    status: row.status as PaymentRecord['status'],
    idempotency_key: row.idempotency_key,
    cart_id: row.cart_id,
    client_secret: row.client_secret,
    failure_reason: row.failure_reason,
    note: row.note,
    metadata: c.parseJson<JsonObject>(row.metadata),
    checkout_snapshot: row.checkout_snapshot === null ? null : c.parseJson<JsonObject>(row.checkout_snapshot),
    created_at: row.created_at,
    updated_at: row.updated_at,
  };
}

export function encodePayment(payment: PaymentRecord, c: DialectCapabilities): EncodedRow<'payments'> {
  return {
    ...payment,
    metadata: c.json(payment.metadata),
    checkout_snapshot: payment.checkout_snapshot === null ? null : c.json(payment.checkout_snapshot),
  };
}

export function decodeFulfillment(
  row: Selectable<FulfillmentsTable>,
  c: DialectCapabilities,
): FulfillmentRecord {
  return {
    id: row.id,
    store_id: row.store_id,
    mode: row.mode as Mode,
    order_id: row.order_id,
    status: row.status as FulfillmentRecord['status'],
    tracking_number: row.tracking_number,
    tracking_url: row.tracking_url,
    carrier: row.carrier,
    carrier_code: row.carrier_code,
    lines: c.parseJson<FulfillmentLineValue[]>(row.lines),
    metadata: c.parseJson<JsonObject>(row.metadata),
    created_at: row.created_at,
    updated_at: row.updated_at,
    shipped_at: row.shipped_at,
    delivered_at: row.delivered_at,
    estimated_delivery: row.estimated_delivery,
  };
}

export function decodeTrackingEvent(
  row: Selectable<FulfillmentTrackingEventsTable>,
): FulfillmentTrackingEventRecord {
  return {
    store_id: row.store_id,
    mode: row.mode as Mode,
    fulfillment_id: row.fulfillment_id,
    sequence: Number(row.sequence),
    status: row.status as FulfillmentTrackingEventRecord['status'],
    description: row.description,
    location: row.location,
    occurred_at: Number(row.occurred_at),
    created_at: Number(row.created_at),
  };
}

export function encodeFulfillment(
  fulfillment: FulfillmentRecord,
  c: DialectCapabilities,
): EncodedRow<'fulfillments'> {
  return { ...fulfillment, lines: c.json(fulfillment.lines), metadata: c.json(fulfillment.metadata) };
}

export function decodeRefund(row: Selectable<RefundsTable>, c: DialectCapabilities): RefundRecord {
  return {
    id: row.id,
    store_id: row.store_id,
    mode: row.mode as Mode,
    order_id: row.order_id,
    amount: row.amount,
    currency: row.currency,
    reason: row.reason,
    restock: c.toBool(row.restock),
    status: row.status as RefundRecord['status'],
    lines: c.parseJson<FulfillmentLineValue[]>(row.lines),
    provider_refund_id: row.provider_refund_id,
    metadata: c.parseJson<JsonObject>(row.metadata),
    restock_movements: c.parseJson<RestockMovementValue[]>(row.restock_movements),
    provider_calls:
      row.provider_calls === null ? null : c.parseJson<RefundProviderCallValue[]>(row.provider_calls),
    failure_message: row.failure_message,
    created_at: row.created_at,
    updated_at: row.updated_at,
  };
}

export function encodeRefund(refund: RefundRecord, c: DialectCapabilities): EncodedRow<'refunds'> {
  return {
    ...refund,
    restock: c.bool(refund.restock),
    lines: c.json(refund.lines),
    metadata: c.json(refund.metadata),
    restock_movements: c.json(refund.restock_movements),
    provider_calls: refund.provider_calls === null ? null : c.json(refund.provider_calls),
  };
}
