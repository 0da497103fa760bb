import type { Engine } from '@cartwright/core';
import { createPipeline, type PipelineOptions } from './pipeline';
import type { RawRequest, RawResponse } from './raw-http';
import { readWebBody } from './read-body';
import type { AnyRoute } from './route';

export type HandlerOptions = PipelineOptions;

/** What a runtime knows about a request besides the `Request` itself. */
export interface FetchContext {
  /** The peer's IP address. */
  clientAddress?: string | undefined;
}

/**
 * The API as a web-standard fetch handler, plus the light entry point the Node adapters use.
 * Mount it anywhere that speaks `Request → Response` (Bun, Deno, Workers, Next.js route handlers,
 * Hono), or through `@cartwright/http/{node,express,fastify,hono}`.
 */
export interface CartwrightHandler {
  /**
   * Answers a web-standard request. `context.clientAddress` is the client's IP address where the
   * runtime knows it (Bun: `server.requestIP(request)?.address`; Deno: `info.remoteAddr.hostname`),
   * for the per-address rate limits (docs/limits.md); without it they do not apply.
   */
  (request: Request, context?: FetchContext): Promise<Response>;
  /** The pipeline on a light request: no `Request`/`Response` objects are built (used on Node). */
  handleRaw(raw: RawRequest): Promise<RawResponse>;
  /** Whether a path is this API's (under `<prefix>/v1`, or an alias); adapters pass others on. */
  owns(path: string): boolean;
  readonly routes: readonly AnyRoute[];
  readonly prefix: string;
  readonly maxBodyBytes: number;
  /** Writes the API logs buffered now (decisions §23; they are written at least every second anyway). */
  flushApiLogs(): Promise<void>;
  /** At shutdown, before `engine.close()`: writes the buffered API logs; later requests are not logged. */
  close(): Promise<void>;
}

/**
 * Creates the handler. The route tree is built here, once; a duplicate method + path throws.
 *
 * @example
 * const handler = createHandler(engine, { routes, prefix: '/api' });
 * Bun.serve({ fetch: handler });
 */
export function createHandler(engine: Engine, options: HandlerOptions): CartwrightHandler {
  const pipeline = createPipeline(engine, options);
  const fetchHandler = async (request: Request, context?: FetchContext): Promise<Response> => {
    const { path, query } = splitUrl(request.url);
    const clientAddress = context?.clientAddress;
    const response = await pipeline.handle({
      method: request.method,
      path,
      query,
      headers: request.headers,
      ...(clientAddress !== undefined && { clientAddress }),
      ...(request.url.startsWith('https:') && { secure: true }),
      readBody: (limit) => readWebBody(request, limit),
    });
    return toWebResponse(response, request.method === 'HEAD');
  };
  return Object.assign(fetchHandler, {
    handleRaw: pipeline.handle,
    owns: pipeline.router.owns,
    routes: pipeline.api.routes,
    prefix: pipeline.api.prefix,
    maxBodyBytes: pipeline.maxBodyBytes,
    flushApiLogs: async () => pipeline.apiLogs?.flush(),
    close: async () => pipeline.apiLogs?.close(),
  });
}

/**
 * The `Response` for a light response. Text and bytes are sent as they are (`Response` counts
 * the bytes); 204, 205 and 304 carry no body (the `Response` constructor refuses one), and
 * neither does the answer to a HEAD request (`head`), which the pipeline answers as a GET.
 */
export function toWebResponse(response: RawResponse, head = false): Response {
  const { status } = response;
  const empty = head || status === 204 || status === 205 || status === 304;
  const body = empty ? null : (response.body as ConstructorParameters<typeof Response>[0]);
  return new Response(body, { status, headers: response.headers });
}

/** Whether a value is a handler made by {@link createHandler} (rather than an engine). */
export function isHandler(value: unknown): value is CartwrightHandler {
  return typeof value === 'function' && typeof (value as Partial<CartwrightHandler>).handleRaw === 'function';
}

/** Splits a URL (absolute, as in `Request.url`, or origin-relative) into path and query string. */
export function splitUrl(url: string): { path: string; query: string } {
  let start = 0;
  if (url.charCodeAt(0) !== 47 /* '/' */) {
    const scheme = url.indexOf('://');
    start = url.indexOf('/', scheme === -1 ? 0 : scheme + 3);
    if (start === -1) return { path: '/', query: '' };
  }
  const hash = url.indexOf('#', start);
  const end = hash === -1 ? url.length : hash;
  const q = url.indexOf('?', start);
  if (q === -1 || q > end) return { path: url.slice(start, end), query: '' };
  return { path: url.slice(start, q), query: url.slice(q + 1, end) };
}
