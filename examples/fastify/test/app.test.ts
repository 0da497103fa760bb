import type { AddressInfo } from 'node:net';
import type { Engine } from '@cartwright/core';
import { createApiHandler } from '@cartwright/http';
import { createFastifyPlugin } from '@cartwright/http/fastify';
import { client, errorsKeepTheirFormat, storeToCheckout } from '@cartwright/testing/http';
import Fastify, { type FastifyInstance } from 'fastify';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { createApp } from '../src/app';
import { createShopEngine, PUBLISHABLE_KEY, SECRET_KEY } from '../src/shop';

const KEYS = { secret: SECRET_KEY, publishable: PUBLISHABLE_KEY };

let engine: Engine;
let app: FastifyInstance;
let baseUrl: string;

beforeAll(async () => {
  engine = await createShopEngine();
  app = await createApp(engine);
  await app.listen({ port: 0, host: '127.0.0.1' });
  baseUrl = `http://127.0.0.1:${(app.server.address() as AddressInfo).port}`;
});

afterAll(async () => {
  await app.close();
  await engine.close();
});

describe('Fastify: app.register(createFastifyPlugin(handler))', () => {
  test('store → product → cart → checkout → payment received, over real HTTP', async () => {
    await storeToCheckout(baseUrl, KEYS);
  });

  test('the API answers with its own errors (401, 403, 404 route_not_found, invalid_json, parameter_missing)', async () => {
    await errorsKeepTheirFormat(baseUrl, KEYS);
  });

  test("the app's own routes still work, with Fastify's JSON parser on them", async () => {
    const call = client(baseUrl);
    expect(await call('GET', '/health', null)).toEqual({ status: 200, body: { ok: true } });
    expect(await call('POST', '/echo', null, { a: 1 })).toEqual({
      status: 200,
      body: { received: { a: 1 } },
    });
  });
});

describe('Fastify: registered with a prefix', () => {
  test("{ prefix: '/shop' } serves /shop/v1/...", async () => {
    const prefixed = Fastify();
    await prefixed.register(createFastifyPlugin(createApiHandler(engine)), { prefix: '/shop' });
    await prefixed.listen({ port: 0, host: '127.0.0.1' });
    try {
      const call = client(`http://127.0.0.1:${(prefixed.server.address() as AddressInfo).port}`);
      const store = await call('GET', '/shop/v1/admin/store', SECRET_KEY);
      expect([store.status, store.body.currency]).toEqual([200, 'USD']);
      const product = await call('POST', '/shop/v1/admin/products', SECRET_KEY, '{"name": ');
      expect([product.status, product.body.error.code]).toEqual([400, 'invalid_json']);
    } finally {
      await prefixed.close();
    }
  });
});
