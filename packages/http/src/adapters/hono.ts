import type { Context, Hono } from 'hono';
import type { CartwrightHandler } from '../create-handler';

/** The bindings @hono/node-server gives (`c.env`). */
interface NodeServerEnv {
  incoming?: { socket?: { remoteAddress?: string } };
}

/**
 * Mounts the API on a Hono app: `mountCartwright(app, handler)` registers `/v1`, `/v1/*` and the
 * route aliases (relative to the app, for every method) and forwards the raw `Request`
 * (`c.req.raw`). The handler sees the full URL, so its `prefix` must equal the app's base path:
 * `mountCartwright(new Hono().basePath('/api'), createHandler(engine, { routes, prefix: '/api' }))`.
 * Equivalent by hand: `app.all('/v1/*', (c) => handler(c.req.raw))`. (Hono's
 * `app.mount('/v1', handler)` would strip `/v1`, which the routes include.)
 */
// biome-ignore lint/suspicious/noExplicitAny: any Hono app, whatever its env and schema types.
export function mountCartwright<App extends Hono<any, any, any>>(app: App, handler: CartwrightHandler): App {
  // On @hono/node-server the Node request is `c.env.incoming`: its socket gives the client address.
  const serve = (c: Context) =>
    handler(c.req.raw, {
      clientAddress: (c.env as NodeServerEnv | undefined)?.incoming?.socket?.remoteAddress,
    });
  const paths = new Set(['/v1', '/v1/*']);
  for (const route of handler.routes) {
    for (const alias of route.aliases ?? []) {
      if (!alias.startsWith('/v1/')) paths.add(alias);
    }
  }
  for (const path of paths) app.all(path, serve);
  return app;
}
