import { CommerceError } from '@cartwright/core';
import type { AuthContext, CustomerContext, RouteEngine, StoredResponse } from './engine-port';
import {
  errorBody,
  errorResponse,
  JSON_CONTENT_TYPE,
  logErrorToStderr,
  type OnError,
  toErrorResponse,
} from './error-response';
import { decodeJsonBody } from './json-body';
import type { BodySource, HeaderReader, RawRequest, RawResponse } from './raw-http';
import { MAX_BODY_BYTES } from './read-body';
import { newRequestId } from './request-id';
import {
  type AnyRoute,
  type ApiInfo,
  type RawQuery,
  type RouteContext,
  readJsonText,
  readTextResponse,
} from './route';
import { createRouter, type Router } from './router';
import { statusForCode } from './status-map';
import { parseInput as defaultParseInput, type ParseInput } from './validate';

/** Options of {@link createPipeline} and `createHandler`. */
export interface PipelineOptions {
  routes: readonly AnyRoute[];
  /** Mount prefix before `/v1`, e.g. `/api` serves `/api/v1/...`. Default `''`. */
  prefix?: string;
  /** Input validation. Default: core's `parseInput` (the engine's own validator). */
  parseInput?: ParseInput;
  /** Validate every success body with the route's `response` schema (500 on mismatch). Default false: tests only. */
  validateResponses?: boolean;
  /** Called for every 5xx with the error and the request id. Default: a JSON line on stderr. */
  onError?: OnError;
  /** Body size limit in bytes. Default 1 MiB (decisions §4). */
  maxBodyBytes?: number;
}

export interface Pipeline {
  handle(raw: RawRequest): Promise<RawResponse>;
  router: Router;
  api: ApiInfo;
  maxBodyBytes: number;
}

/** Idempotency keys longer than this are refused (as at Stripe). */
const MAX_IDEMPOTENCY_KEY_LENGTH = 255;
const BEARER = /^Bearer[ \t]+(\S+)[ \t]*$/i;

/**
 * The request pipeline, the one place that catches. Order: request id → route (404/405) →
 * API key (401/403) → customer token (401/403) → body (413/415/400) → params, query, body
 * validation (400) → idempotency hook (POST with `Idempotency-Key`) → handler → JSON response
 * (or the text and media type of a `textResponse` the handler returned).
 * Routes without a `body` schema never read the body (it is ignored, e.g. a cart merge); routes
 * with `rawBody: true` read it as text into `ctx.rawBody`, unparsed (provider webhooks).
 */
export function createPipeline(engine: RouteEngine, options: PipelineOptions): Pipeline {
  const prefix = options.prefix ?? '';
  const routes = Object.freeze([...options.routes]);
  const router = createRouter(routes, prefix);
  const parse = options.parseInput ?? defaultParseInput;
  const onError = options.onError ?? logErrorToStderr;
  const limit = options.maxBodyBytes ?? MAX_BODY_BYTES;
  const validateResponses = options.validateResponses ?? false;
  const api: ApiInfo = Object.freeze({ routes, prefix });

  async function handle(raw: RawRequest): Promise<RawResponse> {
    const requestId = newRequestId();
    let label: string | undefined;
    try {
      const match = router.match(raw.method, raw.path);
      if (match.kind === 'not_found') {
        return errorResponse(
          'route_not_found',
          `Unrecognized request URL (${raw.method} ${raw.path}).`,
          requestId,
        );
      }
      if (match.kind === 'method_not_allowed') {
        return errorResponse(
          'method_not_allowed',
          `Method ${raw.method} is not allowed on ${raw.path}; allowed: ${match.allow}.`,
          requestId,
          { headers: { Allow: match.allow } },
        );
      }
      const route = match.route;
      label = `${route.method} ${route.path}`;

      const auth = route.auth === 'none' ? null : await authenticate(raw.headers, route);
      const customer =
        auth === null || route.customerToken === 'none' ? null : await customerFor(raw.headers, route, auth);

      let body: Record<string, unknown> = {};
      let rawBody: string | null = null;
      if (route.rawBody === true) rawBody = rawBodyText(await raw.readBody(limit), route);
      else if (route.body !== undefined) body = decodeJsonBody(await raw.readBody(limit), raw.headers);
      const idempotencyKey = readIdempotencyKey(raw.headers);

      const ctx: RouteContext = {
        params:
          route.params === undefined ? match.params : parse(route.params, match.params, { location: 'path' }),
        query:
          route.query === undefined
            ? parseQuery(raw.query)
            : parse(route.query, parseQuery(raw.query), { location: 'query' }),
        body: route.body === undefined ? body : parse(route.body, body, { location: 'body' }),
        auth: auth as RouteContext['auth'],
        customer: customer as RouteContext['customer'],
        requestId,
        idempotencyKey,
        rawBody,
        headers: raw.headers,
        engine,
        api,
      };

      const execute = async (): Promise<StoredResponse & { contentType: string }> => {
        try {
          const result = await route.handler(ctx);
          const text = readTextResponse(result);
          if (text !== undefined) {
            return { status: route.status ?? 200, body: text.text, contentType: text.contentType };
          }
          return {
            status: route.status ?? 200,
            body: serialise(result, route, validateResponses),
            contentType: JSON_CONTENT_TYPE,
          };
        } catch (error) {
          // Domain outcomes are part of the idempotent result; unexpected failures are not stored.
          if (CommerceError.is(error) && statusForCode(error.code) < 500) {
            const text = JSON.stringify(errorBody(error.code, error.message, requestId, error));
            return { status: statusForCode(error.code), body: text, contentType: JSON_CONTENT_TYPE };
          }
          throw error;
        }
      };

      const idempotency = engine.idempotency;
      const stored =
        idempotency !== undefined && idempotencyKey !== null && raw.method === 'POST' && auth !== null
          ? await idempotency.run(
              { store_id: auth.store_id, mode: auth.mode },
              idempotencyKey,
              `${raw.method} ${raw.path}`,
              await sha256Hex(JSON.stringify(body)),
              execute,
            )
          : await execute();

      const headers: Record<string, string> = {
        'Content-Type': contentTypeOf(stored, route),
        'Request-Id': requestId,
      };
      if ('replayed' in stored && stored.replayed === true) headers['Idempotent-Replayed'] = 'true';
      return { status: stored.status, headers, body: stored.body };
    } catch (error) {
      const response = toErrorResponse(error, { requestId, route: label }, onError);
      // After a too-large body the rest of the upload was not read: do not reuse the connection.
      if (response.status === 413) response.headers.Connection = 'close';
      return response;
    }
  }

  async function authenticate(headers: HeaderReader, route: AnyRoute): Promise<AuthContext> {
    const header = headers.get('authorization');
    if (header === null || header.trim() === '') {
      throw new CommerceError(
        'unauthenticated',
        'No API key provided: send Authorization: Bearer <API key>.',
      );
    }
    const match = BEARER.exec(header);
    if (match === null) {
      throw new CommerceError(
        'unauthenticated',
        'Malformed Authorization header: expected Bearer <API key>.',
      );
    }
    const auth = await engine.auth.authenticateApiKey(match[1] as string);
    if (route.auth === 'secret' && auth.key_type !== 'secret') {
      throw new CommerceError('forbidden', 'This endpoint requires a secret API key.');
    }
    return auth;
  }

  async function customerFor(
    headers: HeaderReader,
    route: AnyRoute,
    auth: AuthContext,
  ): Promise<CustomerContext | null> {
    const token = headers.get('x-customer-token')?.trim() ?? '';
    if (token === '') {
      if (route.customerToken === 'required') {
        throw new CommerceError(
          'customer_token_required',
          'This endpoint requires an X-Customer-Token header.',
        );
      }
      return null;
    }
    return engine.auth.authenticateCustomerToken({ store_id: auth.store_id, mode: auth.mode }, token);
  }

  return { handle, router, api, maxBodyBytes: limit };
}

/**
 * The body text of a `rawBody` route. A body that a host framework already parsed has lost its
 * exact bytes, so a signature over them cannot be checked: that is a set-up error of the host
 * (500, reported through `onError`), not the caller's.
 */
function rawBodyText(source: BodySource, route: AnyRoute): string {
  if (source.kind === 'text') return source.text;
  throw new Error(
    `${route.method} ${route.path} needs the raw request body, but the host framework already parsed it; ` +
      'mount the API before any body parser for this path',
  );
}

function readIdempotencyKey(headers: HeaderReader): string | null {
  const key = headers.get('idempotency-key')?.trim() ?? '';
  if (key === '') return null;
  if (key.length > MAX_IDEMPOTENCY_KEY_LENGTH) {
    throw new CommerceError(
      'parameter_invalid',
      `The Idempotency-Key header must be at most ${MAX_IDEMPOTENCY_KEY_LENGTH} characters.`,
      { param: 'Idempotency-Key' },
    );
  }
  return key;
}

/** Query string → object; a repeated name becomes an array (`?tag=a&tag=b`). */
export function parseQuery(query: string): RawQuery {
  const out: RawQuery = {};
  if (query === '') return out;
  for (const [name, value] of new URLSearchParams(query)) {
    const previous = out[name];
    if (previous === undefined) out[name] = value;
    else if (Array.isArray(previous)) previous.push(value);
    else out[name] = [previous, value];
  }
  return out;
}

/**
 * The response's media type: the one the handler's result carried, or, for a response replayed
 * from the idempotency store (which keeps only status and body), the route's declared
 * `responseContentType` on success and JSON on errors.
 */
function contentTypeOf(stored: StoredResponse & { contentType?: string }, route: AnyRoute): string {
  if (stored.contentType !== undefined) return stored.contentType;
  return stored.status < 400 ? (route.responseContentType ?? JSON_CONTENT_TYPE) : JSON_CONTENT_TYPE;
}

/**
 * The response text of a handler's result, checked against the route's response schema when
 * `validate` is on: prepared JSON text ({@link jsonText}) is parsed and checked too (it must be
 * valid JSON of the declared shape), then sent as is.
 */
function serialise(result: unknown, route: AnyRoute, validate: boolean): string {
  const prepared = readJsonText(result);
  if (validate) {
    const check = route.response.safeParse(prepared === undefined ? result : JSON.parse(prepared));
    if (!check.success) {
      throw new Error(
        `Response of ${route.method} ${route.path} does not match its schema: ${check.error.message}`,
      );
    }
  }
  if (prepared !== undefined) return prepared;
  const text = JSON.stringify(result);
  if (text === undefined) throw new Error(`Route ${route.method} ${route.path} returned no value`);
  return text;
}

async function sha256Hex(text: string): Promise<string> {
  const digest = await crypto.subtle.digest('SHA-256', new TextEncoder().encode(text));
  let hex = '';
  for (const byte of new Uint8Array(digest)) hex += byte.toString(16).padStart(2, '0');
  return hex;
}
