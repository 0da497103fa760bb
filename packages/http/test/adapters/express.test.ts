import { createServer } from 'node:http';
import express from 'express';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { cartwright, createExpressMiddleware } from '../../src/adapters/express';
import { createApiHandler } from '../../src/api';
import { createHandler } from '../../src/create-handler';
import { adapterChecks } from '../support/adapter-checks';
import { type Listening, listen } from '../support/listen';
import { createTestEngine, KEYS } from '../support/test-engine';
import { testRoutes } from '../support/test-routes';

describe('Express adapter', () => {
  let server: Listening;
  beforeAll(async () => {
    const app = express();
    app.get('/health', (_req, res) => {
      res.json({ served_by: 'express' });
    });
    // Mounted under /shop; a second mount behind express.json() below.
    app.use(
      '/shop',
      createExpressMiddleware(
        createHandler(createTestEngine(), { routes: testRoutes, onError: () => undefined }),
      ),
    );
    app.use(
      '/parsed',
      express.json(),
      createExpressMiddleware(createHandler(createTestEngine(), { routes: testRoutes })),
    );
    app.use('/full', createExpressMiddleware(createApiHandler(createTestEngine())));
    // The deprecated name, with its engine forms: routes given, and the whole API.
    app.use('/old', cartwright(createTestEngine(), { routes: testRoutes, onError: () => undefined }));
    app.use('/old-full', cartwright(createTestEngine()));
    app.use((_req, res) => {
      res.status(404).json({ served_by: 'express-404' });
    });
    server = await listen(createServer(app));
  });
  afterAll(async () => server.close());

  describe('mounted at /shop', () => {
    adapterChecks(() => `${server.url}/shop`);
  });

  it('passes paths outside /v1 to the rest of the app (next())', async () => {
    const health = await fetch(`${server.url}/health`);
    expect(await health.json()).toEqual({ served_by: 'express' });
    const other = await fetch(`${server.url}/shop/not-the-api`);
    expect(await other.json()).toEqual({ served_by: 'express-404' });
  });

  it('createExpressMiddleware(createApiHandler(engine)) serves the whole /v1 API', async () => {
    const res = await fetch(`${server.url}/full/v1/openapi.json`);
    expect(res.status).toBe(200);
    const document = (await res.json()) as { paths: Record<string, unknown> };
    expect(Object.keys(document.paths)).toEqual(
      expect.arrayContaining(['/v1/admin/products', '/v1/storefront/carts/{id}/checkout']),
    );
  });

  it('the deprecated cartwright(engine, options?) still mounts the given routes, or the whole API', async () => {
    const order = await fetch(`${server.url}/old/v1/admin/orders`, {
      method: 'POST',
      headers: { Authorization: `Bearer ${KEYS.secret}`, 'Content-Type': 'application/json' },
      body: JSON.stringify({ note: 'old name' }),
    });
    expect(order.status).toBe(201);
    expect(await order.json()).toEqual({ id: 'ord_1', note: 'old name' });
    expect((await fetch(`${server.url}/old/elsewhere`)).status).toBe(404);
    const full = await fetch(`${server.url}/old-full/v1/openapi.json`);
    expect(full.status).toBe(200);
    expect(Object.keys(((await full.json()) as { paths: object }).paths)).toContain('/v1/admin/products');
  });

  it('uses a body express.json() already parsed', async () => {
    const res = await fetch(`${server.url}/parsed/v1/admin/echo`, {
      method: 'POST',
      headers: { Authorization: `Bearer ${KEYS.secret}`, 'Content-Type': 'application/json' },
      body: JSON.stringify({ hello: 'world' }),
    });
    expect(res.status).toBe(200);
    expect(await res.json()).toMatchObject({ body: { hello: 'world' } });
  });

  it('behind express.json(), a non-JSON body is still read and refused with 415', async () => {
    const res = await fetch(`${server.url}/parsed/v1/admin/orders`, {
      method: 'POST',
      headers: { Authorization: `Bearer ${KEYS.secret}`, 'Content-Type': 'text/plain' },
      body: 'hello',
    });
    expect(res.status).toBe(415);
  });
});
