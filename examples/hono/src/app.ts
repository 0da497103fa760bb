import type { Engine } from '@cartwright/core';
import { createApiHandler } from '@cartwright/http';
import { createHonoApp } from '@cartwright/http/hono';
import { Hono } from 'hono';

/**
 * A Hono app with Cartwright's `/v1` API mounted next to the app's own routes.
 *
 * `createHonoApp(handler)` is a Hono app with `/v1`, `/v1/*` and the route aliases for every
 * method, mounted with Hono's own `app.route()`; it hands the raw `Request` to the handler (`app.mount('/v1', …)` would strip the `/v1` the
 * API's routes include). The same app runs on Node (see `main.ts`), Bun, Deno or Workers —
 * wherever the engine's storage can run.
 */
export function createApp(engine: Engine): Hono {
  const app = new Hono();
  app.get('/health', (c) => c.json({ ok: true }));
  app.post('/echo', async (c) => c.json({ received: await c.req.json() }));
  return app.route('/', createHonoApp(createApiHandler(engine)));
}
