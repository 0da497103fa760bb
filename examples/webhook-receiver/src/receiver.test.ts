import { createHmac } from 'node:crypto';
import type { Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { createNodeWebhookTransport } from '@cartwright/webhooks';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { createWebhookReceiver, type WebhookEvent } from './receiver';

const secret = 'whsec_exampleReceiverSecret0123456789abcdefghijkl';
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

/** Signs like Cartwright does, independently: hex HMAC-SHA256 of the body keyed with the whole secret. */
const sign = (body: string, key = secret) => createHmac('sha256', key).update(body).digest('hex');

function event(id: string): string {
  return JSON.stringify({
    id,
    type: 'order.created',
    created_at: '2024-05-01T12:00:00.000Z',
    data: { id: 'ord_1', number: 1001 },
    store_id: 'store_1',
  });
}

async function post(body: string, signature: string | null, id = 'evt_x') {
  const headers: Record<string, string> = { 'content-type': 'application/json', 'x-webhook-id': id };
  if (signature !== null) headers['x-webhook-signature'] = signature;
  const res = await fetch(url, { method: 'POST', headers, body });
  return { status: res.status, text: await res.text() };
}

describe('example webhook receiver', () => {
  test('accepts a correctly signed event and hands it to onEvent', async () => {
    const body = event('evt_ok');
    expect(await post(body, sign(body), 'evt_ok')).toEqual({ status: 200, text: 'ok' });
    expect(received.map((e) => e.id)).toContain('evt_ok');
  });

  test('refuses a tampered body, a wrong secret and a missing signature with 400', async () => {
    const body = event('evt_bad');
    expect((await post(body.replace('1001', '1002'), sign(body), 'evt_bad')).status).toBe(400);
    expect((await post(body, sign(body, 'whsec_wrong'), 'evt_bad')).status).toBe(400);
    expect((await post(body, null, 'evt_bad')).status).toBe(400);
    expect(received.map((e) => e.id)).not.toContain('evt_bad');
  });

  test('a repeated delivery of the same event id is acknowledged but handled once', async () => {
    const body = event('evt_twice');
    expect((await post(body, sign(body), 'evt_twice')).status).toBe(200);
    expect(await post(body, sign(body), 'evt_twice')).toEqual({ status: 200, text: 'duplicate ignored' });
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
      headers: {
        'content-type': 'application/json',
        'x-webhook-id': 'evt_transport',
        'x-webhook-signature': sign(body),
      },
      timeout_ms: 2000,
    });
    expect(result.status_code).toBe(200);
    expect(received.map((e) => e.id)).toContain('evt_transport');
  });
});
