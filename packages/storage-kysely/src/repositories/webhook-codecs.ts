import type { Mode } from '@cartwright/core';
import type {
  EventRecord,
  JsonObject,
  WebhookAttemptRecord,
  WebhookDeliveryRecord,
  WebhookRecord,
} from '@cartwright/core/storage';
import type { Selectable } from 'kysely';
import type { DialectCapabilities } from '../dialects/dialect-capabilities';
import type { EncodedRow } from '../query/insert-template';
import type {
  EventsTable,
  WebhookAttemptsTable,
  WebhookDeliveriesTable,
  WebhooksTable,
} from '../schema/database';

/** Row ⇄ record conversions of the outbox and webhook tables. */

export function decodeEvent(row: Selectable<EventsTable>, c: DialectCapabilities): EventRecord {
  return {
    id: row.id,
    store_id: row.store_id,
    mode: row.mode as Mode,
    type: row.type,
    data: c.parseJson<JsonObject>(row.data),
    created_at: row.created_at,
  };
}

/** An object literal, not `{ ...event, … }`: a spread that adds a key is V8's slow path (~1 µs). */
export function encodeEvent(event: EventRecord, c: DialectCapabilities): EncodedRow<'events'> {
  return {
    store_id: event.store_id,
    mode: event.mode,
    id: event.id,
    type: event.type,
    data: c.json(event.data),
    created_at: event.created_at,
    dispatched_at: null,
  };
}

export function decodeWebhook(row: Selectable<WebhooksTable>, c: DialectCapabilities): WebhookRecord {
  return {
    id: row.id,
    store_id: row.store_id,
    mode: row.mode as Mode,
    url: row.url,
    events: c.parseJson<string[]>(row.events),
    events_since: c.parseJson<Record<string, number>>(row.events_since),
    secret: row.secret,
    previous_secret: row.previous_secret,
    previous_secret_expires_at: row.previous_secret_expires_at,
    is_active: c.toBool(row.is_active),
    consecutive_failures: row.consecutive_failures,
    metadata: c.parseJson<JsonObject>(row.metadata),
    created_at: row.created_at,
    updated_at: row.updated_at,
  };
}

export function encodeWebhook(webhook: WebhookRecord, c: DialectCapabilities): EncodedRow<'webhooks'> {
  return {
    ...webhook,
    events: c.json(webhook.events),
    events_since: c.json(webhook.events_since),
    is_active: c.bool(webhook.is_active),
    metadata: c.json(webhook.metadata),
    deleted_at: null,
  };
}

export function decodeDelivery(row: Selectable<WebhookDeliveriesTable>): WebhookDeliveryRecord {
  return {
    id: row.id,
    store_id: row.store_id,
    mode: row.mode as Mode,
    webhook_id: row.webhook_id,
    event_id: row.event_id,
    event_type: row.event_type,
    payload: row.payload,
    status: row.status as WebhookDeliveryRecord['status'],
    attempt_count: row.attempt_count,
    next_attempt_at: row.next_attempt_at,
    lease_until: row.lease_until,
    leased_by: row.leased_by,
    last_status_code: row.last_status_code,
    last_error: row.last_error,
    last_duration_ms: row.last_duration_ms,
    created_at: row.created_at,
    updated_at: row.updated_at,
  };
}

export function decodeAttempt(
  row: Selectable<WebhookAttemptsTable>,
  c: DialectCapabilities,
): WebhookAttemptRecord {
  return {
    id: row.id,
    delivery_id: row.delivery_id,
    attempt: row.attempt,
    status_code: row.status_code,
    duration_ms: row.duration_ms,
    error: row.error,
    succeeded: c.toBool(row.succeeded),
    created_at: row.created_at,
  };
}
