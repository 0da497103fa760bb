import { CommerceError } from '@cartwright/core';
import { describe, expect, it, vi } from 'vitest';
import { createHandler } from '../src/create-handler';
import type { IdempotencyRunner, StoredResponse } from '../src/engine-port';
import { createTestEngine, KEYS } from './support/test-engine';
import { testRoutes } from './support/test-routes';

/** A minimal in-memory runner with the contract the pipeline relies on (the real one lives in the engine). */
function memoryRunner() {
  const stored = new Map<string, { hash: string; response: StoredResponse }>();
  const runner: IdempotencyRunner = {
    async run(scope, key, request, bodyHash, execute) {
      const id = `${scope.store_id}/${scope.mode}/${key}`;
      const previous = stored.get(id);
      if (previous !== undefined) {
        if (previous.hash !== `${request} ${bodyHash}`) {
          throw new CommerceError('idempotency_key_reused', 'This key was used with another request.');
        }
        return { ...previous.response, replayed: true };
      }
      const response = await execute();
      stored.set(id, { hash: `${request} ${bodyHash}`, response });
      return response;
    },
  };
  return { runner: { run: vi.fn(runner.run) }, stored };
}

const post = (path: string, body: unknown, key?: string) =>
  new Request(`http://x${path}`, {
    method: 'POST',
    headers: {
      Authorization: `Bearer ${KEYS.secret}`,
      'Content-Type': 'application/json',
      ...(key === undefined ? {} : { 'Idempotency-Key': key }),
    },
    body: JSON.stringify(body),
  });

describe('idempotency hook', () => {
  it('POST with Idempotency-Key runs through engine.idempotency.run with scope, key, request and body hash', async () => {
    const { runner } = memoryRunner();
    const handler = createHandler(createTestEngine({ idempotency: runner }), { routes: testRoutes });
    const res = await handler(post('/v1/admin/orders', { note: 'a' }, 'k1'));
    expect(res.status).toBe(201);
    expect(runner.run).toHaveBeenCalledTimes(1);
    const [scope, key, request, hash] = runner.run.mock.calls[0] as unknown as [
      unknown,
      string,
      string,
      string,
    ];
    expect(scope).toEqual({ store_id: 'store_1', mode: 'test' });
    expect(key).toBe('k1');
    expect(request).toBe('POST /v1/admin/orders');
    expect(hash).toMatch(/^[0-9a-f]{64}$/);
  });

  it('the same key and body replays the first response (Idempotent-Replayed: true); another body → 409', async () => {
    const { runner } = memoryRunner();
    const handler = createHandler(createTestEngine({ idempotency: runner }), { routes: testRoutes });
    const first = await handler(post('/v1/admin/echo', { n: 1 }, 'k2'));
    const firstBody = await first.text();
    const again = await handler(post('/v1/admin/echo', { n: 1 }, 'k2'));
    expect(again.status).toBe(200);
    expect(again.headers.get('idempotent-replayed')).toBe('true');
    expect(await again.text()).toBe(firstBody);
    const other = await handler(post('/v1/admin/echo', { n: 2 }, 'k2'));
    expect(other.status).toBe(409);
    expect(((await other.json()) as { error: { code: string } }).error.code).toBe('idempotency_key_reused');
  });

  it('domain errors are stored and replayed; unexpected errors are not stored', async () => {
    const { runner, stored } = memoryRunner();
    const handler = createHandler(createTestEngine({ idempotency: runner }), {
      routes: testRoutes,
      onError: () => undefined,
    });
    const declined = await handler(post('/v1/admin/fail/payment_failed', {}, 'k3'));
    expect(declined.status).toBe(402);
    expect(stored.get('store_1/test/k3')?.response.status).toBe(402);
    const crash = await handler(post('/v1/admin/crash', {}, 'k4'));
    expect(crash.status).toBe(500);
    expect(stored.has('store_1/test/k4')).toBe(false);
  });

  it('is not used without a key, for other methods, or when validation fails', async () => {
    const { runner } = memoryRunner();
    const handler = createHandler(createTestEngine({ idempotency: runner }), { routes: testRoutes });
    await handler(post('/v1/admin/orders', {}));
    await handler(
      new Request('http://x/v1/admin/things/thing_1', {
        headers: { Authorization: `Bearer ${KEYS.secret}`, 'Idempotency-Key': 'k5' },
      }),
    );
    const invalid = await handler(post('/v1/admin/orders', { bogus: true }, 'k6'));
    expect(invalid.status).toBe(400);
    expect(runner.run).not.toHaveBeenCalled();
  });
});
