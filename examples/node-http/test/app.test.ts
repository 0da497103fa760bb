import type { Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import type { Engine } from '@cartwright/core';
import { client, errorsKeepTheirFormat, storeToCheckout } from '@cartwright/testing/http';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { createShopServer } from '../src/app';
import { createShopEngine, PUBLISHABLE_KEY, SECRET_KEY } from '../src/shop';

const KEYS = { secret: SECRET_KEY, publishable: PUBLISHABLE_KEY };

let engine: Engine;
let server: Server;
let baseUrl: string;

beforeAll(async () => {
  engine = await createShopEngine();
  server = createShopServer(engine);
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  baseUrl = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
});

afterAll(async () => {
  await new Promise<void>((resolve) => server.close(() => resolve()));
  await engine.close();
});

describe('node:http: createServer(createNodeListener(createApiHandler(engine)))', () => {
  test('store → product → cart → checkout → payment received, over real HTTP', async () => {
    await storeToCheckout(baseUrl, KEYS);
  });

  test('the API answers with its own errors (401, 403, 404 route_not_found, invalid_json, parameter_missing)', async () => {
    await errorsKeepTheirFormat(baseUrl, KEYS);
  });

  test('paths outside /v1 go to the rest of the app', async () => {
    const call = client(baseUrl);
    expect(await call('GET', '/health', null)).toEqual({ status: 200, body: { ok: true } });
    const other = await fetch(`${baseUrl}/elsewhere`);
    expect([other.status, await other.text()]).toEqual([404, 'Not found']);
  });

  test('GET /v1/openapi.json needs no key and describes the checkout', async () => {
    const response = await fetch(`${baseUrl}/v1/openapi.json`);
    const document = (await response.json()) as { openapi: string; paths: Record<string, unknown> };
    expect(response.status).toBe(200);
    expect(document.openapi).toMatch(/^3\.1/);
    expect(Object.keys(document.paths)).toContain('/v1/storefront/carts/{id}/checkout');
  });
});
