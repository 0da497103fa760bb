import { CommerceError } from '@cartwright/core';
import { describe, expect, it, vi } from 'vitest';
import { createHandler } from '../src/create-handler';
import type { IdempotencyRunner, IdempotentRequest, StoredResponse } from '../src/engine-port';
import { canonicalJson } from '../src/pipeline';
import { createTestEngine, KEYS, TOKENS } from './support/test-engine';
import { testRoutes } from './support/test-routes';

/** A minimal in-memory runner with the contract the pipeline relies on (the real one lives in the engine). */
function memoryRunner() {
  const stored = new Map<string, { hash: string; response: StoredResponse }>();
  const runner: IdempotencyRunner = {
    async run({ scope, caller, key, request, bodyHash }, execute) {
      const id = `${scope.store_id}/${scope.mode}/${caller.key_id}/${caller.customer_id}/${key}`;
      const previous = stored.get(id);
      if (previous !== undefined) {
        if (previous.hash !== `${request} ${bodyHash}`) {
          throw new CommerceError('idempotency_key_reused', 'This key was used with another request.');
        }
        return { ...previous.response, replayed: true };
      }
      const response = await execute(scope);
      stored.set(id, { hash: `${request} ${bodyHash}`, response });
      return response;
    },
  };
  return { runner: { run: vi.fn(runner.run) }, stored };
}

const post = (path: string, body: unknown, key?: string, extra: Record<string, string> = {}) =>
  new Request(`http://x${path}`, {
    method: 'POST',
    headers: {
      Authorization: `Bearer ${KEYS.secret}`,
      'Content-Type': 'application/json',
      ...(key === undefined ? {} : { 'Idempotency-Key': key }),
      ...extra,
    },
    body: typeof body === 'string' ? body : JSON.stringify(body),
  });

describe('idempotency hook', () => {
  it('POST with Idempotency-Key runs through engine.idempotency.run with scope, caller, key, request and body hash', async () => {
    const { runner } = memoryRunner();
    const handler = createHandler(createTestEngine({ idempotency: runner }), { routes: testRoutes });
    const res = await handler(post('/v1/admin/orders', { note: 'a' }, 'k1'));
    expect(res.status).toBe(201);
    expect(runner.run).toHaveBeenCalledTimes(1);
    const request = runner.run.mock.calls[0]?.[0] as IdempotentRequest;
    expect(request.scope).toEqual({ store_id: 'store_1', mode: 'test' });
    expect(request.caller).toEqual({ key_id: 'key_secret', customer_id: null });
    expect(request.key).toBe('k1');
    expect(request.request).toBe('POST /v1/admin/orders');
    expect(request.bodyHash).toMatch(/^[0-9a-f]{64}$/);
  });

  it('the body hash is of canonical JSON: key order and whitespace do not matter, values do', async () => {
    const { runner } = memoryRunner();
    const handler = createHandler(createTestEngine({ idempotency: runner }), { routes: testRoutes });
    const first = await handler(post('/v1/admin/echo', '{"a":1,"b":{"y":[1,{"q":2,"p":1}],"x":"é"}}', 'k7'));
    expect(first.status).toBe(200);
    const reordered = await handler(
      post('/v1/admin/echo', ' { "b" : { "x":"\u00e9", "y" : [ 1 , {"p":1,"q":2} ] } ,\n "a" : 1 } ', 'k7'),
    );
    expect(reordered.status).toBe(200);
    expect(reordered.headers.get('idempotent-replayed')).toBe('true');
    expect(await reordered.text()).toBe(await first.text());
    const hashes = runner.run.mock.calls.map((call) => (call[0] as IdempotentRequest).bodyHash);
    expect(hashes[0]).toBe(hashes[1]);
    // Array order is part of the value.
    const other = await handler(post('/v1/admin/echo', '{"a":1,"b":{"y":[{"q":2,"p":1},1],"x":"é"}}', 'k7'));
    expect(other.status).toBe(409);
    expect(canonicalJson({ b: [2, { d: null, c: 'x' }], a: true })).toBe(
      '{"a":true,"b":[2,{"c":"x","d":null}]}',
    );
  });

  it('the caller is the API key and the customer of the customer token', async () => {
    const { runner } = memoryRunner();
    const handler = createHandler(createTestEngine({ idempotency: runner }), { routes: testRoutes });
    const merged = await handler(
      post('/v1/storefront/carts/cart_1/merge', {}, 'k8', { 'X-Customer-Token': TOKENS.active }),
    );
    expect(merged.status).toBe(200);
    const withToken = runner.run.mock.calls[0]?.[0] as IdempotentRequest;
    expect(withToken.caller).toEqual({ key_id: 'key_secret', customer_id: 'cus_active' });
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
    expect(stored.get('store_1/test/key_secret/null/k3')?.response.status).toBe(402);
    const crash = await handler(post('/v1/admin/crash', {}, 'k4'));
    expect(crash.status).toBe(500);
    expect(stored.has('store_1/test/key_secret/null/k4')).toBe(false);
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
