import type { IdGenerator } from '../../ports/id-generator';
import type { Product } from '../../schemas/catalog';
import type { Customer } from '../../schemas/customers';
import type { EventType } from '../../schemas/events';
import type { Inventory } from '../../schemas/inventory';
import type { Fulfillment, Order, Payment, Refund } from '../../schemas/orders';
import { iso, money } from '../wire/format';

/** The resource kind each event type carries in `data` (the admin wire view of that resource). */
export const EVENT_RESOURCE = {
  'product.created': 'product',
  'product.updated': 'product',
  'product.deleted': 'product',
  'order.created': 'order',
  'order.confirmed': 'order',
  'order.completed': 'order',
  'order.cancelled': 'order',
  'payment.created': 'payment',
  'payment.completed': 'payment',
  'payment.failed': 'payment',
  'payment.refunded': 'refund',
  'fulfillment.created': 'fulfillment',
  'fulfillment.shipped': 'fulfillment',
  'fulfillment.delivered': 'fulfillment',
  'inventory.low': 'inventory',
  'inventory.out_of_stock': 'inventory',
  'customer.created': 'customer',
  'customer.updated': 'customer',
} as const satisfies Record<EventType, string>;

export type EventResource = (typeof EVENT_RESOURCE)[EventType];

interface SampleContext {
  currency: string;
  now: number;
  ids: IdGenerator;
}

/**
 * A realistic `data` object for a test delivery (`POST /v1/admin/webhooks/{id}/test`) of the
 * given event type: a complete wire object of the resource the event carries (an order with id,
 * number, status and total; a product; a payment; …) in the store's currency, with fresh ids and
 * the state the event implies (e.g. `order.cancelled` → an order with `status: cancelled`).
 */
export function sampleEventData(type: EventType, context: SampleContext): Record<string, unknown> {
  const s = buildSamples(context);
  switch (type) {
    case 'product.created':
    case 'product.updated':
      return s.product('active');
    case 'product.deleted':
      return s.product('archived');
    case 'order.created':
      return s.order('created');
    case 'order.confirmed':
      return s.order('confirmed');
    case 'order.completed':
      return s.order('completed');
    case 'order.cancelled':
      return s.order('cancelled');
    case 'payment.created':
      return s.payment('pending');
    case 'payment.completed':
      return s.payment('completed');
    case 'payment.failed':
      return s.payment('failed');
    case 'payment.refunded':
      return s.refund();
    case 'fulfillment.created':
      return s.fulfillment('pending');
    case 'fulfillment.shipped':
      return s.fulfillment('shipped');
    case 'fulfillment.delivered':
      return s.fulfillment('delivered');
    case 'inventory.low':
      return s.inventory(2);
    case 'inventory.out_of_stock':
      return s.inventory(0);
    case 'customer.created':
    case 'customer.updated':
      return s.customer();
  }
}

function buildSamples({ currency, now, ids }: SampleContext) {
  const at = iso(now);
  const m = (amount: number) => money(amount, currency);
  const productId = ids.next('prod');
  const variantId = ids.next('var');
  const orderId = ids.next('ord');
  const lineId = ids.next('line');
  const customerId = ids.next('cus');
  const address = {
    name: 'Ada Lovelace',
    company: null,
    line1: '12 Sample Street',
    line2: null,
    city: 'London',
    state: null,
    postal_code: 'N1 9GU',
    country: 'GB',
    phone: null,
  };
  const inventory = (available: number): Inventory => ({
    id: ids.next('inv'),
    variant_id: variantId,
    track_inventory: true,
    allow_backorder: false,
    safety_stock: 5,
    on_hand: available + 1,
    reserved: 1,
    available,
    metadata: {},
  });
  const payment = (status: Payment['status']): Payment => ({
    id: ids.next('pay'),
    order_id: orderId,
    provider: 'manual',
    provider_id: null,
    amount: m(5500),
    status,
    note: null,
    metadata: {},
    created_at: at,
  });
  const fulfillment = (status: Fulfillment['status']): Fulfillment => ({
    id: ids.next('ful'),
    order_id: orderId,
    status,
    tracking_number: status === 'pending' ? null : '1Z999AA10123456784',
    tracking_url: status === 'pending' ? null : 'https://tracking.example.com/1Z999AA10123456784',
    carrier: status === 'pending' ? null : 'UPS',
    lines: [{ order_line_id: lineId, quantity: 2 }],
    metadata: {},
    created_at: at,
    shipped_at: status === 'pending' ? null : at,
    delivered_at: status === 'delivered' ? at : null,
  });
  const refund = (): Refund => ({
    id: ids.next('ref'),
    order_id: orderId,
    amount: m(2500),
    reason: 'requested_by_customer',
    restock: true,
    status: 'completed',
    lines: [{ order_line_id: lineId, quantity: 1 }],
    created_at: at,
  });

  return {
    inventory,
    payment,
    fulfillment,
    refund,
    product(status: Product['status']): Product {
      return {
        id: productId,
        name: 'Sample T-shirt',
        slug: 'sample-t-shirt',
        description: 'A sample product sent by a webhook test delivery.',
        type: 'physical',
        status,
        tags: ['sample'],
        attributes: {},
        images: [],
        options: [],
        variants: [
          {
            id: variantId,
            product_id: productId,
            sku: 'SAMPLE-TSHIRT',
            barcode: null,
            price: m(2500),
            compare_at_price: null,
            cost_price: m(900),
            weight: 180,
            is_active: true,
            option_values: [],
            images: [],
            inventory: inventory(10),
            metadata: {},
            created_at: at,
            updated_at: at,
          },
        ],
        price: m(2500),
        metadata: {},
        created_at: at,
        updated_at: at,
      };
    },
    order(stage: 'created' | 'confirmed' | 'completed' | 'cancelled'): Order {
      const paid = stage === 'confirmed' || stage === 'completed';
      return {
        id: orderId,
        number: 1001,
        status: stage === 'created' ? 'pending' : stage,
        payment_status: paid ? 'paid' : 'unpaid',
        fulfillment_status: stage === 'completed' ? 'fulfilled' : 'unfulfilled',
        customer_id: customerId,
        email: 'ada@example.com',
        shipping_address: address,
        billing_address: address,
        lines: [
          {
            id: lineId,
            variant_id: variantId,
            product_id: productId,
            product_name: 'Sample T-shirt',
            variant_name: 'Sample T-shirt',
            sku: 'SAMPLE-TSHIRT',
            image_url: null,
            quantity: 2,
            fulfilled_quantity: stage === 'completed' ? 2 : 0,
            refunded_quantity: 0,
            unit_price: m(2500),
            line_discount: m(0),
            line_total: m(5000),
            tax_amount: m(0),
          },
        ],
        subtotal: m(5000),
        discount_total: m(0),
        shipping_total: m(500),
        tax_total: m(0),
        total: m(5500),
        refunded_total: m(0),
        applied_discounts: [],
        shipping_method_name: 'Standard',
        note: null,
        payments: [payment(paid ? 'completed' : stage === 'cancelled' ? 'cancelled' : 'pending')],
        fulfillments: stage === 'completed' ? [fulfillment('delivered')] : [],
        refunds: [],
        metadata: {},
        created_at: at,
        cancelled_at: stage === 'cancelled' ? at : null,
        completed_at: stage === 'completed' ? at : null,
      };
    },
    customer(): Customer {
      return {
        id: customerId,
        email: 'ada@example.com',
        first_name: 'Ada',
        last_name: 'Lovelace',
        phone: null,
        external_id: null,
        status: 'active',
        total_orders: 1,
        total_spent: m(5500),
        tags: [],
        addresses: [address],
        metadata: {},
        has_password: true,
        created_at: at,
      };
    },
  };
}
