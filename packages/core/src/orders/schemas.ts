import { z } from 'zod';
import { AppliedDiscountSchema } from '../discounts/schemas';
import { ORDER_FULFILLMENT_STATUSES } from '../fulfillments/fulfillment-status';
import { FulfillmentSchema } from '../fulfillments/schemas';
import { ORDER_PAYMENT_STATUSES } from '../payments/payment-status';
import { PaymentSchema } from '../payments/schemas';
import { RefundSchema } from '../refunds/schemas';
import {
  AddressInputSchema,
  AddressSchema,
  DateTimeSchema,
  EmailSchema,
  IdSchema,
  IntegerSchema,
  listOf,
  listQuery,
  MetadataInputSchema,
  MetadataSchema,
  MoneySchema,
  type Named,
  OptionalLongTextSchema,
  QuantitySchema,
  QueryTimestampSchema,
  queryInt,
} from '../shared/schemas/common';
import { MAX_CART_LINES, MAX_IDENTIFIER_LENGTH, MAX_SEARCH_LENGTH } from '../shared/schemas/limits';
import type { OrderStatus } from './vocabulary';

// Order schemas. The payments, fulfillments and refunds an order shows are their contexts'
// (payments/schemas.ts, fulfillments/schemas.ts, refunds/schemas.ts).

/** Order `status` (spec); moves are decided by the state machine (docs/contract.md#order-status). */
export const ORDER_STATUSES = [
  'draft',
  'pending',
  'confirmed',
  'processing',
  'completed',
  'cancelled',
] as const satisfies readonly OrderStatus[];
export interface OrderStatusSchema extends Named<typeof orderStatusSchema> {}
const orderStatusSchema = z.enum(ORDER_STATUSES);
export const OrderStatusSchema: OrderStatusSchema = orderStatusSchema;

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

export interface OrderPaymentStatusSchema extends Named<typeof orderPaymentStatusSchema> {}
const orderPaymentStatusSchema = z.enum(ORDER_PAYMENT_STATUSES);
export const OrderPaymentStatusSchema: OrderPaymentStatusSchema = orderPaymentStatusSchema;
export interface OrderFulfillmentStatusSchema extends Named<typeof orderFulfillmentStatusSchema> {}
const orderFulfillmentStatusSchema = z.enum(ORDER_FULFILLMENT_STATUSES);
export const OrderFulfillmentStatusSchema: OrderFulfillmentStatusSchema = orderFulfillmentStatusSchema;

/** Sorts offered by order lists. */
export const ORDER_SORTS = ['created_at', 'number', 'total'] as const;

// ---------------------------------------------------------------- responses

/**
 * An order line: a snapshot of names, SKU, option values (`{ option name: value }`, decisions
 * §22) and prices at order time (spec "OrderLine").
 */
export interface OrderLineSchema extends Named<typeof orderLineSchema> {}
const orderLineSchema = z
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
    /** Units a new return may still take (decisions §18): shipped − returned or restocked − in open returns. */
    returnable_quantity: z.int(),
    unit_price: MoneySchema,
    line_discount: MoneySchema,
    line_total: MoneySchema,
    tax_amount: MoneySchema,
    option_values: z.record(z.string(), z.string()),
  })
  .meta({ id: 'OrderLine' });
export const OrderLineSchema: OrderLineSchema = orderLineSchema;
export type OrderLine = z.infer<typeof OrderLineSchema>;

/** An order (spec "Order"). Addresses, shipping method name and note are null when absent. */
export interface OrderSchema extends Named<typeof orderSchema> {}
const orderSchema = z
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
    region_id: z.string().nullable().meta({
      description:
        'Beyond the SDK (decisions §19): the region the order was priced in (its currency, tax rate and convention, snapshotted); null: the store settings.',
    }),
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
export const OrderSchema: OrderSchema = orderSchema;
export type Order = z.infer<typeof OrderSchema>;

/**
 * What the storefront needs to finish a payment in the browser (decisions §22): the provider's
 * client secret and payment id (Stripe: pass `client_secret` to Stripe.js).
 */
export interface CheckoutPaymentSchema extends Named<typeof checkoutPaymentSchema> {}
const checkoutPaymentSchema = z
  .object({
    client_secret: z.string(),
    payment_intent_id: z.string(),
  })
  .meta({ id: 'CheckoutPayment' });
export const CheckoutPaymentSchema: CheckoutPaymentSchema = checkoutPaymentSchema;

/**
 * Checkout's answer: the Order (storefront view) plus `payment` — `{ client_secret,
 * payment_intent_id }` for a Stripe checkout, null otherwise (decisions §22).
 */
export interface CheckoutResultSchema extends Named<typeof checkoutResultSchema> {}
const checkoutResultSchema = OrderSchema.extend({
  payment: CheckoutPaymentSchema.nullable().meta({
    description:
      'For a Stripe checkout, the PaymentIntent to confirm with Stripe.js (without `payment_method_id`) or to authenticate (3-D Secure); null for `manual` and for an order total of 0.',
  }),
}).meta({ id: 'CheckoutResult' });
export const CheckoutResultSchema: CheckoutResultSchema = checkoutResultSchema;
export type CheckoutResult = z.infer<typeof CheckoutResultSchema>;

export const OrderListSchema = listOf(OrderSchema);
export type OrderList = z.infer<typeof OrderListSchema>;

// ---------------------------------------------------------------- requests

/** A line of an admin order: the price comes from the catalog, never from the request. */
export interface AdminOrderLineInputSchema extends Named<typeof adminOrderLineInputSchema> {}
const adminOrderLineInputSchema = z
  .strictObject({ variant_id: IdSchema, quantity: QuantitySchema.default(1) })
  .meta({ id: 'AdminOrderLineInput' });
export const AdminOrderLineInputSchema: AdminOrderLineInputSchema = adminOrderLineInputSchema;
export type AdminOrderLineInput = z.infer<typeof AdminOrderLineInputSchema>;

/**
 * `POST /v1/admin/orders` (docs/contract.md#admin-orders): `lines` required and non-empty, `email` or
 * `customer_id` required (the customer's e-mail is used when only `customer_id` is given),
 * `status` `draft` (default, reserves nothing) or `pending` (reserves inventory).
 */
export interface AdminOrderCreateSchema extends Named<typeof adminOrderCreateSchema> {}
const adminOrderCreateSchema = z
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
    /**
     * Decisions §19: price the order in this region (its currency, prices, tax rate and
     * convention); omitted → the store settings. Unknown → 404, inactive → 422 `region_unavailable`.
     */
    region_id: IdSchema.optional().meta({
      description:
        'Decisions §19: price the order in this region (unknown → 404, inactive → 422 `region_unavailable`); left out, the store settings.',
    }),
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
export const AdminOrderCreateSchema: AdminOrderCreateSchema = adminOrderCreateSchema;
export type AdminOrderCreate = z.infer<typeof AdminOrderCreateSchema>;

/**
 * `PATCH /v1/admin/orders/{id}` (docs/contract.md#orders, #order-status): addresses, note, metadata, and `status`
 * `pending`, which finalises a draft (other moves have their own endpoints: any other status →
 * 409 `invalid_state_transition`).
 */
export interface AdminOrderUpdateSchema extends Named<typeof adminOrderUpdateSchema> {}
const adminOrderUpdateSchema = z
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
export const AdminOrderUpdateSchema: AdminOrderUpdateSchema = adminOrderUpdateSchema;
export type AdminOrderUpdate = z.infer<typeof AdminOrderUpdateSchema>;

/** `POST /v1/admin/orders/{id}/cancel`: an optional reason. */
export interface OrderCancelSchema extends Named<typeof orderCancelSchema> {}
const orderCancelSchema = z.strictObject({ reason: OptionalLongTextSchema }).meta({ id: 'OrderCancel' });
export const OrderCancelSchema: OrderCancelSchema = orderCancelSchema;
export type OrderCancel = z.infer<typeof OrderCancelSchema>;

/**
 * The body of an action that takes no input (confirm, process, complete, deliver, a payment's
 * complete): empty or `{}`; any field → 400 `parameter_unknown` (docs/contract.md#requests).
 */
export interface NoInputSchema extends Named<typeof noInputSchema> {}
const noInputSchema = z.strictObject({}).meta({ id: 'NoInput' });
export const NoInputSchema: NoInputSchema = noInputSchema;

// ---------------------------------------------------------------- list queries

/**
 * `GET /v1/storefront/orders` (docs/contract.md#list-filters): the signed-in customer's orders, filtered by
 * `status` (no drafts), `created_after`, `created_before` (inclusive, epoch ms on output).
 */
export interface StorefrontOrderListQuerySchema extends Named<typeof storefrontOrderListQuerySchema> {}
const storefrontOrderListQuerySchema = listQuery(ORDER_SORTS, {
  status: z.enum(STOREFRONT_ORDER_STATUSES).optional(),
  created_after: QueryTimestampSchema.optional(),
  created_before: QueryTimestampSchema.optional(),
});
export const StorefrontOrderListQuerySchema: StorefrontOrderListQuerySchema = storefrontOrderListQuerySchema;
export type StorefrontOrderListQuery = z.infer<typeof StorefrontOrderListQuerySchema>;

/** `GET /v1/admin/orders` (docs/contract.md#lists). */
export interface AdminOrderListQuerySchema extends Named<typeof adminOrderListQuerySchema> {}
const adminOrderListQuerySchema = listQuery(ORDER_SORTS, {
  status: OrderStatusSchema.optional(),
  payment_status: OrderPaymentStatusSchema.optional(),
  fulfillment_status: OrderFulfillmentStatusSchema.optional(),
  customer_id: IdSchema.optional(),
  email: z.string().min(1).max(MAX_IDENTIFIER_LENGTH).optional(),
  /** Order number (exact) or e-mail (partial). */
  q: z.string().max(MAX_SEARCH_LENGTH).optional(),
  created_after: QueryTimestampSchema.optional(),
  created_before: QueryTimestampSchema.optional(),
  /** Decisions §19: orders in this currency (ISO 4217 code, compared in upper case). */
  currency: z
    .string()
    .regex(/^[A-Za-z]{3}$/)
    .transform((code) => code.toUpperCase())
    .optional(),
  /** Decisions §19: orders priced in this region. */
  region_id: IdSchema.optional(),
});
export const AdminOrderListQuerySchema: AdminOrderListQuerySchema = adminOrderListQuerySchema;
export type AdminOrderListQuery = z.infer<typeof AdminOrderListQuerySchema>;

/**
 * `GET /v1/storefront/orders/lookup?number=&email=` (docs/contract.md#guest-order-lookup): both required (400 when either
 * is missing); the e-mail is compared case-insensitively by the service.
 */
export interface OrderLookupQuerySchema extends Named<typeof orderLookupQuerySchema> {}
const orderLookupQuerySchema = z.object({
  number: queryInt(IntegerSchema.min(1)),
  email: z.string().min(1).max(MAX_IDENTIFIER_LENGTH),
});
export const OrderLookupQuerySchema: OrderLookupQuerySchema = orderLookupQuerySchema;
export type OrderLookupQuery = z.infer<typeof OrderLookupQuerySchema>;
