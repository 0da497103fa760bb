import { z } from 'zod';
import { AppliedDiscountSchema } from '../discounts/schemas';
import { ORDER_PAYMENT_STATUSES } from '../payments/payment-status';
import type { PaymentRecordStatus } from '../payments/vocabulary';
import type { RefundRecordStatus } from '../refunds/vocabulary';
import {
  AddressInputSchema,
  AddressSchema,
  DateTimeSchema,
  EmailSchema,
  HttpUrlSchema,
  IdentifierTextSchema,
  IdSchema,
  IntegerSchema,
  listOf,
  listQuery,
  MetadataInputSchema,
  MetadataSchema,
  MoneySchema,
  OptionalLongTextSchema,
  OptionalTextSchema,
  positiveMoneyInput,
  QuantitySchema,
  QueryTimestampSchema,
  queryInt,
} from '../shared/schemas/common';
import { MAX_CART_LINES, MAX_IDENTIFIER_LENGTH, MAX_SEARCH_LENGTH } from '../shared/schemas/limits';
import { ORDER_FULFILLMENT_STATUSES } from './fulfillment-status';
import type { FulfillmentRecordStatus, OrderStatus } from './vocabulary';

/** Order `status` (spec); moves are decided by the state machine (docs/contract.md#order-status). */
export const ORDER_STATUSES = [
  'draft',
  'pending',
  'confirmed',
  'processing',
  'completed',
  'cancelled',
] as const satisfies readonly OrderStatus[];
export const OrderStatusSchema = z.enum(ORDER_STATUSES);

/** The statuses a storefront order list can filter on (the spec's list: no drafts). */
export const STOREFRONT_ORDER_STATUSES = [
  'pending',
  'confirmed',
  'processing',
  'completed',
  'cancelled',
] as const satisfies readonly OrderStatus[];

/** Re-exported from the state module, where `payment_status` is derived. */
export { ORDER_FULFILLMENT_STATUSES, ORDER_PAYMENT_STATUSES };

export const OrderPaymentStatusSchema = z.enum(ORDER_PAYMENT_STATUSES);
export const OrderFulfillmentStatusSchema = z.enum(ORDER_FULFILLMENT_STATUSES);

/** Payment `status` (docs/contract.md#payments). */
export const PAYMENT_STATUSES = [
  'pending',
  'completed',
  'failed',
  'cancelled',
  'refunded',
] as const satisfies readonly PaymentRecordStatus[];
export const PaymentStatusSchema = z.enum(PAYMENT_STATUSES);

/** Fulfillment `status` (docs/contract.md#fulfillments). */
export const FULFILLMENT_STATUSES = [
  'pending',
  'shipped',
  'delivered',
  'cancelled',
] as const satisfies readonly FulfillmentRecordStatus[];
export const FulfillmentStatusSchema = z.enum(FULFILLMENT_STATUSES);

/** Refund `status` (docs/contract.md#refunds). */
export const REFUND_STATUSES = [
  'pending',
  'completed',
  'failed',
] as const satisfies readonly RefundRecordStatus[];
export const RefundStatusSchema = z.enum(REFUND_STATUSES);

/** Sorts offered by order lists. */
export const ORDER_SORTS = ['created_at', 'number', 'total'] as const;

// ---------------------------------------------------------------- responses

/**
 * An order line: a snapshot of names, SKU, option values (`{ option name: value }`, decisions
 * §22) and prices at order time (spec "OrderLine").
 */
export const OrderLineSchema = z
  .object({
    id: z.string(),
    variant_id: z.string(),
    product_id: z.string(),
    product_name: z.string(),
    variant_name: z.string(),
    sku: z.string().nullable(),
    image_url: z.string().nullable(),
    quantity: z.int(),
    fulfilled_quantity: z.int(),
    refunded_quantity: z.int(),
    unit_price: MoneySchema,
    line_discount: MoneySchema,
    line_total: MoneySchema,
    tax_amount: MoneySchema,
    option_values: z.record(z.string(), z.string()),
  })
  .meta({ id: 'OrderLine' });
export type OrderLine = z.infer<typeof OrderLineSchema>;

/**
 * A payment (spec "Payment"). `provider_id` is null for payments without a provider reference
 * (manual, admin-recorded); `note` and `metadata` are what `POST …/payments` recorded.
 * `client_secret` (3-D Secure) appears only in the storefront's views — checkout's 201
 * response and the signed-in customer's orders — on a `pending` payment that waits for the
 * customer to authenticate: the storefront hands it to the provider's client library (Stripe.js
 * `handleNextAction`). Admin views and events never carry it.
 */
export const PaymentSchema = z
  .object({
    id: z.string(),
    order_id: z.string(),
    provider: z.string(),
    provider_id: z.string().nullable(),
    amount: MoneySchema,
    status: PaymentStatusSchema,
    note: z.string().nullable(),
    metadata: MetadataSchema,
    created_at: DateTimeSchema,
    client_secret: z.string().optional(),
  })
  .meta({ id: 'Payment' });
export type Payment = z.infer<typeof PaymentSchema>;

/** Units of one order line, in fulfillments and refunds. */
export const OrderLineQuantitySchema = z
  .object({ order_line_id: z.string(), quantity: z.int() })
  .meta({ id: 'OrderLineQuantity' });
export type OrderLineQuantity = z.infer<typeof OrderLineQuantitySchema>;

/** A fulfillment (spec "Fulfillment"); tracking fields and the ship/deliver times are null until set. */
export const FulfillmentSchema = z
  .object({
    id: z.string(),
    order_id: z.string(),
    status: FulfillmentStatusSchema,
    tracking_number: z.string().nullable(),
    tracking_url: z.string().nullable(),
    carrier: z.string().nullable(),
    lines: z.array(OrderLineQuantitySchema),
    metadata: MetadataSchema,
    created_at: DateTimeSchema,
    shipped_at: DateTimeSchema.nullable(),
    delivered_at: DateTimeSchema.nullable(),
  })
  .meta({ id: 'Fulfillment' });
export type Fulfillment = z.infer<typeof FulfillmentSchema>;

/** A refund (spec "Refund"); `reason` is null when none was given. */
export const RefundSchema = z
  .object({
    id: z.string(),
    order_id: z.string(),
    amount: MoneySchema,
    reason: z.string().nullable(),
    restock: z.boolean(),
    status: RefundStatusSchema,
    lines: z.array(OrderLineQuantitySchema),
    created_at: DateTimeSchema,
  })
  .meta({ id: 'Refund' });
export type Refund = z.infer<typeof RefundSchema>;

export const RefundListSchema = listOf(RefundSchema);
export type RefundList = z.infer<typeof RefundListSchema>;

/** An order (spec "Order"). Addresses, shipping method name and note are null when absent. */
export const OrderSchema = z
  .object({
    id: z.string(),
    number: z.int(),
    status: OrderStatusSchema,
    payment_status: OrderPaymentStatusSchema,
    fulfillment_status: OrderFulfillmentStatusSchema,
    customer_id: z.string().nullable(),
    email: z.string(),
    shipping_address: AddressSchema.nullable(),
    billing_address: AddressSchema.nullable(),
    lines: z.array(OrderLineSchema),
    subtotal: MoneySchema,
    discount_total: MoneySchema,
    shipping_total: MoneySchema,
    tax_total: MoneySchema,
    total: MoneySchema,
    refunded_total: MoneySchema,
    applied_discounts: z.array(AppliedDiscountSchema),
    shipping_method_name: z.string().nullable(),
    note: z.string().nullable(),
    payments: z.array(PaymentSchema),
    fulfillments: z.array(FulfillmentSchema),
    refunds: z.array(RefundSchema),
    metadata: MetadataSchema,
    currency: z.string().meta({ description: 'The ISO 4217 code of every amount of the order.' }),
    cancel_reason: z.string().nullable().meta({
      description:
        "Why the order was cancelled: the admin cancel's `reason`, `payment_expired` (not paid within the payment timeout), `payment_failed`; null otherwise.",
    }),
    created_at: DateTimeSchema,
    updated_at: DateTimeSchema,
    confirmed_at: DateTimeSchema.nullable().meta({
      description:
        'When the order became `confirmed` (null before, and for orders confirmed before this field existed).',
    }),
    cancelled_at: DateTimeSchema.nullable(),
    completed_at: DateTimeSchema.nullable(),
  })
  .meta({ id: 'Order' });
export type Order = z.infer<typeof OrderSchema>;

/**
 * What the storefront needs to finish a payment in the browser (decisions §22): the provider's
 * client secret and payment id (Stripe: pass `client_secret` to Stripe.js).
 */
export const CheckoutPaymentSchema = z
  .object({
    client_secret: z.string(),
    payment_intent_id: z.string(),
  })
  .meta({ id: 'CheckoutPayment' });

/**
 * Checkout's answer: the Order (storefront view) plus `payment` — `{ client_secret,
 * payment_intent_id }` for a Stripe checkout, null otherwise (decisions §22).
 */
export const CheckoutResultSchema = OrderSchema.extend({
  payment: CheckoutPaymentSchema.nullable().meta({
    description:
      'For a Stripe checkout, the PaymentIntent to confirm with Stripe.js (without `payment_method_id`) or to authenticate (3-D Secure); null for `manual` and for an order total of 0.',
  }),
}).meta({ id: 'CheckoutResult' });
export type CheckoutResult = z.infer<typeof CheckoutResultSchema>;

export const OrderListSchema = listOf(OrderSchema);
export type OrderList = z.infer<typeof OrderListSchema>;

// ---------------------------------------------------------------- requests

/** `{ order_line_id, quantity ≥ 1 }` in fulfillment and refund requests. */
export const OrderLineQuantityInputSchema = z
  .strictObject({ order_line_id: IdSchema, quantity: QuantitySchema })
  .meta({ id: 'OrderLineQuantityInput' });
export type OrderLineQuantityInput = z.infer<typeof OrderLineQuantityInputSchema>;

/** A line of an admin order: the price comes from the catalog, never from the request. */
export const AdminOrderLineInputSchema = z
  .strictObject({ variant_id: IdSchema, quantity: QuantitySchema.default(1) })
  .meta({ id: 'AdminOrderLineInput' });
export type AdminOrderLineInput = z.infer<typeof AdminOrderLineInputSchema>;

/**
 * `POST /v1/admin/orders` (docs/contract.md#admin-orders): `lines` required and non-empty, `email` or
 * `customer_id` required (the customer's e-mail is used when only `customer_id` is given),
 * `status` `draft` (default, reserves nothing) or `pending` (reserves inventory).
 */
export const AdminOrderCreateSchema = z
  .strictObject({
    lines: z.array(AdminOrderLineInputSchema).min(1).max(MAX_CART_LINES),
    email: EmailSchema.optional(),
    customer_id: IdSchema.optional(),
    status: z.enum(['draft', 'pending']).default('draft'),
    shipping_address: AddressInputSchema.optional(),
    billing_address: AddressInputSchema.optional(),
    shipping_method_id: IdSchema.optional(),
    note: OptionalLongTextSchema,
    metadata: MetadataInputSchema.default({}),
  })
  .superRefine((order, ctx) => {
    if (order.email === undefined && order.customer_id === undefined) {
      ctx.addIssue({
        code: 'custom',
        path: ['email'],
        message: 'is required when customer_id is not given',
        params: { code: 'parameter_missing' },
      });
    }
  })
  .meta({ id: 'AdminOrderCreate' });
export type AdminOrderCreate = z.infer<typeof AdminOrderCreateSchema>;

/**
 * `PATCH /v1/admin/orders/{id}` (docs/contract.md#orders, #order-status): addresses, note, metadata, and `status`
 * `pending`, which finalises a draft (other moves have their own endpoints: any other status →
 * 409 `invalid_state_transition`).
 */
export const AdminOrderUpdateSchema = z
  .strictObject({
    shipping_address: AddressInputSchema.nullable().optional(),
    billing_address: AddressInputSchema.nullable().optional(),
    note: OptionalLongTextSchema,
    metadata: MetadataInputSchema.optional(),
    /**
     * `pending` finalises a draft; any other order status is a move PATCH does not make → 409
     * `invalid_state_transition` (docs/contract.md#order-status: "any other move"); not a status → 400.
     */
    status: OrderStatusSchema.optional(),
  })
  .meta({ id: 'AdminOrderUpdate' });
export type AdminOrderUpdate = z.infer<typeof AdminOrderUpdateSchema>;

/** `POST /v1/admin/orders/{id}/cancel`: an optional reason. */
export const OrderCancelSchema = z
  .strictObject({ reason: OptionalLongTextSchema })
  .meta({ id: 'OrderCancel' });
export type OrderCancel = z.infer<typeof OrderCancelSchema>;

/**
 * `POST /v1/admin/orders/{id}/payments` (docs/contract.md#payments): a completed payment taken outside the
 * engine. `provider` is a free label (`cash`, `bank_transfer`); `amount` ≥ 1.
 */
export const AdminPaymentCreateSchema = z
  .strictObject({
    amount: positiveMoneyInput,
    provider: IdentifierTextSchema,
    note: OptionalLongTextSchema,
    metadata: MetadataInputSchema.default({}),
  })
  .meta({ id: 'AdminPaymentCreate' });
export type AdminPaymentCreate = z.infer<typeof AdminPaymentCreateSchema>;

/** `POST /v1/admin/orders/{id}/fulfillments` (docs/contract.md#fulfillments): `lines` required, non-empty. */
export const FulfillmentCreateSchema = z
  .strictObject({
    lines: z.array(OrderLineQuantityInputSchema).min(1).max(MAX_CART_LINES),
    tracking_number: OptionalTextSchema,
    tracking_url: HttpUrlSchema.nullable().optional(),
    carrier: OptionalTextSchema,
    metadata: MetadataInputSchema.default({}),
  })
  .meta({ id: 'FulfillmentCreate' });
export type FulfillmentCreate = z.infer<typeof FulfillmentCreateSchema>;

/** `PATCH /v1/admin/fulfillments/{id}`: tracking details and metadata; `null` clears. */
export const FulfillmentUpdateSchema = z
  .strictObject({
    tracking_number: OptionalTextSchema,
    tracking_url: HttpUrlSchema.nullable().optional(),
    carrier: OptionalTextSchema,
    metadata: MetadataInputSchema.optional(),
  })
  .meta({ id: 'FulfillmentUpdate' });
export type FulfillmentUpdate = z.infer<typeof FulfillmentUpdateSchema>;

/**
 * `POST /v1/admin/fulfillments/{id}/ship`: the tracking known at shipping time, written with the
 * move (each optional; the fulfillment keeps what it had otherwise).
 */
export const FulfillmentShipSchema = z
  .strictObject({
    tracking_number: OptionalTextSchema,
    tracking_url: HttpUrlSchema.nullable().optional(),
    carrier: OptionalTextSchema,
  })
  .meta({ id: 'FulfillmentShip' });
export type FulfillmentShip = z.infer<typeof FulfillmentShipSchema>;

/**
 * The body of an action that takes no input (confirm, process, complete, deliver, a payment's
 * complete): empty or `{}`; any field → 400 `parameter_unknown` (docs/contract.md#requests).
 */
export const NoInputSchema = z.strictObject({}).meta({ id: 'NoInput' });

/**
 * `POST /v1/admin/orders/{id}/refunds` (docs/contract.md#refunds). `amount` (≥ 1) defaults, in the
 * service, to what was paid for the given lines' units; `restock` defaults to false. Limits
 * against what is refundable are business rules (422).
 */
export const RefundCreateSchema = z
  .strictObject({
    reason: OptionalLongTextSchema,
    amount: positiveMoneyInput.optional(),
    restock: z.boolean().default(false),
    lines: z.array(OrderLineQuantityInputSchema).max(MAX_CART_LINES).optional(),
  })
  .superRefine((refund, ctx) => {
    const seen = new Map<string, number>();
    refund.lines?.forEach((line, index) => {
      const first = seen.get(line.order_line_id);
      if (first !== undefined) {
        ctx.addIssue({
          code: 'custom',
          path: ['lines', index, 'order_line_id'],
          message: `repeats lines[${first}][order_line_id]; give each line once`,
        });
      } else {
        seen.set(line.order_line_id, index);
      }
    });
  })
  .meta({ id: 'RefundCreate' });
export type RefundCreate = z.infer<typeof RefundCreateSchema>;

// ---------------------------------------------------------------- list queries

/**
 * `GET /v1/storefront/orders` (docs/contract.md#list-filters): the signed-in customer's orders, filtered by
 * `status` (no drafts), `created_after`, `created_before` (inclusive, epoch ms on output).
 */
export const StorefrontOrderListQuerySchema = listQuery(ORDER_SORTS, {
  status: z.enum(STOREFRONT_ORDER_STATUSES).optional(),
  created_after: QueryTimestampSchema.optional(),
  created_before: QueryTimestampSchema.optional(),
});
export type StorefrontOrderListQuery = z.infer<typeof StorefrontOrderListQuerySchema>;

/** `GET /v1/admin/orders` (docs/contract.md#lists). */
export const AdminOrderListQuerySchema = listQuery(ORDER_SORTS, {
  status: OrderStatusSchema.optional(),
  payment_status: OrderPaymentStatusSchema.optional(),
  fulfillment_status: OrderFulfillmentStatusSchema.optional(),
  customer_id: IdSchema.optional(),
  email: z.string().min(1).max(MAX_IDENTIFIER_LENGTH).optional(),
  /** Order number (exact) or e-mail (partial). */
  q: z.string().max(MAX_SEARCH_LENGTH).optional(),
  created_after: QueryTimestampSchema.optional(),
  created_before: QueryTimestampSchema.optional(),
});
export type AdminOrderListQuery = z.infer<typeof AdminOrderListQuerySchema>;

/**
 * `GET /v1/storefront/orders/lookup?number=&email=` (docs/contract.md#guest-order-lookup): both required (400 when either
 * is missing); the e-mail is compared case-insensitively by the service.
 */
export const OrderLookupQuerySchema = z.object({
  number: queryInt(IntegerSchema.min(1)),
  email: z.string().min(1).max(MAX_IDENTIFIER_LENGTH),
});
export type OrderLookupQuery = z.infer<typeof OrderLookupQuerySchema>;
