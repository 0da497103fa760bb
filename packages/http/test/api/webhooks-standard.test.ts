import { createHmac, randomBytes } from 'node:crypto';
import { createServer, type IncomingHttpHeaders, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import type { EventType, Scope } from '@cartwright/core';
import { write } from '@cartwright/core/internal';
import type { Clock } from '@cartwright/core/providers';
import type { WebhookRecord } from '@cartwright/core/storage';
import { createNodeWebhookTransport, verifyStandardWebhook } from '@cartwright/webhooks';
import { verifyWebhookSignature as sdkVerifyWebhookSignature } from '@headless-commerce/sdk';
import { Webhook } from 'standardwebhooks';
import { afterAll, beforeAll, beforeEach, expect, test, vi } from 'vitest';
import { describeApi, type TestApi } from './support/harness';

/**
 * Standard Webhooks signatures, secret rotation and the retry of one delivery, over real HTTP on
 * SQLite and PostgreSQL (docs/contract.md#webhook-delivery, #standard-webhooks). Deliveries go to real receivers on
 * 127.0.0.1 that check them with the public `standardwebhooks` package — the receiver answers
 * 401 when the package refuses a delivery, so a wrong signature fails the delivery itself.
 */

// ---------------------------------------------------------------- receivers

interface Receipt {
  headers: IncomingHttpHeaders;
  body: string;
  /** Whether `new Webhook(secret).verify(body, headers)` accepted it at the receiver (real clock). */
  verified: boolean | null;
}

interface Receiver {
  url: string;
  receipts: Receipt[];
  status: number;
  /** The secret the receiver verifies with (`standardwebhooks`), or null to accept anything. */
  secret: string | null;
  /** Milliseconds the receiver waits before answering. */
  delayMs: number;
}

const servers: Server[] = [];
afterAll(async () => {
  for (const server of servers) {
    server.closeAllConnections();
    await new Promise<void>((resolve) => server.close(() => resolve()));
  }
});

/** A real receiver on 127.0.0.1 that verifies with `standardwebhooks` and answers `status` (or 401). */
async function startReceiver(status = 200, secret: string | null = null): Promise<Receiver> {
  const receiver: Receiver = { url: '', receipts: [], status, secret, delayMs: 0 };
  const server = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (chunk: Buffer) => chunks.push(chunk));
    req.on('end', () => {
      const body = Buffer.concat(chunks).toString('utf8');
      let verified: boolean | null = null;
      if (receiver.secret !== null) {
        try {
          new Webhook(receiver.secret).verify(body, req.headers as Record<string, string>);
          verified = true;
        } catch {
          verified = false;
        }
      }
      receiver.receipts.push({ headers: req.headers, body, verified });
      const answer = () => res.writeHead(verified === false ? 401 : receiver.status).end();
      if (receiver.delayMs > 0) setTimeout(answer, receiver.delayMs);
      else answer();
    });
  });
  servers.push(server);
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  receiver.url = `http://127.0.0.1:${(server.address() as AddressInfo).port}/hooks`;
  return receiver;
}

/**
 * The engine's clock: real time when a block starts (the `standardwebhooks` package checks
 * `webhook-timestamp` against the real clock, ±5 min), moved by the tests.
 */
function manualClock(): Clock & { advance(ms: number): void; reset(): void } {
  let now = 0;
  const reset = () => {
    now = Math.floor(Date.now() / 1000) * 1000;
  };
  reset();
  return { now: () => now, advance: (ms) => (now += ms), reset };
}
const clock = manualClock();
const HOUR = 60 * 60 * 1000;

/**
 * `new Webhook(secret, options).verify(...)` as a receiver whose clock reads `at` (vitest's fake
 * Date, for deliveries made at a moved engine clock). True when the package accepts it.
 */
function packageVerifies(
  secret: string | Uint8Array,
  receipt: Receipt | undefined,
  at: number,
  options?: { format: 'raw' },
): boolean {
  if (!receipt) return false;
  vi.useFakeTimers({ toFake: ['Date'] });
  vi.setSystemTime(at);
  try {
    new Webhook(secret, options).verify(receipt.body, receipt.headers as Record<string, string>);
    return true;
  } catch {
    return false;
  } finally {
    vi.useRealTimers();
  }
}

const hexSignature = (secret: string, body: string) =>
  createHmac('sha256', secret).update(body).digest('hex');
const signaturesOf = (receipt: Receipt | undefined) =>
  String(receipt?.headers['webhook-signature'] ?? '').split(' ');

type WebhookBody = { id: string; url: string; secret: string; [key: string]: unknown };

async function createWebhook(api: TestApi, url: string, events: string[] = ['*']): Promise<WebhookBody> {
  const r = await api.post('/v1/admin/webhooks', { url, events });
  expect(r.status, JSON.stringify(r.body)).toBe(200);
  return r.body as WebhookBody;
}

async function emit(api: TestApi, scope: Scope, type: string, data: Record<string, unknown>) {
  await write(api.engine.context, null, async ({ emit: raise }) =>
    raise(scope, type as EventType, data as never),
  );
}

/** Deactivates every webhook of the test mode, so a test sees only the webhooks it creates. */
async function isolate(api: TestApi) {
  const list = await api.get('/v1/admin/webhooks?limit=100');
  for (const webhook of list.body.data as Array<{ id: string; is_active: boolean }>) {
    if (webhook.is_active) await api.patch(`/v1/admin/webhooks/${webhook.id}`, { is_active: false });
  }
}

function expectError(r: { status: number; body: unknown }, status: number, code: string) {
  expect(r.status, JSON.stringify(r.body)).toBe(status);
  expect((r.body as { error: { code: string } }).error.code).toBe(code);
}

const engineOptions = {
  clock,
  webhookTransport: createNodeWebhookTransport({ allowPrivate: true }),
  config: { allow_private_webhooks: true },
};

// ---------------------------------------------------------------- signatures

describeApi(
  'webhooks: Standard Webhooks headers',
  (api) => {
    beforeAll(() => clock.reset());
    beforeEach(() => clock.advance(1000));

    test('new secrets are whsec_ + standard base64 of 32 random bytes', async () => {
      const created = await createWebhook(api(), 'https://hooks.example.com/s');
      expect(created.secret).toMatch(/^whsec_[A-Za-z0-9+/]{43}=$/);
      expect(Buffer.from(created.secret.slice(6), 'base64')).toHaveLength(32);
      expect(() => new Webhook(created.secret)).not.toThrow();
    });

    test('an event delivery is verified by the standardwebhooks package at a real receiver; the spec headers stay', async () => {
      await isolate(api());
      const receiver = await startReceiver(200);
      const created = await createWebhook(api(), receiver.url, ['customer.created']);
      receiver.secret = created.secret;
      const customer = await api().post('/v1/admin/customers', { email: `std.${clock.now()}@example.com` });
      expect(customer.status, JSON.stringify(customer.body)).toBe(200);
      expect(await api().engine.webhooks.deliverDue()).toMatchObject({ succeeded: 1, failed: 0 });

      expect(receiver.receipts).toHaveLength(1);
      const [got] = receiver.receipts;
      expect(got?.verified).toBe(true);
      const event = JSON.parse(got?.body ?? '{}');
      expect(event).toMatchObject({ type: 'customer.created', data: { id: customer.body.id } });
      // The spec's headers, exactly as before.
      expect(got?.headers['x-webhook-signature']).toBe(hexSignature(created.secret, got?.body ?? ''));
      expect(
        await sdkVerifyWebhookSignature(
          got?.body ?? '',
          String(got?.headers['x-webhook-signature']),
          created.secret,
        ),
      ).toBe(true);
      expect(got?.headers['x-webhook-id']).toBe(event.id);
      expect(got?.headers['x-webhook-timestamp']).toBe(String(Math.floor(clock.now() / 1000)));
      // The Standard Webhooks headers: the event id, the same timestamp, one v1 signature.
      expect(got?.headers['webhook-id']).toBe(event.id);
      expect(got?.headers['webhook-timestamp']).toBe(got?.headers['x-webhook-timestamp']);
      const key = Buffer.from(created.secret.slice(6), 'base64');
      const expected = createHmac('sha256', key)
        .update(`${event.id}.${got?.headers['webhook-timestamp']}.${got?.body}`)
        .digest('base64');
      expect(signaturesOf(got)).toEqual([`v1,${expected}`]);
      expect(
        verifyStandardWebhook(got?.body ?? '', got?.headers ?? {}, created.secret, { now: clock.now() }),
      ).toBe(true);
      const deliveries = await api().get(`/v1/admin/webhooks/${created.id}/deliveries`);
      expect(deliveries.body.data[0]).toMatchObject({ status: 'succeeded', attempt: 1, status_code: 200 });
    });

    test('a test delivery is verified by the package; its webhook-id is the sample event id, new per send', async () => {
      const receiver = await startReceiver(200);
      const created = await createWebhook(api(), receiver.url);
      receiver.secret = created.secret;
      for (const type of ['order.created', 'order.created']) {
        const r = await api().post(`/v1/admin/webhooks/${created.id}/test`, { event_type: type });
        expect(r.status, JSON.stringify(r.body)).toBe(200);
        expect(r.body).toMatchObject({ success: true, status_code: 200 });
      }
      const ids = receiver.receipts.map((receipt) => receipt.headers['webhook-id']);
      expect(receiver.receipts.map((receipt) => receipt.verified)).toEqual([true, true]);
      expect(ids).toEqual(receiver.receipts.map((receipt) => JSON.parse(receipt.body).id));
      expect(ids[0]).toMatch(/^evt_/);
      expect(ids[0]).not.toBe(ids[1]);
      expect(receiver.receipts[0]?.headers['x-webhook-id']).toBe(ids[0]);
    });

    test('a receiver holding another secret refuses the delivery (the check can fail)', async () => {
      const receiver = await startReceiver(200);
      const created = await createWebhook(api(), receiver.url);
      const other = await createWebhook(api(), 'https://hooks.example.com/other');
      receiver.secret = other.secret;
      const r = await api().post(`/v1/admin/webhooks/${created.id}/test`, { event_type: 'payment.failed' });
      expect(r.body).toMatchObject({ success: false, status_code: 401 });
      expect(receiver.receipts[0]?.verified).toBe(false);
      const [receipt] = receiver.receipts;
      expect(packageVerifies(created.secret, receipt, clock.now())).toBe(true);
      // A body changed by one byte is refused by the package and by verifyStandardWebhook.
      const tampered = receipt && { ...receipt, body: `${receipt.body} ` };
      expect(packageVerifies(created.secret, tampered, clock.now())).toBe(false);
      expect(
        verifyStandardWebhook(tampered?.body ?? '', receipt?.headers ?? {}, created.secret, {
          now: clock.now(),
        }),
      ).toBe(false);
    });

    test('a webhook with a legacy secret (URL-safe, not base64) keeps working; rotating gives it a standard one', async () => {
      await isolate(api());
      const receiver = await startReceiver(200);
      const legacy = `whsec_${randomBytes(32).toString('base64url')}`;
      expect(legacy).toMatch(/^whsec_[A-Za-z0-9_-]{43}$/);
      const now = clock.now();
      const record: WebhookRecord = {
        id: `wh_legacy${randomBytes(8).toString('hex')}`,
        store_id: api().scope.store_id,
        mode: api().scope.mode,
        url: receiver.url,
        events: ['*'],
        events_since: {},
        secret: legacy,
        previous_secret: null,
        previous_secret_expires_at: null,
        is_active: true,
        consecutive_failures: 0,
        metadata: {},
        created_at: now,
        updated_at: now,
      };
      await api().engine.context.storage.transaction((tx) => tx.webhooks.insert(record));
      const test1 = await api().post(`/v1/admin/webhooks/${record.id}/test`, { event_type: 'order.created' });
      expect(test1.body).toMatchObject({ success: true });
      const [first] = receiver.receipts;
      expect(first?.headers['x-webhook-signature']).toBe(hexSignature(legacy, first?.body ?? ''));
      // Keyed with the UTF-8 bytes after whsec_: the package verifies it in its raw format only.
      expect(packageVerifies(legacy.slice(6), first, clock.now(), { format: 'raw' })).toBe(true);
      expect(
        verifyStandardWebhook(first?.body ?? '', first?.headers ?? {}, legacy, { now: clock.now() }),
      ).toBe(true);

      const rotated = await api().post(`/v1/admin/webhooks/${record.id}/rotate-secret`);
      expect(rotated.status, JSON.stringify(rotated.body)).toBe(200);
      expect(rotated.body.secret).toMatch(/^whsec_[A-Za-z0-9+/]{43}=$/);
      receiver.secret = rotated.body.secret;
      const test2 = await api().post(`/v1/admin/webhooks/${record.id}/test`, { event_type: 'order.created' });
      expect(test2.body).toMatchObject({ success: true });
      const second = receiver.receipts[1];
      expect(second?.verified).toBe(true);
      expect(signaturesOf(second)).toHaveLength(2);
      expect(packageVerifies(legacy.slice(6), second, clock.now(), { format: 'raw' })).toBe(true);
      await api().delete(`/v1/admin/webhooks/${record.id}`);
    });
  },
  engineOptions,
);

// ---------------------------------------------------------------- rotation

describeApi(
  'webhooks: rotate-secret',
  (api) => {
    beforeAll(() => clock.reset());
    beforeEach(() => clock.advance(1000));

    test('returns the webhook with a new secret, shown once; GET shows null; 404 and 403 as elsewhere', async () => {
      const created = await createWebhook(api(), 'https://hooks.example.com/r');
      clock.advance(1000);
      const r = await api().post(`/v1/admin/webhooks/${created.id}/rotate-secret`);
      expect(r.status, JSON.stringify(r.body)).toBe(200);
      expect(r.body).toEqual({
        ...created,
        secret: expect.stringMatching(/^whsec_[A-Za-z0-9+/]{43}=$/),
        updated_at: new Date(clock.now()).toISOString(),
      });
      expect(r.body.secret).not.toBe(created.secret);
      expect((await api().get(`/v1/admin/webhooks/${created.id}`)).body.secret).toBeNull();
      expectError(await api().post('/v1/admin/webhooks/wh_doesnotexist/rotate-secret'), 404, 'not_found');
      expectError(
        await api().post(`/v1/admin/webhooks/${created.id}/rotate-secret`, undefined, {
          key: api().keys.liveSecret,
        }),
        404,
        'not_found',
      );
      expectError(
        await api().storefront.post(`/v1/admin/webhooks/${created.id}/rotate-secret`),
        403,
        'forbidden',
      );
    });

    test('for 24 h both secrets verify (two v1 signatures, new first); X-Webhook-Signature uses the new one; then only the new one', async () => {
      await isolate(api());
      const receiver = await startReceiver(200);
      const created = await createWebhook(api(), receiver.url, ['inventory.low']);
      const oldSecret = created.secret;
      const rotatedAt = clock.now();
      const rotated = await api().post(`/v1/admin/webhooks/${created.id}/rotate-secret`);
      const newSecret = rotated.body.secret as string;

      // Right after the rotation: verified by the package with either secret.
      receiver.secret = oldSecret;
      await emit(api(), api().scope, 'inventory.low', { id: 'inv_1', available: 1 });
      expect(await api().engine.webhooks.deliverDue()).toMatchObject({ succeeded: 1 });
      receiver.secret = newSecret;
      await emit(api(), api().scope, 'inventory.low', { id: 'inv_2', available: 1 });
      expect(await api().engine.webhooks.deliverDue()).toMatchObject({ succeeded: 1 });
      expect(receiver.receipts.map((r) => r.verified)).toEqual([true, true]);
      const during = receiver.receipts[1];
      expect(signaturesOf(during)).toHaveLength(2);
      expect(signaturesOf(during)[0]).toBe(
        new Webhook(newSecret).sign(
          String(during?.headers['webhook-id']),
          new Date(clock.now()),
          during?.body ?? '',
        ),
      );
      expect(during?.headers['x-webhook-signature']).toBe(hexSignature(newSecret, during?.body ?? ''));
      expect(during?.headers['x-webhook-signature']).not.toBe(hexSignature(oldSecret, during?.body ?? ''));

      // 1 s before the 24 h are over: still both.
      receiver.secret = null;
      clock.advance(rotatedAt + 24 * HOUR - 1000 - clock.now());
      await emit(api(), api().scope, 'inventory.low', { id: 'inv_3', available: 1 });
      await api().engine.webhooks.deliverDue();
      const late = receiver.receipts[2];
      expect(signaturesOf(late)).toHaveLength(2);
      expect(packageVerifies(oldSecret, late, clock.now())).toBe(true);
      expect(packageVerifies(newSecret, late, clock.now())).toBe(true);

      // 24 h after the rotation: only the new secret signs.
      clock.advance(1000);
      await emit(api(), api().scope, 'inventory.low', { id: 'inv_4', available: 1 });
      await api().engine.webhooks.deliverDue();
      const after = receiver.receipts[3];
      expect(signaturesOf(after)).toHaveLength(1);
      expect(packageVerifies(newSecret, after, clock.now())).toBe(true);
      expect(packageVerifies(oldSecret, after, clock.now())).toBe(false);
      expect(
        verifyStandardWebhook(after?.body ?? '', after?.headers ?? {}, oldSecret, { now: clock.now() }),
      ).toBe(false);
      // The test delivery follows the same rule.
      await api().post(`/v1/admin/webhooks/${created.id}/test`, { event_type: 'inventory.low' });
      expect(signaturesOf(receiver.receipts[4])).toHaveLength(1);
      await api().delete(`/v1/admin/webhooks/${created.id}`);
      clock.reset();
    });

    test('rotating twice within 24 h keeps only the current and the one previous secret', async () => {
      const receiver = await startReceiver(200);
      const created = await createWebhook(api(), receiver.url);
      const second = (await api().post(`/v1/admin/webhooks/${created.id}/rotate-secret`)).body
        .secret as string;
      clock.advance(1000);
      const third = (await api().post(`/v1/admin/webhooks/${created.id}/rotate-secret`)).body
        .secret as string;
      await api().post(`/v1/admin/webhooks/${created.id}/test`, { event_type: 'order.created' });
      const [receipt] = receiver.receipts;
      expect(signaturesOf(receipt)).toHaveLength(2);
      expect(packageVerifies(third, receipt, clock.now())).toBe(true);
      expect(packageVerifies(second, receipt, clock.now())).toBe(true);
      expect(packageVerifies(created.secret, receipt, clock.now())).toBe(false);
      expect(receipt?.headers['x-webhook-signature']).toBe(hexSignature(third, receipt?.body ?? ''));
    });

    test('with an Idempotency-Key a replay returns the same answer, the new secret masked, and rotates once', async () => {
      const receiver = await startReceiver(200);
      const created = await createWebhook(api(), receiver.url);
      const key = `rot-${randomBytes(6).toString('hex')}`;
      const first = await api().post(`/v1/admin/webhooks/${created.id}/rotate-secret`, undefined, {
        idempotencyKey: key,
      });
      const replay = await api().post(`/v1/admin/webhooks/${created.id}/rotate-secret`, undefined, {
        idempotencyKey: key,
      });
      expect(first.status).toBe(200);
      expect(replay.status).toBe(200);
      // The replay is the same answer with the new secret masked (never stored in plaintext).
      expect(replay.body).toEqual({ ...first.body, secret: `${first.body.secret.slice(0, 12)}****` });
      // Rotated once: the original secret still signs alongside the new one.
      await api().post(`/v1/admin/webhooks/${created.id}/test`, { event_type: 'order.created' });
      const [receipt] = receiver.receipts;
      expect(packageVerifies(first.body.secret, receipt, clock.now())).toBe(true);
      expect(packageVerifies(created.secret, receipt, clock.now())).toBe(true);
    });
  },
  engineOptions,
);

// ---------------------------------------------------------------- retry of one delivery

describeApi(
  'webhooks: retry a delivery',
  (api) => {
    // Real time at the start of each test: tests here move the clock by hours.
    beforeEach(() => clock.reset());

    /** A webhook on a receiver answering `status`, with one delivery after one attempt. */
    async function failedOnce(status = 500) {
      await isolate(api());
      const receiver = await startReceiver(status);
      const created = await createWebhook(api(), receiver.url, ['order.created']);
      await emit(api(), api().scope, 'order.created', { id: `ord_${clock.now()}` });
      await api().engine.webhooks.deliverDue();
      const list = await api().get(`/v1/admin/webhooks/${created.id}/deliveries`);
      expect(list.body.data).toHaveLength(1);
      return { receiver, created, delivery: list.body.data[0] as { id: string; [key: string]: unknown } };
    }
    const retryPath = (webhookId: string, deliveryId: string) =>
      `/v1/admin/webhooks/${webhookId}/deliveries/${deliveryId}/retry`;
    const webhookOf = async (id: string) => (await api().get(`/v1/admin/webhooks/${id}`)).body;

    test('re-sends a failed delivery now: the attempt is counted and a success resets consecutive_failures', async () => {
      const { receiver, created, delivery } = await failedOnce(500);
      expect(delivery).toMatchObject({ status: 'pending', attempt: 1, status_code: 500 });
      expect(await webhookOf(created.id)).toMatchObject({ consecutive_failures: 1 });

      receiver.status = 200;
      receiver.secret = created.secret; // verified with the package from now on
      clock.advance(60_000); // well before the automatic retry (+5 min)
      const r = await api().post(retryPath(created.id, delivery.id));
      expect(r.status, JSON.stringify(r.body)).toBe(200);
      expect(r.body).toMatchObject({
        id: delivery.id,
        webhook_id: created.id,
        status: 'succeeded',
        attempt: 2,
        status_code: 200,
        error: null,
        next_retry_at: null,
        updated_at: new Date(clock.now()).toISOString(),
      });
      expect(
        r.body.attempts.map((a: { attempt: number; succeeded: boolean }) => [a.attempt, a.succeeded]),
      ).toEqual([
        [1, false],
        [2, true],
      ]);
      expect(await webhookOf(created.id)).toMatchObject({ consecutive_failures: 0, is_active: true });
      // The same bytes and event id, signed anew; verified by the package at the receiver.
      expect(receiver.receipts).toHaveLength(2);
      expect(receiver.receipts[1]?.body).toBe(receiver.receipts[0]?.body);
      expect(receiver.receipts[1]?.headers['webhook-id']).toBe(receiver.receipts[0]?.headers['webhook-id']);
      expect(receiver.receipts[1]?.verified).toBe(true);
      expect((await api().get(`/v1/admin/webhooks/${created.id}/deliveries`)).body.data[0]).toEqual(r.body);
      // Nothing is left for the worker.
      clock.advance(HOUR);
      expect(await api().engine.webhooks.deliverDue()).toMatchObject({ claimed: 0 });
    });

    test('a failed retry counts as a failure and the next automatic attempt follows the schedule from now', async () => {
      const { receiver, created, delivery } = await failedOnce(503);
      const r = await api().post(retryPath(created.id, delivery.id));
      expect(r.status, JSON.stringify(r.body)).toBe(200);
      expect(r.body).toMatchObject({
        status: 'pending',
        attempt: 2,
        status_code: 503,
        error: 'HTTP 503',
        next_retry_at: new Date(clock.now() + 30 * 60_000).toISOString(),
      });
      expect(await webhookOf(created.id)).toMatchObject({ consecutive_failures: 2 });
      expect(receiver.receipts).toHaveLength(2);
      clock.advance(30 * 60_000);
      receiver.status = 200;
      expect(await api().engine.webhooks.deliverDue()).toMatchObject({ succeeded: 1 });
      expect(await webhookOf(created.id)).toMatchObject({ consecutive_failures: 0 });
    });

    test('a succeeded delivery can be re-sent: attempt + 1, still succeeded', async () => {
      const { receiver, created, delivery } = await failedOnce(200);
      expect(delivery).toMatchObject({ status: 'succeeded', attempt: 1 });
      const r = await api().post(retryPath(created.id, delivery.id));
      expect(r.body).toMatchObject({ status: 'succeeded', attempt: 2, next_retry_at: null });
      expect(receiver.receipts).toHaveLength(2);
    });

    test('after 5 failures the webhook is deactivated (409 on retry); re-activated, a retry is attempt 6', async () => {
      const { receiver, created, delivery } = await failedOnce(500);
      for (const minutes of [5, 30, 120, 1440]) {
        clock.advance(minutes * 60_000);
        await api().engine.webhooks.deliverDue();
      }
      expect(await webhookOf(created.id)).toMatchObject({ is_active: false, consecutive_failures: 5 });
      const list = await api().get(`/v1/admin/webhooks/${created.id}/deliveries`);
      expect(list.body.data[0]).toMatchObject({ status: 'failed', attempt: 5 });
      expect(receiver.receipts).toHaveLength(5);

      expectError(await api().post(retryPath(created.id, delivery.id)), 409, 'invalid_state_transition');
      expect(receiver.receipts).toHaveLength(5);

      await api().patch(`/v1/admin/webhooks/${created.id}`, { is_active: true });
      receiver.status = 200;
      const r = await api().post(retryPath(created.id, delivery.id));
      expect(r.status, JSON.stringify(r.body)).toBe(200);
      expect(r.body).toMatchObject({ status: 'succeeded', attempt: 6, status_code: 200 });
      expect(r.body.attempts).toHaveLength(6);
      expect(receiver.receipts).toHaveLength(6);
    });

    test('a failed retry past the 5 automatic attempts leaves the delivery failed, with no automatic retry', async () => {
      const { receiver, created, delivery } = await failedOnce(500);
      for (const minutes of [5, 30, 120, 1440]) {
        clock.advance(minutes * 60_000);
        await api().engine.webhooks.deliverDue();
      }
      await api().patch(`/v1/admin/webhooks/${created.id}`, { is_active: true });
      const r = await api().post(retryPath(created.id, delivery.id));
      expect(r.body).toMatchObject({ status: 'failed', attempt: 6, next_retry_at: null });
      expect(await webhookOf(created.id)).toMatchObject({ consecutive_failures: 1, is_active: true });
      expect(receiver.receipts).toHaveLength(6);
    });

    test('a delivery of another webhook, unknown ids and other modes → 404; publishable key → 403', async () => {
      const { created, delivery } = await failedOnce(200);
      const other = await createWebhook(api(), 'https://hooks.example.com/other');
      expectError(await api().post(retryPath(other.id, delivery.id)), 404, 'not_found');
      expectError(await api().post(retryPath(created.id, 'whd_doesnotexist')), 404, 'not_found');
      expectError(await api().post(retryPath('wh_doesnotexist', delivery.id)), 404, 'not_found');
      expectError(await api().post(retryPath(created.id, 'not an id')), 404, 'not_found');
      expectError(
        await api().post(retryPath(created.id, delivery.id), undefined, { key: api().keys.liveSecret }),
        404,
        'not_found',
      );
      expectError(await api().storefront.post(retryPath(created.id, delivery.id)), 403, 'forbidden');
    });

    test('a delivery a worker is sending at that moment → 409; once recorded, the retry goes out', async () => {
      const { receiver, created, delivery } = await failedOnce(500);
      receiver.status = 200;
      receiver.delayMs = 1500;
      clock.advance(5 * 60_000); // the automatic retry is due
      const worker = api().engine.webhooks.deliverDue();
      const deadline = Date.now() + 5000;
      while (receiver.receipts.length < 2 && Date.now() < deadline)
        await new Promise((r) => setTimeout(r, 20));
      expect(receiver.receipts).toHaveLength(2);
      expectError(await api().post(retryPath(created.id, delivery.id)), 409, 'invalid_state_transition');
      expect(await worker).toMatchObject({ succeeded: 1 });
      receiver.delayMs = 0;
      const r = await api().post(retryPath(created.id, delivery.id));
      expect(r.body).toMatchObject({ status: 'succeeded', attempt: 3 });
      expect(receiver.receipts).toHaveLength(3);
    });

    test('with an Idempotency-Key a replay returns the same delivery and sends nothing more', async () => {
      const { receiver, created, delivery } = await failedOnce(500);
      receiver.status = 200;
      const key = `retry-${randomBytes(6).toString('hex')}`;
      const first = await api().post(retryPath(created.id, delivery.id), undefined, { idempotencyKey: key });
      const replay = await api().post(retryPath(created.id, delivery.id), undefined, { idempotencyKey: key });
      expect(first.status, JSON.stringify(first.body)).toBe(200);
      expect(replay.status).toBe(200);
      expect(replay.body).toEqual(first.body);
      expect(receiver.receipts).toHaveLength(2);
    });
  },
  engineOptions,
);
