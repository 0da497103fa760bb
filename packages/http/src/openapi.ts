import {
  OpenAPIRegistry,
  OpenApiGeneratorV31,
  type ResponseConfig,
  type RouteConfig,
} from '@asteasolutions/zod-to-openapi';
import { ERROR_CODES, type ErrorCode } from '@cartwright/core';
import {
  MAX_AMOUNT,
  MAX_CART_LINES,
  MAX_IDEMPOTENCY_KEY_LENGTH,
  MAX_IDENTIFIER_LENGTH,
  MAX_LIST_ITEMS,
  MAX_METADATA_DEPTH,
  MAX_METADATA_KEY_LENGTH,
  MAX_METADATA_KEYS,
  MAX_METADATA_VALUE_LENGTH,
  MAX_NAME_LENGTH,
  MAX_QUANTITY,
  MAX_TEXT_LENGTH,
  MAX_URL_LENGTH,
  PAYMENT_PROVIDERS_EXTENSION,
} from '@cartwright/core/schemas';
import { type ZodObject, z } from 'zod';
import { BUYER_IP_HEADER } from './client-address';
import { addOpenApiExamples } from './openapi-examples';
import type { AnyRoute, ApiInfo } from './route';
import { STATUS_BY_CODE, STATUS_OVERRIDES } from './status-map';

/** The generated OpenAPI 3.1 document. */
export type OpenApiDocument = ReturnType<OpenApiGeneratorV31['generateDocument']>;

export interface OpenApiInfo {
  title: string;
  version: string;
  description?: string;
}

const ERROR_TYPE_VALUES = [
  'invalid_request_error',
  'authentication_error',
  'payment_error',
  'permission_error',
  'not_found_error',
  'conflict_error',
  'rate_limit_error',
  'api_error',
] as const;

/** The shared error body (docs/contract.md#errors), a component every error response references. */
export const ErrorResponseSchema = z
  .object({
    error: z.object({
      type: z.enum(ERROR_TYPE_VALUES),
      code: z.enum(ERROR_CODES as [ErrorCode, ...ErrorCode[]]),
      message: z.string(),
      param: z.string().optional(),
      details: z.array(z.object({ param: z.string(), message: z.string() })).optional(),
      request_id: z.string(),
    }),
  })
  .meta({
    id: 'ErrorResponse',
    description:
      "Every error: type follows the HTTP status; param names the faulty field, a field inside an array or object in Stripe's bracket form (lines[0][quantity], shipping_address[country], metadata[note]); details[].param likewise.",
  });

/**
 * Operation extension naming the key kind a route accepts (`secret`, `any` or `none`): the
 * bearer scheme alone cannot tell a secret-key route from one a publishable key may call.
 */
export const AUTH_EXTENSION = 'x-cartwright-auth';

const SECURITY_API_KEY = 'ApiKey';
const SECURITY_CUSTOMER_TOKEN = 'CustomerToken';

/**
 * The size limits of docs/contract.md#input-limits as the document states them at its root (`x-cartwright-limits`),
 * read from core's limits (the one place that defines them). The schemas carry most of them
 * field by field (`maxLength`, `maximum`, `maxItems`, `maxProperties`); this also names the ones
 * enforced by code across a request or a stored object: the lines of a cart (adds and merges
 * included), a line's summed quantity, and metadata strings at any depth.
 */
export const DOCUMENTED_LIMITS = Object.freeze({
  metadata_keys: MAX_METADATA_KEYS,
  metadata_key_length: MAX_METADATA_KEY_LENGTH,
  metadata_value_length: MAX_METADATA_VALUE_LENGTH,
  metadata_depth: MAX_METADATA_DEPTH,
  identifier_length: MAX_IDENTIFIER_LENGTH,
  name_length: MAX_NAME_LENGTH,
  text_length: MAX_TEXT_LENGTH,
  url_length: MAX_URL_LENGTH,
  list_items: MAX_LIST_ITEMS,
  cart_lines: MAX_CART_LINES,
  quantity: MAX_QUANTITY,
  amount: MAX_AMOUNT,
  idempotency_key_length: MAX_IDEMPOTENCY_KEY_LENGTH,
});

/** Root extension holding {@link DOCUMENTED_LIMITS}. */
export const LIMITS_EXTENSION = 'x-cartwright-limits';

/** The same limits in words, for the document's description (and so the HTML reference). */
const LIMITS_TEXT =
  `Limits: \`metadata\` holds at most ${MAX_METADATA_KEYS} keys of at most ${MAX_METADATA_KEY_LENGTH} characters, ` +
  `strings in it at most ${MAX_METADATA_VALUE_LENGTH} characters (at any depth, nested at most ${MAX_METADATA_DEPTH} levels); ` +
  `ids, codes and other identifiers at most ${MAX_IDENTIFIER_LENGTH} characters, names ${MAX_NAME_LENGTH}, ` +
  `descriptions and notes ${MAX_TEXT_LENGTH.toLocaleString('en-US')}, URLs ${MAX_URL_LENGTH.toLocaleString('en-US')}; ` +
  `lists at most ${MAX_LIST_ITEMS} entries; a cart at most ${MAX_CART_LINES} lines (however they are added), ` +
  `a line at most ${MAX_QUANTITY.toLocaleString('en-US')} units; money amounts at most ` +
  `${MAX_AMOUNT.toLocaleString('en-US')} minor units. Over a limit → 400 \`parameter_invalid\` with its \`param\`. ` +
  `The numbers are also in \`${LIMITS_EXTENSION}\`.`;

/** The same rate limits in words. */
const RATE_LIMITS_TEXT =
  'Rate limits: every authenticated request counts against its API key (and, for publishable keys and ' +
  'failed authentication, against the client address); the guest order lookup has a stricter per-address ' +
  'budget, and failed customer sign-ins (a wrong password, a wrong current password, an invalid reset token) ' +
  'are limited per client address and per e-mail — successful ones count only toward the key. A secret-key ' +
  'caller may name its shopper’s address in `Commerce-Buyer-Ip` on those routes. Over a budget → 429 ' +
  '`rate_limited` with `Retry-After`. Responses carry `RateLimit-Limit`, `RateLimit-Remaining` and ' +
  '`RateLimit-Reset` while limits are on.';

export const DEFAULT_OPENAPI_INFO: OpenApiInfo = {
  title: 'Cartwright API',
  version: '1.0.0',
  description: [
    'The Cartwright commerce engine: storefront and admin endpoints under /v1.',
    LIMITS_TEXT,
    RATE_LIMITS_TEXT,
  ].join('\n\n'),
};

const IDEMPOTENCY_KEY_PARAMETER = 'IdempotencyKey';
const BUYER_IP_PARAMETER = 'CommerceBuyerIp';
const HEADER_RATE_LIMIT_LIMIT = 'RateLimit-Limit';
const HEADER_RATE_LIMIT_REMAINING = 'RateLimit-Remaining';
const HEADER_RATE_LIMIT_RESET = 'RateLimit-Reset';
const HEADER_RETRY_AFTER = 'Retry-After';
const HEADER_IDEMPOTENT_REPLAYED = 'Idempotent-Replayed';

/** A `$ref` to a component. */
const ref = (kind: 'parameters' | 'headers', name: string) => ({ $ref: `#/components/${kind}/${name}` });

/**
 * Registers the parameter and headers every operation shares: `Idempotency-Key` (docs/contract.md#idempotency),
 * the `RateLimit-*` headers and `Retry-After` (docs/contract.md#rate-limits), and `Idempotent-Replayed`.
 */
function registerSharedComponents(registry: OpenAPIRegistry): void {
  registry.registerComponent('parameters', IDEMPOTENCY_KEY_PARAMETER, {
    name: 'Idempotency-Key',
    in: 'header',
    required: false,
    schema: { type: 'string', minLength: 1, maxLength: MAX_IDEMPOTENCY_KEY_LENGTH },
    example: '3f2b8c1e-4d5a-4b6c-9e7f-0a1b2c3d4e5f',
    description:
      `Makes this POST safe to retry: a key of your choosing (at most ${MAX_IDEMPOTENCY_KEY_LENGTH} characters, ` +
      'e.g. a UUID). The same key with the same body within 24 hours returns the first response again ' +
      '(with `Idempotent-Replayed: true`), and the effect happens once; the same key with a different body → ' +
      '409 `idempotency_key_reused`; while the first request still runs → 409 `idempotency_key_in_use`. ' +
      '"The same body" is the same JSON value (key order and whitespace do not matter). A key belongs to its ' +
      "caller (store, mode, API key and customer token): another caller's identical request is a new request.",
  });
  registry.registerComponent('parameters', BUYER_IP_PARAMETER, {
    name: BUYER_IP_HEADER,
    in: 'header',
    required: false,
    schema: { type: 'string', maxLength: 45 },
    example: '203.0.113.7',
    description:
      'Secret keys only (a storefront server acting for a shopper): the shopper’s IP address, counted by this ' +
      "route's per-address limits instead of the connection's address. Not an IPv4 or IPv6 address → 400 " +
      '`parameter_invalid` (`param: Commerce-Buyer-Ip`). Ignored with a publishable key.',
  });
  const integer = { type: 'integer' as const, minimum: 0 };
  registry.registerComponent('headers', HEADER_RATE_LIMIT_LIMIT, {
    description:
      'Requests the budget that applied to this request allows when full (the tightest one consulted: the ' +
      'API key, the client address, or the stricter per-address budget of a route). Sent while rate limits ' +
      'are on (the default for a server; `COMMERCE_RATE_LIMITS=off` turns them off).',
    schema: integer,
  });
  registry.registerComponent('headers', HEADER_RATE_LIMIT_REMAINING, {
    description: 'Requests left in that budget after this one.',
    schema: integer,
  });
  registry.registerComponent('headers', HEADER_RATE_LIMIT_RESET, {
    description: 'Seconds until that budget is full again.',
    schema: integer,
  });
  registry.registerComponent('headers', HEADER_RETRY_AFTER, {
    description: 'Seconds to wait before the request can succeed.',
    required: true,
    schema: integer,
  });
  registry.registerComponent('headers', HEADER_IDEMPOTENT_REPLAYED, {
    description: 'Present (`true`) when the response is the stored first response of its `Idempotency-Key`.',
    schema: { type: 'string', enum: ['true'] },
  });
}

/**
 * Builds the OpenAPI 3.1 document for a list of routes with zod-to-openapi: every route with its
 * path parameters, query, JSON body, success response and the error responses it can produce (all
 * referencing the shared `ErrorResponse`), plus the two security schemes (bearer API key,
 * `X-Customer-Token` header) and the key kind in {@link AUTH_EXTENSION}. The success body is
 * `application/json` unless the route declares another `responseContentType`. Schemas named
 * with zod's `.meta({ id })` become components. Request bodies, JSON success responses and path
 * parameters carry an `example` generated from their schemas (./openapi-examples.ts). Aliases are
 * listed as deprecated copies of their route; routes marked `excludeFromOpenApi` are left out.
 * `prefix` (the mount prefix) becomes the server URL. `paymentProviders` (default
 * {@link DEFAULT_PAYMENT_PROVIDERS}) is the `enum` of checkout's `payment_provider`: the names
 * the serving engine has registered.
 */
export function buildOpenApiDocument(
  routes: readonly AnyRoute[],
  info: OpenApiInfo = DEFAULT_OPENAPI_INFO,
  options: { prefix?: string; paymentProviders?: readonly string[] | undefined } = {},
): OpenApiDocument {
  const registry = new OpenAPIRegistry();
  registry.registerComponent('securitySchemes', SECURITY_API_KEY, {
    type: 'http',
    scheme: 'bearer',
    description: 'An API key: sk_test_/sk_live_ (secret) or pk_test_/pk_live_ (publishable).',
  });
  registry.registerComponent('securitySchemes', SECURITY_CUSTOMER_TOKEN, {
    type: 'apiKey',
    in: 'header',
    name: 'X-Customer-Token',
    description: 'A customer token (ct_…) issued by POST /v1/admin/customers/{id}/token.',
  });
  registerSharedComponents(registry);

  for (const route of routes) {
    if (route.excludeFromOpenApi === true) continue;
    const base = operationFor(route);
    registry.registerPath({
      ...base,
      path: toOpenApiPath(route.path),
      ...(route.operationId ? { operationId: route.operationId } : {}),
    });
    for (const alias of route.aliases ?? []) {
      registry.registerPath({
        ...base,
        path: toOpenApiPath(alias),
        deprecated: true,
        description: `Alias of ${route.method} ${toOpenApiPath(route.path)}.`,
      });
    }
  }

  const prefix = options.prefix ?? '';
  const document = new OpenApiGeneratorV31(registry.definitions).generateDocument({
    openapi: '3.1.0',
    info: { ...info },
    ...(prefix === '' ? {} : { servers: [{ url: prefix }] }),
  });
  (document as unknown as Record<string, unknown>)[LIMITS_EXTENSION] = { ...DOCUMENTED_LIMITS };
  listPaymentProviders(document, options.paymentProviders ?? DEFAULT_PAYMENT_PROVIDERS);
  return addOpenApiExamples(nullableReferencesAsAnyOf(document));
}

/**
 * The payment providers a document lists when it is not built for an engine (`pnpm docs:api`,
 * `docs/openapi.json`): the two Cartwright ships, `manual` and `stripe`. A served document lists
 * its engine's registered providers instead.
 */
export const DEFAULT_PAYMENT_PROVIDERS: readonly string[] = Object.freeze(['manual', 'stripe']);

/**
 * Writes the payment providers as the `enum` of every field core marks with
 * `PAYMENT_PROVIDERS_EXTENSION` (checkout's `payment_provider` and `payment_method`), in place
 * of the name pattern and length that only say what a name may look like.
 */
export function listPaymentProviders<T>(document: T, names: readonly string[]): T {
  const visit = (node: unknown): void => {
    if (Array.isArray(node)) {
      for (const item of node) visit(item);
      return;
    }
    if (typeof node !== 'object' || node === null) return;
    const object = node as Record<string, unknown>;
    if (object[PAYMENT_PROVIDERS_EXTENSION] === true) {
      delete object[PAYMENT_PROVIDERS_EXTENSION];
      delete object.pattern;
      delete object.minLength;
      delete object.maxLength;
      object.enum = [...names];
    }
    for (const value of Object.values(object)) visit(value);
  };
  visit(document);
  return document;
}

/** `{ type: [..., 'null'] }` and nothing else: the part zod-to-openapi adds to make a reference nullable. */
function isNullablePart(part: unknown): boolean {
  if (typeof part !== 'object' || part === null || Array.isArray(part)) return false;
  const { type, ...rest } = part as { type?: unknown };
  return Object.keys(rest).length === 0 && Array.isArray(type) && type.includes('null');
}

/**
 * zod-to-openapi writes a nullable reference (`Money.nullable()`, `Address.nullable()`) as
 * `allOf: [{ $ref }, { type: [object, null] }]`. In JSON Schema 2020-12 `allOf` needs both parts,
 * and the referenced schema rejects `null`, so `null` — what the API returns for an unset
 * `maximum_discount` or `shipping_address` — would not validate. Rewritten in place as
 * `anyOf: [{ $ref }, { type: 'null' }]` (other keywords such as `description` stay).
 */
export function nullableReferencesAsAnyOf<T>(document: T): T {
  const visit = (node: unknown): void => {
    if (Array.isArray(node)) {
      for (const item of node) visit(item);
      return;
    }
    if (typeof node !== 'object' || node === null) return;
    const object = node as Record<string, unknown>;
    const all = object.allOf;
    if (Array.isArray(all) && all.length === 2 && all.some(isNullablePart)) {
      const reference = all.find((part) => !isNullablePart(part));
      if (typeof reference === 'object' && reference !== null && '$ref' in reference) {
        delete object.allOf;
        object.anyOf = [reference, { type: 'null' }];
      }
    }
    for (const value of Object.values(object)) visit(value);
  };
  visit(document);
  return document;
}

const cache = new WeakMap<OpenApiInfo, WeakMap<ApiInfo, Map<string, string>>>();

/**
 * The document as JSON text, built once per API (route list + prefix), info and payment
 * providers (the serving engine's; default {@link DEFAULT_PAYMENT_PROVIDERS}) on first use, then
 * served from memory.
 */
export function openApiJson(
  api: ApiInfo,
  info: OpenApiInfo = DEFAULT_OPENAPI_INFO,
  paymentProviders: readonly string[] = DEFAULT_PAYMENT_PROVIDERS,
): string {
  let byApi = cache.get(info);
  if (byApi === undefined) {
    byApi = new WeakMap();
    cache.set(info, byApi);
  }
  let byProviders = byApi.get(api);
  if (byProviders === undefined) {
    byProviders = new Map();
    byApi.set(api, byProviders);
  }
  const key = paymentProviders.join(',');
  let text = byProviders.get(key);
  if (text === undefined) {
    text = JSON.stringify(buildOpenApiDocument(api.routes, info, { prefix: api.prefix, paymentProviders }));
    byProviders.set(key, text);
  }
  return text;
}

/** find-my-way `:id` → OpenAPI `{id}`. */
export function toOpenApiPath(path: string): string {
  return path.replace(/:([A-Za-z0-9_]+)/g, '{$1}');
}

function pathParamNames(path: string): string[] {
  return [...path.matchAll(/:([A-Za-z0-9_]+)/g)].map((m) => m[1] as string);
}

function operationFor(route: AnyRoute): Omit<RouteConfig, 'path'> {
  const params =
    route.params ??
    (pathParamNames(route.path).length > 0
      ? z.object(Object.fromEntries(pathParamNames(route.path).map((name) => [name, z.string()])))
      : undefined);
  const request: NonNullable<RouteConfig['request']> = {};
  if (params !== undefined) request.params = params as ZodObject;
  if (route.query !== undefined) request.query = route.query as ZodObject;
  if (route.body !== undefined) {
    request.body = {
      required: !route.body.safeParse({}).success,
      content: { 'application/json': { schema: route.body } },
    };
  }
  const status = route.status ?? 200;
  const mediaType = (route.responseContentType ?? 'application/json').split(';')[0]?.trim() as string;
  const success: ResponseConfig = {
    description: 'Success',
    content: { [mediaType]: { schema: route.response } },
  };
  if (acceptsIdempotencyKey(route)) {
    success.headers = { [HEADER_IDEMPOTENT_REPLAYED]: ref('headers', HEADER_IDEMPOTENT_REPLAYED) };
  }
  if (route.responseHeaders !== undefined) {
    const headers: Record<string, unknown> = { ...(success.headers as Record<string, unknown> | undefined) };
    for (const header of route.responseHeaders) {
      headers[header.name] = { description: header.description, schema: { type: 'string' } };
    }
    success.headers = headers as NonNullable<ResponseConfig['headers']>;
  }
  const responses: Record<string, ResponseConfig> = { [status]: success, ...errorResponsesFor(route) };
  if (isRateLimited(route)) {
    // Every response of a counted request carries the budget's headers; a 429 also Retry-After.
    for (const [code, response] of Object.entries(responses)) {
      response.headers = {
        ...(response.headers as Record<string, unknown> | undefined),
        ...(code === '429' ? { [HEADER_RETRY_AFTER]: ref('headers', HEADER_RETRY_AFTER) } : {}),
        [HEADER_RATE_LIMIT_LIMIT]: ref('headers', HEADER_RATE_LIMIT_LIMIT),
        [HEADER_RATE_LIMIT_REMAINING]: ref('headers', HEADER_RATE_LIMIT_REMAINING),
        [HEADER_RATE_LIMIT_RESET]: ref('headers', HEADER_RATE_LIMIT_RESET),
      };
    }
  }
  const headerParameters = [
    ...(acceptsIdempotencyKey(route) ? [ref('parameters', IDEMPOTENCY_KEY_PARAMETER)] : []),
    ...(acceptsBuyerIp(route) ? [ref('parameters', BUYER_IP_PARAMETER)] : []),
  ];
  return {
    method: route.method.toLowerCase() as RouteConfig['method'],
    summary: route.summary,
    ...(route.description === undefined ? {} : { description: route.description }),
    tags: [...route.tags],
    security: securityFor(route),
    [AUTH_EXTENSION]: route.auth,
    ...(headerParameters.length > 0 ? { parameters: headerParameters } : {}),
    request,
    responses,
  };
}

/**
 * Whether the pipeline honours `Idempotency-Key` on the route: every POST or PUT (decisions §19)
 * that authenticates its caller (the key is scoped to the caller). A POST without a key (a payment provider's webhook)
 * has no caller to scope it to; it is left out there.
 */
export function acceptsIdempotencyKey(route: AnyRoute): boolean {
  return (route.method === 'POST' || route.method === 'PUT') && route.auth !== 'none';
}

/**
 * Whether the pipeline reads `Commerce-Buyer-Ip` on the route (docs/contract.md#rate-limits): routes
 * with per-address limits of their own, for secret-key callers.
 */
export function acceptsBuyerIp(route: AnyRoute): boolean {
  return route.auth !== 'none' && (route.buyerIp === true || route.rateLimit !== undefined);
}

/**
 * Whether a request of the route is counted against a rate limit (docs/contract.md#rate-limits): every
 * authenticated route (its API key's budget, and the client address's for publishable keys and
 * failed authentication), and any route with a stricter per-address budget of its own.
 */
export function isRateLimited(route: AnyRoute): boolean {
  return route.auth !== 'none' || route.rateLimit !== undefined;
}

function securityFor(route: AnyRoute): NonNullable<RouteConfig['security']> {
  if (route.auth === 'none') return [];
  if (route.customerToken === 'required') return [{ [SECURITY_API_KEY]: [], [SECURITY_CUSTOMER_TOKEN]: [] }];
  if (route.customerToken === 'optional') {
    return [{ [SECURITY_API_KEY]: [], [SECURITY_CUSTOMER_TOKEN]: [] }, { [SECURITY_API_KEY]: [] }];
  }
  return [{ [SECURITY_API_KEY]: [] }];
}

/** The error codes a route can produce: the pipeline's own for its settings, plus `route.errors`. */
export function errorCodesFor(route: AnyRoute): ErrorCode[] {
  const codes = new Set<ErrorCode>();
  if (route.params !== undefined || route.query !== undefined || route.body !== undefined) {
    codes.add('parameter_invalid').add('parameter_missing').add('parameter_unknown');
  }
  if (route.body !== undefined) codes.add('invalid_json').add('body_too_large').add('unsupported_media_type');
  if (route.auth !== 'none') codes.add('unauthenticated').add('invalid_api_key');
  if (route.auth === 'secret') codes.add('forbidden');
  if (route.auth !== 'none' && route.customerToken !== 'none')
    codes.add('invalid_customer_token').add('customer_disabled');
  if (route.auth !== 'none' && route.customerToken === 'required') codes.add('customer_token_required');
  if (acceptsIdempotencyKey(route)) codes.add('idempotency_key_reused').add('idempotency_key_in_use');
  if (isRateLimited(route)) codes.add('rate_limited');
  if (acceptsBuyerIp(route)) codes.add('parameter_invalid');
  if (pathParamNames(route.path).length > 0) codes.add('not_found');
  for (const code of route.errors ?? []) codes.add(code);
  codes.add('internal_error');
  return [...codes];
}

/**
 * The status a code answers on a route: its own, or an override keyed on code + param
 * (`status-map.ts`) when the param is a field of the route's body (e.g. `invalid_credentials` on
 * `current_password` is 422 on the password change, 401 at sign-in).
 */
function statusOnRoute(route: AnyRoute, code: ErrorCode): number {
  const fields = (route.body as { shape?: Record<string, unknown> } | undefined)?.shape;
  const override = STATUS_OVERRIDES.find((o) => o.code === code && fields !== undefined && o.param in fields);
  return override?.status ?? STATUS_BY_CODE[code];
}

function errorResponsesFor(route: AnyRoute): Record<string, ResponseConfig> {
  const byStatus = new Map<number, ErrorCode[]>();
  for (const code of errorCodesFor(route)) {
    const status = statusOnRoute(route, code);
    byStatus.set(status, [...(byStatus.get(status) ?? []), code]);
  }
  const responses: Record<string, ResponseConfig> = {};
  for (const [status, codes] of [...byStatus].sort(([a], [b]) => a - b)) {
    responses[status] = {
      description: `Error: ${codes.join(', ')}`,
      content: { 'application/json': { schema: ErrorResponseSchema } },
    };
  }
  return responses;
}
