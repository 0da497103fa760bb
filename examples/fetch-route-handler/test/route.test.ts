import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { errorsKeepTheirFormat, storeToCheckout } from '@cartwright/testing/http';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import * as route from '../src/app/v1/[...path]/route';
import { routeModuleListener } from '../src/serve-route-module';
import { getShopEngine, PUBLISHABLE_KEY, SECRET_KEY } from '../src/shop';

const KEYS = { secret: SECRET_KEY, publishable: PUBLISHABLE_KEY };

const ORIGIN = 'http://shop.test';

describe('the route module, called with Request objects (as Next.js calls it)', () => {
  test('GET /v1/admin/store with the secret key → 200 and the store', async () => {
    const response = await route.GET(
      new Request(`${ORIGIN}/v1/admin/store`, { headers: { authorization: `Bearer ${SECRET_KEY}` } }),
    );
    expect(response.status).toBe(200);
    expect(response.headers.get('content-type')).toMatch(/^application\/json/);
    expect(((await response.json()) as { currency: string }).currency).toBe('USD');
  });

  test('POST a product, then a cart with the publishable key; PATCH and DELETE are the same handler', async () => {
    const json = (key: string, body: unknown) => ({
      method: 'POST',
      headers: { authorization: `Bearer ${key}`, 'content-type': 'application/json' },
      body: JSON.stringify(body),
    });
    const product = await route.POST(
      new Request(
        `${ORIGIN}/v1/admin/products`,
        json(SECRET_KEY, { name: 'Mug', status: 'active', variants: [{ sku: 'MUG', price: 1200 }] }),
      ),
    );
    expect(product.status).toBe(200);
    const { variants } = (await product.json()) as { variants: Array<{ id: string }> };
    const cart = await route.POST(
      new Request(
        `${ORIGIN}/v1/storefront/carts`,
        json(PUBLISHABLE_KEY, { items: [{ variant_id: variants[0]?.id }] }),
      ),
    );
    // on_hand defaults to 0 and stock is tracked: the API refuses the item, in its own format.
    expect(cart.status).toBe(422);
    expect(((await cart.json()) as { error: { code: string } }).error.code).toBe('insufficient_inventory');
    expect([route.PATCH, route.DELETE]).toEqual([route.GET, route.GET]);
  });

  test('a wrong method on a known path → 405 method_not_allowed from the API itself', async () => {
    const response = await route.DELETE(
      new Request(`${ORIGIN}/v1/admin/store`, {
        method: 'DELETE',
        headers: { authorization: `Bearer ${SECRET_KEY}` },
      }),
    );
    expect(response.status).toBe(405);
    expect(((await response.json()) as { error: { code: string } }).error.code).toBe('method_not_allowed');
  });
});

describe('the route module served through node:http', () => {
  let server: Server;
  let baseUrl: string;

  beforeAll(async () => {
    server = createServer(routeModuleListener(route));
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    baseUrl = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  });

  afterAll(async () => {
    await new Promise<void>((resolve) => server.close(() => resolve()));
    await (await getShopEngine()).close();
  });

  test('store → product → cart → checkout → payment received, over real HTTP', async () => {
    await storeToCheckout(baseUrl, KEYS);
  });

  test('the API answers with its own errors (401, 403, 404 route_not_found, invalid_json, parameter_missing)', async () => {
    await errorsKeepTheirFormat(baseUrl, KEYS);
  });

  test('outside /v1 nothing is served; a method the module lacks is 405 with Allow', async () => {
    const elsewhere = await fetch(`${baseUrl}/elsewhere`);
    expect([elsewhere.status, await elsewhere.text()]).toEqual([404, 'Not found']);
    const put = await fetch(`${baseUrl}/v1/admin/store`, { method: 'PUT' });
    expect([put.status, put.headers.get('allow')]).toEqual([405, 'GET, POST, PATCH, DELETE']);
  });
});
