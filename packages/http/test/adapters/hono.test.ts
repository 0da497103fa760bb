import { createServer } from 'node:http';
import { Hono } from 'hono';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createHonoApp, mountCartwright } from '../../src/adapters/hono';
import { createHandler } from '../../src/create-handler';
import { adapterChecks } from '../support/adapter-checks';
import { fetchListener, type Listening, listen } from '../support/listen';
import { createTestEngine, KEYS } from '../support/test-engine';
import { testRoutes } from '../support/test-routes';

describe('Hono adapter', () => {
  let root: Listening;
  let based: Listening;
  let deprecated: Listening;
  beforeAll(async () => {
    const app = new Hono();
    app.get('/hello', (c) => c.json({ served_by: 'hono' }));
    app.route(
      '/',
      createHonoApp(createHandler(createTestEngine(), { routes: testRoutes, onError: () => undefined })),
    );
    root = await listen(createServer(fetchListener(app.fetch)));

    const api = new Hono()
      .basePath('/api')
      .route(
        '/',
        createHonoApp(
          createHandler(createTestEngine(), { routes: testRoutes, prefix: '/api', onError: () => undefined }),
        ),
      );
    based = await listen(createServer(fetchListener(api.fetch)));

    // The deprecated name, on a base path as well.
    const old = mountCartwright(
      new Hono().basePath('/old'),
      createHandler(createTestEngine(), { routes: testRoutes, prefix: '/old', onError: () => undefined }),
    );
    deprecated = await listen(createServer(fetchListener(old.fetch)));
  });
  afterAll(async () => {
    await root.close();
    await based.close();
    await deprecated.close();
  });

  describe('mounted on the root app', () => {
    adapterChecks(() => root.url);
  });

  describe("mounted on basePath('/api') with prefix '/api'", () => {
    adapterChecks(() => `${based.url}/api`);
  });

  it('the deprecated mountCartwright(app, handler) still registers the API on the app', async () => {
    const res = await fetch(`${deprecated.url}/old/v1/admin/orders`, {
      method: 'POST',
      headers: { Authorization: `Bearer ${KEYS.secret}`, 'Content-Type': 'application/json' },
      body: JSON.stringify({ note: 'old name' }),
    });
    expect(res.status).toBe(201);
    expect(await res.json()).toEqual({ id: 'ord_1', note: 'old name' });
    expect((await fetch(`${deprecated.url}/v1/admin/orders`)).status).toBe(404);
  });

  it("leaves the app's other routes alone", async () => {
    const res = await fetch(`${root.url}/hello`);
    expect(await res.json()).toEqual({ served_by: 'hono' });
  });
});
