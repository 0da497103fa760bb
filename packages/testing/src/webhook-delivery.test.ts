import { createHmac } from 'node:crypto';
import { engineInternals } from '@cartwright/core/internal';
import type { WebhookTransport } from '@cartwright/core/providers';
import { afterEach, describe, expect, test } from 'vitest';
import { type CaptureTransport, createCaptureTransport } from './capture-transport';
import { expectCode } from './commerce-error.test-support';
import { createTestEngine, type TestEngine } from './create-test-engine';

/**
 * Webhook delivery at engine level (docs/contract.md#webhook-delivery): URL checks, deactivation
 * after 5 consecutive failures with its notification, manual retries, secret rotation, test sends,
 * the worker loop, and a stop requested mid-batch — core's webhook service and dispatcher on a real
 * SQLite with the capture transport.
 */

let t: TestEngine | undefined;
afterEach(async () => {
  await t?.close();
  t = undefined;
});

async function engineWith(
  transport: WebhookTransport | null,
  config: { allow_private_webhooks?: boolean } = {},
) {
  t = await createTestEngine({
    ...(transport !== null && { webhookTransport: transport }),
    config,
  });
  return t;
}

const URL = 'https://hooks.example.com/in';

describe('webhook URLs and the webhook API', () => {
  test('a URL the transport refuses is 422 url_not_allowed (create and update) unless allow_private_webhooks', async () => {
    const capture = createCaptureTransport();
    const refusing: WebhookTransport = {
      send: capture.send,
      checkUrl: async (url) =>
        url.includes('10.0.0.1') ? { allowed: false, reason: 'private address' } : { allowed: true },
    };
    const e = await engineWith(refusing);
    const error = await expectCode(
      e.store.webhooks.create({ url: 'https://10.0.0.1/in', events: ['*'] }),
      'url_not_allowed',
    );
    expect(error.param).toBe('url');
    expect(error.message).toContain('private address');
    const hook = await e.store.webhooks.create({ url: URL, events: ['*'] });
    await expectCode(e.store.webhooks.update(hook.id, { url: 'https://10.0.0.1/x' }), 'url_not_allowed');
    expect((await e.store.webhooks.get(hook.id)).url).toBe(URL);
    await e.close();

    const allowed = await engineWith(refusing, { allow_private_webhooks: true });
    expect((await allowed.store.webhooks.create({ url: 'https://10.0.0.1/in', events: ['*'] })).url).toBe(
      'https://10.0.0.1/in',
    );
  });

  test('unknown webhooks are 404 not_found for get, update, delete, deliveries, rotate, retry and test', async () => {
    const e = await engineWith(createCaptureTransport());
    const internals = engineInternals(e.engine).webhooks;
    await expectCode(e.store.webhooks.get('wh_nope'), 'not_found');
    await expectCode(e.store.webhooks.update('wh_nope', { metadata: {} }), 'not_found');
    await expectCode(e.store.webhooks.delete('wh_nope'), 'not_found');
    await expectCode(e.store.webhooks.listDeliveries('wh_nope'), 'not_found');
    await expectCode(e.store.webhooks.test('wh_nope', { event_type: 'order.created' }), 'not_found');
    await expectCode(internals.rotateSecret(e.scope, 'wh_nope'), 'not_found');
    await expectCode(internals.retryDelivery(e.scope, 'wh_nope', 'whd_nope'), 'not_found');
    const hook = await e.store.webhooks.create({ url: URL, events: ['*'] });
    await expectCode(internals.retryDelivery(e.scope, hook.id, 'whd_nope'), 'not_found');
  });

  test('update replaces url and metadata; deactivating cancels pending deliveries; deleting cancels them too', async () => {
    const capture = createCaptureTransport(500);
    const e = await engineWith(capture);
    const hook = await e.store.webhooks.create({ url: URL, events: ['customer.created'] });
    const updated = await e.store.webhooks.update(hook.id, {
      url: 'https://hooks.example.com/v2',
      metadata: { team: 'ops' },
    });
    expect(updated).toMatchObject({ url: 'https://hooks.example.com/v2', metadata: { team: 'ops' } });

    await e.fixtures.customer();
    expect((await e.engine.webhooks.deliverDue()).failed).toBe(1);
    const [pending] = (await e.store.webhooks.listDeliveries(hook.id)).data;
    expect(pending).toMatchObject({ status: 'pending', attempt: 1, status_code: 500 });
    expect(pending?.next_retry_at).not.toBeNull();
    expect(pending?.attempts).toMatchObject([{ attempt: 1, succeeded: false, status_code: 500 }]);

    expect((await e.store.webhooks.update(hook.id, { is_active: false })).is_active).toBe(false);
    const [cancelled] = (await e.store.webhooks.listDeliveries(hook.id)).data;
    expect(cancelled?.status).not.toBe('pending');
    expect(cancelled?.next_retry_at).toBeNull();
    e.clock.advance('1h');
    capture.respondWith(200);
    expect((await e.engine.webhooks.deliverDue()).claimed).toBe(0);
  });
});

describe('deliveries: failures, deactivation, retry', () => {
  async function failingHook(capture: CaptureTransport, customers: number) {
    const e = await engineWith(capture);
    const hook = await e.store.webhooks.create({ url: URL, events: ['customer.created'] });
    for (let i = 0; i < customers; i++) await e.fixtures.customer();
    return { e, hook };
  }

  test('the 5th consecutive failure deactivates the webhook, releases the rest, cancels its deliveries and writes a notification', async () => {
    const capture = createCaptureTransport(503);
    const { e, hook } = await failingHook(capture, 6);
    const result = await e.engine.webhooks.deliverDue();
    expect(result).toMatchObject({
      claimed: 6,
      failed: 5,
      succeeded: 0,
      released: 1,
      deactivated: [hook.id],
    });
    expect(capture.deliveries).toHaveLength(5);
    expect(await e.store.webhooks.get(hook.id)).toMatchObject({ is_active: false });

    const notes = (await e.store.webhooks.listNotifications()).data;
    expect(notes).toHaveLength(1);
    expect(notes[0]).toMatchObject({
      type: 'webhook.deactivated',
      data: { webhook_id: hook.id, url: URL, consecutive_failures: 5 },
    });
    expect(notes[0]?.message).toContain('re-activate it with PATCH');

    const deliveries = (await e.store.webhooks.listDeliveries(hook.id)).data;
    expect(deliveries.every((d) => d.status !== 'pending')).toBe(true);
    // Retrying a delivery of a deactivated webhook is refused (409).
    await expectCode(
      engineInternals(e.engine).webhooks.retryDelivery(e.scope, hook.id, deliveries[0]!.id),
      'invalid_state_transition',
    );

    // Re-activated: failures reset; a manual retry is sent at once and counted.
    capture.respondWith(200);
    const active = await e.store.webhooks.update(hook.id, { is_active: true });
    expect(active).toMatchObject({ is_active: true });
    const target = deliveries.find((d) => d.attempt === 1)!;
    const retried = await engineInternals(e.engine).webhooks.retryDelivery(e.scope, hook.id, target.id);
    expect(retried).toMatchObject({ id: target.id, status: 'succeeded', attempt: 2, status_code: 200 });
    expect(retried.attempts.map((a) => a.attempt)).toEqual([1, 2]);
    expect(capture.deliveries).toHaveLength(6);
  });

  test('a transport that throws is recorded as a failed attempt with its error', async () => {
    const throwing: WebhookTransport = {
      send: async () => {
        throw new Error('EHOSTUNREACH');
      },
    };
    const e = await engineWith(throwing);
    const hook = await e.store.webhooks.create({ url: URL, events: ['customer.created'] });
    await e.fixtures.customer();
    const reports: unknown[] = [];
    const result = await e.engine.webhooks.deliverDue({ onAttempt: (r) => reports.push(r) });
    expect(result.failed).toBe(1);
    expect(reports).toMatchObject([
      { outcome: 'failed', status_code: null, error: 'transport error: EHOSTUNREACH' },
    ]);
    const [delivery] = (await e.store.webhooks.listDeliveries(hook.id)).data;
    expect(delivery).toMatchObject({ status_code: null, error: 'transport error: EHOSTUNREACH' });
  });

  test('a stop requested before the claim claims nothing; one requested mid-batch releases the unsent deliveries', async () => {
    const capture = createCaptureTransport(200);
    const e = await engineWith(capture);
    await e.store.webhooks.create({ url: URL, events: ['customer.created'] });
    for (let i = 0; i < 3; i++) await e.fixtures.customer();

    const stopped = await e.engine.webhooks.deliverDue({ signal: { aborted: true } });
    expect([stopped.claimed, capture.deliveries.length]).toEqual([0, 0]);

    // The first attempt of the webhook is sent alone; the stop arrives with its report.
    const signal = { aborted: false };
    const midway = await e.engine.webhooks.deliverDue({
      signal,
      onAttempt: () => {
        signal.aborted = true;
      },
    });
    expect(midway).toMatchObject({ claimed: 3, succeeded: 1, released: 2 });
    // Released deliveries are due again at once.
    const rest = await e.engine.webhooks.deliverDue();
    expect([rest.claimed, rest.succeeded]).toEqual([2, 2]);
    expect(new Set(capture.deliveries.map((d) => d.event.id)).size).toBe(3);
  });
});

describe('secrets, test sends and the worker', () => {
  test('rotating the secret: the new one signs X-Webhook-Signature, both sign webhook-signature during the overlap', async () => {
    const capture = createCaptureTransport();
    const e = await engineWith(capture);
    const hook = await e.store.webhooks.create({ url: URL, events: ['customer.created'] });
    const rotated = await engineInternals(e.engine).webhooks.rotateSecret(e.scope, hook.id);
    expect(rotated.secret).toMatch(/^whsec_/);
    expect(rotated.secret).not.toBe(hook.secret);

    await e.fixtures.customer();
    await e.engine.webhooks.deliverDue();
    const [delivery] = capture.deliveries;
    const hex = createHmac('sha256', rotated.secret ?? '')
      .update(delivery?.body ?? '')
      .digest('hex');
    expect(delivery?.headers['x-webhook-signature']).toBe(hex);
    expect(delivery?.headers['webhook-signature']?.split(' ')).toHaveLength(2);

    // After 24 h the previous secret no longer signs.
    e.clock.advance('25h');
    await e.fixtures.customer();
    await e.engine.webhooks.deliverDue();
    expect(capture.deliveries[1]?.headers['webhook-signature']?.split(' ')).toHaveLength(1);
  });

  test('test(): one signed sample event, reported, recorded nowhere', async () => {
    const capture = createCaptureTransport(204);
    const e = await engineWith(capture);
    const hook = await e.store.webhooks.create({ url: URL, events: ['order.created'] });
    const result = await e.store.webhooks.test(hook.id, { event_type: 'order.created' });
    expect(result).toEqual({ success: true, status_code: 204, response_time_ms: 0 });
    expect(capture.deliveries).toHaveLength(1);
    expect(capture.deliveries[0]?.event).toMatchObject({ type: 'order.created', store_id: e.scope.store_id });
    expect(capture.deliveries[0]?.headers['webhook-id']).toBe(capture.deliveries[0]?.event.id);
    capture.respondWith(500);
    expect((await e.store.webhooks.test(hook.id, { event_type: 'order.created' })).success).toBe(false);
    expect((await e.store.webhooks.listDeliveries(hook.id)).data).toEqual([]);
    expect((await e.store.webhooks.get(hook.id)).is_active).toBe(true);
  });

  test('without a transport, sending (deliverDue, test, worker) throws; creating is allowed', async () => {
    const e = await engineWith(null);
    const hook = await e.store.webhooks.create({ url: URL, events: ['*'] });
    await expect(e.engine.webhooks.deliverDue()).rejects.toThrow(/No webhook transport is configured/);
    await expect(e.store.webhooks.test(hook.id, { event_type: 'order.created' })).rejects.toThrow(
      /No webhook transport is configured/,
    );
    expect(() => e.engine.webhooks.startWorker()).toThrow(/No webhook transport is configured/);
  });

  test('the worker delivers due events until stopped', async () => {
    const capture = createCaptureTransport();
    const e = await engineWith(capture);
    await e.store.webhooks.create({ url: URL, events: ['customer.created'] });
    await e.fixtures.customer();
    const attempts: string[] = [];
    const worker = e.engine.webhooks.startWorker({
      intervalMs: 5,
      workerId: 'wrk_test',
      limit: 1,
      onAttempt: (report) => attempts.push(report.outcome),
      onError: (error) => attempts.push(`error: ${String(error)}`),
    });
    expect(worker.workerId).toBe('wrk_test');
    for (let i = 0; i < 200 && attempts.length === 0; i++) await new Promise((r) => setTimeout(r, 5));
    await worker.stop();
    expect(attempts).toEqual(['succeeded']);
    expect(capture.deliveries).toHaveLength(1);
  });
});
