import type { ServerResponse } from 'node:http';
import type { Engine } from '@cartwright/core';
import { type ApiHandlerOptions, createApiHandler } from '../api';
import { type CartwrightHandler, createHandler, type HandlerOptions, isHandler } from '../create-handler';
import { handleNodeRequest, type NodeRequest } from './node';

/** The middleware signature; Express's `RequestHandler` accepts it (its `Request` extends `IncomingMessage`). */
export type CartwrightMiddleware = (
  req: NodeRequest,
  res: ServerResponse,
  next: (error?: unknown) => void,
) => void;

/**
 * Express middleware serving the handler: `app.use(createExpressMiddleware(createApiHandler(engine)))`,
 * or `app.use('/shop', createExpressMiddleware(createHandler(engine, { routes })))`. Paths are taken
 * relative to the mount point (`req.url`); requests outside `/v1` (and the aliases) go on to
 * `next()`. Bodies that `express.json()` already parsed are used as they are; otherwise the body is
 * read here with the handler's limit (1 MiB by default). Mount it before `express.json()` (or leave
 * `/v1` out of it) to get the API's own `invalid_json`/413 errors rather than Express's. Works with
 * Express 4 and 5 (imports no Express code).
 */
export function createExpressMiddleware(handler: CartwrightHandler): CartwrightMiddleware {
  return (req, res, next) => {
    const url = req.url ?? '/';
    const q = url.indexOf('?');
    if (!handler.owns(q === -1 ? url : url.slice(0, q))) {
      next();
      return;
    }
    handleNodeRequest(handler, req, res, url).catch(next);
  };
}

/**
 * @deprecated Renamed {@link createExpressMiddleware}, which takes a handler:
 * `cartwright(engine)` is `createExpressMiddleware(createApiHandler(engine))`, and
 * `cartwright(engine, { routes })` is `createExpressMiddleware(createHandler(engine, { routes }))`.
 * This alias goes in the next major.
 */
export function cartwright(handler: CartwrightHandler): CartwrightMiddleware;
/** @deprecated See {@link createExpressMiddleware}. */
export function cartwright(
  engine: Engine,
  options?: HandlerOptions | ApiHandlerOptions,
): CartwrightMiddleware;
export function cartwright(
  target: CartwrightHandler | Engine,
  options?: HandlerOptions | ApiHandlerOptions,
): CartwrightMiddleware {
  return createExpressMiddleware(isHandler(target) ? target : handlerFor(target, options));
}

/** Given routes, exactly those; otherwise the whole `/v1` API. */
function handlerFor(engine: Engine, options: HandlerOptions | ApiHandlerOptions = {}): CartwrightHandler {
  return 'routes' in options && options.routes
    ? createHandler(engine, options)
    : createApiHandler(engine, options);
}
