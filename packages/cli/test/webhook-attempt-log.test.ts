import { mkdtempSync, rmSync } from 'node:fs';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { call, eventually, type ServeProcess, startServe, stop } from './support/serve-process';

/**
 * Operators see one log line per webhook delivery attempt: `cartwright serve` with its
 * in-process worker delivers to a receiver on loopback that fails twice, then answers 200.
 */
const SECRET = 'sk_test_webhookAttemptLog00000000000001';

describe('webhook delivery attempts in the log', () => {
  const dir = mkdtempSync(join(tmpdir(), 'cartwright-attempt-log-'));
  let receiver: Server;
  let receiverUrl: string;
  let server: ServeProcess;
  let answered = 0;

  beforeAll(async () => {
    receiver = createServer((req, res) => {
      req.resume();
      req.on('end', () => {
        answered += 1;
        res.writeHead(answered <= 2 ? 503 : 200).end();
      });
    });
    await new Promise<void>((resolve) => receiver.listen(0, '127.0.0.1', resolve));
    receiverUrl = `http://127.0.0.1:${(receiver.address() as AddressInfo).port}/hook`;
    server = await startServe(
      join(dir, 'shop.db'),
      {
        COMMERCE_API_KEYS: SECRET,
        COMMERCE_ALLOW_PRIVATE_WEBHOOKS: '1',
        COMMERCE_WEBHOOK_RETRY_DELAYS: '0,0,0,0,0',
        LOG_LEVEL: 'info',
      },
      [],
    );
  });
  afterAll(async () => {
    await stop(server);
    await new Promise<void>((resolve) => receiver.close(() => resolve()));
    rmSync(dir, { recursive: true, force: true });
  });

  test('two failed attempts (warn, with the error and the next attempt) then one delivered (info)', async () => {
    const hook = await call(server, 'POST', '/v1/admin/webhooks', SECRET, {
      url: receiverUrl,
      events: ['product.created'],
    });
    expect(hook.status).toBe(200);
    const product = await call(server, 'POST', '/v1/admin/products', SECRET, { name: 'Logged tee' });
    expect(product.status).toBe(200);

    const lines = await eventually(
      async () => {
        const attempts = server
          .output()
          .split('\n')
          .filter((line) => line.includes('"delivery_id"'))
          .map((line) => JSON.parse(line) as Record<string, unknown>);
        return attempts.some((a) => a.outcome === 'succeeded') ? attempts : undefined;
      },
      20_000,
      'a delivered attempt in the log',
    );
    expect(lines.map((a) => [a.attempt, a.outcome, a.status_code, a.msg])).toEqual([
      [1, 'failed', 503, 'webhook attempt failed'],
      [2, 'failed', 503, 'webhook attempt failed'],
      [3, 'succeeded', 200, 'webhook delivered'],
    ]);
    const [first, , last] = lines as [Record<string, unknown>, unknown, Record<string, unknown>];
    expect(first).toMatchObject({
      level: 40,
      webhook_id: hook.body.id,
      error: expect.stringContaining('503'),
    });
    expect(typeof first.next_attempt_at).toBe('string');
    expect(first.event_id).toBe(last.event_id);
    expect(last).toMatchObject({ level: 30, delivery_id: first.delivery_id });
    expect(last).not.toHaveProperty('error');
    expect(typeof last.duration_ms).toBe('number');
  });
});
