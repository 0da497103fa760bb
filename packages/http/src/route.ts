import type { Engine, ErrorCode, Scope } from '@cartwright/core';
import type { ZodType, z } from 'zod';
import type { AuthContext, CustomerContext, RateLimitDecision } from './engine-port';
import type { HeaderReader } from './raw-http';
import type { StaffAuthorize } from './staff-session';

export type HttpMethod = 'GET' | 'POST' | 'PUT' | 'PATCH' | 'DELETE';

/** `secret`: secret keys only (publishable → 403); `any`: secret or publishable; `none`: no key needed. */
export type AuthRequirement = 'secret' | 'any' | 'none';

/** Whether the route reads `X-Customer-Token` (docs/contract.md#customer-tokens). */
export type CustomerTokenRequirement = 'none' | 'optional' | 'required';

/** Values the route can read without a schema. */
export type RawParams = Record<string, string>;
export type RawQuery = Record<string, string | string[]>;
/** A route without a body schema does not read its body: `ctx.body` is `{}`. */
export type NoBody = Record<string, never>;

type Parsed<S, Fallback> = S extends ZodType ? z.output<S> : Fallback;

/** What the API exposes about itself to routes (the OpenAPI route uses it). */
export interface ApiInfo {
  routes: readonly AnyRoute[];
  /** The mount prefix, `''` when none. */
  prefix: string;
}

/** Everything a route handler receives. Inputs are already validated and parsed by their schemas. */
export interface RouteContext<
  A extends AuthRequirement = AuthRequirement,
  C extends CustomerTokenRequirement = CustomerTokenRequirement,
  P = RawParams,
  Q = RawQuery,
  B = NoBody,
  E = Engine,
> {
  params: P;
  query: Q;
  body: B;
  /** The caller's key; `null` only on `auth: 'none'` routes. */
  auth: A extends 'none' ? null : AuthContext;
  /**
   * The request's scope: the store and mode of the caller's key, carrying the request's context
   * (its idempotency claim, core's `RequestScope`). Pass it to the engine unchanged — a fresh
   * `{ store_id, mode }` would drop the claim, and the effect would commit without its replay
   * record. `null` only on `auth: 'none'` routes.
   */
  scope: A extends 'none' ? null : Scope;
  /** The signed-in customer; never null when the token is required, always null when not read. */
  customer: C extends 'required' ? CustomerContext : C extends 'none' ? null : CustomerContext | null;
  requestId: string;
  /** The `Idempotency-Key` header, or null. */
  idempotencyKey: string | null;
  /**
   * The exact request body text, for routes declared with `rawBody: true` (provider webhooks,
   * whose signature covers the bytes as sent); null on every other route.
   */
  rawBody: string | null;
  headers: HeaderReader;
  /**
   * The client's address for the per-address limits (docs/contract.md#rate-limits): the
   * connection's (through `trustProxy`), or on a `buyerIp` route called with a secret key the
   * shopper's named in `Commerce-Buyer-Ip`; undefined when unknown.
   */
  clientAddress: string | undefined;
  /** The request came over https (the transport said so, or a trusted proxy's `X-Forwarded-Proto`). */
  secure?: boolean;
  /**
   * The embedding host's own staff login, when it replaces the session cookie (the handler's
   * `authorize` option; decisions §23); undefined otherwise.
   */
  staffAuthorize?: StaffAuthorize;
  /**
   * Shows a budget the use case consulted in the response's `RateLimit-*` headers (the tightest
   * one consulted wins; a 429 sends its `Retry-After`).
   */
  observeRateLimit(decision: RateLimitDecision): void;
  /**
   * The engine `createEngine` returned (core's `Engine`): use its front door,
   * `ctx.engine.forStore({ store_id: ctx.auth.store_id, mode: ctx.auth.mode })`, which validates.
   */
  engine: E;
  api: ApiInfo;
}

/** A route is data: everything the pipeline and the OpenAPI generator need, plus its handler. */
export interface RouteDefinition<
  A extends AuthRequirement = AuthRequirement,
  C extends CustomerTokenRequirement = CustomerTokenRequirement,
  P extends ZodType | undefined = ZodType | undefined,
  Q extends ZodType | undefined = ZodType | undefined,
  B extends ZodType | undefined = ZodType | undefined,
  R extends ZodType = ZodType,
  E = Engine,
> {
  method: HttpMethod;
  /** find-my-way pattern including `/v1`, e.g. `/v1/admin/products/:id`. */
  path: string;
  /** Extra paths served by the same route (e.g. the spec's `/admin/customers/:id/token`). */
  aliases?: readonly string[];
  auth: A;
  customerToken: C;
  params?: P;
  query?: Q;
  body?: B;
  /**
   * Read the body as raw text into `ctx.rawBody`, without parsing it or checking its content type
   * (a provider webhook verifies a signature over the exact bytes). Such a route has no `body`
   * schema. A body a host framework already parsed cannot be verified: the request fails with
   * 500 and the host must mount the API before its body parser for that path.
   */
  rawBody?: boolean;
  /** The success body; validated at run time only with `validateResponses: true`. */
  response: R;
  /** Success status: 200 unless the route says 201 (docs/contract.md#success-statuses). */
  status?: 200 | 201;
  /**
   * Media type of the success body, for the OpenAPI document and for replayed idempotent
   * responses; default `application/json; charset=utf-8`. A route that declares another type
   * returns a {@link textResponse} from its handler (e.g. the HTML API reference).
   */
  responseContentType?: string;
  /**
   * Leave the route out of the OpenAPI document (it is still served), as FastAPI's
   * `include_in_schema=False` does for its docs pages: for pages meant for people, such as the
   * HTML API reference, rather than operations of the API.
   */
  excludeFromOpenApi?: boolean;
  summary: string;
  description?: string;
  tags: readonly string[];
  operationId?: string;
  /**
   * A strict per-client-address limit counted across processes (docs/contract.md#rate-limits), besides the
   * caller's own budget, on every request before its body is read: `order_lookup` for the guest
   * order look-up. Implies `buyerIp`.
   */
  rateLimit?: 'order_lookup';
  /**
   * The least staff role that may call an admin route through a staff session or the host's
   * `authorize` hook (decisions §23; core's `requiredRoleOf`): judged right after sign-in, before
   * the body is read or validated, so a `member` gets 403 `forbidden` whatever it sends.
   */
  staffRole?: 'admin' | 'member';
  /**
   * The route's use case counts per-address limits of its own (customer sign-in failures,
   * docs/contract.md#sign-in) with `ctx.clientAddress`: a secret-key caller may name the shopper's
   * address in `Commerce-Buyer-Ip` (an IP address, else 400 `parameter_invalid`), which then
   * counts instead of the connection's; a publishable key's header is ignored.
   */
  buyerIp?: boolean;
  /** Domain error codes the route can return beyond the pipeline's own, for the OpenAPI document. */
  errors?: readonly ErrorCode[];
  /**
   * Headers a success may carry besides the pipeline's own (a handler sets them with
   * {@link withHeaders}), for the OpenAPI document: e.g. `Content-Language`.
   */
  responseHeaders?: readonly { name: string; description: string }[];
  /**
   * The use case. Returns the response body (serialised with `JSON.stringify`), a
   * {@link jsonText} value to send prepared JSON as is, or a {@link textResponse} value to send
   * text of another media type.
   */
  handler(
    ctx: RouteContext<A, C, Parsed<P, RawParams>, Parsed<Q, RawQuery>, Parsed<B, NoBody>, E>,
  ): Promise<unknown>;
}

/** Any route, for lists of routes. */
// biome-ignore lint/suspicious/noExplicitAny: a heterogeneous list of routes needs the widest schema types.
export type AnyRoute = RouteDefinition<AuthRequirement, CustomerTokenRequirement, any, any, any, ZodType>;

/**
 * Declares a route. An identity function that infers the handler's `ctx` types from the schemas
 * and the auth settings, and freezes the definition.
 */
export function defineRoute<
  const A extends AuthRequirement,
  const C extends CustomerTokenRequirement,
  P extends ZodType | undefined = undefined,
  Q extends ZodType | undefined = undefined,
  B extends ZodType | undefined = undefined,
  R extends ZodType = ZodType,
>(definition: RouteDefinition<A, C, P, Q, B, R>): RouteDefinition<A, C, P, Q, B, R> {
  return Object.freeze(definition);
}

const JSON_TEXT = Symbol.for('cartwright.JsonText');

/** Prepared JSON a handler returns to skip serialisation (e.g. the cached OpenAPI document). */
export interface JsonText {
  readonly [JSON_TEXT]: string;
}

/** Wraps JSON text so the pipeline sends it as is. The caller guarantees it is valid JSON. */
export function jsonText(text: string): JsonText {
  return { [JSON_TEXT]: text };
}

/** The text of a {@link jsonText} value, or undefined for any other value. */
export function readJsonText(value: unknown): string | undefined {
  if (typeof value !== 'object' || value === null) return undefined;
  const text = (value as Partial<Record<symbol, unknown>>)[JSON_TEXT];
  return typeof text === 'string' ? text : undefined;
}

const TEXT_RESPONSE = Symbol.for('cartwright.TextResponse');

/** Options of {@link textResponse}. */
export interface TextResponseOptions {
  /**
   * Headers sent with the response besides `Content-Type` and `Request-Id` (which the pipeline
   * sets): e.g. `Cache-Control`, `ETag`, `Content-Encoding`, `Vary`, `Content-Security-Policy`.
   */
  readonly headers?: Readonly<Record<string, string>>;
  /**
   * The status instead of the route's: `304` answers a conditional GET whose `If-None-Match`
   * matched (sent with no body; give it an empty body).
   */
  readonly status?: 304;
}

/** What a {@link textResponse} holds, as {@link readTextResponse} gives it back. */
export interface TextResponseParts {
  readonly contentType: string;
  /** Text (sent as UTF-8), or bytes sent as they are (e.g. a compressed body). */
  readonly body: string | Uint8Array;
  readonly headers?: Readonly<Record<string, string>>;
  readonly status?: 304;
}

/** A non-JSON success body and its media type, as a handler returns it (see {@link textResponse}). */
export interface TextResponse {
  readonly [TEXT_RESPONSE]: TextResponseParts;
}

/**
 * Wraps text of any media type so the pipeline sends it as is, with `Content-Type: contentType`,
 * instead of serialising a JSON value: `textResponse('text/html; charset=utf-8', page)`. Like
 * {@link jsonText}, it skips response validation. Declare the same type as the route's
 * `responseContentType` so the OpenAPI document describes it. Error responses stay JSON.
 *
 * The body may be bytes (a `Uint8Array`, e.g. the page compressed once, with
 * `headers: { 'Content-Encoding': 'gzip' }`); `options.headers` are added to the response and
 * `options.status` (304) replaces the route's status. An idempotent replay (a keyed POST) keeps
 * only the status and a text body: give extra headers and bytes on GET routes.
 */
export function textResponse(
  contentType: string,
  body: string | Uint8Array,
  options: TextResponseOptions = {},
): TextResponse {
  const parts: TextResponseParts = {
    contentType,
    body,
    ...(options.headers === undefined ? {} : { headers: options.headers }),
    ...(options.status === undefined ? {} : { status: options.status }),
  };
  return { [TEXT_RESPONSE]: parts };
}

/** The parts of a {@link textResponse} value, or undefined for any other value. */
export function readTextResponse(value: unknown): TextResponseParts | undefined {
  if (typeof value !== 'object' || value === null) return undefined;
  const inner = (value as Partial<Record<symbol, unknown>>)[TEXT_RESPONSE];
  if (typeof inner !== 'object' || inner === null) return undefined;
  const { contentType, body } = inner as { contentType?: unknown; body?: unknown };
  return typeof contentType === 'string' && (typeof body === 'string' || body instanceof Uint8Array)
    ? (inner as TextResponseParts)
    : undefined;
}

const WITH_HEADERS = Symbol.for('cartwright.WithHeaders');

/** A handler's result with headers for its success response (see {@link withHeaders}). */
export interface WithHeaders {
  readonly [WITH_HEADERS]: { readonly value: unknown; readonly headers: Readonly<Record<string, string>> };
}

/**
 * A handler's result (a JSON value or a {@link jsonText}) sent with extra response headers, e.g.
 * `Content-Language`; serialised and validated as the value alone would be. An idempotent replay
 * keeps only the status and body: give such headers on reads.
 */
export function withHeaders(value: unknown, headers: Readonly<Record<string, string>>): WithHeaders {
  return { [WITH_HEADERS]: { value, headers } };
}

/** The parts of a {@link withHeaders} value, or undefined for any other value. */
export function readWithHeaders(
  value: unknown,
): { readonly value: unknown; readonly headers: Readonly<Record<string, string>> } | undefined {
  if (typeof value !== 'object' || value === null) return undefined;
  return (value as Partial<WithHeaders>)[WITH_HEADERS];
}
