import { z } from 'zod';
import { DateTimeSchema, MetadataSchema, type Named } from '../shared/schemas/common';

/** The 16 event types of the spec ("Events / Event types"). */
export const SPEC_EVENT_TYPES = [
  'product.created',
  'product.updated',
  'product.deleted',
  'order.created',
  'order.confirmed',
  'order.completed',
  'order.cancelled',
  'payment.completed',
  'payment.failed',
  'payment.refunded',
  'fulfillment.created',
  'fulfillment.shipped',
  'fulfillment.delivered',
  'inventory.low',
  'inventory.out_of_stock',
  'customer.created',
] as const;

/**
 * Event types that carry a secret (docs/contract.md#password-reset): delivered only to webhooks that list them by
 * name, never through `["*"]`.
 */
export const SECRET_EVENT_TYPES = ['customer.password_reset_requested', 'member.invited'] as const;

/** A return entering each of its states (decisions §18); `data` is the Return. */
export const RETURN_EVENT_TYPES = [
  'return.requested',
  'return.approved',
  'return.rejected',
  'return.received',
  'return.completed',
  'return.cancelled',
] as const;

/**
 * Every event type the engine emits: the spec's 16 plus `payment.created` (a payment record was
 * created) and `customer.updated` (any change to a customer), docs/contract.md#events, the category
 * events of decisions §17 (`category.created|updated|deleted`, `collection.created|updated|deleted`), and the secret
 * `customer.password_reset_requested` (docs/contract.md#password-reset).
 */
export const EVENT_TYPES = [
  ...SPEC_EVENT_TYPES,
  'payment.created',
  'customer.updated',
  'category.created',
  'category.updated',
  'category.deleted',
  'collection.created',
  'collection.updated',
  'collection.deleted',
  ...RETURN_EVENT_TYPES,
  ...SECRET_EVENT_TYPES,
] as const;
export type EventType = (typeof EVENT_TYPES)[number];
export interface EventTypeSchema extends Named<typeof eventTypeSchema> {}
const eventTypeSchema = z.enum(EVENT_TYPES);
export const EventTypeSchema: EventTypeSchema = eventTypeSchema;

/** The wildcard subscription: `events: ["*"]` means every event type (stored and echoed as `["*"]`). */
export const WILDCARD_EVENT = '*';

/** What a webhook's `events` may contain: any event type, or the wildcard alone. */
export const WEBHOOK_EVENT_TYPES = [...EVENT_TYPES, WILDCARD_EVENT] as const;
export type WebhookEventType = (typeof WEBHOOK_EVENT_TYPES)[number];
export interface WebhookEventTypeSchema extends Named<typeof webhookEventTypeSchema> {}
const webhookEventTypeSchema = z.enum(WEBHOOK_EVENT_TYPES);
export const WebhookEventTypeSchema: WebhookEventTypeSchema = webhookEventTypeSchema;

/**
 * The event payload (spec "Events / Payload"): the body of every webhook delivery. `data` is the
 * affected resource as the wire shows it.
 */
export interface EventPayloadSchema extends Named<typeof eventPayloadSchema> {}
const eventPayloadSchema = z
  .object({
    id: z.string(),
    type: EventTypeSchema,
    created_at: DateTimeSchema,
    data: MetadataSchema,
    store_id: z.string(),
  })
  .meta({ id: 'Event' });
export const EventPayloadSchema: EventPayloadSchema = eventPayloadSchema;
/** Named `…Wire` because the event bus's `EventPayload` (with `type: string`) is already exported. */
export type EventPayloadWire = z.infer<typeof EventPayloadSchema>;
