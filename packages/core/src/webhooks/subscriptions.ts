import { type EventType, SECRET_EVENT_TYPES, WILDCARD_EVENT } from '../events/schemas';
import type { EventRecord, WebhookRecord } from '../ports/storage';

/** What deciding a webhook's subscriptions needs of it. */
export type WebhookSubscription = Pick<WebhookRecord, 'events' | 'events_since' | 'created_at'>;

/**
 * Since when (epoch ms) a webhook receives events of `type`, or null when it does not
 * (docs/contract.md#webhook-subscriptions: a webhook receives only events created after it, or after the event type was
 * added to it, as at Stripe). A listed type counts from `events_since[type]`, or from the
 * webhook's `created_at` when that holds no entry (every type it was created with, and webhooks
 * created before the map existed). With `['*']`, every type counts from `events_since['*']`
 * (else `created_at`), or from the earlier time a type the webhook listed before `*` kept.
 * A secret event type (`customer.password_reset_requested`) is never received through `*`,
 * only when listed by name.
 *
 * @example subscribedSince({ events: ['order.created'], events_since: {}, created_at: 5 }, 'order.created') // 5
 * @example subscribedSince({ events: ['*'], events_since: { '*': 9, 'order.created': 5 }, created_at: 5 }, 'order.paid') // 9
 */
export function subscribedSince(webhook: WebhookSubscription, type: string): number | null {
  if (webhook.events.includes('*') && !isSecretEvent(type)) {
    const all = webhook.events_since['*'] ?? webhook.created_at;
    const own = webhook.events_since[type];
    return own !== undefined && own < all ? own : all;
  }
  if (!webhook.events.includes(type)) return null;
  return webhook.events_since[type] ?? webhook.created_at;
}

const SECRET_EVENTS: ReadonlySet<string> = new Set(SECRET_EVENT_TYPES);

/** The sample a test delivery sends for `["*"]` when no `event_type` is asked for. */
export const DEFAULT_TEST_EVENT_TYPE: EventType = 'order.created';

/**
 * The event type a test delivery without `event_type` sends (decisions §22): the webhook's first
 * subscribed type, {@link DEFAULT_TEST_EVENT_TYPE} for `["*"]`.
 *
 * @example defaultTestEventType(['payment.failed', 'order.created']) // 'payment.failed'
 * @example defaultTestEventType(['*']) // 'order.created'
 */
export function defaultTestEventType(events: readonly string[]): EventType {
  const first = events[0];
  return first === undefined || first === WILDCARD_EVENT ? DEFAULT_TEST_EVENT_TYPE : (first as EventType);
}

/** Whether an event carries a secret and so reaches only webhooks that name it (docs/contract.md#password-reset). */
export function isSecretEvent(type: string): boolean {
  return SECRET_EVENTS.has(type);
}

/**
 * Whether a webhook receives an event: it subscribes to the event's type and did so no later
 * than the event was created (an event of the same millisecond is delivered: it may have been
 * caused by a request that followed the subscription).
 */
export function receivesEvent(
  webhook: WebhookSubscription,
  event: Pick<EventRecord, 'type' | 'created_at'>,
): boolean {
  const since = subscribedSince(webhook, event.type);
  return since !== null && event.created_at >= since;
}

/**
 * The `events_since` of a webhook whose `events` change to `next` at `now` (PATCH): a type it
 * already received keeps the time it did since (also when it moves between a list and `*`); a
 * type added now counts from `now`; a type removed is forgotten (added again later, it counts
 * from then). Every entry is explicit, so the result does not depend on `created_at`.
 *
 * @example eventsSinceAfterChange({ events: ['a'], events_since: {}, created_at: 1 }, ['a', 'b'], 7) // { a: 1, b: 7 }
 */
export function eventsSinceAfterChange(
  current: WebhookSubscription,
  next: readonly string[],
  now: number,
): Record<string, number> {
  const result: Record<string, number> = {};
  if (next.includes('*')) {
    const all = current.events.includes('*') ? (current.events_since['*'] ?? current.created_at) : now;
    result['*'] = all;
    // Types received before `*` was added keep their earlier time.
    const known = current.events.includes('*') ? Object.keys(current.events_since) : current.events;
    for (const type of known) {
      if (type === '*') continue;
      const since = subscribedSince(current, type);
      if (since !== null && since < all) result[type] = since;
    }
    return result;
  }
  for (const type of next) result[type] = subscribedSince(current, type) ?? now;
  return result;
}
