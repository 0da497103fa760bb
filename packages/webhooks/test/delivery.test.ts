import { createHmac } from 'node:crypto';
import { EVENT_TYPES, type Scope } from '@cartwright/core';
import { type EngineInternals as Engine, engineInternals, write } from '@cartwright/core/internal';
import type { WebhookTransport } from '@cartwright/core/providers';
import { SECRET_EVENT_TYPES } from '@cartwright/core/schemas';
import { afterAll, afterEach, beforeAll, describe, expect, test, vi } from 'vitest';
import { createNodeWebhookTransport } from '../src/node-webhook-transport';
import type { Resolver } from '../src/url-safety';
import { verifyStandardWebhook } from '../src/verify-webhook-signature';
import {
  type Backend,
  emitEvents,
  eventIdOf,
  HOUR,
  MINUTE,
  startEngine,
  type TestEngine,
} from './support/engine';
import { freshPostgresDatabase, POSTGRES_IN_RUN, stopPostgres } from './support/postgres';
import { type Receiver, startReceiver } from './support/receiver';

const cleanups: Array<() => Promise<void>> = [];
afterEach(async () => {
  for (const cleanup of cleanups.splice(0).reverse()) await cleanup();
});

async function engine(options: Parameters<typeof startEngine>[0] = {}): Promise<TestEngine> {
  const t = await startEngine({ backend, ...options });
  cleanups.push(t.close);
  return t;
}
async function receiver(...args: Parameters<typeof startReceiver>): Promise<Receiver> {
  const r = await startReceiver(...args);
  cleanups.push(r.close);
  return r;
}

const order = (n: number) => ({
  id: `ord_${n}`,
  number: 1000 + n,
  status: 'pending',
  total: { amount: 5500, currency: 'USD' },
});

async function createWebhook(e: Engine, scope: Scope, url: string, events: string[] = ['*']) {
  return e.webhooks.create(scope, { url, events: events as never, is_active: true, metadata: {} });
}

async function deliveriesOf(e: Engine, scope: Scope, webhookId: string) {
  return (await e.webhooks.listDeliveries(scope, webhookId, { limit: 100, sort: 'created_at', order: 'asc' }))
    .data;
}

// Real servers, real databases, two CPUs in CI: leave room for a busy machine.
vi.setConfig({ testTimeout: 30_000, hookTimeout: 120_000 });

const BACKENDS: readonly ('sqlite' | 'postgres')[] = POSTGRES_IN_RUN ? ['sqlite', 'postgres'] : ['sqlite'];
let backend: Backend = 'sqlite';
afterAll(() => stopPostgres(), 60_000);

describe.each(BACKENDS)('on %s', (name) => {
  beforeAll(async () => {
    backend = name;
    // Start the throwaway Postgres here, not inside the first test's time budget.
    if (name === 'postgres') await freshPostgresDatabase();
  }, 120_000);

  describe('retry schedule with a fake clock', () => {
    test('a failing delivery is attempted at 0, +5 min, +30 min, +2 h, +24 h, then failed', async () => {
      const { engine: e, scope, clock } = await engine();
      const r = await receiver(() => ({ status: 500 }));
      const webhook = await createWebhook(e, scope, `${r.url}/hook`, ['order.created']);
      const t0 = clock.now();
      await emitEvents(e, [{ scope, type: 'order.created', data: order(1) }]);

      const expected = [0, 5, 35, 155, 1595].map((m) => t0 + m * MINUTE);
      for (const [i, due] of expected.entries()) {
        if (i > 0) {
          clock.set(due - 1000);
          expect((await e.webhooks.deliverDue()).claimed).toBe(0);
        }
        clock.set(due);
        expect(await e.webhooks.deliverDue()).toMatchObject({ claimed: 1, failed: 1 });
        expect(r.receipts).toHaveLength(i + 1);
      }
      clock.advance(30 * 24 * HOUR);
      expect((await e.webhooks.deliverDue()).claimed).toBe(0);
      expect(r.receipts).toHaveLength(5);

      const [delivery] = await deliveriesOf(e, scope, webhook.id);
      expect(delivery).toMatchObject({
        status: 'failed',
        attempt: 5,
        status_code: 500,
        error: 'HTTP 500',
        next_retry_at: null,
      });
      expect(delivery?.attempts.map((a) => Date.parse(a.created_at))).toEqual(expected);
      expect(delivery?.attempts.map((a) => a.attempt)).toEqual([1, 2, 3, 4, 5]);
    });

    test('the deliveries list shows the next retry while one is scheduled', async () => {
      const { engine: e, scope, clock } = await engine();
      const r = await receiver(() => ({ status: 503 }));
      const webhook = await createWebhook(e, scope, r.url);
      await emitEvents(e, [{ scope, type: 'customer.created', data: { id: 'cus_1' } }]);
      await e.webhooks.deliverDue();
      const [delivery] = await deliveriesOf(e, scope, webhook.id);
      expect(delivery).toMatchObject({
        status: 'pending',
        attempt: 1,
        status_code: 503,
        event_type: 'customer.created',
        next_retry_at: new Date(clock.now() + 5 * MINUTE).toISOString(),
      });
      expect(delivery?.duration_ms).toBeGreaterThanOrEqual(0);
    });
  });

  describe('consecutive failures', () => {
    test('5 consecutive failures deactivate the webhook, cancel its pending deliveries and notify once', async () => {
      const { engine: e, scope, clock } = await engine();
      const r = await receiver(() => ({ status: 500 }));
      const webhook = await createWebhook(e, scope, r.url);
      await emitEvents(
        e,
        [1, 2, 3, 4, 5, 6].map((n) => ({ scope, type: 'order.created', data: order(n) })),
      );

      const result = await e.webhooks.deliverDue({ limit: 5 });
      expect(result).toMatchObject({ claimed: 5, failed: 5, deactivated: [webhook.id] });
      expect(await e.webhooks.get(scope, webhook.id)).toMatchObject({
        is_active: false,
        consecutive_failures: 5,
      });

      // Every delivery that was waiting (the sixth event's, and the five retries) is cancelled.
      const deliveries = await deliveriesOf(e, scope, webhook.id);
      expect(deliveries).toHaveLength(6);
      expect(deliveries.map((d) => d.status)).toEqual(Array(6).fill('cancelled'));

      // Nothing more is sent, not even for new events.
      await emitEvents(e, [{ scope, type: 'order.created', data: order(7) }]);
      clock.advance(3 * 24 * HOUR);
      expect(await e.webhooks.deliverDue()).toMatchObject({ claimed: 0 });
      expect(r.receipts).toHaveLength(5);
      expect(await deliveriesOf(e, scope, webhook.id)).toHaveLength(6);

      const notifications = await e.webhooks.listNotifications(scope, {
        limit: 10,
        sort: 'created_at',
        order: 'desc',
      });
      expect(notifications.total_count).toBe(1);
      expect(notifications.data[0]).toMatchObject({
        type: 'webhook.deactivated',
        data: { webhook_id: webhook.id, url: r.url },
      });
      expect(notifications.data[0]?.message).toContain(r.url);
    });

    test('6 deliveries claimed at once by a failing endpoint: 5 attempts, one at a time after the first failure; the 6th is never sent', async () => {
      const { engine: e, scope } = await engine();
      const r = await receiver(() => ({ status: 500 }));
      const webhook = await createWebhook(e, scope, r.url);
      await emitEvents(
        e,
        [1, 2, 3, 4, 5, 6].map((n) => ({ scope, type: 'order.created', data: order(n) })),
      );

      const result = await e.webhooks.deliverDue({ limit: 25 });
      expect(result).toMatchObject({ claimed: 6, failed: 5, released: 1, deactivated: [webhook.id] });
      expect(r.receipts).toHaveLength(5);
      expect(await e.webhooks.get(scope, webhook.id)).toMatchObject({
        is_active: false,
        consecutive_failures: 5,
      });
      const deliveries = await deliveriesOf(e, scope, webhook.id);
      expect(deliveries.map((d) => d.status)).toEqual(Array(6).fill('cancelled'));
    });

    test("a healthy endpoint gets a webhook's first delivery, then the others together", async () => {
      const { engine: e, scope } = await engine();
      const r = await receiver(() => ({ status: 200, delayMs: 150 }));
      await createWebhook(e, scope, r.url);
      await emitEvents(
        e,
        [1, 2, 3, 4].map((n) => ({ scope, type: 'order.created', data: order(n) })),
      );
      expect(await e.webhooks.deliverDue()).toMatchObject({ claimed: 4, succeeded: 4 });
      const at = r.receipts.map((receipt) => receipt.at);
      expect(at).toHaveLength(4);
      // The first answer takes 150 ms; the other three arrive together after it, not 150 ms apart.
      expect((at[1] ?? 0) - (at[0] ?? 0)).toBeGreaterThanOrEqual(140);
      expect(Math.max(...at.slice(1)) - Math.min(...at.slice(1))).toBeLessThan(250); // one at a time: ≥ 300
    });

    test('a success resets the count; failures across deliveries add up', async () => {
      const { engine: e, scope, clock } = await engine();
      const r = await receiver(() => ({ status: 500 }));
      const webhook = await createWebhook(e, scope, r.url);
      await emitEvents(
        e,
        [1, 2, 3, 4].map((n) => ({ scope, type: 'order.created', data: order(n) })),
      );
      await e.webhooks.deliverDue();
      expect((await e.webhooks.get(scope, webhook.id)).consecutive_failures).toBe(4);

      r.respondWith(() => ({ status: 200 }));
      await emitEvents(e, [{ scope, type: 'order.created', data: order(5) }]);
      expect(await e.webhooks.deliverDue()).toMatchObject({ claimed: 1, succeeded: 1 });
      expect(await e.webhooks.get(scope, webhook.id)).toMatchObject({
        is_active: true,
        consecutive_failures: 0,
      });

      // The four retries, due in 5 minutes, still go out and succeed.
      clock.advance(5 * MINUTE);
      expect(await e.webhooks.deliverDue()).toMatchObject({ claimed: 4, succeeded: 4 });
      const statuses = (await deliveriesOf(e, scope, webhook.id)).map((d) => d.status);
      expect(statuses).toEqual(Array(5).fill('succeeded'));
    });

    test('re-activating by PATCH resets the count and delivers new events again', async () => {
      const { engine: e, scope } = await engine();
      const r = await receiver(() => ({ status: 500 }));
      const webhook = await createWebhook(e, scope, r.url);
      await emitEvents(
        e,
        [1, 2, 3, 4, 5].map((n) => ({ scope, type: 'order.created', data: order(n) })),
      );
      await e.webhooks.deliverDue();
      expect(await e.webhooks.get(scope, webhook.id)).toMatchObject({
        is_active: false,
        consecutive_failures: 5,
      });

      // PATCH without is_active keeps it inactive and the count as is.
      expect(await e.webhooks.update(scope, webhook.id, { metadata: { team: 'ops' } })).toMatchObject({
        is_active: false,
        consecutive_failures: 5,
      });
      expect(await e.webhooks.update(scope, webhook.id, { is_active: true })).toMatchObject({
        is_active: true,
        consecutive_failures: 0,
        metadata: { team: 'ops' },
      });
      r.respondWith(() => ({ status: 200 }));
      await emitEvents(e, [{ scope, type: 'order.created', data: order(6) }]);
      expect(await e.webhooks.deliverDue()).toMatchObject({ claimed: 1, succeeded: 1 });
      expect(eventIdOf(r.receipts.at(-1)?.body ?? '{}')).toMatch(/^evt_/);
    });

    test('deactivating by PATCH cancels pending deliveries', async () => {
      const { engine: e, scope, clock } = await engine();
      const r = await receiver(() => ({ status: 500 }));
      const webhook = await createWebhook(e, scope, r.url);
      await emitEvents(e, [{ scope, type: 'order.created', data: order(1) }]);
      await e.webhooks.deliverDue();
      await e.webhooks.update(scope, webhook.id, { is_active: false });
      expect((await deliveriesOf(e, scope, webhook.id)).map((d) => d.status)).toEqual(['cancelled']);
      clock.advance(HOUR);
      expect((await e.webhooks.deliverDue()).claimed).toBe(0);
    });
  });

  describe('what is sent', () => {
    test('signature, id and timestamp headers; the body verifies with node:crypto and the whole secret', async () => {
      const { engine: e, scope, clock } = await engine();
      const r = await receiver(() => ({ status: 200 }));
      const webhook = await createWebhook(e, scope, `${r.url}/in`);
      // whsec_ + standard base64 of 32 random bytes (docs/contract.md#standard-webhooks).
      expect(webhook.secret).toMatch(/^whsec_[A-Za-z0-9+/]{43}=$/);
      expect(Buffer.from((webhook.secret as string).slice(6), 'base64')).toHaveLength(32);
      await emitEvents(e, [{ scope, type: 'order.created', data: order(1) }]);
      await e.webhooks.deliverDue();

      const [got] = r.receipts;
      expect(got?.method).toBe('POST');
      expect(got?.url).toBe('/in');
      expect(got?.headers['content-type']).toBe('application/json');
      const expected = createHmac('sha256', webhook.secret as string)
        .update(got?.body ?? '')
        .digest('hex');
      expect(got?.headers['x-webhook-signature']).toBe(expected);
      expect(got?.headers['x-webhook-id']).toBe(eventIdOf(got?.body ?? '{}'));
      expect(got?.headers['x-webhook-timestamp']).toBe(String(Math.floor(clock.now() / 1000)));
      // The Standard Webhooks headers (docs/contract.md#standard-webhooks) beside them.
      expect(got?.headers['webhook-id']).toBe(got?.headers['x-webhook-id']);
      expect(got?.headers['webhook-timestamp']).toBe(got?.headers['x-webhook-timestamp']);
      const standard = createHmac('sha256', Buffer.from((webhook.secret as string).slice(6), 'base64'))
        .update(`${got?.headers['webhook-id']}.${got?.headers['webhook-timestamp']}.${got?.body}`)
        .digest('base64');
      expect(got?.headers['webhook-signature']).toBe(`v1,${standard}`);
      expect(
        verifyStandardWebhook(got?.body ?? '', got?.headers ?? {}, webhook.secret as string, {
          now: clock.now(),
        }),
      ).toBe(true);
    });

    test('every attempt of a delivery sends the same bytes, signature and event id', async () => {
      const { engine: e, scope, clock } = await engine();
      const r = await receiver(() => ({ status: 500 }));
      await createWebhook(e, scope, r.url);
      await emitEvents(e, [{ scope, type: 'order.created', data: order(1) }]);
      await e.webhooks.deliverDue();
      r.respondWith(() => ({ status: 200 }));
      clock.advance(5 * MINUTE);
      await e.webhooks.deliverDue();
      const [first, second] = r.receipts;
      expect(second?.body).toBe(first?.body);
      expect(second?.headers['x-webhook-signature']).toBe(first?.headers['x-webhook-signature']);
      expect(second?.headers['x-webhook-id']).toBe(first?.headers['x-webhook-id']);
      expect(
        Number(second?.headers['x-webhook-timestamp']) - Number(first?.headers['x-webhook-timestamp']),
      ).toBe(300);
    });

    test('the payload is { id, type, created_at, data, store_id } for every event type', async () => {
      const { engine: e, scope, clock } = await engine();
      const r = await receiver();
      // `*` receives every type but the secret one; a webhook that names it receives that too.
      await createWebhook(e, scope, r.url, ['*']);
      const secret = await receiver();
      await createWebhook(e, scope, secret.url, [...SECRET_EVENT_TYPES]);
      const events = EVENT_TYPES.map((type, i) => ({
        scope,
        type,
        data: type.startsWith('order.') ? order(i) : { id: `res_${i}`, kind: type.split('.')[0] ?? '' },
      }));
      await emitEvents(e, events);
      const open = EVENT_TYPES.filter((type) => !(SECRET_EVENT_TYPES as readonly string[]).includes(type));
      expect(await e.webhooks.deliverDue({ limit: 50 })).toMatchObject({
        succeeded: open.length + SECRET_EVENT_TYPES.length,
      });
      expect(secret.receipts.map((receipt) => JSON.parse(receipt.body).type)).toEqual([
        ...SECRET_EVENT_TYPES,
      ]);
      expect(r.receipts.map((receipt) => JSON.parse(receipt.body).type).sort()).toEqual([...open].sort());

      const bodies = r.receipts.map((receipt) => JSON.parse(receipt.body) as Record<string, unknown>);
      for (const body of bodies) {
        expect(Object.keys(body)).toEqual(['id', 'type', 'created_at', 'data', 'store_id']);
        expect(body.id).toMatch(/^evt_/);
        expect(body.store_id).toBe(scope.store_id);
        expect(body.created_at).toBe(new Date(clock.now()).toISOString());
        const emitted = events.find((event) => event.type === body.type);
        expect(body.data).toEqual(emitted?.data);
        if (String(body.type).startsWith('order.')) {
          expect(body.data).toMatchObject({
            id: expect.any(String),
            number: expect.any(Number),
            status: 'pending',
            total: { amount: 5500, currency: 'USD' },
          });
        }
      }
    });

    test('a product created through the engine is delivered as product.created with the product', async () => {
      const { engine: e, scope } = await engine();
      const r = await receiver();
      await createWebhook(e, scope, r.url, ['product.created']);
      const product = await e.products.create(scope, {
        name: 'Webhook Tee',
        type: 'physical',
        status: 'active',
        tags: [],
        attributes: {},
        metadata: {},
        images: [],
        options: [],
        variants: [],
      } as never);
      await e.webhooks.deliverDue();
      expect(r.receipts).toHaveLength(1);
      const body = JSON.parse(r.receipts[0]?.body ?? '{}');
      expect(body).toMatchObject({ type: 'product.created', data: { id: product.id, name: 'Webhook Tee' } });
    });
  });

  describe('fan-out', () => {
    test('one delivery per event and subscribed active webhook of the same store and mode', async () => {
      const { engine: e, scope, liveScope } = await engine();
      const [a, b, c, d, live] = await Promise.all([
        receiver(),
        receiver(),
        receiver(),
        receiver(),
        receiver(),
      ]);
      await createWebhook(e, scope, a.url, ['order.created']);
      await createWebhook(e, scope, b.url, ['*']);
      await createWebhook(e, scope, c.url, ['product.created']);
      const inactive = await createWebhook(e, scope, d.url, ['*']);
      await e.webhooks.update(scope, inactive.id, { is_active: false });
      await createWebhook(e, liveScope, live.url, ['*']);

      await emitEvents(
        e,
        [1, 2, 3].map((n) => ({ scope, type: 'order.created', data: order(n) })),
      );
      await e.webhooks.deliverDue();
      await e.webhooks.deliverDue();

      const ids = (rc: Receiver) => rc.receipts.map((x) => x.headers['x-webhook-id']).sort();
      expect(a.receipts).toHaveLength(3);
      expect(new Set(ids(a)).size).toBe(3);
      expect(ids(b)).toEqual(ids(a));
      expect(c.receipts).toHaveLength(0);
      expect(d.receipts).toHaveLength(0);
      expect(live.receipts).toHaveLength(0);

      await emitEvents(e, [{ scope: liveScope, type: 'order.created', data: order(9) }]);
      await e.webhooks.deliverDue();
      expect(live.receipts).toHaveLength(1);
      expect(a.receipts).toHaveLength(3);
    });

    test('events of a transaction that rolled back are never sent', async () => {
      const { engine: e, scope } = await engine();
      const r = await receiver();
      await createWebhook(e, scope, r.url);
      await expect(
        write(e.context, null, async ({ emit }) => {
          emit(scope, 'order.created', order(1) as never);
          throw new Error('boom after emit');
        }),
      ).rejects.toThrow('boom after emit');
      expect(await e.webhooks.deliverDue()).toMatchObject({ dispatched: 0, claimed: 0 });
      expect(r.receipts).toHaveLength(0);

      await emitEvents(e, [{ scope, type: 'order.created', data: order(2) }]);
      expect(await e.webhooks.deliverDue()).toMatchObject({ dispatched: 1, succeeded: 1 });
      expect(JSON.parse(r.receipts[0]?.body ?? '{}').data.id).toBe('ord_2');
    });

    test('a deleted webhook gets nothing more', async () => {
      const { engine: e, scope, clock } = await engine();
      const r = await receiver(() => ({ status: 500 }));
      const webhook = await createWebhook(e, scope, r.url);
      await emitEvents(e, [{ scope, type: 'order.created', data: order(1) }]);
      await e.webhooks.deliverDue();
      expect(await e.webhooks.delete(scope, webhook.id)).toEqual({ id: webhook.id, deleted: true });
      await emitEvents(e, [{ scope, type: 'order.created', data: order(2) }]);
      clock.advance(HOUR);
      expect(await e.webhooks.deliverDue()).toMatchObject({ claimed: 0 });
      expect(r.receipts).toHaveLength(1);
    });
  });

  describe('at-least-once', () => {
    test('a worker that dies mid-delivery: its lease expires and another worker sends again', async () => {
      const first = await engine();
      const r = await receiver();
      const webhook = await createWebhook(first.engine, first.scope, r.url);
      await emitEvents(first.engine, [{ scope: first.scope, type: 'order.created', data: order(1) }]);

      // Worker A sends the request, then hangs forever (as a process killed before it could record).
      const real = createNodeWebhookTransport({ allowPrivate: true });
      let unblock: () => void = () => undefined;
      const hanging: WebhookTransport = {
        async send(request) {
          const result = await real.send(request);
          await new Promise<void>((resolve) => {
            unblock = resolve;
          });
          return result;
        },
      };
      const a = await engine({ storage: first.storage, clock: first.clock, webhookTransport: hanging });
      const runA = a.engine.webhooks.deliverDue({ workerId: 'worker-a' });
      await waitFor(() => r.receipts.length === 1);

      // Before the lease expires nobody else takes it; after, worker B does.
      first.clock.advance(30_000);
      expect((await first.engine.webhooks.deliverDue({ workerId: 'worker-b' })).claimed).toBe(0);
      first.clock.advance(31_000);
      expect(await first.engine.webhooks.deliverDue({ workerId: 'worker-b' })).toMatchObject({
        claimed: 1,
        succeeded: 1,
      });
      expect(r.receipts).toHaveLength(2);
      expect(r.receipts[1]?.body).toBe(r.receipts[0]?.body);
      expect(r.receipts[1]?.headers['x-webhook-id']).toBe(r.receipts[0]?.headers['x-webhook-id']);

      // Worker A comes back: its attempt is not recorded, the lease was lost.
      unblock();
      expect(await runA).toMatchObject({ claimed: 1, lost: 1, succeeded: 0 });
      const [delivery] = await deliveriesOf(first.engine, first.scope, webhook.id);
      expect(delivery).toMatchObject({ status: 'succeeded', attempt: 1 });
      expect(delivery?.attempts).toHaveLength(1);
    });
  });

  describe('transport rules at delivery', () => {
    test('a redirect is a failure and is not followed', async () => {
      const { engine: e, scope } = await engine();
      const target = await receiver();
      const r = await receiver(() => ({ status: 301, headers: { location: target.url } }));
      const webhook = await createWebhook(e, scope, r.url);
      await emitEvents(e, [{ scope, type: 'order.created', data: order(1) }]);
      expect(await e.webhooks.deliverDue()).toMatchObject({ failed: 1 });
      expect(target.receipts).toHaveLength(0);
      expect((await deliveriesOf(e, scope, webhook.id))[0]).toMatchObject({
        status_code: 301,
        error: 'HTTP 301: redirects are not followed',
      });
    });

    test('a target slower than webhook_timeout_ms fails the attempt', async () => {
      const { engine: e, scope } = await engine({ config: { webhook_timeout_ms: 200 } });
      const r = await receiver(() => ({ status: 200, delayMs: 1500 }));
      const webhook = await createWebhook(e, scope, r.url);
      await emitEvents(e, [{ scope, type: 'order.created', data: order(1) }]);
      const started = Date.now();
      expect(await e.webhooks.deliverDue()).toMatchObject({ failed: 1 });
      expect(Date.now() - started).toBeLessThan(1200);
      expect((await deliveriesOf(e, scope, webhook.id))[0]).toMatchObject({
        status: 'pending',
        status_code: null,
        error: 'timed out after 200 ms',
      });
    });

    test('the default timeout is 10 s', async () => {
      const { engine: e } = await engine();
      expect(e.context.config.webhook_timeout_ms).toBe(10_000);
    });

    test('localhost is refused at delivery once private targets are no longer allowed', async () => {
      const permissive = await engine();
      const r = await receiver();
      const webhook = await createWebhook(permissive.engine, permissive.scope, `http://localhost:${r.port}/`);
      await emitEvents(permissive.engine, [
        { scope: permissive.scope, type: 'order.created', data: order(1) },
      ]);
      const strict = await engine({
        storage: permissive.storage,
        clock: permissive.clock,
        webhookTransport: createNodeWebhookTransport(),
        config: { allow_private_webhooks: false },
      });
      expect(await strict.engine.webhooks.deliverDue()).toMatchObject({ failed: 1 });
      expect(r.receipts).toHaveLength(0);
      expect((await deliveriesOf(strict.engine, strict.scope, webhook.id))[0]?.error).toMatch(
        /^url_not_allowed: local host name localhost/,
      );
    });

    test('a host name that resolves to 127.0.0.1 only at delivery time is refused then (DNS rebinding)', async () => {
      let answer = '93.184.216.34';
      const resolve: Resolver = async () => [{ address: answer, family: 4 }];
      const { engine: e, scope } = await engine({
        webhookTransport: createNodeWebhookTransport({ resolve }),
        config: { allow_private_webhooks: false },
      });
      const r = await receiver();
      const webhook = await createWebhook(e, scope, `http://hooks.rebind.example:${r.port}/`);
      answer = '127.0.0.1';
      await emitEvents(e, [{ scope, type: 'order.created', data: order(1) }]);
      expect(await e.webhooks.deliverDue()).toMatchObject({ failed: 1 });
      expect(r.receipts).toHaveLength(0);
      expect((await deliveriesOf(e, scope, webhook.id))[0]?.error).toContain(
        'resolves to a loopback address 127.0.0.1',
      );
    });

    test('without a transport, delivering throws a clear error', async () => {
      const noTransport = await startEngineWithoutTransport();
      await expect(noTransport.webhooks.deliverDue()).rejects.toThrow(/No webhook transport is configured/);
      expect(() => noTransport.webhooks.startWorker()).toThrow(/No webhook transport is configured/);
    });
  });

  describe('startWorker', () => {
    test('delivers in the background; stop() waits for the attempt in flight and then nothing more is sent', async () => {
      const { engine: e, scope } = await engine();
      const r = await receiver(() => ({ status: 200, delayMs: 300 }));
      const webhook = await createWebhook(e, scope, r.url);
      const worker = e.webhooks.startWorker({ intervalMs: 20, workerId: 'bg' });
      await emitEvents(e, [{ scope, type: 'order.created', data: order(1) }]);
      await waitFor(() => r.receipts.length === 1);
      await worker.stop();
      // The attempt that was in flight when stop() was called is recorded.
      expect((await deliveriesOf(e, scope, webhook.id))[0]).toMatchObject({
        status: 'succeeded',
        attempt: 1,
      });
      await emitEvents(e, [{ scope, type: 'order.created', data: order(2) }]);
      await new Promise((resolve) => setTimeout(resolve, 100));
      expect(r.receipts).toHaveLength(1);
    });

    test('reports batch errors to onError and keeps going', async () => {
      const { engine: e, scope } = await engine();
      const r = await receiver();
      await createWebhook(e, scope, r.url);
      await emitEvents(e, [{ scope, type: 'order.created', data: order(1) }]);
      const storage = e.context.storage;
      const original = storage.transaction.bind(storage);
      let failures = 2;
      storage.transaction = ((fn: Parameters<typeof original>[0]) => {
        if (failures > 0) {
          failures -= 1;
          return Promise.reject(new Error('database unavailable'));
        }
        return original(fn);
      }) as typeof original;
      const errors: unknown[] = [];
      const worker = e.webhooks.startWorker({ intervalMs: 10, onError: (error) => errors.push(error) });
      await waitFor(() => r.receipts.length === 1);
      await worker.stop();
      storage.transaction = original;
      expect(errors.map((error) => (error as Error).message)).toEqual([
        'database unavailable',
        'database unavailable',
      ]);
    });
  });
});

async function startEngineWithoutTransport() {
  const { createEngine } = await import('@cartwright/core');
  const { sqliteStorage } = await import('@cartwright/storage-kysely/sqlite');
  const e = engineInternals(await createEngine({ storage: sqliteStorage({ filename: ':memory:' }) }));
  cleanups.push(() => e.close());
  return e;
}

async function waitFor(condition: () => boolean, timeoutMs = 5000): Promise<void> {
  const started = Date.now();
  while (!condition()) {
    if (Date.now() - started > timeoutMs) throw new Error('timed out waiting');
    await new Promise((resolve) => setTimeout(resolve, 10));
  }
}
