import type { AddressInfo } from 'node:net';
import type { Engine } from '@cartwright/core';
import { createApiHandler } from '@cartwright/http';
import { createHonoApp } from '@cartwright/http/hono';
import { client, errorsKeepTheirFormat, storeToCheckout } from '@cartwright/testing/http';
import { type ServerType, serve } from '@hono/node-server';
import { Hono } from 'hono';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { createApp } from '../src/app';
import { createShopEngine, PUBLISHABLE_KEY, SECRET_KEY } from '../src/shop';

const KEYS = { secret: SECRET_KEY, publishable: PUBLISHABLE_KEY };

let engine: Engine;
let server: ServerType;
let baseUrl: string;

beforeAll(async () => {
  engine = await createShopEngine();
  const app = createApp(engine);
  const port = await new Promise<number>((resolve) => {
    server = serve({ fetch: app.fetch, port: 0, hostname: '127.0.0.1' }, (info: AddressInfo) =>
      resolve(info.port),
    );
  });
  baseUrl = `http://127.0.0.1:${port}`;
});

afterAll(async () => {
  await new Promise<void>((resolve) => server.close(() => resolve()));
  await engine.close();
});

describe("Hono: app.route('/', createHonoApp(handler)) served by @hono/node-server", () => {
  test('store → product → cart → checkout → payment received, over real HTTP', async () => {
    await storeToCheckout(baseUrl, KEYS);
  });

  test('the API answers with its own errors (401, 403, 404 route_not_found, invalid_json, parameter_missing)', async () => {
    await errorsKeepTheirFormat(baseUrl, KEYS);
  });

  test("the app's own routes still work", async () => {
    const call = client(baseUrl);
    expect(await call('GET', '/health', null)).toEqual({ status: 200, body: { ok: true } });
    expect(await call('POST', '/echo', null, { a: 1 })).toEqual({
      status: 200,
      body: { received: { a: 1 } },
    });
  });

  test('app.request() reaches the API without a server too (Hono’s in-process testing)', async () => {
    const response = await createApp(engine).request('/v1/admin/store', {
      headers: { authorization: `Bearer ${SECRET_KEY}` },
    });
    expect(response.status).toBe(200);
    expect(((await response.json()) as { currency: string }).currency).toBe('USD');
  });
});

describe('Hono: under a base path', () => {
  test("new Hono().basePath('/api') with createApiHandler(engine, { prefix: '/api' }) serves /api/v1/...", async () => {
    const app = new Hono()
      .basePath('/api')
      .route('/', createHonoApp(createApiHandler(engine, { prefix: '/api' })));
    const ok = await app.request('/api/v1/admin/store', {
      headers: { authorization: `Bearer ${SECRET_KEY}` },
    });
    expect(ok.status).toBe(200);
    const outside = await app.request('/v1/admin/store', {
      headers: { authorization: `Bearer ${SECRET_KEY}` },
    });
    expect(outside.status).toBe(404);
  });
});
