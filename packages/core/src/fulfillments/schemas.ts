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
  TimestampInputSchema,
} from '../shared/schemas/common';
import { MAX_CART_LINES, MAX_TEXT_LENGTH } from '../shared/schemas/limits';
import type { CarrierEventStatus, FulfillmentRecordStatus } from '../vocabulary/orders';

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
    carrier_code: z.string().nullable(),
    lines: z.array(OrderLineQuantitySchema),
    metadata: MetadataSchema,
    created_at: DateTimeSchema,
    shipped_at: DateTimeSchema.nullable(),
    delivered_at: DateTimeSchema.nullable(),
    estimated_delivery: DateTimeSchema.nullable(),
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

/** A fulfillment's `carrier_code` (decisions §20): at most this many characters. */
export const MAX_CARRIER_CODE_LENGTH = 64;

/**
 * `PATCH /v1/admin/fulfillments/{id}`: tracking details (`carrier_code` ≤ 64 characters,
 * `estimated_delivery` a date-time or a date) and metadata; `null` clears.
 */
export interface FulfillmentUpdateSchema extends Named<typeof fulfillmentUpdateSchema> {}
const fulfillmentUpdateSchema = z
  .strictObject({
    tracking_number: OptionalTextSchema,
    tracking_url: HttpUrlSchema.nullable().optional(),
    carrier: OptionalTextSchema,
    carrier_code: z.string().trim().min(1).max(MAX_CARRIER_CODE_LENGTH).nullable().optional(),
    estimated_delivery: TimestampInputSchema.nullable().optional(),
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

// ---------------------------------------------------------------- tracking (decisions §20)

/** What a carrier reports in a tracking event (`POST /v1/admin/fulfillments/{id}/tracking-events`). */
export const CARRIER_EVENT_STATUSES = [
  'in_transit',
  'out_for_delivery',
  'delivered',
  'exception',
] as const satisfies readonly CarrierEventStatus[];

/** TrackingInfo and TrackingEvent `status`: `pending` (the fulfillment's creation) or a carrier status. */
export const TRACKING_STATUSES = ['pending', ...CARRIER_EVENT_STATUSES] as const;
export type TrackingStatus = (typeof TRACKING_STATUSES)[number];

/** One event of a fulfillment's tracking: its own history or a carrier's report. */
export interface TrackingEventSchema extends Named<typeof trackingEventSchema> {}
const trackingEventSchema = z
  .object({
    status: z.enum(TRACKING_STATUSES),
    description: z.string(),
    location: z.string().nullable(),
    timestamp: DateTimeSchema,
  })
  .meta({ id: 'TrackingEvent' });
export const TrackingEventSchema: TrackingEventSchema = trackingEventSchema;
export type TrackingEvent = z.infer<typeof TrackingEventSchema>;

/**
 * A fulfillment's tracking (decisions §20): its carrier details, its events (its own history and
 * the carrier's, by timestamp then insertion) and the status of the last of them — `delivered`
 * whenever the fulfillment is delivered.
 */
export interface TrackingInfoSchema extends Named<typeof trackingInfoSchema> {}
const trackingInfoSchema = z
  .object({
    order_id: z.string(),
    fulfillment_id: z.string(),
    carrier: z.string().nullable(),
    carrier_code: z.string().nullable(),
    tracking_number: z.string().nullable(),
    tracking_url: z.string().nullable(),
    status: z.enum(TRACKING_STATUSES),
    estimated_delivery: DateTimeSchema.nullable(),
    events: z.array(TrackingEventSchema),
  })
  .meta({ id: 'TrackingInfo' });
export const TrackingInfoSchema: TrackingInfoSchema = trackingInfoSchema;
export type TrackingInfo = z.infer<typeof TrackingInfoSchema>;

/**
 * `POST /v1/admin/fulfillments/{id}/tracking-events`: `status` and `description` (not blank, at
 * most 10,000 characters, like every description) required, `location` optional (≤ 255),
 * `timestamp` (a date-time, or a date) defaults to now.
 */
export interface TrackingEventCreateSchema extends Named<typeof trackingEventCreateSchema> {}
const trackingEventCreateSchema = z
  .strictObject({
    status: z.enum(CARRIER_EVENT_STATUSES),
    description: z.string().trim().min(1).max(MAX_TEXT_LENGTH),
    location: OptionalTextSchema,
    timestamp: TimestampInputSchema.optional(),
  })
  .meta({ id: 'TrackingEventCreate' });
export const TrackingEventCreateSchema: TrackingEventCreateSchema = trackingEventCreateSchema;
export type TrackingEventCreate = z.infer<typeof TrackingEventCreateSchema>;

/** `GET /v1/storefront/orders/{id}/tracking`: `fulfillment_id` picks one of the order's fulfillments. */
export interface TrackingQuerySchema extends Named<typeof trackingQuerySchema> {}
const trackingQuerySchema = z.object({ fulfillment_id: IdSchema.optional() });
export const TrackingQuerySchema: TrackingQuerySchema = trackingQuerySchema;
export type TrackingQuery = z.infer<typeof TrackingQuerySchema>;
