import { z } from 'zod';
import {
  DateTimeSchema,
  HttpUrlSchema,
  IdSchema,
  MetadataInputSchema,
  MetadataSchema,
  type Named,
  OptionalTextSchema,
  QuantitySchema,
} from '../shared/schemas/common';
import { MAX_CART_LINES } from '../shared/schemas/limits';
import type { FulfillmentRecordStatus } from '../vocabulary/orders';

// Fulfillment schemas (docs/contract.md#fulfillments), and the order-line quantities that
// fulfillments and refunds share. An order shows its fulfillments (orders/schemas.ts).

/** Fulfillment `status` (docs/contract.md#fulfillments). */
export const FULFILLMENT_STATUSES = [
  'pending',
  'shipped',
  'delivered',
  'cancelled',
] as const satisfies readonly FulfillmentRecordStatus[];
export interface FulfillmentStatusSchema extends Named<typeof fulfillmentStatusSchema> {}
const fulfillmentStatusSchema = z.enum(FULFILLMENT_STATUSES);
export const FulfillmentStatusSchema: FulfillmentStatusSchema = fulfillmentStatusSchema;

// ---------------------------------------------------------------- responses

/** Units of one order line, in fulfillments and refunds. */
export interface OrderLineQuantitySchema extends Named<typeof orderLineQuantitySchema> {}
const orderLineQuantitySchema = z
  .object({ order_line_id: z.string(), quantity: z.int() })
  .meta({ id: 'OrderLineQuantity' });
export const OrderLineQuantitySchema: OrderLineQuantitySchema = orderLineQuantitySchema;
export type OrderLineQuantity = z.infer<typeof OrderLineQuantitySchema>;

/** A fulfillment (spec "Fulfillment"); tracking fields and the ship/deliver times are null until set. */
export interface FulfillmentSchema extends Named<typeof fulfillmentSchema> {}
const fulfillmentSchema = z
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
export const FulfillmentSchema: FulfillmentSchema = fulfillmentSchema;
export type Fulfillment = z.infer<typeof FulfillmentSchema>;

// ---------------------------------------------------------------- requests

/** `{ order_line_id, quantity ≥ 1 }` in fulfillment and refund requests. */
export interface OrderLineQuantityInputSchema extends Named<typeof orderLineQuantityInputSchema> {}
const orderLineQuantityInputSchema = z
  .strictObject({ order_line_id: IdSchema, quantity: QuantitySchema })
  .meta({ id: 'OrderLineQuantityInput' });
export const OrderLineQuantityInputSchema: OrderLineQuantityInputSchema = orderLineQuantityInputSchema;
export type OrderLineQuantityInput = z.infer<typeof OrderLineQuantityInputSchema>;

/** `POST /v1/admin/orders/{id}/fulfillments` (docs/contract.md#fulfillments): `lines` required, non-empty. */
export interface FulfillmentCreateSchema extends Named<typeof fulfillmentCreateSchema> {}
const fulfillmentCreateSchema = z
  .strictObject({
    lines: z.array(OrderLineQuantityInputSchema).min(1).max(MAX_CART_LINES),
    tracking_number: OptionalTextSchema,
    tracking_url: HttpUrlSchema.nullable().optional(),
    carrier: OptionalTextSchema,
    metadata: MetadataInputSchema.default({}),
  })
  .meta({ id: 'FulfillmentCreate' });
export const FulfillmentCreateSchema: FulfillmentCreateSchema = fulfillmentCreateSchema;
export type FulfillmentCreate = z.infer<typeof FulfillmentCreateSchema>;

/** `PATCH /v1/admin/fulfillments/{id}`: tracking details and metadata; `null` clears. */
export interface FulfillmentUpdateSchema extends Named<typeof fulfillmentUpdateSchema> {}
const fulfillmentUpdateSchema = z
  .strictObject({
    tracking_number: OptionalTextSchema,
    tracking_url: HttpUrlSchema.nullable().optional(),
    carrier: OptionalTextSchema,
    metadata: MetadataInputSchema.optional(),
  })
  .meta({ id: 'FulfillmentUpdate' });
export const FulfillmentUpdateSchema: FulfillmentUpdateSchema = fulfillmentUpdateSchema;
export type FulfillmentUpdate = z.infer<typeof FulfillmentUpdateSchema>;

/**
 * `POST /v1/admin/fulfillments/{id}/ship`: the tracking known at shipping time, written with the
 * move (each optional; the fulfillment keeps what it had otherwise).
 */
export interface FulfillmentShipSchema extends Named<typeof fulfillmentShipSchema> {}
const fulfillmentShipSchema = z
  .strictObject({
    tracking_number: OptionalTextSchema,
    tracking_url: HttpUrlSchema.nullable().optional(),
    carrier: OptionalTextSchema,
  })
  .meta({ id: 'FulfillmentShip' });
export const FulfillmentShipSchema: FulfillmentShipSchema = fulfillmentShipSchema;
export type FulfillmentShip = z.infer<typeof FulfillmentShipSchema>;
