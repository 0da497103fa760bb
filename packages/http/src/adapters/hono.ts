import { type Context, Hono } from 'hono';
import type { CartwrightHandler } from '../create-handler';

/** The bindings @hono/node-server gives (`c.env`). */
interface NodeServerEnv {
  incoming?: { socket?: { remoteAddress?: string } };
}

/**
 * A Hono app serving the handler, to mount with Hono's own `app.route()`:
 * `app.route('/', createHonoApp(createApiHandler(engine)))`. It has `/v1`, `/v1/*` and the route
 * aliases for every method and forwards the raw `Request` (`c.req.raw`). The handler sees the full
 * URL, so its `prefix` must equal the path the app is mounted under:
 * `new Hono().basePath('/api').route('/', createHonoApp(createHandler(engine, { routes, prefix: '/api' })))`.
 * On `@hono/node-server` the client address (for the per-address rate limits) is taken from the
 * Node request's socket. Equivalent by hand: `app.all('/v1/*', (c) => handler(c.req.raw))`.
 * (Hono's `app.mount('/v1', handler)` would strip `/v1`, which the routes include.)
 */
export function createHonoApp(handler: CartwrightHandler): Hono {
  const app = new Hono();
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

/**
 * @deprecated Use {@link createHonoApp} with Hono's `app.route()`: `mountCartwright(app, handler)`
 * is `app.route('/', createHonoApp(handler))`. This alias goes in the next major.
 */
// biome-ignore lint/suspicious/noExplicitAny: any Hono app, whatever its env and schema types.
export function mountCartwright<App extends Hono<any, any, any>>(app: App, handler: CartwrightHandler): App {
  app.route('/', createHonoApp(handler));
  return app;
}
