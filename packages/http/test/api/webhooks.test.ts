import { createHmac } from 'node:crypto';
import { createServer, type IncomingHttpHeaders, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import type { EventType, Scope } from '@cartwright/core';
import { write } from '@cartwright/core/internal';
import type { Clock } from '@cartwright/core/providers';
import type { Resolver } from '@cartwright/webhooks';
// The transport lives in @cartwright/webhooks, which is not (yet) a devDependency of this package.
import { createNodeWebhookTransport } from '@cartwright/webhooks';
import { afterAll, beforeEach, expect, test } from 'vitest';
import { describeApi, type TestApi } from './support/harness';

/**
 * Webhooks over real HTTP (docs/contract.md#webhooks): CRUD with the secret shown once, the
 * deliveries and notifications lists, test deliveries to real receivers on 127.0.0.1, isolation by
 * mode and key kind, and the SSRF rules at creation (422 `url_not_allowed`). The delivery engine
 * itself (schedule, deactivation, concurrency) is tested in packages/webhooks/test.
 */

// ---------------------------------------------------------------- receivers

interface Receipt {
  headers: IncomingHttpHeaders;
  body: string;
}

interface Receiver {
  url: string;
  port: number;
  receipts: Receipt[];
  status: number;
}

const servers: Server[] = [];
afterAll(async () => {
  for (const server of servers) {
    server.closeAllConnections();
    await new Promise<void>((resolve) => server.close(() => resolve()));
  }
});

/** A real receiver on 127.0.0.1 answering `status` (changeable) and recording raw bodies. */
async function startReceiver(status = 200): Promise<Receiver> {
  const receiver: Receiver = { url: '', port: 0, receipts: [], status };
  const server = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (chunk: Buffer) => chunks.push(chunk));
    req.on('end', () => {
      receiver.receipts.push({ headers: req.headers, body: Buffer.concat(chunks).toString('utf8') });
      res.writeHead(receiver.status).end();
    });
  });
  servers.push(server);
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  receiver.port = (server.address() as AddressInfo).port;
  receiver.url = `http://127.0.0.1:${receiver.port}/hooks`;
  return receiver;
}

/** A clock the tests move; one second passes before each test so list order is by creation. */
function manualClock(): Clock & { advance(ms: number): void } {
  let now = Date.UTC(2024, 5, 1, 8, 0, 0);
  return { now: () => now, advance: (ms) => (now += ms) };
}

const sign = (secret: string, body: string) => createHmac('sha256', secret).update(body).digest('hex');

async function createWebhook(api: TestApi, body: Record<string, unknown>, key?: string) {
  const r = await api.post('/v1/admin/webhooks', { events: ['*'], ...body }, key ? { key } : {});
  expect(r.status, JSON.stringify(r.body)).toBe(200);
  return r.body as { id: string; url: string; secret: string; events: string[]; [key: string]: unknown };
}

async function emit(api: TestApi, scope: Scope, type: string, data: Record<string, unknown>, count = 1) {
  await write(api.engine.context, null, async ({ emit: raise }) => {
    for (let i = 0; i < count; i++) raise(scope, type as EventType, { ...data, n: i } as never);
  });
}

/**
 * Deactivates every webhook of the test mode (which cancels their pending deliveries), so that a
 * delivery test sees only the webhook it creates next.
 */
async function isolate(api: TestApi) {
  const list = await api.get('/v1/admin/webhooks?limit=100');
  for (const webhook of list.body.data as Array<{ id: string; is_active: boolean }>) {
    if (webhook.is_active) await api.patch(`/v1/admin/webhooks/${webhook.id}`, { is_active: false });
  }
}

interface ErrorBody {
  error: { code: string; param?: string };
}

function expectError(r: { status: number; body: unknown }, status: number, code: string, param?: string) {
  expect(r.status, JSON.stringify(r.body)).toBe(status);
  const body = r.body as ErrorBody;
  expect(body.error.code).toBe(code);
  if (param !== undefined) expect(body.error.param).toBe(param);
}

// ---------------------------------------------------------------- the API, private targets allowed

const clock = manualClock();

describeApi(
  'webhooks',
  (api) => {
    beforeEach(() => clock.advance(1000));

    test('POST creates a webhook and shows its whsec_ secret once; GET shows secret null', async () => {
      const r = await api().post('/v1/admin/webhooks', {
        url: 'https://hooks.example.com/cartwright',
        events: ['order.created', 'payment.created', 'customer.updated'],
        metadata: { team: 'ops' },
      });
      expect(r.status, JSON.stringify(r.body)).toBe(200);
      expect(r.body).toEqual({
        id: expect.stringMatching(/^wh_/),
        url: 'https://hooks.example.com/cartwright',
        events: ['order.created', 'payment.created', 'customer.updated'],
        is_active: true,
        consecutive_failures: 0,
        metadata: { team: 'ops' },
        secret: expect.stringMatching(/^whsec_[A-Za-z0-9+/]{43}=$/),
        created_at: new Date(clock.now()).toISOString(),
        updated_at: new Date(clock.now()).toISOString(),
      });
      const got = await api().get(`/v1/admin/webhooks/${r.body.id}`);
      expect(got.status).toBe(200);
      expect(got.body).toEqual({ ...r.body, secret: null });

      const other = await createWebhook(api(), { url: 'https://hooks.example.com/other' });
      expect(other.secret).not.toBe(r.body.secret);
    });

    test('["*"] is stored and echoed as ["*"]; metadata defaults to {}', async () => {
      const created = await createWebhook(api(), { url: 'https://hooks.example.com/all', events: ['*'] });
      expect(created.events).toEqual(['*']);
      expect(created.metadata).toEqual({});
      expect((await api().get(`/v1/admin/webhooks/${created.id}`)).body.events).toEqual(['*']);
    });

    test('GET /v1/admin/webhooks lists newest first with the list envelope and secret null', async () => {
      const a = await createWebhook(api(), { url: 'https://a.example.com/h' });
      clock.advance(1000);
      const b = await createWebhook(api(), { url: 'https://b.example.com/h' });
      const page = await api().get('/v1/admin/webhooks?limit=1');
      expect(page.status).toBe(200);
      expect(page.body).toMatchObject({ has_more: true, next_cursor: b.id });
      expect(page.body.data.map((w: { id: string }) => w.id)).toEqual([b.id]);
      expect(page.body.total_count).toBeGreaterThanOrEqual(2);
      const next = await api().get(`/v1/admin/webhooks?limit=1&starting_after=${b.id}`);
      expect(next.body.data.map((w: { id: string }) => w.id)).toEqual([a.id]);
      const all = await api().get('/v1/admin/webhooks?limit=100');
      expect(all.body.data.every((w: { secret: unknown }) => w.secret === null)).toBe(true);
      expect(all.body.total_count).toBe(all.body.data.length);
    });

    test.each([
      [{ events: ['*'] }, 'parameter_missing', 'url'],
      [{ url: 'https://a.example.com' }, 'parameter_missing', 'events'],
      [{ url: 'ftp://example.com/x', events: ['*'] }, 'parameter_invalid', 'url'],
      [{ url: 'file:///etc/passwd', events: ['*'] }, 'parameter_invalid', 'url'],
      [{ url: 'javascript:alert(1)', events: ['*'] }, 'parameter_invalid', 'url'],
      [{ url: '/relative/path', events: ['*'] }, 'parameter_invalid', 'url'],
      [{ url: 'hooks.example.com/x', events: ['*'] }, 'parameter_invalid', 'url'],
      [{ url: 42, events: ['*'] }, 'parameter_invalid', 'url'],
      [{ url: 'https://a.example.com', events: [] }, 'parameter_invalid', 'events'],
      [{ url: 'https://a.example.com', events: ['order.exploded'] }, 'parameter_invalid', 'events[0]'],
      [
        { url: 'https://a.example.com', events: ['order.created', 'order.shipped'] },
        'parameter_invalid',
        'events[1]',
      ],
      [{ url: 'https://a.example.com', events: ['order.created', '*'] }, 'parameter_invalid', 'events[1]'],
      [{ url: 'https://a.example.com', events: 'order.created' }, 'parameter_invalid', 'events'],
      [{ url: 'https://a.example.com', events: ['*'], secret: 'whsec_mine' }, 'parameter_unknown', 'secret'],
      [{ url: 'https://a.example.com', events: ['*'], is_active: 'no' }, 'parameter_invalid', 'is_active'],
    ])('POST %j → 400 %s (%s)', async (body, code, param) => {
      expectError(await api().post('/v1/admin/webhooks', body), 400, code, param);
    });

    test('every event type of the spec plus payment.created and customer.updated is accepted', async () => {
      const events = [
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
        'payment.created',
        'customer.updated',
      ];
      const created = await createWebhook(api(), { url: 'https://hooks.example.com/every', events });
      expect(created.events).toEqual(events);
    });

    test('PATCH changes url, events and metadata (replaced whole); validation as on create', async () => {
      const created = await createWebhook(api(), {
        url: 'https://hooks.example.com/v1',
        events: ['order.created'],
        metadata: { a: 1, b: 2 },
      });
      clock.advance(5000);
      const r = await api().patch(`/v1/admin/webhooks/${created.id}`, {
        url: 'https://hooks.example.com/v2',
        events: ['*'],
        metadata: { c: 3 },
      });
      expect(r.status, JSON.stringify(r.body)).toBe(200);
      expect(r.body).toMatchObject({
        id: created.id,
        url: 'https://hooks.example.com/v2',
        events: ['*'],
        metadata: { c: 3 },
        secret: null,
        is_active: true,
        created_at: created.created_at,
        updated_at: new Date(clock.now()).toISOString(),
      });
      expectError(
        await api().patch(`/v1/admin/webhooks/${created.id}`, { url: 'mailto:a@b.co' }),
        400,
        'parameter_invalid',
        'url',
      );
      expectError(
        await api().patch(`/v1/admin/webhooks/${created.id}`, { events: ['nope'] }),
        400,
        'parameter_invalid',
        'events[0]',
      );
      expectError(
        await api().patch(`/v1/admin/webhooks/${created.id}`, { is_active: 'yes' }),
        400,
        'parameter_invalid',
        'is_active',
      );
      expectError(
        await api().patch(`/v1/admin/webhooks/${created.id}`, { consecutive_failures: 0 }),
        400,
        'parameter_unknown',
        'consecutive_failures',
      );
      expectError(
        await api().patch(`/v1/admin/webhooks/${created.id}`, { secret: 'whsec_x' }),
        400,
        'parameter_unknown',
        'secret',
      );
    });

    test('DELETE returns { id, deleted: true }; the webhook is gone from GET and the list', async () => {
      const created = await createWebhook(api(), { url: 'https://hooks.example.com/gone' });
      const r = await api().delete(`/v1/admin/webhooks/${created.id}`);
      expect(r.status).toBe(200);
      expect(r.body).toEqual({ id: created.id, deleted: true });
      expectError(await api().get(`/v1/admin/webhooks/${created.id}`), 404, 'not_found');
      expectError(await api().delete(`/v1/admin/webhooks/${created.id}`), 404, 'not_found');
      const list = await api().get('/v1/admin/webhooks?limit=100');
      expect(list.body.data.map((w: { id: string }) => w.id)).not.toContain(created.id);
    });

    test('unknown ids are 404 not_found on every webhook endpoint', async () => {
      const id = 'wh_doesnotexist';
      expectError(await api().get(`/v1/admin/webhooks/${id}`), 404, 'not_found');
      expectError(await api().patch(`/v1/admin/webhooks/${id}`, { is_active: true }), 404, 'not_found');
      expectError(await api().delete(`/v1/admin/webhooks/${id}`), 404, 'not_found');
      expectError(await api().get(`/v1/admin/webhooks/${id}/deliveries`), 404, 'not_found');
      expectError(
        await api().post(`/v1/admin/webhooks/${id}/test`, { event_type: 'order.created' }),
        404,
        'not_found',
      );
    });

    test('test delivery to a 200 receiver: success, status 200, time; signed sample event of that type', async () => {
      const receiver = await startReceiver(200);
      const created = await createWebhook(api(), { url: receiver.url, events: ['product.created'] });
      const r = await api().post(`/v1/admin/webhooks/${created.id}/test`, { event_type: 'order.created' });
      expect(r.status, JSON.stringify(r.body)).toBe(200);
      expect(r.body).toEqual({ success: true, status_code: 200, response_time_ms: expect.any(Number) });
      expect(Number.isInteger(r.body.response_time_ms)).toBe(true);
      expect(r.body.response_time_ms).toBeGreaterThanOrEqual(0);

      expect(receiver.receipts).toHaveLength(1);
      const [got] = receiver.receipts;
      expect(got?.headers['content-type']).toBe('application/json');
      expect(got?.headers['x-webhook-signature']).toBe(sign(created.secret, got?.body ?? ''));
      const event = JSON.parse(got?.body ?? '{}');
      expect(Object.keys(event)).toEqual(['id', 'type', 'created_at', 'data', 'store_id']);
      expect(event).toMatchObject({
        type: 'order.created',
        store_id: api().scope.store_id,
        created_at: new Date(clock.now()).toISOString(),
        data: {
          id: expect.stringMatching(/^ord_/),
          number: expect.any(Number),
          status: 'pending',
          total: { amount: expect.any(Number), currency: 'USD' },
        },
      });
      expect(got?.headers['x-webhook-id']).toBe(event.id);
      expect(got?.headers['x-webhook-timestamp']).toBe(String(Math.floor(clock.now() / 1000)));
    });

    test('test delivery to a 500 receiver reports failure and does not count toward failures', async () => {
      const receiver = await startReceiver(500);
      const created = await createWebhook(api(), { url: receiver.url });
      for (let i = 0; i < 6; i++) {
        const r = await api().post(`/v1/admin/webhooks/${created.id}/test`, { event_type: 'payment.failed' });
        expect(r.status).toBe(200);
        expect(r.body).toMatchObject({ success: false, status_code: 500 });
      }
      expect(receiver.receipts).toHaveLength(6);
      const after = await api().get(`/v1/admin/webhooks/${created.id}`);
      expect(after.body).toMatchObject({ is_active: true, consecutive_failures: 0 });
      expect((await api().get(`/v1/admin/webhooks/${created.id}/deliveries`)).body.data).toEqual([]);
    });

    test('test delivery to a closed port reports no status code', async () => {
      const receiver = await startReceiver(200);
      const created = await createWebhook(api(), { url: receiver.url });
      const server = servers.at(-1) as Server;
      server.closeAllConnections();
      await new Promise<void>((resolve) => server.close(() => resolve()));
      servers.pop();
      const r = await api().post(`/v1/admin/webhooks/${created.id}/test`, { event_type: 'customer.created' });
      expect(r.body).toMatchObject({ success: false, status_code: null });
    });

    test.each([
      [{ event_type: null }, 'parameter_invalid'],
      [{ event_type: 'order.exploded' }, 'parameter_invalid'],
      [{ event_type: '*' }, 'parameter_invalid'],
      [{ event_type: 7 }, 'parameter_invalid'],
    ])('test delivery with %j → 400 %s (event_type)', async (body, code) => {
      const created = await createWebhook(api(), { url: 'https://hooks.example.com/t' });
      expectError(await api().post(`/v1/admin/webhooks/${created.id}/test`, body), 400, code, 'event_type');
    });

    test('deliveries list: the attempt with status code, duration, error and next retry', async () => {
      await isolate(api());
      const receiver = await startReceiver(502);
      const created = await createWebhook(api(), { url: receiver.url, events: ['customer.created'] });
      await emit(api(), api().scope, 'customer.created', { id: 'cus_1' });
      const attemptedAt = clock.now();
      expect(await api().engine.webhooks.deliverDue()).toMatchObject({ failed: 1 });
      const r = await api().get(`/v1/admin/webhooks/${created.id}/deliveries`);
      expect(r.status, JSON.stringify(r.body)).toBe(200);
      expect(r.body).toMatchObject({ total_count: 1, has_more: false, next_cursor: null });
      expect(r.body.data[0]).toMatchObject({
        id: expect.stringMatching(/^whd_/),
        webhook_id: created.id,
        event_id: receiver.receipts[0]?.headers['x-webhook-id'],
        event_type: 'customer.created',
        status: 'pending',
        attempt: 1,
        status_code: 502,
        error: 'HTTP 502',
        next_retry_at: new Date(attemptedAt + 5 * 60_000).toISOString(),
      });
      expect(r.body.data[0].duration_ms).toBeGreaterThanOrEqual(0);
      expect(r.body.data[0].attempts).toEqual([
        {
          attempt: 1,
          succeeded: false,
          status_code: 502,
          duration_ms: expect.any(Number),
          error: 'HTTP 502',
          created_at: new Date(attemptedAt).toISOString(),
        },
      ]);

      receiver.status = 204;
      clock.advance(5 * 60_000);
      expect(await api().engine.webhooks.deliverDue()).toMatchObject({ succeeded: 1 });
      const done = await api().get(`/v1/admin/webhooks/${created.id}/deliveries`);
      expect(done.body.data[0]).toMatchObject({
        status: 'succeeded',
        attempt: 2,
        status_code: 204,
        error: null,
        next_retry_at: null,
      });
      expect(done.body.data[0].attempts.map((a: { succeeded: boolean }) => a.succeeded)).toEqual([
        false,
        true,
      ]);
      expect(receiver.receipts[1]?.body).toBe(receiver.receipts[0]?.body);
      await api().delete(`/v1/admin/webhooks/${created.id}`);
    });

    test('a customer created over the API reaches a subscribed receiver as customer.created', async () => {
      await isolate(api());
      const receiver = await startReceiver(200);
      const created = await createWebhook(api(), { url: receiver.url, events: ['customer.created'] });
      const customer = await api().post('/v1/admin/customers', { email: `hook.${clock.now()}@example.com` });
      expect(customer.status, JSON.stringify(customer.body)).toBe(200);
      await api().engine.webhooks.deliverDue();
      expect(receiver.receipts).toHaveLength(1);
      const event = JSON.parse(receiver.receipts[0]?.body ?? '{}');
      expect(event).toMatchObject({
        type: 'customer.created',
        data: { id: customer.body.id, email: customer.body.email },
      });
      expect(receiver.receipts[0]?.headers['x-webhook-signature']).toBe(
        sign(created.secret, receiver.receipts[0]?.body ?? ''),
      );
      await api().delete(`/v1/admin/webhooks/${created.id}`);
    });

    test('5 consecutive failures: deactivated, notification listed; PATCH is_active true resets the count', async () => {
      await isolate(api());
      const receiver = await startReceiver(500);
      const created = await createWebhook(api(), { url: receiver.url, events: ['inventory.low'] });
      await emit(api(), api().scope, 'inventory.low', { id: 'inv_1', available: 1 }, 5);
      const result = await api().engine.webhooks.deliverDue();
      expect(result.deactivated).toEqual([created.id]);

      const webhook = await api().get(`/v1/admin/webhooks/${created.id}`);
      expect(webhook.body).toMatchObject({ is_active: false, consecutive_failures: 5 });

      const notifications = await api().get('/v1/admin/notifications');
      expect(notifications.status, JSON.stringify(notifications.body)).toBe(200);
      expect(notifications.body).toMatchObject({ has_more: false, next_cursor: null });
      const mine = notifications.body.data.filter(
        (n: { data: { webhook_id?: string } }) => n.data.webhook_id === created.id,
      );
      expect(mine).toEqual([
        {
          id: expect.stringMatching(/^ntf_/),
          type: 'webhook.deactivated',
          message: expect.stringContaining(receiver.url),
          data: expect.objectContaining({ webhook_id: created.id, url: receiver.url }),
          created_at: new Date(clock.now()).toISOString(),
        },
      ]);
      const deliveries = await api().get(`/v1/admin/webhooks/${created.id}/deliveries`);
      expect(deliveries.body.data.map((d: { status: string }) => d.status)).toEqual(
        Array(5).fill('cancelled'),
      );

      const reactivated = await api().patch(`/v1/admin/webhooks/${created.id}`, { is_active: true });
      expect(reactivated.body).toMatchObject({ is_active: true, consecutive_failures: 0 });
      await api().delete(`/v1/admin/webhooks/${created.id}`);
    });

    test('notifications list paginates with limit and starting_after', async () => {
      const page = await api().get('/v1/admin/notifications?limit=1');
      expect(page.status).toBe(200);
      expect(page.body.data.length).toBeLessThanOrEqual(1);
      expectError(await api().get('/v1/admin/notifications?limit=0'), 400, 'parameter_invalid', 'limit');
      expectError(await api().get('/v1/admin/notifications?limit=101'), 400, 'parameter_invalid', 'limit');
    });

    test('live-mode webhooks and notifications are invisible to the test key, and the reverse', async () => {
      const live = await createWebhook(
        api(),
        { url: 'https://hooks.example.com/live' },
        api().keys.liveSecret,
      );
      const test = await createWebhook(api(), { url: 'https://hooks.example.com/test' });
      expectError(await api().get(`/v1/admin/webhooks/${live.id}`), 404, 'not_found');
      expectError(await api().patch(`/v1/admin/webhooks/${live.id}`, { is_active: false }), 404, 'not_found');
      expectError(await api().delete(`/v1/admin/webhooks/${live.id}`), 404, 'not_found');
      expectError(await api().get(`/v1/admin/webhooks/${live.id}/deliveries`), 404, 'not_found');
      expectError(
        await api().post(`/v1/admin/webhooks/${live.id}/test`, { event_type: 'order.created' }),
        404,
        'not_found',
      );
      const testList = await api().get('/v1/admin/webhooks?limit=100');
      expect(testList.body.data.map((w: { id: string }) => w.id)).not.toContain(live.id);
      const liveList = await api().get('/v1/admin/webhooks?limit=100', { key: api().keys.liveSecret });
      expect(liveList.body.data.map((w: { id: string }) => w.id)).toEqual([live.id]);
      expectError(
        await api().get(`/v1/admin/webhooks/${test.id}`, { key: api().keys.liveSecret }),
        404,
        'not_found',
      );
      const liveNotifications = await api().get('/v1/admin/notifications', { key: api().keys.liveSecret });
      expect(liveNotifications.body.data).toEqual([]);
    });

    test('publishable keys get 403 forbidden and requests without a key 401', async () => {
      expectError(await api().storefront.get('/v1/admin/webhooks'), 403, 'forbidden');
      expectError(
        await api().storefront.post('/v1/admin/webhooks', { url: 'https://a.example.com', events: ['*'] }),
        403,
        'forbidden',
      );
      expectError(await api().storefront.get('/v1/admin/notifications'), 403, 'forbidden');
      expectError(await api().get('/v1/admin/webhooks', { key: null }), 401, 'unauthenticated');
    });
  },
  {
    clock,
    webhookTransport: createNodeWebhookTransport({ allowPrivate: true }),
    config: { allow_private_webhooks: true },
  },
);

// ---------------------------------------------------------------- SSRF: private targets not allowed

/** DNS for the SSRF tests: names of an attacker's zone pointing inside, and a public one. */
let rebindAnswer = '93.184.216.34';
const resolve: Resolver = async (hostname) => {
  const table: Record<string, string[]> = {
    'public.example.com': ['93.184.216.34'],
    'internal.attacker.example': ['10.0.0.5'],
    'loopback.attacker.example': ['127.0.0.1'],
    'mixed.attacker.example': ['93.184.216.34', '127.0.0.1'],
    'v6.attacker.example': ['fd00::5'],
    'metadata.attacker.example': ['169.254.169.254'],
    'mapped.attacker.example': ['::ffff:192.168.0.1'],
    'cgnat.attacker.example': ['100.100.100.100'],
    'late-rebind.attacker.example': [rebindAnswer],
  };
  const answers = table[hostname];
  if (!answers) throw Object.assign(new Error(`getaddrinfo ENOTFOUND ${hostname}`), { code: 'ENOTFOUND' });
  return answers.map((address) => ({ address, family: address.includes(':') ? 6 : 4 }) as const);
};

const HOSTILE_URLS = [
  'http://127.0.0.1/',
  'http://127.0.0.1:8080/hooks',
  'http://127.1/',
  'http://2130706433/',
  'http://0x7f000001/',
  'http://0177.0.0.1/',
  'http://0x7f.0.0.1/',
  'http://017700000001/',
  'http://localhost/',
  'http://LOCALHOST:3000/',
  'http://localhost./',
  'http://api.localhost/',
  'http://user:pass@127.0.0.1/',
  'http://[::1]/',
  'http://[::]/',
  'http://[::ffff:127.0.0.1]/',
  'http://[::ffff:7f00:1]/',
  'http://[::ffff:a9fe:a9fe]/',
  'http://[64:ff9b::7f00:1]/',
  'http://[64:ff9b::a9fe:a9fe]/',
  'http://[2002:7f00:1::]/',
  'http://[fe80::1]/',
  'http://[fc00::1]/',
  'http://[fd12:3456::1]/',
  'http://[ff02::1]/',
  'http://169.254.169.254/latest/meta-data/',
  'http://10.0.0.1/',
  'http://172.16.0.1/',
  'http://172.31.255.254/',
  'http://192.168.1.1/',
  'http://100.64.0.1/',
  'http://0.0.0.0/',
  'http://0/',
  'http://224.0.0.1/',
  'http://255.255.255.255/',
  'http://240.0.0.1/',
  'http://metadata.google.internal/computeMetadata/v1/',
  'http://metadata/',
  'http://instance-data.ec2.internal/',
  'https://internal.attacker.example/',
  'https://loopback.attacker.example/',
  'https://mixed.attacker.example/',
  'https://v6.attacker.example/',
  'https://metadata.attacker.example/',
  'https://mapped.attacker.example/',
  'https://cgnat.attacker.example/',
];

describeApi(
  'webhooks SSRF',
  (api) => {
    test(`the table has at least 30 hostile URLs (${HOSTILE_URLS.length})`, () => {
      expect(HOSTILE_URLS.length).toBeGreaterThanOrEqual(30);
    });

    test.each(HOSTILE_URLS)('POST with %s → 422 url_not_allowed', async (url) => {
      expectError(
        await api().post('/v1/admin/webhooks', { url, events: ['*'] }),
        422,
        'url_not_allowed',
        'url',
      );
    });

    test('PATCH to a hostile URL → 422 url_not_allowed; the webhook keeps its URL', async () => {
      const created = await createWebhook(api(), { url: 'https://public.example.com/hooks' });
      for (const url of [
        'http://169.254.169.254/',
        'https://internal.attacker.example/',
        'http://[::1]:80/',
      ]) {
        expectError(
          await api().patch(`/v1/admin/webhooks/${created.id}`, { url }),
          422,
          'url_not_allowed',
          'url',
        );
      }
      expect((await api().get(`/v1/admin/webhooks/${created.id}`)).body.url).toBe(
        'https://public.example.com/hooks',
      );
    });

    test('public targets are accepted, and so are names that do not resolve yet', async () => {
      await createWebhook(api(), { url: 'https://public.example.com/hooks' });
      await createWebhook(api(), { url: 'https://hooks.not-live-yet.example/x' });
      await createWebhook(api(), { url: 'http://93.184.216.34:8080/x' });
    });

    test('a name that resolves to 127.0.0.1 only at delivery time gets nothing: the test delivery fails', async () => {
      const receiver = await startReceiver(200);
      rebindAnswer = '93.184.216.34';
      const created = await createWebhook(api(), {
        url: `http://late-rebind.attacker.example:${receiver.port}/hooks`,
      });
      rebindAnswer = '127.0.0.1';
      const r = await api().post(`/v1/admin/webhooks/${created.id}/test`, { event_type: 'order.created' });
      expect(r.status).toBe(200);
      expect(r.body).toMatchObject({ success: false, status_code: null });
      expect(receiver.receipts).toHaveLength(0);
    });
  },
  {
    webhookTransport: createNodeWebhookTransport({ resolve }),
    config: { allow_private_webhooks: false },
  },
);
