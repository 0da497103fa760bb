import Fastify, { type FastifyInstance } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { cartwrightFastify, createFastifyPlugin } from '../../src/adapters/fastify';
import { createHandler } from '../../src/create-handler';
import { adapterChecks } from '../support/adapter-checks';
import { createTestEngine, KEYS } from '../support/test-engine';
import { testRoutes } from '../support/test-routes';

describe('Fastify plugin', () => {
  let app: FastifyInstance;
  let url: string;
  beforeAll(async () => {
    app = Fastify();
    app.post('/own/json', async (request) => ({ received: request.body }));
    await app.register(
      createFastifyPlugin(
        createHandler(createTestEngine(), { routes: testRoutes, onError: () => undefined }),
      ),
    );
    await app.register(createFastifyPlugin(createHandler(createTestEngine(), { routes: testRoutes })), {
      prefix: '/shop',
    });
    // The deprecated name, in both of its forms (a handler; an engine and handler options).
    await app.register(cartwrightFastify, {
      prefix: '/old',
      handler: createHandler(createTestEngine(), { routes: testRoutes, onError: () => undefined }),
    });
    await app.register(cartwrightFastify, {
      prefix: '/old-engine',
      engine: createTestEngine(),
      routes: testRoutes,
    });
    url = await app.listen({ port: 0, host: '127.0.0.1' });
  });
  afterAll(async () => app.close());

  describe('registered at the root', () => {
    adapterChecks(() => url);
  });

  describe('registered with prefix /shop', () => {
    adapterChecks(() => `${url}/shop`);
  });

  it('the deprecated cartwrightFastify plugin still registers the API, from a handler or from an engine', async () => {
    for (const prefix of ['/old', '/old-engine']) {
      const res = await fetch(`${url}${prefix}/v1/admin/orders`, {
        method: 'POST',
        headers: { Authorization: `Bearer ${KEYS.secret}`, 'Content-Type': 'application/json' },
        body: JSON.stringify({ note: prefix }),
      });
      expect(res.status).toBe(201);
      expect(await res.json()).toEqual({ id: 'ord_1', note: prefix });
    }
  });

  it("keeps Fastify's own JSON parser for the app's other routes", async () => {
    const res = await fetch(`${url}/own/json`, {
      method: 'POST',
      headers: { 'Content-Type': 'application/json' },
      body: JSON.stringify({ a: 1 }),
    });
    expect(await res.json()).toEqual({ received: { a: 1 } });
  });

  it('a body without Content-Type → 415 in the API format', async () => {
    const res = await fetch(`${url}/v1/admin/orders`, {
      method: 'POST',
      headers: { Authorization: `Bearer ${KEYS.secret}` },
      body: new TextEncoder().encode('{"note":"x"}'),
    });
    expect(res.status).toBe(415);
    expect(await res.json()).toMatchObject({ error: { code: 'unsupported_media_type' } });
  });
});
