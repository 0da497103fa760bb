import type { EventPayloadWire } from '../events/schemas';
import type { PageRequest, Patch, Scope, WebhookRecord } from '../ports/storage';
import type { ServiceContext } from '../shared/context';
import { CommerceError, errors } from '../shared/errors';
import { read, write } from '../shared/unit-of-work';
import { iso } from '../shared/wire-format';
import { sampleEventData } from './sample-payloads';
import type { WebhookCreate, WebhookTest, WebhookTestResult, WebhookUpdate } from './schemas';
import { defaultTestEventType, eventsSinceAfterChange } from './subscriptions';
import { createWebhookDispatcher, type DeliverDueOptions } from './webhook-dispatcher';
import { requireTransport, sendSigned } from './webhook-sender';
import { secretFromToken, signingSecrets } from './webhook-signing';
import { startWebhookWorker, type WebhookWorkerOptions } from './webhook-worker';
import { notificationToWire, webhookDeliveryToWire, webhookToWire } from './wire';

/**
 * `whsec_` + standard base64 of 32 random bytes (docs/contract.md#standard-webhooks; what Standard Webhooks
 * verifiers decode). Webhooks created earlier keep their `whsec_` + 43 URL-safe characters until
 * rotated (see `standardWebhookKey`).
 */
function generateSecret(ctx: ServiceContext): string {
  return secretFromToken(ctx.crypto.randomToken(32));
}

/** How long the previous secret keeps signing after a rotation (docs/contract.md#standard-webhooks). */
export const SECRET_ROTATION_OVERLAP_MS = 24 * 60 * 60 * 1000;

/**
 * Webhooks (docs/contract.md#webhooks), per store and mode: CRUD with the secret shown once,
 * delivery history, test deliveries, dashboard notifications, and the sender (`deliverDue` for
 * cron/serverless hosts, `startWorker` for a long-running process).
 *
 * URL safety: unless `allow_private_webhooks`, a URL is checked on create and on every URL change
 * by the transport's `checkUrl` (422 `url_not_allowed`), and again by the transport at every
 * delivery. Without a transport nothing can be delivered, so only the URL syntax is checked then.
 */
export function createWebhookService(ctx: ServiceContext) {
  const dispatcher = createWebhookDispatcher(ctx);

  async function assertUrlAllowed(url: string): Promise<void> {
    if (ctx.config.allow_private_webhooks) return;
    const check = await ctx.webhookTransport?.checkUrl?.(url);
    if (check && !check.allowed) {
      throw new CommerceError(
        'url_not_allowed',
        `url must not target loopback, private, link-local or metadata addresses: ${check.reason}`,
        { param: 'url' },
      );
    }
  }

  const notFound = (id: string) => errors.notFound('webhook', id);

  return {
    /** Registers a webhook; the response is the only one that shows its `secret`. */
    async create(scope: Scope, input: WebhookCreate) {
      await assertUrlAllowed(input.url);
      const secret = generateSecret(ctx);
      return write(ctx, scope, async ({ tx, now }) => {
        const record: WebhookRecord = {
          id: ctx.ids.next('wh'),
          store_id: scope.store_id,
          mode: scope.mode,
          url: input.url,
          events: [...input.events],
          // Every type counts from `created_at` (docs/contract.md#webhook-subscriptions: only events created after it).
          events_since: {},
          secret,
          previous_secret: null,
          previous_secret_expires_at: null,
          // Created inactive (`is_active: false`), it receives nothing until re-activated; `update`
          // then counts its subscriptions from that moment.
          is_active: input.is_active,
          consecutive_failures: 0,
          metadata: input.metadata,
          created_at: now,
          updated_at: now,
        };
        await tx.webhooks.insert(record);
        return webhookToWire(record, secret);
      });
    },

    async list(scope: Scope, page: PageRequest<'created_at'>) {
      const result = await read(ctx, (tx) => tx.webhooks.list(scope, page));
      return { ...result, data: result.data.map((record) => webhookToWire(record)) };
    },

    async get(scope: Scope, id: string) {
      const record = await read(ctx, (tx) => tx.webhooks.get(scope, id));
      if (!record) throw notFound(id);
      return webhookToWire(record);
    },

    /**
     * Changes `url`, `events`, `is_active`, `metadata` (replaced whole). An event type added to
     * `events` is received for events created from now on (`eventsSinceAfterChange`,
     * docs/contract.md#webhook-subscriptions); types kept keep their time. Re-activating an inactive webhook resets
     * `consecutive_failures` to 0 and receives events created from then on; deactivating it
     * cancels its pending deliveries (events raised while it is inactive are not delivered to it
     * later).
     */
    async update(scope: Scope, id: string, input: WebhookUpdate) {
      if (input.url !== undefined) await assertUrlAllowed(input.url);
      return write(ctx, scope, async ({ tx, now }) => {
        const current = await tx.webhooks.get(scope, id);
        if (!current) throw notFound(id);
        const patch: Patch<
          WebhookRecord,
          'url' | 'events' | 'events_since' | 'is_active' | 'consecutive_failures' | 'metadata'
        > = {
          updated_at: now,
        };
        if (input.url !== undefined) patch.url = input.url;
        if (input.events !== undefined) {
          patch.events = [...input.events];
          patch.events_since = eventsSinceAfterChange(current, input.events, now);
        }
        if (input.metadata !== undefined) patch.metadata = input.metadata;
        if (input.is_active !== undefined) {
          patch.is_active = input.is_active;
          if (input.is_active && !current.is_active) {
            patch.consecutive_failures = 0;
            // Events raised while it was inactive are not delivered to it later: every type it
            // receives counts from now.
            patch.events_since = eventsSinceAfterChange(
              { events: [], events_since: {}, created_at: current.created_at },
              patch.events ?? current.events,
              now,
            );
          }
        }
        const updated = await tx.webhooks.update(scope, id, patch);
        if (!updated) throw notFound(id);
        if (input.is_active === false && current.is_active) {
          await tx.webhooks.cancelPendingDeliveries(scope, id, now);
        }
        return webhookToWire(updated);
      });
    },

    /** Deletes the webhook; its pending deliveries are cancelled. */
    async delete(scope: Scope, id: string) {
      return write(ctx, scope, async ({ tx, now }) => {
        if (!(await tx.webhooks.get(scope, id))) throw notFound(id);
        await tx.webhooks.cancelPendingDeliveries(scope, id, now);
        if (!(await tx.webhooks.delete(scope, id, now))) throw notFound(id);
        return { id, deleted: true as const };
      });
    },

    /**
     * `POST /v1/admin/webhooks/{id}/rotate-secret`: a new secret, shown once in the response (as
     * on create). The previous one keeps signing alongside it for 24 h (two `v1,` entries in
     * `webhook-signature`); `X-Webhook-Signature` uses the new one at once. Rotating again within
     * the 24 h drops the oldest: only the current and one previous secret are kept. With an
     * `Idempotency-Key` the response (with its secret) is stored with the change, so a replay
     * returns the same secret.
     */
    async rotateSecret(scope: Scope, id: string) {
      const secret = generateSecret(ctx);
      const answer = (record: WebhookRecord | null) => {
        if (!record) throw notFound(id);
        return webhookToWire(record, secret);
      };
      const rotated = await write(
        ctx,
        scope,
        ({ tx, now }) =>
          tx.webhooks.rotateSecret(scope, id, {
            secret,
            previous_secret_expires_at: now + SECRET_ROTATION_OVERLAP_MS,
            at: now,
          }),
        { answer },
      );
      return answer(rotated);
    },

    /**
     * Re-sends one delivery now, counted like any attempt (see `WebhookDispatcher.retry` for the
     * rules: 404 for a delivery of another webhook, 409 while the webhook is deactivated).
     */
    retryDelivery(scope: Scope, id: string, deliveryId: string) {
      return dispatcher.retry(scope, id, deliveryId);
    },

    /** The webhook's deliveries, newest first, each with its attempts. */
    async listDeliveries(scope: Scope, id: string, page: PageRequest<'created_at'>) {
      const result = await read(ctx, async (tx) => {
        if (!(await tx.webhooks.get(scope, id))) throw notFound(id);
        return tx.webhooks.listDeliveries(scope, id, page);
      });
      return { ...result, data: result.data.map(webhookDeliveryToWire) };
    },

    /**
     * Sends one signed sample event of `event_type` (default: the webhook's first subscribed type,
     * `order.created` for `["*"]`, decisions §22) to the webhook's URL now (active or not) and
     * reports the outcome. Nothing is recorded: it neither counts toward failures nor resets them.
     * Signed like any delivery (both secrets during a rotation overlap); its `webhook-id` /
     * `X-Webhook-Id` is the sample event's own `evt_` id, new for every test send.
     */
    async test(scope: Scope, id: string, input: WebhookTest): Promise<WebhookTestResult> {
      const transport = requireTransport(ctx);
      const { webhook, store } = await read(ctx, async (tx) => ({
        webhook: await tx.webhooks.get(scope, id),
        store: await tx.stores.get(scope.store_id),
      }));
      if (!webhook) throw notFound(id);
      const type = input.event_type ?? defaultTestEventType(webhook.events);
      const now = ctx.clock.now();
      const event: EventPayloadWire = {
        id: ctx.ids.next('evt'),
        type,
        created_at: iso(now),
        data: sampleEventData(type, {
          currency: store?.currency ?? ctx.config.default_currency,
          now,
          ids: ctx.ids,
        }) as EventPayloadWire['data'],
        store_id: scope.store_id,
      };
      const [current, ...previous] = signingSecrets(webhook, now);
      const outcome = await sendSigned(ctx, transport, {
        url: webhook.url,
        secrets: [current as string, ...previous],
        payload: JSON.stringify(event),
        event_id: event.id,
        at: now,
      });
      return {
        success: outcome.succeeded,
        status_code: outcome.status_code,
        response_time_ms: outcome.duration_ms,
      };
    },

    /** Dashboard notifications of this store and mode (e.g. `webhook.deactivated`), newest first. */
    async listNotifications(scope: Scope, page: PageRequest<'created_at'>) {
      const result = await read(ctx, (tx) => tx.notifications.list(scope, page));
      return { ...result, data: result.data.map(notificationToWire) };
    },

    /**
     * One round of delivery, for cron jobs and serverless hosts: fans out committed events, then
     * claims, sends and records due deliveries (see `createWebhookDispatcher`).
     */
    deliverDue(options: DeliverDueOptions = {}) {
      return dispatcher.deliverDue(options);
    },

    /** Starts the in-process delivery loop; `stop()` finishes or releases what is in flight. */
    startWorker(options: WebhookWorkerOptions = {}) {
      requireTransport(ctx);
      return startWebhookWorker((o) => dispatcher.deliverDue(o), options);
    },
  };
}

export type WebhookService = ReturnType<typeof createWebhookService>;
export type { DeliverDueOptions, DeliverDueResult, WebhookAttemptReport } from './webhook-dispatcher';
export type { WebhookWorker, WebhookWorkerOptions } from './webhook-worker';
