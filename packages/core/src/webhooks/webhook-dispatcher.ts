import { eventToPayload } from '../events/event-bus';
import type {
  ClaimedDelivery,
  EventRecord,
  Repositories,
  Scope,
  WebhookDeliveryRecord,
  WebhookRecord,
} from '../ports/storage';
import type { ServiceContext } from '../shared/context';
import { CommerceError, errors as commerceErrors } from '../shared/errors';
import { write } from '../shared/unit-of-work';
import { afterAttempt, DEACTIVATION_THRESHOLD, firstAttemptAt } from './retry-schedule';
import { receivesEvent } from './subscriptions';
import { requireTransport, sendSigned } from './webhook-sender';
import { signingSecrets } from './webhook-signing';
import { type WebhookDeliveryWire, webhookDeliveryToWire } from './wire';

export interface DeliverDueOptions {
  /** The time to act at (epoch ms); default the engine clock. */
  now?: number;
  /** Deliveries claimed and sent at once (in parallel); default 25. Also the fan-out batch size. */
  limit?: number;
  /** Who holds the leases; default one id per engine. Give each worker process its own. */
  workerId?: string;
  /** How long a claim lasts; default max(60 s, 2 × timeout + 10 s). */
  leaseMs?: number;
  /** Set `aborted` to stop early: claimed deliveries not yet sent are given back. */
  signal?: { readonly aborted: boolean };
  /** Called once per attempt sent, after it is recorded (an operator's log line). */
  onAttempt?: (attempt: WebhookAttemptReport) => void;
}

/** One attempt as {@link DeliverDueOptions.onAttempt} reports it. */
export interface WebhookAttemptReport {
  webhook_id: string;
  delivery_id: string;
  event_id: string;
  /** The attempt's number (1 for the first). */
  attempt: number;
  /** `lost`: another worker took the delivery over before this attempt was recorded. */
  outcome: 'succeeded' | 'failed' | 'lost';
  /** The endpoint's status; null when no response arrived. */
  status_code: number | null;
  duration_ms: number;
  /** Why it failed (a status, a timeout, a refused connection); null on success. */
  error: string | null;
  /** When the next attempt is due (epoch ms); null when none is scheduled. */
  next_attempt_at: number | null;
  /** This attempt deactivated the webhook (its 5th consecutive failure). */
  deactivated: boolean;
}

export interface DeliverDueResult {
  /** Events fanned out to deliveries. */
  dispatched: number;
  /** Deliveries claimed by this call. */
  claimed: number;
  succeeded: number;
  failed: number;
  /** Attempts whose lease had expired and been taken over before they were recorded. */
  lost: number;
  /** Claims given back untouched (stop requested). */
  released: number;
  /** Ids of webhooks deactivated by this call (5 consecutive failures). */
  deactivated: string[];
}

/** Claimed deliveries grouped by webhook, each group in claim order. */
function byWebhook(claimed: readonly ClaimedDelivery[]): Map<string, ClaimedDelivery[]> {
  const groups = new Map<string, ClaimedDelivery[]>();
  for (const item of claimed) {
    const group = groups.get(item.delivery.webhook_id);
    if (group) group.push(item);
    else groups.set(item.delivery.webhook_id, [item]);
  }
  return groups;
}

type AttemptOutcome = 'succeeded' | 'failed' | 'lost';

/** Fan-out rounds per call, so that a flood of events cannot starve sending. */
const MAX_FANOUT_ROUNDS = 20;

/**
 * The webhook sender (docs/contract.md#webhook-delivery), for cron jobs, serverless hosts and the worker loop:
 * 1. fan-out: committed, undispatched outbox events become one pending delivery per subscribed
 *    active webhook of their store and mode — subscribed to the event's type no later than the
 *    event was created (`receivesEvent`, docs/contract.md#webhook-subscriptions) —, carrying the payload serialised once —
 *    every attempt sends those exact bytes;
 * 2. claim due deliveries under a lease (no two workers hold the same delivery; Postgres
 *    `FOR UPDATE SKIP LOCKED`), send them — different webhooks in parallel; one webhook's first,
 *    then its others in parallel when the endpoint answered, one at a time when it failed (so a
 *    failing endpoint gets no attempt after the one that deactivates it) — and record each
 *    attempt under the lease guard. A worker that dies mid-delivery loses nothing: its lease expires and another worker
 *    sends again (at-least-once; the event id is the receiver's de-duplication key).
 * Every failed attempt adds to the webhook's consecutive failures and every success resets them;
 * the 5th consecutive failure deactivates the webhook, cancels its pending deliveries and writes a
 * `webhook.deactivated` notification — in the transaction that records the attempt.
 */
export function createWebhookDispatcher(ctx: ServiceContext) {
  const engineWorkerId = `wrk_${ctx.crypto.randomToken(12)}`;
  const delays = ctx.config.webhook_retry_delays;

  /**
   * The delivery of `event` to `webhook`, or null when the webhook does not receive it: another
   * type, or a type it subscribed to after the event was created (`receivesEvent`, docs/contract.md#webhook-subscriptions).
   */
  function makeDelivery(now: number, payloads: Map<string, string>) {
    return (event: EventRecord, webhook: WebhookRecord): WebhookDeliveryRecord | null => {
      if (!receivesEvent(webhook, event)) return null;
      let payload = payloads.get(event.id);
      if (payload === undefined) {
        payload = JSON.stringify(eventToPayload(event));
        payloads.set(event.id, payload);
      }
      return {
        id: ctx.ids.next('whd'),
        store_id: event.store_id,
        mode: event.mode,
        webhook_id: webhook.id,
        event_id: event.id,
        event_type: event.type,
        payload,
        status: 'pending',
        attempt_count: 0,
        next_attempt_at: firstAttemptAt(now, delays),
        lease_until: null,
        leased_by: null,
        last_status_code: null,
        last_error: null,
        last_duration_ms: null,
        created_at: now,
        updated_at: now,
      };
    };
  }

  /** Fans out committed events in batches; returns how many were handled. */
  async function fanOut(now: number, batch: number, signal?: { readonly aborted: boolean }): Promise<number> {
    let total = 0;
    for (let round = 0; round < MAX_FANOUT_ROUNDS && !signal?.aborted; round++) {
      const payloads = new Map<string, string>();
      const handled = await ctx.storage.transaction((tx) =>
        tx.events.dispatch(batch, now, makeDelivery(now, payloads)),
      );
      total += handled;
      if (handled < batch) break;
    }
    return total;
  }

  async function deactivate(
    tx: Repositories,
    scope: Scope,
    webhook: WebhookRecord,
    at: number,
  ): Promise<void> {
    await tx.webhooks.update(scope, webhook.id, { is_active: false, updated_at: at });
    await tx.webhooks.cancelPendingDeliveries(scope, webhook.id, at);
    await tx.notifications.insert({
      id: ctx.ids.next('ntf'),
      store_id: scope.store_id,
      mode: scope.mode,
      type: 'webhook.deactivated',
      message:
        `Webhook ${webhook.url} was deactivated after ${webhook.consecutive_failures} consecutive failed ` +
        'delivery attempts. Fix the endpoint, then re-activate it with PATCH { "is_active": true }.',
      data: { webhook_id: webhook.id, url: webhook.url, consecutive_failures: webhook.consecutive_failures },
      created_at: at,
    });
  }

  /**
   * THE attempt of a delivery, for the worker (`deliverDue`) and for a manual re-send (`retry`):
   * sends one claimed delivery, signed with the webhook's signing secrets at that time, and
   * records the attempt under the lease guard with its consequences (schedule, failure count,
   * deactivation). `request`, the scope of the request that re-sends it (`retry`), also reads the
   * delivery as recorded, in that transaction (the retry's response, stored with it for an
   * `Idempotency-Key`).
   */
  async function deliverOne(
    claimed: ClaimedDelivery,
    workerId: string,
    fixedNow: number | undefined,
    request: Scope | null = null,
  ): Promise<{
    outcome: AttemptOutcome;
    deactivated: string | null;
    delivery: WebhookDeliveryWire | null;
    report: WebhookAttemptReport;
  }> {
    const { delivery } = claimed;
    const transport = requireTransport(ctx);
    const at = fixedNow ?? ctx.clock.now();
    const attempt = delivery.attempt_count + 1;
    const [current, ...previous] = signingSecrets(claimed, at);
    const sent = await sendSigned(ctx, transport, {
      url: claimed.url,
      secrets: [current as string, ...previous],
      payload: delivery.payload,
      event_id: delivery.event_id,
      at,
    });
    const next = afterAttempt(attempt, sent.succeeded, at, delays);
    const recordedAt = fixedNow ?? ctx.clock.now();
    const scope: Scope = { store_id: delivery.store_id, mode: delivery.mode };
    const record = async (tx: Repositories) => {
      const result = await recordOne(tx, scope, claimed, workerId, { attempt, at, recordedAt, sent, next });
      const report: WebhookAttemptReport = {
        webhook_id: delivery.webhook_id,
        delivery_id: delivery.id,
        event_id: delivery.event_id,
        attempt,
        outcome: result.outcome,
        status_code: sent.status_code,
        duration_ms: sent.duration_ms,
        error: sent.error,
        next_attempt_at: result.outcome === 'lost' ? null : next.next_attempt_at,
        deactivated: result.deactivated !== null,
      };
      if (request === null || result.outcome === 'lost') return { ...result, delivery: null, report };
      const read = await tx.webhooks.getDelivery(scope, delivery.webhook_id, delivery.id);
      return { ...result, delivery: read ? webhookDeliveryToWire(read) : null, report };
    };
    // The worker's attempt is no request's; a manual retry's is its request's last effect.
    if (request === null) return ctx.storage.transaction(record);
    return write(ctx, request, ({ tx }) => record(tx), {
      answer: (result) => {
        if (result.delivery === null) throw deliveryTakenOver(delivery.id);
        return result.delivery;
      },
    });
  }

  async function recordOne(
    tx: Repositories,
    scope: Scope,
    claimed: ClaimedDelivery,
    workerId: string,
    input: {
      attempt: number;
      at: number;
      recordedAt: number;
      sent: Awaited<ReturnType<typeof sendSigned>>;
      next: ReturnType<typeof afterAttempt>;
    },
  ): Promise<{ outcome: AttemptOutcome; deactivated: string | null }> {
    const { delivery } = claimed;
    const { attempt, at, recordedAt, sent, next } = input;
    const recorded = await tx.webhooks.recordAttempt({
      delivery_id: delivery.id,
      worker_id: workerId,
      attempt: {
        id: ctx.ids.next('att'),
        delivery_id: delivery.id,
        attempt,
        status_code: sent.status_code,
        duration_ms: sent.duration_ms,
        error: sent.error,
        succeeded: sent.succeeded,
        created_at: at,
      },
      status: next.status,
      next_attempt_at: next.next_attempt_at,
      at: recordedAt,
    });
    if (!recorded) return { outcome: 'lost', deactivated: null };
    const webhook = await tx.webhooks.recordOutcome(scope, delivery.webhook_id, sent.succeeded, recordedAt);
    let deactivated: string | null = null;
    if (
      webhook &&
      !sent.succeeded &&
      webhook.is_active &&
      webhook.consecutive_failures >= DEACTIVATION_THRESHOLD
    ) {
      await deactivate(tx, scope, webhook, recordedAt);
      deactivated = webhook.id;
    }
    return { outcome: sent.succeeded ? 'succeeded' : 'failed', deactivated };
  }

  const deliveryTakenOver = (id: string) =>
    new CommerceError(
      'invalid_state_transition',
      `Delivery '${id}' was sent, but its attempt could not be recorded: another sender took it over`,
    );

  /** How long a claim lasts by default: max(60 s, 2 × timeout + 10 s). */
  const defaultLeaseMs = () => Math.max(60_000, 2 * ctx.config.webhook_timeout_ms + 10_000);

  return {
    /**
     * `POST /v1/admin/webhooks/{id}/deliveries/{delivery_id}/retry`: re-sends one delivery of an
     * active webhook now, whatever its status, through the same attempt as the worker
     * (`deliverOne`): the attempt is counted (`attempt` + 1, also past the 5 automatic ones), a
     * failure adds to `consecutive_failures` (the 5th deactivates the webhook) and a success
     * resets them; the delivery becomes `succeeded`, or `pending` with the next automatic retry
     * of the schedule while attempts are left, else `failed`. The delivery is claimed under a
     * lease first (a worker cannot send it meanwhile; if this process dies, a worker takes it over
     * when the lease expires). Unknown webhook or a delivery of another webhook → 404; webhook
     * deactivated → 409 `invalid_state_transition` (re-activate it first); delivery being sent by
     * a worker right now → 409 `invalid_state_transition`. Returns the delivery as recorded.
     */
    async retry(scope: Scope, webhookId: string, deliveryId: string): Promise<WebhookDeliveryWire> {
      requireTransport(ctx);
      const workerId = `rty_${ctx.crypto.randomToken(12)}`;
      const claimed = await write(
        ctx,
        scope,
        async ({ tx, now }) => {
          const webhook = await tx.webhooks.get(scope, webhookId);
          if (!webhook) throw commerceErrors.notFound('webhook', webhookId);
          if (!(await tx.webhooks.getDelivery(scope, webhookId, deliveryId))) {
            throw commerceErrors.notFound('webhook delivery', deliveryId);
          }
          if (!webhook.is_active) {
            throw new CommerceError(
              'invalid_state_transition',
              `Webhook '${webhookId}' is deactivated: re-activate it (PATCH { "is_active": true }) before retrying its deliveries`,
            );
          }
          const claim = await tx.webhooks.claimDelivery({
            scope,
            webhook_id: webhookId,
            delivery_id: deliveryId,
            now,
            lease_ms: defaultLeaseMs(),
            worker_id: workerId,
          });
          if (!claim) {
            throw new CommerceError(
              'invalid_state_transition',
              `Delivery '${deliveryId}' is being sent right now; retry it once that attempt is recorded`,
            );
          }
          return claim;
        },
        { interim: true },
      );
      const { delivery } = await deliverOne(claimed, workerId, undefined, scope);
      if (delivery === null) throw deliveryTakenOver(deliveryId);
      return delivery;
    },

    /**
     * Fans out committed events, then claims and sends due deliveries once. Returns what it did.
     * Throws when no transport is configured, and (after every claimed delivery has settled) when
     * recording attempts failed.
     */
    async deliverDue(options: DeliverDueOptions = {}): Promise<DeliverDueResult> {
      requireTransport(ctx);
      const limit = Math.max(1, Math.floor(options.limit ?? 25));
      const workerId = options.workerId ?? engineWorkerId;
      const now = options.now ?? ctx.clock.now();
      const leaseMs = options.leaseMs ?? defaultLeaseMs();
      const result: DeliverDueResult = {
        dispatched: await fanOut(now, Math.max(limit, 100), options.signal),
        claimed: 0,
        succeeded: 0,
        failed: 0,
        lost: 0,
        released: 0,
        deactivated: [],
      };
      if (options.signal?.aborted) return result;

      const claimed = await ctx.storage.transaction((tx) =>
        tx.webhooks.claimDue({ now, limit, lease_ms: leaseMs, worker_id: workerId }),
      );
      result.claimed = claimed.length;
      const errors: unknown[] = [];
      const deactivatedIds = new Set<string>();
      /** Sends one claimed delivery (or gives it back); records errors instead of throwing. */
      const send = async (
        item: ClaimedDelivery,
      ): Promise<'succeeded' | 'failed' | 'lost' | 'released' | 'error'> => {
        try {
          if (options.signal?.aborted || deactivatedIds.has(item.delivery.webhook_id)) {
            await ctx.storage.transaction((tx) => tx.webhooks.releaseLease(item.delivery.id, workerId));
            result.released += 1;
            return 'released';
          }
          const { outcome, deactivated, report } = await deliverOne(item, workerId, options.now);
          result[outcome] += 1;
          options.onAttempt?.(report);
          if (deactivated) {
            deactivatedIds.add(deactivated);
            result.deactivated.push(deactivated);
          }
          return outcome;
        } catch (error) {
          errors.push(error);
          return 'error';
        }
      };
      // Webhooks in parallel. Within one webhook: its first delivery, then — if the endpoint
      // answered — the rest in parallel; if it failed, the rest one at a time, so the failure that
      // deactivates the webhook (docs/contract.md#webhook-delivery: at 5) is the last attempt sent to it.
      await Promise.all(
        [...byWebhook(claimed).values()].map(async ([first, ...rest]) => {
          if (first === undefined) return;
          if ((await send(first)) !== 'failed') {
            await Promise.all(rest.map(send));
            return;
          }
          for (const item of rest) await send(item);
        }),
      );
      if (errors.length > 0) {
        throw new AggregateError(errors, `${errors.length} webhook deliveries could not be recorded`);
      }
      return result;
    },
  };
}

export type WebhookDispatcher = ReturnType<typeof createWebhookDispatcher>;
