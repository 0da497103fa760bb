import type { Patch } from './conventions';
import type { Page, PageRequest } from './pagination';
import type {
  ClaimedDelivery,
  EventRecord,
  NotificationRecord,
  WebhookAttemptRecord,
  WebhookDeliveryRecord,
  WebhookRecord,
} from './records';
import type { Millis, Scope } from './scope';

// The event outbox, webhooks with their deliveries, and notifications.

export interface EventRepository {
  /** Appends to the outbox inside the caller's transaction. */
  append(events: EventRecord[]): Promise<void>;
  /**
   * Fan-out: claims up to `limit` events not yet dispatched (oldest first; Postgres
   * `FOR UPDATE SKIP LOCKED`), asks `makeDelivery` for each active webhook of the event's scope
   * and inserts the deliveries it returns (null: the webhook does not receive that event — core
   * decides, `receivesEvent`), and marks the events dispatched — all in the caller's
   * transaction. Returns the number of events handled.
   */
  dispatch(
    limit: number,
    now: Millis,
    makeDelivery: (event: EventRecord, webhook: WebhookRecord) => WebhookDeliveryRecord | null,
  ): Promise<number>;
}

export interface WebhookRepository {
  insert(record: WebhookRecord): Promise<void>;
  get(scope: Scope, id: string): Promise<WebhookRecord | null>;
  list(scope: Scope, page: PageRequest<'created_at'>): Promise<Page<WebhookRecord>>;
  update(
    scope: Scope,
    id: string,
    patch: Patch<
      WebhookRecord,
      'url' | 'events' | 'events_since' | 'is_active' | 'consecutive_failures' | 'metadata'
    >,
  ): Promise<WebhookRecord | null>;
  delete(scope: Scope, id: string, at: Millis): Promise<boolean>;

  /**
   * Claims due deliveries across all scopes so that no two workers ever hold the same one:
   * pending, `next_attempt_at <= now`, not leased (or lease expired), webhook active; sets
   * `lease_until = now + lease_ms`, `leased_by = worker_id`. Postgres: `FOR UPDATE SKIP LOCKED`.
   */
  claimDue(input: {
    now: Millis;
    limit: number;
    lease_ms: number;
    worker_id: string;
  }): Promise<ClaimedDelivery[]>;
  /**
   * Records one attempt's result for a delivery this worker holds (guard: `leased_by = worker_id`),
   * clears the lease, and updates the delivery (`status`, `attempt_count`, `next_attempt_at`,
   * last_*). Returns false if the lease was lost (another worker took over after expiry).
   */
  recordAttempt(input: {
    delivery_id: string;
    worker_id: string;
    attempt: WebhookAttemptRecord;
    status: WebhookDeliveryRecord['status'];
    next_attempt_at: Millis | null;
    at: Millis;
  }): Promise<boolean>;
  /** Gives a claimed delivery back untouched (shutdown). */
  releaseLease(delivery_id: string, worker_id: string): Promise<void>;
  /** Success → 0; failure → +1. Returns the webhook after the change. */
  recordOutcome(
    scope: Scope,
    webhook_id: string,
    succeeded: boolean,
    at: Millis,
  ): Promise<WebhookRecord | null>;
  /** Deactivation: every pending delivery of the webhook becomes cancelled. */
  cancelPendingDeliveries(scope: Scope, webhook_id: string, at: Millis): Promise<number>;
  /**
   * Secret rotation, atomically: `previous_secret` becomes the current `secret` (an older previous
   * one is dropped), `secret` the new one, `previous_secret_expires_at` as given. Two concurrent
   * rotations both take effect in turn (the second keeps the first's secret as previous).
   * Returns the webhook after the change, or null for an unknown (or deleted) webhook.
   */
  rotateSecret(
    scope: Scope,
    id: string,
    input: { secret: string; previous_secret_expires_at: Millis; at: Millis },
  ): Promise<WebhookRecord | null>;
  /** One delivery of this webhook, with its attempts; null if unknown or of another webhook. */
  getDelivery(
    scope: Scope,
    webhook_id: string,
    delivery_id: string,
  ): Promise<(WebhookDeliveryRecord & { attempts: WebhookAttemptRecord[] }) | null>;
  /**
   * Claims one delivery of one webhook for a manual re-send, whatever its status, unless another
   * worker holds an unexpired lease on it: sets `status = 'pending'`,
   * `next_attempt_at = lease_until = now + lease_ms`, `leased_by = worker_id` (so a sender that
   * dies is taken over by `claimDue` once the lease expires, and deactivating the webhook
   * meanwhile cancels it). Null when the delivery is unknown, of another webhook, or leased.
   */
  claimDelivery(input: {
    scope: Scope;
    webhook_id: string;
    delivery_id: string;
    now: Millis;
    lease_ms: number;
    worker_id: string;
  }): Promise<ClaimedDelivery | null>;
  listDeliveries(
    scope: Scope,
    webhook_id: string,
    page: PageRequest<'created_at'>,
  ): Promise<Page<WebhookDeliveryRecord & { attempts: WebhookAttemptRecord[] }>>;
}

export interface NotificationRepository {
  insert(record: NotificationRecord): Promise<void>;
  list(scope: Scope, page: PageRequest<'created_at'>): Promise<Page<NotificationRecord>>;
}
