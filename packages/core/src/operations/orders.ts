import {
  AdminOrderCreateSchema,
  AdminOrderListQuerySchema,
  AdminOrderUpdateSchema,
  AdminPaymentCreateSchema,
  CheckoutResultSchema,
  CheckoutSchema,
  FulfillmentCreateSchema,
  FulfillmentSchema,
  FulfillmentShipSchema,
  FulfillmentUpdateSchema,
  IdPathSchema,
  ListQuerySchema,
  NoInputSchema,
  OrderCancelSchema,
  OrderListSchema,
  OrderLookupQuerySchema,
  OrderSchema,
  PaymentSchema,
  RefundCreateSchema,
  RefundListSchema,
  RefundSchema,
  StorefrontOrderListQuerySchema,
} from '../schemas';
import { pageOf, signedIn } from './call';
import { defineOperation } from './operation';

const checkoutTags = ['Checkout'] as const;
const storefrontTags = ['Storefront orders'] as const;
const orderTags = ['Orders'] as const;
const paymentTags = ['Payments'] as const;
const fulfillmentTags = ['Fulfillments'] as const;
const refundTags = ['Refunds'] as const;

/** The admin moves that share one shape: `POST /v1/admin/orders/{id}/<action>` → Order. */
const moves = [
  {
    action: 'confirm',
    summary: 'Confirm an order',
    description: 'pending → confirmed (even unpaid). Event `order.confirmed`.',
  },
  { action: 'process', summary: 'Start processing an order', description: 'confirmed → processing.' },
  {
    action: 'complete',
    summary: 'Complete an order',
    description: 'processing → completed; sets `completed_at`. Event `order.completed`.',
  },
] as const;

/**
 * Checkout, storefront orders (list, detail, guest lookup) and the admin order life cycle with
 * payments, fulfillments and refunds (docs/contract.md#checkout, #orders, #payments, #fulfillments, #refunds).
 */
export const ordersOperations = [
  // ---------------------------------------------------------------- checkout
  defineOperation({
    name: 'checkout',
    http: { method: 'POST', path: '/v1/storefront/carts/:id/checkout', status: 201 },
    auth: 'any',
    customerToken: 'optional',
    params: IdPathSchema,
    input: CheckoutSchema,
    response: CheckoutResultSchema,
    summary: 'Check out a cart',
    description:
      'Turns the cart into an order and takes payment: re-prices the cart, reserves inventory and records ' +
      'the payment attempt; asks the provider for the server-computed total; then counts discount usage, ' +
      'writes the order with its payment and marks the cart `completed`. `manual`: order `pending`, payment ' +
      '`pending`. `stripe`: a confirmed card → order `confirmed`, payment `completed`; a decline → 402 ' +
      '`payment_failed` and no order (the cart stays `active`); 3-D Secure → order `pending` with ' +
      '`payments[0].client_secret` for Stripe.js, completed later by the Stripe webhook. `stripe` without ' +
      '`payment_method_id` → an unconfirmed PaymentIntent for the total: order `pending`, `payment_status` ' +
      '`awaiting_payment` (stock reserved, discount use counted, cart `completed`); the storefront confirms it ' +
      'with Stripe.js using `payment.client_secret`, and the Stripe webhook (or reconciliation) settles it → ' +
      '`paid`, `confirmed`. Not paid within the payment timeout (`COMMERCE_PAYMENT_TIMEOUT_MINUTES`, default 30) → ' +
      'the order is cancelled with `cancel_reason: "payment_expired"`. The answer is the Order plus `payment` ' +
      '(`{ client_secret, payment_intent_id }` for Stripe, null otherwise). A second checkout ' +
      'of a cart whose payment is in flight → 409 `cart_not_active`. A shipping method deactivated after it was ' +
      'chosen → 422 `shipping_method_unavailable` (choose another). A cart in an inactive region → 422 ' +
      '`region_unavailable`; the order snapshots the region, its currency and tax settings. `email` is required for guest carts. ' +
      '`payment_method` is accepted as the older name of `payment_provider`.',
    tags: checkoutTags,
    operationId: 'checkoutCart',
    errors: [
      'not_found',
      'cart_not_active',
      'cart_empty',
      'shipping_address_required',
      'shipping_method_unavailable',
      'product_unavailable',
      'insufficient_inventory',
      'discount_usage_limit_reached',
      'payment_failed',
      'payment_provider_unavailable',
      'region_unavailable',
    ],
    run: async (s, c) => s.checkout.checkout(c.scope, c.params.id, c.input, c.actor),
  }),

  // ---------------------------------------------------------------- storefront orders
  defineOperation({
    name: 'orders.listForCustomer',
    http: { method: 'GET', path: '/v1/storefront/orders' },
    args: ['customer_id'],
    auth: 'any',
    customerToken: 'required',
    inputIn: 'query',
    input: StorefrontOrderListQuerySchema,
    response: OrderListSchema,
    summary: "List the signed-in customer's orders",
    description:
      'Newest first; never drafts. Filters: `status`, `created_after`, `created_before` (inclusive).',
    tags: storefrontTags,
    operationId: 'listMyOrders',
    run: async (s, c) => s.orders.listForCustomer(c.scope, signedIn(c).customer_id, c.input),
  }),
  defineOperation({
    name: 'orders.lookup',
    http: { method: 'GET', path: '/v1/storefront/orders/lookup', rateLimit: 'order_lookup' },
    auth: 'any',
    customerToken: 'none',
    inputIn: 'query',
    input: OrderLookupQuerySchema,
    response: OrderSchema,
    summary: 'Look up a guest order by number and e-mail',
    description:
      'No customer token needed. The e-mail is compared case-insensitively; 404 unless both the number and ' +
      'the e-mail match.',
    tags: storefrontTags,
    operationId: 'lookupOrder',
    errors: ['not_found'],
    run: async (s, c) => s.orders.lookup(c.scope, c.input.number, c.input.email),
  }),
  defineOperation({
    name: 'orders.getForCustomer',
    http: { method: 'GET', path: '/v1/storefront/orders/:id' },
    args: ['customer_id', 'id'],
    auth: 'any',
    customerToken: 'required',
    params: IdPathSchema,
    response: OrderSchema,
    summary: "Retrieve one of the signed-in customer's orders",
    description: "Another customer's order, or a draft, is 404.",
    tags: storefrontTags,
    operationId: 'getMyOrder',
    errors: ['not_found'],
    run: async (s, c) => s.orders.getForCustomer(c.scope, signedIn(c).customer_id, c.params.id),
  }),

  // ---------------------------------------------------------------- admin orders
  defineOperation({
    name: 'orders.create',
    http: { method: 'POST', path: '/v1/admin/orders', status: 201 },
    auth: 'secret',
    customerToken: 'none',
    input: AdminOrderCreateSchema,
    response: OrderSchema,
    summary: 'Create an order',
    description:
      'Prices come from the catalog, never from the request. `status` `draft` (default) reserves nothing; ' +
      '`pending` reserves inventory (422 `insufficient_inventory` when short). `email` or `customer_id` is required. ' +
      '`region_id` prices the order in that region (unknown → 404, inactive → 422 `region_unavailable`).',
    tags: orderTags,
    operationId: 'createOrder',
    errors: [
      'not_found',
      'product_unavailable',
      'insufficient_inventory',
      'shipping_method_unavailable',
      'discount_usage_limit_reached',
      'region_unavailable',
    ],
    run: async (s, c) => s.orders.create(c.scope, c.input),
  }),
  defineOperation({
    name: 'orders.list',
    http: { method: 'GET', path: '/v1/admin/orders' },
    auth: 'secret',
    customerToken: 'none',
    inputIn: 'query',
    input: AdminOrderListQuerySchema,
    response: OrderListSchema,
    summary: 'List orders',
    description:
      'Newest first. Filters: `status`, `payment_status`, `fulfillment_status`, `customer_id`, `email`, `q` ' +
      '(order number, or part of the e-mail), `created_after`, `created_before`, `currency`, `region_id`. Sort: `created_at`, `number`, `total`.',
    tags: orderTags,
    operationId: 'listOrders',
    run: async (s, c) => s.orders.list(c.scope, c.input),
  }),
  defineOperation({
    name: 'orders.get',
    http: { method: 'GET', path: '/v1/admin/orders/:id' },
    auth: 'secret',
    customerToken: 'none',
    params: IdPathSchema,
    response: OrderSchema,
    summary: 'Retrieve an order',
    tags: orderTags,
    operationId: 'getOrder',
    errors: ['not_found'],
    run: async (s, c) => s.orders.get(c.scope, c.params.id),
  }),
  defineOperation({
    name: 'orders.update',
    http: { method: 'PATCH', path: '/v1/admin/orders/:id' },
    auth: 'secret',
    customerToken: 'none',
    params: IdPathSchema,
    input: AdminOrderUpdateSchema,
    response: OrderSchema,
    summary: 'Update an order',
    description:
      'Addresses, note and metadata. `status: "pending"` finalises a draft and reserves its inventory ' +
      '(409 `invalid_state_transition` unless the order is a draft; 422 `insufficient_inventory`). ' +
      'Any other `status` is a move PATCH does not make: 409 `invalid_state_transition` (use confirm, process, complete, cancel).',
    tags: orderTags,
    operationId: 'updateOrder',
    errors: [
      'not_found',
      'invalid_state_transition',
      'insufficient_inventory',
      'discount_usage_limit_reached',
    ],
    run: async (s, c) => s.orders.update(c.scope, c.params.id, c.input),
  }),
  ...moves.map(({ action, summary, description }) =>
    defineOperation({
      name: `orders.${action}`,
      http: { method: 'POST', path: `/v1/admin/orders/:id/${action}` },
      auth: 'secret',
      customerToken: 'none',
      params: IdPathSchema,
      input: NoInputSchema,
      response: OrderSchema,
      summary,
      description,
      tags: orderTags,
      operationId: `${action}Order`,
      errors: ['not_found', 'invalid_state_transition'],
      run: async (s, c) => s.orders[action](c.scope, c.params.id),
    }),
  ),
  defineOperation({
    name: 'orders.cancel',
    http: { method: 'POST', path: '/v1/admin/orders/:id/cancel' },
    auth: 'secret',
    customerToken: 'none',
    params: IdPathSchema,
    input: OrderCancelSchema,
    response: OrderSchema,
    summary: 'Cancel an order',
    description:
      'From draft, pending, confirmed, and processing while nothing has shipped. Releases the reservations ' +
      'of unshipped units. Event `order.cancelled`.',
    tags: orderTags,
    operationId: 'cancelOrder',
    errors: ['not_found', 'invalid_state_transition'],
    run: async (s, c) => s.orders.cancel(c.scope, c.params.id, c.input),
  }),

  // ---------------------------------------------------------------- payments
  defineOperation({
    name: 'orders.payments.create',
    http: { method: 'POST', path: '/v1/admin/orders/:id/payments' },
    auth: 'secret',
    customerToken: 'none',
    params: IdPathSchema,
    input: AdminPaymentCreateSchema,
    response: PaymentSchema,
    summary: 'Record a payment taken outside the engine',
    description:
      'Records a `completed` payment; `provider` is a free label such as `cash` or `bank_transfer` ' +
      '(`exchange_credit` is reserved for the credit of exchanges: 400 `parameter_invalid`). ' +
      'Payment in full moves a pending order to confirmed.',
    tags: paymentTags,
    operationId: 'createOrderPayment',
    errors: ['not_found', 'invalid_state_transition', 'currency_mismatch'],
    run: async (s, c) => s.orders.payments.create(c.scope, c.params.id, c.input),
  }),
  defineOperation({
    name: 'orders.payments.complete',
    http: { method: 'POST', path: '/v1/admin/payments/:id/complete' },
    auth: 'secret',
    customerToken: 'none',
    params: IdPathSchema,
    input: NoInputSchema,
    response: PaymentSchema,
    summary: 'Complete a pending payment',
    description: "Marks a pending payment (such as a manual checkout's) completed.",
    tags: paymentTags,
    operationId: 'completePayment',
    errors: ['not_found', 'invalid_state_transition'],
    run: async (s, c) => s.orders.payments.complete(c.scope, c.params.id),
  }),

  // ---------------------------------------------------------------- fulfillments
  defineOperation({
    name: 'orders.fulfillments.create',
    http: { method: 'POST', path: '/v1/admin/orders/:id/fulfillments' },
    auth: 'secret',
    customerToken: 'none',
    params: IdPathSchema,
    input: FulfillmentCreateSchema,
    response: FulfillmentSchema,
    summary: 'Create a fulfillment',
    description:
      'For pending, confirmed or processing orders; at most the unfulfilled units of each line ' +
      '(422 `fulfillment_exceeds_unfulfilled`). The first fulfillment of a confirmed order moves it to processing.',
    tags: fulfillmentTags,
    operationId: 'createFulfillment',
    errors: ['not_found', 'invalid_state_transition', 'fulfillment_exceeds_unfulfilled'],
    run: async (s, c) => s.orders.fulfillments.create(c.scope, c.params.id, c.input),
  }),
  defineOperation({
    name: 'orders.fulfillments.update',
    http: { method: 'PATCH', path: '/v1/admin/fulfillments/:id' },
    auth: 'secret',
    customerToken: 'none',
    params: IdPathSchema,
    input: FulfillmentUpdateSchema,
    response: FulfillmentSchema,
    summary: 'Update a fulfillment',
    description:
      'Tracking number, URL, carrier, `carrier_code` (≤ 64 characters) and `estimated_delivery` (a date-time, or a ' +
      'date: midnight UTC) — `null` clears —, metadata (replaced whole).',
    tags: fulfillmentTags,
    operationId: 'updateFulfillment',
    errors: ['not_found'],
    run: async (s, c) => s.orders.fulfillments.update(c.scope, c.params.id, c.input),
  }),
  defineOperation({
    name: 'orders.fulfillments.ship',
    http: { method: 'POST', path: '/v1/admin/fulfillments/:id/ship' },
    auth: 'secret',
    customerToken: 'none',
    params: IdPathSchema,
    input: FulfillmentShipSchema,
    response: FulfillmentSchema,
    summary: 'Ship a fulfillment',
    description:
      'pending → shipped; its units leave stock (`on_hand` and `reserved` decrease). `tracking_number`, ' +
      '`tracking_url` and `carrier`, when given, are written with the move. Event `fulfillment.shipped`.',
    tags: fulfillmentTags,
    operationId: 'shipFulfillment',
    errors: ['not_found', 'invalid_state_transition'],
    run: async (s, c) => s.orders.fulfillments.ship(c.scope, c.params.id, c.input),
  }),
  defineOperation({
    name: 'orders.fulfillments.deliver',
    http: { method: 'POST', path: '/v1/admin/fulfillments/:id/deliver' },
    auth: 'secret',
    customerToken: 'none',
    params: IdPathSchema,
    input: NoInputSchema,
    response: FulfillmentSchema,
    summary: 'Mark a fulfillment delivered',
    description: 'shipped → delivered. Event `fulfillment.delivered`.',
    tags: fulfillmentTags,
    operationId: 'deliverFulfillment',
    errors: ['not_found', 'invalid_state_transition'],
    run: async (s, c) => s.orders.fulfillments.deliver(c.scope, c.params.id),
  }),

  // ---------------------------------------------------------------- refunds
  defineOperation({
    name: 'orders.refunds.create',
    http: { method: 'POST', path: '/v1/admin/orders/:id/refunds' },
    auth: 'secret',
    customerToken: 'none',
    params: IdPathSchema,
    input: RefundCreateSchema,
    response: RefundSchema,
    summary: 'Refund an order',
    description:
      "`amount` defaults to what was paid for the given lines' units (discounted total, plus tax when prices " +
      'exclude it). With `restock: true` the units return to stock: unfulfilled units leave `reserved`, then units ' +
      'of pending fulfillments (newest first; they are taken out of the fulfillment, which is cancelled when ' +
      'emptied), then shipped units go back to `on_hand` — never units already back in stock (restocking refunds, ' +
      'completed returns) nor units an open return holds. Never more than paid minus refunded minus the exchange ' +
      'credit the order gave (422 `refund_exceeds_refundable`) nor more units than a line has left (422 ' +
      '`quantity_exceeds_refundable`).',
    tags: refundTags,
    operationId: 'createRefund',
    errors: [
      'not_found',
      'refund_exceeds_refundable',
      'quantity_exceeds_refundable',
      'currency_mismatch',
      'payment_failed',
    ],
    run: async (s, c) => s.orders.refunds.create(c.scope, c.params.id, c.input),
  }),
  defineOperation({
    name: 'orders.listRefunds',
    http: { method: 'GET', path: '/v1/admin/orders/:id/refunds' },
    auth: 'secret',
    customerToken: 'none',
    params: IdPathSchema,
    inputIn: 'query',
    input: ListQuerySchema,
    response: RefundListSchema,
    summary: "List an order's refunds",
    description:
      'Newest first (`order=asc` for oldest first), paged like every list: `limit` (1–100, default 20) and `starting_after` (a refund of this order).',
    tags: refundTags,
    operationId: 'listRefunds',
    errors: ['parameter_invalid', 'not_found'],
    run: async (s, c) => s.orders.listRefunds(c.scope, c.params.id, pageOf(c.input)),
  }),
] as const;
