import { createServer } from 'node:http';
import express from 'express';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { cartwright } from '../../src/adapters/express';
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
    // Mounted under /shop, built from an engine; a second mount behind express.json() below.
    app.use('/shop', cartwright(createTestEngine(), { routes: testRoutes, onError: () => undefined }));
    app.use('/parsed', express.json(), cartwright(createHandler(createTestEngine(), { routes: testRoutes })));
    // An engine alone mounts the whole /v1 API.
    app.use('/full', cartwright(createTestEngine()));
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

  it('cartwright(engine) without options serves the whole /v1 API', async () => {
    const res = await fetch(`${server.url}/full/v1/openapi.json`);
    expect(res.status).toBe(200);
    const document = (await res.json()) as { paths: Record<string, unknown> };
    expect(Object.keys(document.paths)).toEqual(
      expect.arrayContaining(['/v1/admin/products', '/v1/storefront/carts/{id}/checkout']),
    );
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
