import { createServer } from 'node:http';
import { Hono } from 'hono';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { mountCartwright } from '../../src/adapters/hono';
import { createHandler } from '../../src/create-handler';
import { adapterChecks } from '../support/adapter-checks';
import { fetchListener, type Listening, listen } from '../support/listen';
import { createTestEngine } from '../support/test-engine';
import { testRoutes } from '../support/test-routes';

describe('Hono adapter', () => {
  let root: Listening;
  let based: Listening;
  beforeAll(async () => {
    const app = new Hono();
    app.get('/hello', (c) => c.json({ served_by: 'hono' }));
    mountCartwright(app, createHandler(createTestEngine(), { routes: testRoutes, onError: () => undefined }));
    root = await listen(createServer(fetchListener(app.fetch)));

    const api = mountCartwright(
      new Hono().basePath('/api'),
      createHandler(createTestEngine(), { routes: testRoutes, prefix: '/api', onError: () => undefined }),
    );
    based = await listen(createServer(fetchListener(api.fetch)));
  });
  afterAll(async () => {
    await root.close();
    await based.close();
  });

  describe('mounted on the root app', () => {
    adapterChecks(() => root.url);
  });

  describe("mounted on basePath('/api') with prefix '/api'", () => {
    adapterChecks(() => `${based.url}/api`);
  });

  it("leaves the app's other routes alone", async () => {
    const res = await fetch(`${root.url}/hello`);
    expect(await res.json()).toEqual({ served_by: 'hono' });
  });
});
