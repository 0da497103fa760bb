import type { Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import type { Engine } from '@cartwright/core';
import { client, errorsKeepTheirFormat, storeToCheckout } from '@cartwright/testing/http';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { createApp } from '../src/app';
import { createShopEngine, PUBLISHABLE_KEY, SECRET_KEY } from '../src/shop';

const KEYS = { secret: SECRET_KEY, publishable: PUBLISHABLE_KEY };

let engine: Engine;
let server: Server;
let baseUrl: string;

beforeAll(async () => {
  engine = await createShopEngine();
  server = createApp(engine).listen(0, '127.0.0.1');
  await new Promise<void>((resolve) => server.once('listening', resolve));
  baseUrl = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
});

afterAll(async () => {
  await new Promise<void>((resolve) => server.close(() => resolve()));
  await engine.close();
});

describe('Express: app.use(createExpressMiddleware(handler))', () => {
  test('store → product → cart → checkout → payment received, over real HTTP', async () => {
    await storeToCheckout(baseUrl, KEYS);
  });

  test('the API answers with its own errors (401, 403, 404 route_not_found, invalid_json, parameter_missing)', async () => {
    await errorsKeepTheirFormat(baseUrl, KEYS);
  });

  test("the app's own routes still work, with express.json() on them", async () => {
    const call = client(baseUrl);
    expect(await call('GET', '/health', null)).toEqual({ status: 200, body: { ok: true } });
    expect(await call('POST', '/echo', null, { a: 1 })).toEqual({
      status: 200,
      body: { received: { a: 1 } },
    });
  });
});

describe('Express: mounted under a path', () => {
  test("app.use('/shop', createExpressMiddleware(handler)) serves /shop/v1/...; the handler sees paths relative to the mount", async () => {
    const { default: express } = await import('express');
    const { createExpressMiddleware } = await import('@cartwright/http/express');
    const { createApiHandler } = await import('@cartwright/http');
    const app = express();
    app.use('/shop', createExpressMiddleware(createApiHandler(engine)));
    const mounted = app.listen(0, '127.0.0.1');
    await new Promise<void>((resolve) => mounted.once('listening', resolve));
    try {
      const origin = `http://127.0.0.1:${(mounted.address() as AddressInfo).port}`;
      const store = await client(origin)('GET', '/shop/v1/admin/store', SECRET_KEY);
      expect([store.status, store.body.currency]).toEqual([200, 'USD']);
      // Outside the mount path Express answers with its own 404 page.
      expect((await fetch(`${origin}/v1/admin/store`)).status).toBe(404);
    } finally {
      await new Promise<void>((resolve) => mounted.close(() => resolve()));
    }
  });
});
