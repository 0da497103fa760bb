import type { Product } from '../catalog/schemas';
import type { Category } from '../categories/schemas';
import type { Collection } from '../collections/schemas';
import type { Customer } from '../customers/schemas';
import type { EventDataMap, MemberInvited, PasswordResetRequested } from '../events/event-data';
import type { EventType } from '../events/schemas';
import type { Fulfillment } from '../fulfillments/schemas';
import type { Inventory } from '../inventory/schemas';
import type { Order } from '../orders/schemas';
import type { Payment } from '../payments/schemas';
import type { IdGenerator } from '../ports/id-generator';
import type { Refund } from '../refunds/schemas';
import type { Return, ReturnStatus } from '../returns/schemas';
import { iso, money } from '../shared/wire-format';

interface SampleContext {
  currency: string;
  now: number;
  ids: IdGenerator;
}

/** One sample per event type, typed by {@link EventDataMap} so a sample cannot drift from it. */
type SampleTable = { [K in EventType]: () => EventDataMap[K] };

/**
 * A realistic `data` object for a test delivery (`POST /v1/admin/webhooks/{id}/test`) of the
 * given event type: a complete wire object of the resource the event carries (an order with id,
 * number, status and total; a product; a payment; …) in the store's currency, with fresh ids and
 * the state the event implies (e.g. `order.cancelled` → an order with `status: cancelled`).
 *
 * Decision: the secret `customer.password_reset_requested` may be test-sent like any other known
 * type — its sample token is a fixed placeholder that resets nothing, so a receiver can try its
 * e-mail handler without a real reset being requested.
 */
export function sampleEventData<K extends EventType>(type: K, context: SampleContext): EventDataMap[K] {
  const s = buildSamples(context);
  const table: SampleTable = {
    'product.created': () => s.product('active'),
    'product.updated': () => s.product('active'),
    'product.deleted': () => s.product('archived'),
    'order.created': () => s.order('created'),
    'order.confirmed': () => s.order('confirmed'),
    'order.completed': () => s.order('completed'),
    'order.cancelled': () => s.order('cancelled'),
    'payment.created': () => s.payment('pending'),
    'payment.completed': () => s.payment('completed'),
    'payment.failed': () => s.payment('failed'),
    'payment.refunded': () => s.refund(),
    'fulfillment.created': () => s.fulfillment('pending'),
    'fulfillment.shipped': () => s.fulfillment('shipped'),
    'fulfillment.delivered': () => s.fulfillment('delivered'),
    'inventory.low': () => s.inventory(2),
    'inventory.out_of_stock': () => s.inventory(0),
    'customer.created': () => s.customer(),
    'customer.updated': () => s.customer(),
    'category.created': () => s.category(),
    'category.updated': () => s.category(),
    'category.deleted': () => s.category(),
    'collection.created': () => s.collection(),
    'collection.updated': () => s.collection(),
    'collection.deleted': () => s.collection(),
    'return.requested': () => s.returnOf('requested'),
    'return.approved': () => s.returnOf('approved'),
    'return.rejected': () => s.returnOf('rejected'),
    'return.received': () => s.returnOf('received'),
    'return.completed': () => s.returnOf('completed'),
    'return.cancelled': () => s.returnOf('cancelled'),
    'customer.password_reset_requested': () => s.passwordReset(),
    'member.invited': () => s.memberInvited(),
  };
  return table[type]();
}

/** The sample's reset token: shaped like one (`prt_…`) but never issued, so it resets nothing. */
export const SAMPLE_RESET_TOKEN = 'prt_sample_not_a_real_reset_token';
/** The sample's invitation token (`member.invited`): shaped like one, never issued. */
export const SAMPLE_INVITE_TOKEN = 'mit_sample_not_a_real_invite_token';
/** A reset token is valid for 1 hour (docs/contract.md#password-reset). */
const RESET_SAMPLE_VALIDITY_MS = 60 * 60 * 1000;

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
    first_name: 'Ada',
    last_name: 'Lovelace',
    company: null,
    line1: '12 Sample Street',
    line2: null,
    city: 'London',
    state: null,
    postal_code: 'N1 9GU',
    country: 'GB',
    phone: null,
    label: null,
    receiver_name: null,
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
    carrier_code: status === 'pending' ? null : 'ups',
    lines: [{ order_line_id: lineId, quantity: 2 }],
    metadata: {},
    created_at: at,
    shipped_at: status === 'pending' ? null : at,
    delivered_at: status === 'delivered' ? at : null,
    estimated_delivery: null,
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

  /** A return of one unit of the sample order's line, in `status` (decisions §18). */
  const returnOf = (status: ReturnStatus): Return => {
    const id = ids.next('ret');
    const stamp = (...when: ReturnStatus[]) => (when.includes(status) ? at : null);
    return {
      id,
      order_id: orderId,
      store_id: 'store_sample',
      customer_id: customerId,
      status,
      return_type: 'refund',
      reason: 'Too small',
      reason_category: 'changed_mind',
      refund_id: status === 'completed' ? ids.next('ref') : null,
      exchange_order_id: null,
      admin_notes: null,
      customer_notes: 'Could I have a refund?',
      metadata: {},
      lines: [
        {
          id: ids.next('retl'),
          order_line_id: lineId,
          quantity: 1,
          reason: null,
          condition: status === 'received' || status === 'completed' ? 'unopened' : null,
          exchange_variant_id: null,
          product_name: 'Sample T-shirt',
        },
      ],
      created_at: at,
      updated_at: at,
      approved_at: stamp('approved', 'received', 'completed'),
      received_at: stamp('received', 'completed'),
      completed_at: stamp('completed'),
      rejected_at: stamp('rejected'),
      cancelled_at: stamp('cancelled'),
    };
  };

  return {
    inventory,
    payment,
    fulfillment,
    refund,
    returnOf,
    product(status: Product['status']): Product {
      return {
        id: productId,
        name: 'Sample T-shirt',
        slug: 'sample-t-shirt',
        description: 'A sample product sent by a webhook test delivery.',
        type: 'physical',
        status,
        tags: ['sample'],
        category_ids: [],
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
            width: null,
            height: null,
            depth: null,
            is_active: true,
            position: 0,
            stock: 10,
            option_values: [],
            images: [],
            inventory: inventory(10),
            metadata: {},
            created_at: at,
            updated_at: at,
          },
        ],
        price: m(2500),
        compare_at_price: null,
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
            returnable_quantity: stage === 'completed' ? 2 : 0,
            unit_price: m(2500),
            line_discount: m(0),
            line_total: m(5000),
            tax_amount: m(0),
            option_values: {},
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
        currency,
        region_id: null,
        cancel_reason: stage === 'cancelled' ? 'requested_by_customer' : null,
        created_at: at,
        updated_at: at,
        confirmed_at: paid ? at : null,
        cancelled_at: stage === 'cancelled' ? at : null,
        completed_at: stage === 'completed' ? at : null,
      };
    },
    category(): Category {
      return {
        id: ids.next('cat'),
        name: 'Sample category',
        slug: 'sample-category',
        description: null,
        parent_id: null,
        position: 0,
        children: [],
        metadata: {},
        created_at: at,
        updated_at: at,
      };
    },
    collection(): Collection {
      return {
        id: ids.next('col'),
        name: 'Sample collection',
        slug: 'sample-collection',
        description: null,
        type: 'manual',
        position: 0,
        rules: null,
        product_ids: [productId],
        metadata: {},
        created_at: at,
        updated_at: at,
      };
    },
    passwordReset(): PasswordResetRequested {
      return {
        customer_id: customerId,
        email: 'ada@example.com',
        token: SAMPLE_RESET_TOKEN,
        expires_at: iso(now + RESET_SAMPLE_VALIDITY_MS),
      };
    },
    memberInvited(): MemberInvited {
      return {
        member_id: ids.next('mem'),
        email: 'grace@example.com',
        role: 'member',
        token: SAMPLE_INVITE_TOKEN,
        expires_at: iso(now + 7 * 24 * 60 * 60 * 1000),
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
