import type {
  NotificationRecord,
  WebhookAttemptRecord,
  WebhookDeliveryRecord,
  WebhookRecord,
} from '../ports/storage';
import { iso, isoOrNull } from '../shared/wire-format';
import type { Notification, Webhook, WebhookAttempt, WebhookDelivery, WebhookEventType } from './schemas';

/**
 * A webhook on the wire (docs/contract.md#webhooks). `secret` is given only by the create response; every
 * other response shows `null`.
 */
export function webhookToWire(record: WebhookRecord, secret: string | null = null): Webhook {
  return {
    id: record.id,
    url: record.url,
    events: record.events as WebhookEventType[],
    is_active: record.is_active,
    consecutive_failures: record.consecutive_failures,
    metadata: record.metadata,
    secret,
    created_at: iso(record.created_at),
    updated_at: iso(record.updated_at),
  };
}

/** One attempt of a delivery, oldest first in `attempts`. */
export type WebhookAttemptWire = WebhookAttempt;

/** A delivery with its latest outcome and the history of its attempts. */
export type WebhookDeliveryWire = WebhookDelivery;

export function webhookAttemptToWire(record: WebhookAttemptRecord): WebhookAttemptWire {
  return {
    attempt: record.attempt,
    succeeded: record.succeeded,
    status_code: record.status_code,
    duration_ms: record.duration_ms,
    error: record.error,
    created_at: iso(record.created_at),
  };
}

/**
 * A delivery: `attempt` is the number of attempts made, `status_code`/`duration_ms`/`error` those
 * of the latest one, `next_retry_at` the time of the next attempt while one is scheduled.
 */
export function webhookDeliveryToWire(
  record: WebhookDeliveryRecord & { attempts: WebhookAttemptRecord[] },
): WebhookDeliveryWire {
  return {
    id: record.id,
    webhook_id: record.webhook_id,
    event_id: record.event_id,
    event_type: record.event_type,
    status: record.status,
    attempt: record.attempt_count,
    status_code: record.last_status_code,
    duration_ms: record.last_duration_ms,
    error: record.last_error,
    next_retry_at: record.status === 'pending' ? isoOrNull(record.next_attempt_at) : null,
    created_at: iso(record.created_at),
    updated_at: iso(record.updated_at),
    attempts: [...record.attempts].sort((a, b) => a.attempt - b.attempt).map(webhookAttemptToWire),
  };
}

export function notificationToWire(record: NotificationRecord): Notification {
  return {
    id: record.id,
    type: record.type,
    message: record.message,
    data: record.data,
    created_at: iso(record.created_at),
  };
}
