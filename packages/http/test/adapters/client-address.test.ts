import { createEngine, type Engine } from '@cartwright/core';
import { sqliteStorage } from '@cartwright/storage-kysely/sqlite';
import { Hono } from 'hono';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createHonoApp } from '../../src/adapters/hono';
import { createApiHandler } from '../../src/api';

/**
 * The client address reaches the per-address rate limits through every way in (docs/contract.md#rate-limits):
 * the fetch handler's `context.clientAddress`, and Hono on @hono/node-server (its Node request's
 * socket). A publishable key has one token per address here.
 */
const KEY = 'pk_test_clientAddressTests0000000000001';
let engine: Engine;

beforeAll(async () => {
  engine = await createEngine({
    storage: sqliteStorage({ filename: ':memory:' }),
    rateLimits: { publishable_key: { limit: 1, window_seconds: 3600 } },
  });
  const scope = await engine.scopeFor('test');
  await engine.apiKeys.register(scope.store_id, KEY);
});
afterAll(async () => engine.close());

const request = () =>
  new Request('http://shop.test/v1/storefront/products', { headers: { authorization: `Bearer ${KEY}` } });

describe('the fetch handler', () => {
  it('counts a publishable key per context.clientAddress, and not at all without one', async () => {
    const handler = createApiHandler(engine);
    const first = await handler(request(), { clientAddress: '203.0.113.50' });
    expect(first.status).toBe(200);
    expect(first.headers.get('ratelimit-remaining')).toBe('0');
    expect((await handler(request(), { clientAddress: '203.0.113.50' })).status).toBe(429);
    expect((await handler(request(), { clientAddress: '203.0.113.51' })).status).toBe(200);
    const unknown = await handler(request());
    expect(unknown.status).toBe(200);
    expect(unknown.headers.get('ratelimit-limit')).toBeNull();
  });

  it('HEAD answers with the GET headers and no body', async () => {
    const handler = createApiHandler(engine);
    const head = await handler(new Request('http://shop.test/v1/openapi.json', { method: 'HEAD' }));
    expect(head.status).toBe(200);
    expect(await head.text()).toBe('');
    expect(head.headers.get('content-type')).toMatch(/json/);
  });
});

describe('Hono on @hono/node-server', () => {
  it('takes the address of the Node request in c.env.incoming: the second request from one address → 429', async () => {
    const app = new Hono().route('/', createHonoApp(createApiHandler(engine)));
    // What @hono/node-server passes as the bindings of every request.
    const env = (address: string) => ({ incoming: { socket: { remoteAddress: address } } });
    const first = await app.fetch(request(), env('198.51.100.60'));
    expect(first.status).toBe(200);
    expect(first.headers.get('ratelimit-limit')).toBe('1');
    expect((await app.fetch(request(), env('198.51.100.60'))).status).toBe(429);
    expect((await app.fetch(request(), env('198.51.100.61'))).status).toBe(200);
  });
});
