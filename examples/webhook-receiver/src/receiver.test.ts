import { createHmac } from 'node:crypto';
import type { Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { createNodeWebhookTransport } from '@cartwright/webhooks';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { createWebhookReceiver, type WebhookEvent } from './receiver';

// A secret as Cartwright makes them: whsec_ + standard base64 of 32 random bytes.
const secret = `whsec_${Buffer.alloc(32, 7).toString('base64')}`;
const received: WebhookEvent[] = [];
let server: Server;
let url: string;

beforeAll(async () => {
  server = createWebhookReceiver({ secret, onEvent: (event) => void received.push(event) });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  url = `http://127.0.0.1:${(server.address() as AddressInfo).port}/webhooks`;
});
afterAll(async () => {
  server.closeAllConnections();
  await new Promise<void>((resolve) => server.close(() => resolve()));
});

const now = () => Math.floor(Date.now() / 1000);

/**
 * The Standard Webhooks headers as Cartwright sends them, computed independently: `v1,` + base64
 * HMAC-SHA256 of `{id}.{timestamp}.{body}`, keyed with the base64-decoded part after `whsec_`.
 */
function sign(body: string, id: string, options: { key?: string; timestamp?: number } = {}) {
  const timestamp = String(options.timestamp ?? now());
  const key = Buffer.from((options.key ?? secret).slice('whsec_'.length), 'base64');
  const mac = createHmac('sha256', key).update(`${id}.${timestamp}.${body}`).digest('base64');
  return { 'webhook-id': id, 'webhook-timestamp': timestamp, 'webhook-signature': `v1,${mac}` };
}

function event(id: string): string {
  return JSON.stringify({
    id,
    type: 'order.created',
    created_at: '2024-05-01T12:00:00.000Z',
    data: { id: 'ord_1', number: 1001 },
    store_id: 'store_1',
  });
}

async function post(body: string, signed: Record<string, string> | null) {
  const headers: Record<string, string> = { 'content-type': 'application/json', ...signed };
  const res = await fetch(url, { method: 'POST', headers, body });
  return { status: res.status, text: await res.text() };
}

describe('example webhook receiver', () => {
  test('accepts a correctly signed event and hands it to onEvent', async () => {
    const body = event('evt_ok');
    expect(await post(body, sign(body, 'evt_ok'))).toEqual({ status: 200, text: 'ok' });
    expect(received.map((e) => e.id)).toContain('evt_ok');
  });

  test('refuses a tampered body, a wrong secret, a replay and a missing signature with 400', async () => {
    const body = event('evt_bad');
    const other = `whsec_${Buffer.alloc(32, 9).toString('base64')}`;
    expect((await post(body.replace('1001', '1002'), sign(body, 'evt_bad'))).status).toBe(400);
    expect((await post(body, sign(body, 'evt_bad', { key: other }))).status).toBe(400);
    // A delivery captured 10 minutes ago and sent again: the signature is right, the time is not.
    expect((await post(body, sign(body, 'evt_bad', { timestamp: now() - 600 }))).status).toBe(400);
    expect((await post(body, null)).status).toBe(400);
    expect(received.map((e) => e.id)).not.toContain('evt_bad');
  });

  test('a repeated delivery of the same event id is acknowledged but handled once', async () => {
    const body = event('evt_twice');
    expect((await post(body, sign(body, 'evt_twice'))).status).toBe(200);
    expect(await post(body, sign(body, 'evt_twice'))).toEqual({ status: 200, text: 'duplicate ignored' });
    expect(received.filter((e) => e.id === 'evt_twice')).toHaveLength(1);
  });

  test('only POST on /webhooks', async () => {
    expect((await fetch(url)).status).toBe(405);
    expect((await fetch(url.replace('/webhooks', '/other'), { method: 'POST' })).status).toBe(404);
  });

  test('receives a delivery sent by the Node transport of @cartwright/webhooks', async () => {
    const body = event('evt_transport');
    const result = await createNodeWebhookTransport({ allowPrivate: true }).send({
      url,
      body,
      headers: { 'content-type': 'application/json', ...sign(body, 'evt_transport') },
      timeout_ms: 2000,
    });
    expect(result.status_code).toBe(200);
    expect(received.map((e) => e.id)).toContain('evt_transport');
  });
});
