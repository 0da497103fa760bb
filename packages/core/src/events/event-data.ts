import { z } from 'zod';
import { type Product, ProductSchema } from '../catalog/schemas';
import { type Category, CategorySchema } from '../categories/schemas';
import { type Collection, CollectionSchema } from '../collections/schemas';
import { type Customer, CustomerSchema } from '../customers/schemas';
import { type Fulfillment, FulfillmentSchema } from '../fulfillments/schemas';
import { type Inventory, InventorySchema } from '../inventory/schemas';
import { type Order, OrderSchema } from '../orders/schemas';
import { type Payment, PaymentSchema } from '../payments/schemas';
import type { Mode } from '../ports/storage';
import { type Refund, RefundSchema } from '../refunds/schemas';
import { type Return, ReturnSchema } from '../returns/schemas';
import { DateTimeSchema, type Named } from '../shared/schemas/common';
import type { EventType } from './schemas';

/**
 * `payment.failed` for a checkout whose payment was declined: no order came of it, so the
 * Payment shows `order_id: null` and the `cart_id` it paid for. (A payment of an existing order
 * that fails later is a plain Payment.)
 */
export interface CheckoutPaymentFailedSchema extends Named<typeof checkoutPaymentFailedSchema> {}
const checkoutPaymentFailedSchema = PaymentSchema.extend({
  order_id: z.null(),
  cart_id: z.string().nullable(),
});
export const CheckoutPaymentFailedSchema: CheckoutPaymentFailedSchema = checkoutPaymentFailedSchema;
export type CheckoutPaymentFailed = z.infer<typeof CheckoutPaymentFailedSchema>;

/**
 * `customer.password_reset_requested` (docs/contract.md#password-reset): the reset token (`prt_…`, single use,
 * valid until `expires_at`) for the host application to e-mail. A secret: delivered only to
 * webhooks that list the type by name, never through `["*"]`.
 */
export interface PasswordResetRequestedSchema extends Named<typeof passwordResetRequestedSchema> {}
const passwordResetRequestedSchema = z.object({
  customer_id: z.string(),
  email: z.string(),
  token: z.string(),
  expires_at: DateTimeSchema,
});
export const PasswordResetRequestedSchema: PasswordResetRequestedSchema = passwordResetRequestedSchema;
export type PasswordResetRequested = z.infer<typeof PasswordResetRequestedSchema>;

/**
 * `member.invited` (decisions §23): the invitation token (`mit_…`, single use, valid 7 days until
 * `expires_at`) that sets the member's password, for the host application to e-mail. A secret:
 * delivered only to webhooks that list the type by name, never through `["*"]`.
 */
export interface MemberInvitedSchema extends Named<typeof memberInvitedSchema> {}
const memberInvitedSchema = z.object({
  member_id: z.string(),
  email: z.string(),
  role: z.enum(['admin', 'member']),
  token: z.string(),
  expires_at: DateTimeSchema,
});
export const MemberInvitedSchema: MemberInvitedSchema = memberInvitedSchema;
export type MemberInvited = z.infer<typeof MemberInvitedSchema>;

/**
 * Event type → the type of its `data` (e.g. `EventDataMap['order.created']` is `Order`): the
 * types inferred from the wire schemas, named here so that declarations stay small;
 * {@link EVENT_DATA_SCHEMAS} must give each type exactly this schema (the compiler checks it).
 */
export interface EventDataMap {
  'product.created': Product;
  'product.updated': Product;
  'product.deleted': Product;
  'order.created': Order;
  'order.confirmed': Order;
  'order.completed': Order;
  'order.cancelled': Order;
  'payment.created': Payment;
  'payment.completed': Payment;
  'payment.failed': Payment | CheckoutPaymentFailed;
  'payment.refunded': Refund;
  'fulfillment.created': Fulfillment;
  'fulfillment.shipped': Fulfillment;
  'fulfillment.delivered': Fulfillment;
  'inventory.low': Inventory;
  'inventory.out_of_stock': Inventory;
  'customer.created': Customer;
  'customer.updated': Customer;
  'category.created': Category;
  'category.updated': Category;
  'category.deleted': Category;
  'collection.created': Collection;
  'collection.updated': Collection;
  'collection.deleted': Collection;
  'customer.password_reset_requested': PasswordResetRequested;
  'member.invited': MemberInvited;
  'return.requested': Return;
  'return.approved': Return;
  'return.rejected': Return;
  'return.received': Return;
  'return.completed': Return;
  'return.cancelled': Return;
}

/**
 * The schema of each event type's `data`: the affected resource as the admin wire shows it.
 * The webhook samples are checked against it.
 */
const SCHEMAS_BY_TYPE = {
  'product.created': ProductSchema,
  'product.updated': ProductSchema,
  'product.deleted': ProductSchema,
  'order.created': OrderSchema,
  'order.confirmed': OrderSchema,
  'order.completed': OrderSchema,
  'order.cancelled': OrderSchema,
  'payment.created': PaymentSchema,
  'payment.completed': PaymentSchema,
  'payment.failed': z.union([PaymentSchema, CheckoutPaymentFailedSchema]),
  'payment.refunded': RefundSchema,
  'fulfillment.created': FulfillmentSchema,
  'fulfillment.shipped': FulfillmentSchema,
  'fulfillment.delivered': FulfillmentSchema,
  'inventory.low': InventorySchema,
  'inventory.out_of_stock': InventorySchema,
  'customer.created': CustomerSchema,
  'customer.updated': CustomerSchema,
  'category.created': CategorySchema,
  'category.updated': CategorySchema,
  'category.deleted': CategorySchema,
  'collection.created': CollectionSchema,
  'collection.updated': CollectionSchema,
  'collection.deleted': CollectionSchema,
  'customer.password_reset_requested': PasswordResetRequestedSchema,
  'member.invited': MemberInvitedSchema,
  'return.requested': ReturnSchema,
  'return.approved': ReturnSchema,
  'return.rejected': ReturnSchema,
  'return.received': ReturnSchema,
  'return.completed': ReturnSchema,
  'return.cancelled': ReturnSchema,
} as const;
export const EVENT_DATA_SCHEMAS: { readonly [K in EventType]: z.ZodType<EventDataMap[K]> } = SCHEMAS_BY_TYPE;

// Both ways: a schema whose output differs from the map's type (or a type missing) fails here.
type Exactly<A, B> = [A] extends [B] ? ([B] extends [A] ? true : false) : false;
type SchemasMatchMap = {
  [K in EventType]: Exactly<EventDataMap[K], z.infer<(typeof SCHEMAS_BY_TYPE)[K]>>;
}[EventType];
const schemasMatchMap: SchemasMatchMap extends true ? true : never = true;
void schemasMatchMap;

/** One event of type `K` as in-process listeners receive it: the webhook payload plus the mode. */
export interface EngineEventOf<K extends EventType> {
  /** `evt_…`, the receiver's de-duplication key. */
  id: string;
  type: K;
  /** ISO 8601. */
  created_at: string;
  /** The affected resource as the wire shows it. */
  data: EventDataMap[K];
  store_id: string;
  mode: Mode;
}

/**
 * An event as in-process listeners receive it. `EngineEvent<'order.created'>` has `data: Order`;
 * `EngineEvent` (any type) is a union discriminated by `type`, so `if (e.type === 'order.created')`
 * narrows `e.data`.
 */
export type EngineEvent<K extends EventType = EventType> = K extends EventType ? EngineEventOf<K> : never;

/** A listener of one event type (or, with `EventType` itself, of any). */
export type EngineEventListener<K extends EventType = EventType> = (event: EngineEvent<K>) => void;

/** `engine.events`: in-process subscriptions, called after the change's transaction commits. */
export interface EngineEvents {
  /**
   * Calls `listener` with every event of `type` after its transaction commits; returns a
   * function that unsubscribes. A throwing listener never affects the request or other
   * listeners (it goes to the engine's `onListenerError`).
   *
   * @example engine.events.on('order.created', (e) => console.log(e.data.total.amount))
   */
  on<K extends EventType>(type: K, listener: EngineEventListener<K>): () => void;
  /**
   * `'*'`: every event, including the secret `customer.password_reset_requested` (in process,
   * unlike a `["*"]` webhook). The event is a union discriminated by `type`.
   */
  on(type: '*', listener: EngineEventListener): () => void;
}
