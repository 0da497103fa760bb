import type { Engine } from '@cartwright/core';
import { createApiHandler } from '@cartwright/http';
import { createFastifyPlugin } from '@cartwright/http/fastify';
import Fastify, { type FastifyInstance } from 'fastify';

/**
 * A Fastify 5 app with Cartwright's `/v1` API registered as a plugin next to the app's own routes.
 *
 * `createFastifyPlugin(handler)` is the plugin: it registers `/v1`, `/v1/*` and the route aliases for every method, and inside its own
 * encapsulation context swaps Fastify's body parsers for one that leaves the body unread, so the
 * API reads it with its own limit and errors. The app's routes keep Fastify's JSON parser.
 */
export async function createApp(engine: Engine): Promise<FastifyInstance> {
  const app = Fastify();
  await app.register(createFastifyPlugin(createApiHandler(engine)));

  app.get('/health', async () => ({ ok: true }));
  app.post('/echo', async (request) => ({ received: request.body }));
  return app;
}
