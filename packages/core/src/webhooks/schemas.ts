import { z } from 'zod';
import { EVENT_TYPES, WEBHOOK_EVENT_TYPES, WILDCARD_EVENT } from '../events/schemas';
import {
  DateTimeSchema,
  HttpUrlSchema,
  listOf,
  MetadataInputSchema,
  MetadataSchema,
  type Named,
  PathIdSchema,
} from '../shared/schemas/common';
import { MAX_LIST_ITEMS } from '../shared/schemas/limits';
import type { WebhookDeliveryStatus } from './vocabulary';

/** Re-exported for convenience: what a webhook's `events` may contain. */
export type { WebhookEventType } from '../events/schemas';

/** Delivery statuses: `cancelled` when the webhook was deactivated or deleted before delivery. */
export const WEBHOOK_DELIVERY_STATUSES = [
  'pending',
  'succeeded',
  'failed',
  'cancelled',
] as const satisfies readonly WebhookDeliveryStatus[];
export interface WebhookDeliveryStatusSchema extends Named<typeof webhookDeliveryStatusSchema> {}
const webhookDeliveryStatusSchema = z.enum(WEBHOOK_DELIVERY_STATUSES);
export const WebhookDeliveryStatusSchema: WebhookDeliveryStatusSchema = webhookDeliveryStatusSchema;

/** Dashboard notification types (docs/contract.md#webhook-delivery). */
export const NOTIFICATION_TYPES = ['webhook.deactivated'] as const;
export type NotificationType = (typeof NOTIFICATION_TYPES)[number];

// ---------------------------------------------------------------- responses

/**
 * A webhook (docs/contract.md#webhooks, #standard-webhooks). `secret` (`whsec_…`: `whsec_` + standard base64 of 32 random
 * bytes) is shown in the create and rotate-secret responses only and is `null` everywhere else.
 * `events` is a list of event types, or `["*"]`.
 */
export interface WebhookSchema extends Named<typeof webhookSchema> {}
const webhookSchema = z
  .object({
    id: z.string(),
    url: z.string(),
    events: z.array(z.enum(WEBHOOK_EVENT_TYPES)),
    is_active: z.boolean(),
    consecutive_failures: z.int(),
    metadata: MetadataSchema,
    secret: z
      .string()
      .nullable()
      .meta({
        description:
          'The signing secret (`whsec_` + standard base64 of 32 random bytes), shown only by create and ' +
          'rotate-secret; `null` elsewhere.',
      }),
    created_at: DateTimeSchema,
    updated_at: DateTimeSchema,
  })
  .meta({ id: 'Webhook' });
export const WebhookSchema: WebhookSchema = webhookSchema;
export type Webhook = z.infer<typeof WebhookSchema>;

export const WebhookListSchema = listOf(WebhookSchema);
export type WebhookList = z.infer<typeof WebhookListSchema>;

/** One attempt of a delivery. */
export interface WebhookAttemptSchema extends Named<typeof webhookAttemptSchema> {}
const webhookAttemptSchema = z
  .object({
    attempt: z.int(),
    succeeded: z.boolean(),
    status_code: z.int().nullable(),
    duration_ms: z.int(),
    error: z.string().nullable(),
    created_at: DateTimeSchema,
  })
  .meta({ id: 'WebhookAttempt' });
export const WebhookAttemptSchema: WebhookAttemptSchema = webhookAttemptSchema;
export type WebhookAttempt = z.infer<typeof WebhookAttemptSchema>;

/**
 * One delivery of one event to one webhook, with its latest attempt: `attempt` (attempts made:
 * at most 5 automatic ones, plus one per manual retry), `status_code` (null when no response
 * arrived), `duration_ms`, `error`, and `next_retry_at` (null when no retry is scheduled), and
 * `attempts`: each attempt, oldest first.
 */
export interface WebhookDeliverySchema extends Named<typeof webhookDeliverySchema> {}
const webhookDeliverySchema = z
  .object({
    id: z.string(),
    webhook_id: z.string(),
    event_id: z.string(),
    event_type: z.string(),
    status: WebhookDeliveryStatusSchema,
    attempt: z.int(),
    status_code: z.int().nullable(),
    duration_ms: z.int().nullable(),
    error: z.string().nullable(),
    next_retry_at: DateTimeSchema.nullable(),
    created_at: DateTimeSchema,
    updated_at: DateTimeSchema,
    attempts: z.array(WebhookAttemptSchema),
  })
  .meta({ id: 'WebhookDelivery' });
export const WebhookDeliverySchema: WebhookDeliverySchema = webhookDeliverySchema;
export type WebhookDelivery = z.infer<typeof WebhookDeliverySchema>;

export const WebhookDeliveryListSchema = listOf(WebhookDeliverySchema);
export type WebhookDeliveryList = z.infer<typeof WebhookDeliveryListSchema>;

/** A dashboard notification (`GET /v1/admin/notifications`), e.g. `webhook.deactivated`. */
export interface NotificationSchema extends Named<typeof notificationSchema> {}
const notificationSchema = z
  .object({
    id: z.string(),
    type: z.string(),
    message: z.string(),
    data: MetadataSchema,
    created_at: DateTimeSchema,
  })
  .meta({ id: 'Notification' });
export const NotificationSchema: NotificationSchema = notificationSchema;
export type Notification = z.infer<typeof NotificationSchema>;

export const NotificationListSchema = listOf(NotificationSchema);
export type NotificationList = z.infer<typeof NotificationListSchema>;

/**
 * `POST /v1/admin/webhooks/{id}/test` response (spec): `status_code` is the target's response
 * code, null when no response arrived (refused, timeout).
 */
export interface WebhookTestResultSchema extends Named<typeof webhookTestResultSchema> {}
const webhookTestResultSchema = z
  .object({
    success: z.boolean(),
    status_code: z.int().nullable(),
    response_time_ms: z.int(),
  })
  .meta({ id: 'WebhookTestResult' });
export const WebhookTestResultSchema: WebhookTestResultSchema = webhookTestResultSchema;
export type WebhookTestResult = z.infer<typeof WebhookTestResultSchema>;

// ---------------------------------------------------------------- requests

/**
 * A webhook's `events` (docs/contract.md#webhooks): at least one known event type, or `["*"]` alone.
 * Repeated types are kept once.
 */
export interface WebhookEventsInputSchema extends Named<typeof webhookEventsInputSchema> {}
const webhookEventsInputSchema = z
  .array(
    z.enum(WEBHOOK_EVENT_TYPES, {
      error: `must be a known event type, or '${WILDCARD_EVENT}' for all`,
    }),
  )
  .min(1)
  .max(MAX_LIST_ITEMS)
  .superRefine((events, ctx) => {
    if (events.length > 1 && events.includes(WILDCARD_EVENT)) {
      ctx.addIssue({
        code: 'custom',
        path: [events.indexOf(WILDCARD_EVENT)],
        message: `must be alone: ['${WILDCARD_EVENT}'] subscribes to every event type`,
      });
    }
  })
  .overwrite((events) => [...new Set(events)]);
export const WebhookEventsInputSchema: WebhookEventsInputSchema = webhookEventsInputSchema;

/**
 * `POST /v1/admin/webhooks` (docs/contract.md#webhooks). `url` must be an absolute http(s) URL (400);
 * whether it resolves to a private address is checked by the service (422 `url_not_allowed`).
 * `is_active: false` creates it inactive: it receives nothing until re-activated by `PATCH`.
 */
export interface WebhookCreateSchema extends Named<typeof webhookCreateSchema> {}
const webhookCreateSchema = z
  .strictObject({
    url: HttpUrlSchema,
    events: WebhookEventsInputSchema,
    is_active: z.boolean().default(true).meta({
      description:
        'Default true. An inactive webhook receives no deliveries; `PATCH { "is_active": true }` activates it for events created from then on.',
    }),
    metadata: MetadataInputSchema.default({}),
  })
  .meta({ id: 'WebhookCreate' });
export const WebhookCreateSchema: WebhookCreateSchema = webhookCreateSchema;
export type WebhookCreate = z.infer<typeof WebhookCreateSchema>;

/** `PATCH /v1/admin/webhooks/{id}`: re-activating (`is_active: true`) resets the failure count. */
export interface WebhookUpdateSchema extends Named<typeof webhookUpdateSchema> {}
const webhookUpdateSchema = z
  .strictObject({
    url: HttpUrlSchema.optional(),
    events: WebhookEventsInputSchema.optional(),
    is_active: z.boolean().optional(),
    metadata: MetadataInputSchema.optional(),
  })
  .meta({ id: 'WebhookUpdate' });
export const WebhookUpdateSchema: WebhookUpdateSchema = webhookUpdateSchema;
export type WebhookUpdate = z.infer<typeof WebhookUpdateSchema>;

/** The path parameters of `/v1/admin/webhooks/{id}/deliveries/{delivery_id}/…`. */
export interface WebhookDeliveryPathSchema extends Named<typeof webhookDeliveryPathSchema> {}
const webhookDeliveryPathSchema = z.object({ id: PathIdSchema, delivery_id: PathIdSchema });
export const WebhookDeliveryPathSchema: WebhookDeliveryPathSchema = webhookDeliveryPathSchema;

/**
 * `POST /v1/admin/webhooks/{id}/test`: `event_type`, one of the known event types; without it (no
 * body, or `{}`), the webhook's first subscribed type (`order.created` for `["*"]`).
 */
export interface WebhookTestSchema extends Named<typeof webhookTestSchema> {}
const webhookTestSchema = z
  .strictObject({
    event_type: z.enum(EVENT_TYPES, { error: 'must be a known event type' }).optional().meta({
      description: 'Default: the webhook\'s first subscribed event type (`order.created` for `["*"]`).',
    }),
  })
  .meta({ id: 'WebhookTest' });
export const WebhookTestSchema: WebhookTestSchema = webhookTestSchema;
export type WebhookTest = z.infer<typeof WebhookTestSchema>;
