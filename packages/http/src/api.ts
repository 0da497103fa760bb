import type { Engine } from '@cartwright/core';
import { type CartwrightHandler, createHandler, type HandlerOptions } from './create-handler';
import { apiRoutes } from './routes';

export type ApiHandlerOptions = Omit<HandlerOptions, 'routes'>;

/**
 * The whole `/v1` API of an engine as a fetch handler (plus the light Node path), validating
 * inputs with the core's `parseInput` (the pipeline's default):
 *
 * ```ts
 * const handler = createApiHandler(engine);
 * http.createServer(createNodeListener(handler)).listen(3000);
 * ```
 */
export function createApiHandler(engine: Engine, options: ApiHandlerOptions = {}): CartwrightHandler {
  return createHandler(engine, { ...options, routes: apiRoutes });
}
