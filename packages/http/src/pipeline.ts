import { type ApiLogMode, CommerceError, DEFAULT_API_LOG_MODE, type Scope } from '@cartwright/core';
import { MAX_IDEMPOTENCY_KEY_LENGTH } from '@cartwright/core/schemas';
import { type ApiLogRecorder, createApiLogRecorder } from './api-logs/recorder';
import { buyerAddressOf, clientAddressOf, type TrustProxy } from './client-address';
import { compressResponse } from './compress';
import { type CorsOptions, createCors, isAdminRoute } from './cors';
import type {
  AuthContext,
  CustomerContext,
  HttpEngine,
  RateLimitDecision,
  RequestOutcome,
  RouteEngine,
  StoredResponse,
} from './engine-port';
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
  type AuthRequirement,
  type CustomerTokenRequirement,
  type RawQuery,
  type RouteContext,
  readJsonText,
  readTextResponse,
  readWithHeaders,
} from './route';
import { createRouter, type Router } from './router';
import { authenticateStaff, type StaffAuthorize } from './staff-session';
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
  /** Body size limit in bytes. Default 1 MiB (docs/contract.md#requests). */
  maxBodyBytes?: number;
  /** Browser origins allowed (docs/contract.md#browsers): storefront `'*'` and admin none by default. */
  cors?: CorsOptions;
  /**
   * How many proxies in front of the API append to `X-Forwarded-For` (`true`: all of them).
   * Default `false`: the client address is the peer's, and the header is ignored.
   */
  trustProxy?: TrustProxy;
  /**
   * The embedding host's own staff login (decisions §23, docs/embedding.md): maps an admin
   * request without an API key to a staff identity and role, or refuses it. It replaces the staff
   * session cookie (`POST /v1/admin/session`), which is then never read.
   */
  authorize?: StaffAuthorize;
  /**
   * API logs (decisions §23, `COMMERCE_API_LOGS`): `writes` (default: every non-GET request and
   * every 4xx/5xx of a resolved key), `all` or `off`. Written off the request's path, at least
   * every second; call the handler's `close()` at shutdown to write the last ones.
   */
  apiLogs?: ApiLogMode;
  /** The longest a logged request waits in memory before it is written. Default 1000 ms. */
  apiLogFlushMs?: number;
}

export interface Pipeline {
  handle(raw: RawRequest): Promise<RawResponse>;
  /** The API-log buffer; null when `apiLogs` is `off` (or the engine keeps none). */
  apiLogs: ApiLogRecorder | null;
  router: Router;
  api: ApiInfo;
  maxBodyBytes: number;
}

/** Failures of authentication that count against the client address (docs/contract.md#rate-limits). */
const AUTH_FAILURES = new Set(['unauthenticated', 'invalid_api_key', 'invalid_customer_token']);

const BEARER = /^Bearer[ \t]+(\S+)[ \t]*$/i;

/**
 * The request pipeline, the one place that catches. Order: request id → route (404/405) →
 * API key (401/403) → customer token (401/403) → body (413/415/400) → params, query, body
 * validation (400) → idempotency hook (POST or PUT with `Idempotency-Key`) → handler → JSON response
 * (or the text and media type of a `textResponse` the handler returned).
 * Routes without a `body` schema read a POST/PUT/PATCH/DELETE body only to refuse one that is not
 * JSON (its value is ignored); a `Content-Encoding` other than identity → 415; routes
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
  const cors = createCors(options.cors, prefix);
  const trustProxy = options.trustProxy ?? false;
  const limiter = engine.rateLimits;
  const apiLogs = createApiLogRecorder(engine.apiLogs, {
    mode: options.apiLogs ?? DEFAULT_API_LOG_MODE,
    ...(options.apiLogFlushMs !== undefined && { flushIntervalMs: options.apiLogFlushMs }),
    onError: (error) => onError(error, { requestId: 'api_logs', route: 'API logs' }),
  });

  // JSON responses over 1 KB are compressed when the client accepts it (docs/contract.md#responses).
  async function handle(raw: RawRequest): Promise<RawResponse> {
    if (apiLogs === null) return compressResponse(await respond(raw), raw.headers);
    const trace: LogTrace = {
      created_at: Date.now(),
      started: performance.now(),
      auth: null,
      body: undefined,
    };
    const response = await respond(raw, trace);
    if (trace.auth !== null) logRequest(raw, trace, trace.auth, response);
    return compressResponse(response, raw.headers);
  }

  /** Hands a finished request of a resolved key to the API-log buffer (api-logs/recorder.ts). */
  function logRequest(raw: RawRequest, trace: LogTrace, auth: AuthContext, response: RawResponse): void {
    const body = response.body;
    (apiLogs as ApiLogRecorder).add({
      store_id: auth.store_id,
      mode: auth.mode,
      api_key_id: auth.key_id,
      method: raw.method,
      path: prefix !== '' && raw.path.startsWith(prefix) ? raw.path.slice(prefix.length) : raw.path,
      status_code: response.status,
      latency_ms: Math.round(performance.now() - trace.started),
      request: trace.body,
      response:
        typeof body === 'string' && response.headers['Content-Type']?.startsWith('application/json')
          ? body
          : null,
      ip: clientAddressOf(raw, trustProxy) ?? null,
      user_agent: raw.headers.get('user-agent'),
      created_at: trace.created_at,
    });
  }

  async function respond(raw: RawRequest, trace?: LogTrace): Promise<RawResponse> {
    const requestId = newRequestId();
    let label: string | undefined;
    // CORS is judged by the route matched, never the raw path (docs/security.md): null until matched.
    let admin: boolean | null = null;
    // Whether the request failed while its body was being read (then it was not read to its end).
    let readingBody = false;
    // The RateLimit-* headers of the budget that applied (the tightest one consulted).
    let limits: RateLimitDecision | null = null;
    const observe = (decision: RateLimitDecision) => {
      if (limits === null || !decision.allowed || decision.remaining < limits.remaining) limits = decision;
    };
    const consult = (decision: RateLimitDecision | null) => {
      if (decision === null) return;
      observe(decision);
      if (!decision.allowed) {
        throw new CommerceError(
          'rate_limited',
          `Too many requests: try again in ${decision.retry_after_seconds} s.`,
        );
      }
    };
    try {
      if (raw.method === 'OPTIONS') {
        const allowed = router.allowed(raw.path);
        if (allowed.length > 0) {
          const found = router.match(allowed[0] as string, raw.path);
          const isAdmin =
            found.kind === 'found' ? isAdminRoute(found.route.path) : cors.isAdminPath(raw.path);
          const headers = cors.preflight(isAdmin, raw.headers, allowed);
          headers['Request-Id'] = requestId;
          return finish({ status: 204, headers, body: '' }, raw, null, isAdmin, false);
        }
      }
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
      admin = isAdminRoute(route.path);

      let address = limiter === undefined ? undefined : clientAddressOf(raw, trustProxy);
      let auth: AuthContext | null = null;
      let customer: CustomerContext | null = null;
      // A key this process found usable moments ago runs the request provisionally: its first
      // statement confirms the key (no round trip of its own), and nothing of it commits or is
      // answered otherwise (see below).
      let provisional: ProvisionalKey | null = null;
      if (route.auth !== 'none') {
        try {
          provisional = provisionalKey(raw, route);
          auth = provisional?.principal ?? (await authenticate(raw, route));
          if (trace !== undefined) trace.auth = auth;
          if (limiter !== undefined) consult(limiter.take(auth, address));
          if (route.customerToken !== 'none') customer = await customerFor(raw.headers, route, auth);
        } catch (error) {
          if (limiter !== undefined && CommerceError.is(error) && AUTH_FAILURES.has(error.code)) {
            consult(await limiter.count('failed_auth', address));
          }
          throw error;
        }
      }
      const proceed = async (): Promise<RawResponse> => {
        // A storefront's server names its shopper's address for the per-address limits (docs/contract.md#rate-limits).
        if ((route.buyerIp === true || route.rateLimit !== undefined) && auth?.key_type === 'secret') {
          address = buyerAddressOf(raw.headers) ?? address;
        }
        if (route.rateLimit !== undefined && limiter !== undefined) {
          consult(await limiter.count(route.rateLimit, address));
        }

        let body: Record<string, unknown> = {};
        let rawBody: string | null = null;
        if (route.rawBody === true || route.body !== undefined || !BODYLESS_METHODS.has(raw.method)) {
          refuseContentEncoding(raw.headers);
          readingBody = true;
          const source = await raw.readBody(limit);
          readingBody = false;
          if (trace !== undefined) trace.body = source;
          if (route.rawBody === true) rawBody = rawBodyText(source, route);
          // A route that takes no body still refuses one that is not JSON (docs/contract.md#requests)
          // instead of acting; a JSON body there is ignored.
          else if (route.body !== undefined) body = decodeJsonBody(source, raw.headers);
          else decodeJsonBody(source, raw.headers);
        }
        const idempotencyKey = readIdempotencyKey(raw.headers);

        const ctx: RouteContext = {
          params:
            route.params === undefined
              ? match.params
              : parse(route.params, match.params, { location: 'path' }),
          query:
            route.query === undefined
              ? parseQuery(raw.query)
              : parse(route.query, parseQuery(raw.query), { location: 'query' }),
          body: route.body === undefined ? body : parse(route.body, body, { location: 'body' }),
          auth: auth as RouteContext['auth'],
          // The request's scope; under an Idempotency-Key, the one carrying the claim (`execute`).
          scope: (auth === null
            ? null
            : { store_id: auth.store_id, mode: auth.mode }) as RouteContext['scope'],
          customer: customer as RouteContext['customer'],
          requestId,
          idempotencyKey,
          rawBody,
          headers: raw.headers,
          clientAddress: address,
          secure: isSecureRequest(raw, trustProxy),
          ...(options.authorize !== undefined && { staffAuthorize: options.authorize }),
          observeRateLimit: observe,
          engine,
          api,
        };

        // The response for an outcome of the route: the route's status and serialisation, or the
        // error body of a domain error; null for anything else (a 5xx, never stored).
        // `final`: the response sent (validated when `validateResponses` is on; a failure is thrown).
        const render = (outcome: RequestOutcome, final = false): RenderedResponse | null => {
          if ('error' in outcome) {
            const error = outcome.error;
            // A refusal by a limit the use case consulted is never stored under an Idempotency-Key.
            if (!CommerceError.is(error) || error.code === 'rate_limited') return null;
            const status = statusForCode(error.code, error.param);
            if (status >= 500) return null;
            const text = JSON.stringify(errorBody(error.code, error.message, requestId, error));
            return { status, body: text, contentType: JSON_CONTENT_TYPE };
          }
          // A result with response headers of its own (`withHeaders`): the value, then its headers.
          const wrapped = readWithHeaders(outcome.value);
          const value = wrapped === undefined ? outcome.value : wrapped.value;
          const text = readTextResponse(value);
          if (text !== undefined) {
            const status = text.status ?? route.status ?? 200;
            const rendered: RenderedResponse = { status, body: '', contentType: text.contentType };
            if (typeof text.body === 'string') rendered.body = text.body;
            else rendered.bytes = text.body;
            if (text.headers !== undefined) rendered.headers = text.headers;
            return rendered;
          }
          let body: string;
          try {
            body = serialise(value, route, final && validateResponses);
          } catch (error) {
            // Inside a transaction: a value that is not the route's response (a use case that
            // answers after its write) stores nothing there; the final response is stored after.
            if (final) throw error;
            return null;
          }
          const rendered: RenderedResponse = {
            status: route.status ?? 200,
            body,
            contentType: JSON_CONTENT_TYPE,
          };
          if (wrapped !== undefined) rendered.headers = wrapped.headers;
          return rendered;
        };
        // `scope`: the request's scope under its idempotency claim (core's `RequestScope`), which
        // the route passes to the engine, so each of its writes stores its response with its effect.
        const execute = async (scope?: Scope): Promise<RenderedResponse> => {
          if (scope !== undefined) ctx.scope = scope;
          let result: unknown;
          try {
            result = await route.handler(ctx);
          } catch (error) {
            // Domain outcomes are part of the idempotent result; unexpected failures are not stored.
            const response = render({ error });
            if (response === null) throw error;
            return response;
          }
          return render({ value: result }, true) as RenderedResponse;
        };

        const idempotency = engine.idempotency;
        const stored =
          idempotency !== undefined &&
          idempotencyKey !== null &&
          (raw.method === 'POST' || raw.method === 'PUT') &&
          auth !== null
            ? await idempotency.run(
                {
                  scope: ctx.scope as Scope,
                  caller: { key_id: auth.key_id, customer_id: customer?.customer_id ?? null },
                  key: idempotencyKey,
                  request: `${raw.method} ${raw.path}`,
                  bodyHash: await sha256Hex(rawBody ?? canonicalJson(body)),
                },
                execute,
                render,
              )
            : await execute();
        if (validateResponses && 'committed' in stored) checkCommitted(stored, route);

        const headers: Record<string, string> = {
          'Content-Type': contentTypeOf(stored, route),
          'Request-Id': requestId,
        };
        if ('replayed' in stored && stored.replayed === true) headers['Idempotent-Replayed'] = 'true';
        const { headers: extra, bytes } = stored as Partial<RenderedResponse>;
        if (extra !== undefined) for (const name in extra) headers[name] = extra[name] as string;
        return finish({ status: stored.status, headers, body: bytes ?? stored.body }, raw, limits, admin);
      };
      if (provisional === null) return await proceed();
      try {
        return await provisional.run(proceed);
      } catch (error) {
        // The key was revoked, rotated away or expired before the request started: a failed
        // authentication (counted as one), and the request is not logged under the key.
        if (CommerceError.is(error) && error.code === 'invalid_api_key') {
          if (trace !== undefined) trace.auth = null;
          if (limiter !== undefined) consult(await limiter.count('failed_auth', address));
        }
        throw error;
      }
    } catch (error) {
      const response = toErrorResponse(error, { requestId, route: label }, onError);
      // After a too-large, late or refused body the rest of the upload was not read: do not
      // reuse the connection.
      if (response.status === 413 || response.status === 408 || readingBody)
        response.headers.Connection = 'close';
      return finish(response, raw, limits, admin);
    }
  }

  /**
   * The headers every response carries (docs/contract.md#browsers): `X-Content-Type-Options: nosniff`, CORS
   * for an allowed browser origin, and the `RateLimit-*` headers of the budget that applied
   * (`Retry-After` on a 429).
   */
  function finish(
    response: RawResponse,
    raw: RawRequest,
    limits: RateLimitDecision | null,
    admin: boolean | null,
    corsHeaders = true,
  ): RawResponse {
    const headers = response.headers;
    headers['X-Content-Type-Options'] = 'nosniff';
    if (corsHeaders && raw.headers.get('origin') !== null) {
      const allowed = cors.responseHeaders(admin ?? cors.isAdminPath(raw.path), raw.headers);
      if (allowed !== null) {
        // Keep a Vary the response already has (`Accept-Encoding` on the compressed docs).
        const vary = headers.Vary;
        Object.assign(headers, allowed);
        if (vary !== undefined && allowed.Vary !== undefined) headers.Vary = `${vary}, ${allowed.Vary}`;
      }
    }
    if (limits !== null) {
      headers['RateLimit-Limit'] = String(limits.limit);
      headers['RateLimit-Remaining'] = String(limits.remaining);
      headers['RateLimit-Reset'] = String(limits.reset_seconds);
      if (response.status === 429) headers['Retry-After'] = String(limits.retry_after_seconds);
    } else if (response.status === 429 && headers['Retry-After'] === undefined) {
      // A refusal that no budget counted (too many bodies at once from one address).
      headers['Retry-After'] = '1';
    }
    // 503 `service_unavailable` (too many password hashes at once): try again in a second.
    if (response.status === 503 && headers['Retry-After'] === undefined) headers['Retry-After'] = '1';
    return response;
  }

  /**
   * The provisional key of a request that is not a GET or HEAD (`engine.auth.provisional`), or
   * null: no key remembered, a staff request, or a read (reads authenticate first: their
   * statements run outside a transaction, where a deferred check would cost a connection).
   */
  function provisionalKey(raw: RawRequest, route: AnyRoute): ProvisionalKey | null {
    if (engine.auth.provisional === undefined || raw.method === 'GET' || raw.method === 'HEAD') return null;
    const match = BEARER.exec(raw.headers.get('authorization') ?? '');
    if (match === null) return null;
    const provisional = engine.auth.provisional(match[1] as string);
    if (provisional !== null) assertKeyFits(route, provisional.principal);
    return provisional;
  }

  async function authenticate(raw: RawRequest, route: AnyRoute): Promise<AuthContext> {
    const headers = raw.headers;
    const header = headers.get('authorization');
    // No API key on an admin route: a staff session, or the host's `authorize` (staff-session.ts).
    if ((header === null || header.trim() === '') && route.auth === 'secret') {
      return authenticateStaff(engine, raw, options.authorize, route.staffRole);
    }
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
    assertKeyFits(route, auth);
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

  return { handle, router, api, maxBodyBytes: limit, apiLogs };
}

type ProvisionalKey = NonNullable<ReturnType<NonNullable<HttpEngine['auth']['provisional']>>>;

/** A publishable key on a secret route → 403 `forbidden`. */
function assertKeyFits(route: AnyRoute, auth: AuthContext): void {
  if (route.auth === 'secret' && auth.key_type !== 'secret') {
    throw new CommerceError('forbidden', 'This endpoint requires a secret API key.');
  }
}

/** What the API log of a request needs from inside the pipeline: its key, once resolved, and its body as read. */
interface LogTrace {
  created_at: number;
  started: number;
  auth: AuthContext | null;
  body: BodySource | undefined;
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

/**
 * Whether the request came over https: the transport says so (`raw.secure`), or, behind trusted
 * proxies, `X-Forwarded-Proto` does (its first value).
 */
function isSecureRequest(raw: RawRequest, trustProxy: TrustProxy): boolean {
  if (raw.secure === true) return true;
  if (trustProxy === false) return false;
  const proto = raw.headers.get('x-forwarded-proto')?.split(',')[0]?.trim().toLowerCase();
  return proto === 'https';
}

/** Methods whose requests carry no body here: it is never read. */
const BODYLESS_METHODS = new Set(['GET', 'HEAD', 'OPTIONS']);

/** A `Content-Encoding` other than identity → 415 (docs/contract.md#requests): the body is never decoded. */
function refuseContentEncoding(headers: HeaderReader): void {
  const encoding = headers.get('content-encoding')?.trim().toLowerCase() ?? '';
  if (encoding === '' || encoding === 'identity') return;
  throw new CommerceError(
    'unsupported_media_type',
    `Unsupported Content-Encoding '${printableHeader(encoding)}': request bodies must be sent uncompressed (identity).`,
  );
}

function printableHeader(value: string): string {
  return value.length > 40 ? `${value.slice(0, 40)}…` : value;
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
 * A response as the pipeline renders it: the stored part plus its media type, and for a
 * `textResponse` its extra headers and a byte body (then `body` is `''`). An idempotent replay
 * keeps only the stored part.
 */
type RenderedResponse = StoredResponse & {
  contentType: string;
  headers?: Readonly<Record<string, string>>;
  bytes?: Uint8Array;
};

/**
 * Test-time guard of crash safety (docs/contract.md#idempotency; on with `validateResponses`): the response a
 * keyed request stored in the transaction of its effect must be the one it finally sent. A
 * handler that reshapes its service's value, or a use case that writes more than once without
 * marking its earlier transactions `interim` (or giving `write` an `answer`), would otherwise
 * replay something else after a crash between the effect and the final response.
 */
function checkCommitted(
  sent: StoredResponse & { committed?: StoredResponse | null; unanswered?: boolean },
  route: AnyRoute,
): void {
  if (sent.unanswered === true && sent.status < 500) {
    throw new Error(
      `${route.method} ${route.path}: its last transaction committed an effect without storing the response ` +
        `(${sent.status} ${sent.body.slice(0, 200)}); give its write an \`answer\`, or mark it \`interim\``,
    );
  }
  const committed = sent.committed;
  if (committed === null || committed === undefined) return;
  if (committed.status === sent.status && committed.body === sent.body) return;
  throw new Error(
    `${route.method} ${route.path}: the response stored with the effect (${committed.status} ${committed.body.slice(0, 200)}) ` +
      `differs from the response sent (${sent.status} ${sent.body.slice(0, 200)}); ` +
      'give its write an `answer`, or mark earlier transactions `interim`',
  );
}

/**
 * The canonical JSON text of a request body for its idempotency hash: object keys sorted
 * (recursively, by code unit), no whitespace, arrays in order — so the same JSON value sent with
 * its keys in another order, or formatted differently, hashes the same (docs/contract.md#idempotency).
 */
export function canonicalJson(value: unknown): string {
  if (value === null || typeof value !== 'object') return JSON.stringify(value) ?? 'null';
  if (Array.isArray(value)) return `[${value.map(canonicalJson).join(',')}]`;
  const record = value as Record<string, unknown>;
  const parts: string[] = [];
  for (const name of Object.keys(record).sort()) {
    if (record[name] === undefined) continue;
    parts.push(`${JSON.stringify(name)}:${canonicalJson(record[name])}`);
  }
  return `{${parts.join(',')}}`;
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
