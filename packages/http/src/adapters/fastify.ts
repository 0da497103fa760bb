import type { IncomingMessage } from 'node:http';
import type { Engine } from '@cartwright/core';
import type { FastifyInstance, FastifyPluginAsync, FastifyReply, FastifyRequest } from 'fastify';
import {
  type CartwrightHandler,
  createHandler,
  type HandlerOptions,
  isHandler,
  splitUrl,
} from '../create-handler';
import type { RawRequest } from '../raw-http';
import { readNodeRequestBody, readNodeStream } from './node';

/**
 * Options of the deprecated {@link cartwrightFastify}: a ready handler, or an engine plus handler
 * options.
 *
 * @deprecated Pass the handler to {@link createFastifyPlugin} instead; goes in the next major.
 */
export type CartwrightFastifyOptions = { handler: CartwrightHandler } | ({ engine: Engine } & HandlerOptions);

const METHODS = ['DELETE', 'GET', 'HEAD', 'OPTIONS', 'PATCH', 'POST', 'PUT'];
const PAYLOAD = Symbol('cartwright.payload');

/** The unread body stream our content-type parser hands over. */
interface UnreadPayload {
  [PAYLOAD]: IncomingMessage;
}

/**
 * A Fastify plugin serving the handler:
 * `await app.register(createFastifyPlugin(createApiHandler(engine)))`, with or without a register
 * `prefix` (`app.register(plugin, { prefix: '/shop' })`; paths are taken relative to it). It
 * registers `/v1`, `/v1/*` and the route aliases for all methods, and inside its own encapsulation
 * context replaces Fastify's body parsers with one that leaves the body unread, so the pipeline
 * reads it with its own limit and answers 413/415/400 in the API's error format. Not wrapped with
 * `fastify-plugin` on purpose: the parser change stays inside the plugin.
 */
export function createFastifyPlugin(handler: CartwrightHandler): FastifyPluginAsync {
  return async (fastify) => {
    registerApi(fastify, handler);
  };
}

/**
 * @deprecated Renamed {@link createFastifyPlugin}, which takes the handler and returns the plugin:
 * `app.register(cartwrightFastify, { handler })` is `app.register(createFastifyPlugin(handler))`.
 * This alias goes in the next major.
 */
export async function cartwrightFastify(
  fastify: FastifyInstance,
  options: CartwrightFastifyOptions,
): Promise<void> {
  const handler =
    'handler' in options && isHandler(options.handler) ? options.handler : handlerFromEngine(options);
  registerApi(fastify, handler);
}

function registerApi(fastify: FastifyInstance, handler: CartwrightHandler): void {
  const mountPrefix = fastify.prefix;
  fastify.removeAllContentTypeParsers();
  fastify.addContentTypeParser('*', (_request: FastifyRequest, payload: IncomingMessage, done) => {
    const unread: UnreadPayload = { [PAYLOAD]: payload };
    done(null, unread);
  });

  const serve = async (request: FastifyRequest, reply: FastifyReply) => {
    const url = request.url.startsWith(mountPrefix)
      ? request.url.slice(mountPrefix.length) || '/'
      : request.url;
    const { path, query } = splitUrl(url);
    const raw: RawRequest = {
      method: request.method,
      path,
      query,
      headers: { get: (name) => headerValue(request.headers[name]) },
      // Fastify's own address (its `trustProxy` setting applies).
      clientAddress: request.ip,
      readBody: (limit) => {
        const body = request.body as Partial<UnreadPayload> | undefined;
        const stream = body?.[PAYLOAD];
        return stream !== undefined ? readNodeStream(stream, limit) : readNodeRequestBody(request.raw, limit);
      },
    };
    const response = await handler.handleRaw(raw);
    const body = response.body;
    // Bytes as a Buffer (Fastify sends a Buffer as is and counts its length); 204/304 without a body.
    const payload =
      response.status === 204 || response.status === 304
        ? undefined
        : typeof body === 'string'
          ? body
          : Buffer.from(body.buffer, body.byteOffset, body.byteLength);
    return reply.code(response.status).headers(response.headers).send(payload);
  };

  const paths = new Set([`${handler.prefix}/v1`, `${handler.prefix}/v1/*`]);
  for (const route of handler.routes) {
    for (const alias of route.aliases ?? []) {
      if (!alias.startsWith('/v1/')) paths.add(handler.prefix + alias);
    }
  }
  for (const url of paths) {
    fastify.route({ method: METHODS, url, exposeHeadRoute: false, handler: serve });
  }
}

/**
 * Fastify passes the register `prefix` in the plugin options too; it is the mount point (handled
 * by Fastify), so it is not also given to the handler.
 */
function handlerFromEngine(options: CartwrightFastifyOptions): CartwrightHandler {
  const { engine, prefix: _mount, ...rest } = options as { engine: Engine } & HandlerOptions;
  return createHandler(engine, rest);
}

function headerValue(value: string | string[] | undefined): string | null {
  if (value === undefined) return null;
  return Array.isArray(value) ? value.join(', ') : value;
}
