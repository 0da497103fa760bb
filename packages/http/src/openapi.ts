import { OpenAPIRegistry, OpenApiGeneratorV31, type RouteConfig } from '@asteasolutions/zod-to-openapi';
import { ERROR_CODES, type ErrorCode } from '@cartwright/core';
import { type ZodObject, z } from 'zod';
import type { AnyRoute, ApiInfo } from './route';
import { STATUS_BY_CODE } from './status-map';

/** The generated OpenAPI 3.1 document. */
export type OpenApiDocument = ReturnType<OpenApiGeneratorV31['generateDocument']>;

export interface OpenApiInfo {
  title: string;
  version: string;
  description?: string;
}

export const DEFAULT_OPENAPI_INFO: OpenApiInfo = {
  title: 'Cartwright API',
  version: '1.0.0',
  description: 'The Cartwright commerce engine: storefront and admin endpoints under /v1.',
};

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

/** The shared error body (decisions §4), a component every error response references. */
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
 * Builds the OpenAPI 3.1 document for a list of routes with zod-to-openapi: every route with its
 * path parameters, query, JSON body, success response and the error responses it can produce (all
 * referencing the shared `ErrorResponse`), plus the two security schemes (bearer API key,
 * `X-Customer-Token` header) and the key kind in {@link AUTH_EXTENSION}. The success body is
 * `application/json` unless the route declares another `responseContentType`. Schemas named
 * with zod's `.meta({ id })` become components. Aliases are listed as deprecated copies of their
 * route; routes marked `excludeFromOpenApi` are left out. `prefix` (the mount prefix) becomes the
 * server URL.
 */
export function buildOpenApiDocument(
  routes: readonly AnyRoute[],
  info: OpenApiInfo = DEFAULT_OPENAPI_INFO,
  options: { prefix?: string } = {},
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
  return nullableReferencesAsAnyOf(document);
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

const cache = new WeakMap<OpenApiInfo, WeakMap<ApiInfo, string>>();

/**
 * The document as JSON text, built once per API (route list + prefix) and info on first use, then
 * served from memory.
 */
export function openApiJson(api: ApiInfo, info: OpenApiInfo = DEFAULT_OPENAPI_INFO): string {
  let byApi = cache.get(info);
  if (byApi === undefined) {
    byApi = new WeakMap();
    cache.set(info, byApi);
  }
  let text = byApi.get(api);
  if (text === undefined) {
    text = JSON.stringify(buildOpenApiDocument(api.routes, info, { prefix: api.prefix }));
    byApi.set(api, text);
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
  return {
    method: route.method.toLowerCase() as RouteConfig['method'],
    summary: route.summary,
    ...(route.description === undefined ? {} : { description: route.description }),
    tags: [...route.tags],
    security: securityFor(route),
    [AUTH_EXTENSION]: route.auth,
    request,
    responses: {
      [status]: { description: 'Success', content: { [mediaType]: { schema: route.response } } },
      ...errorResponsesFor(route),
    },
  };
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
  if (route.method === 'POST' && route.auth !== 'none')
    codes.add('idempotency_key_reused').add('idempotency_key_in_use');
  if (pathParamNames(route.path).length > 0) codes.add('not_found');
  for (const code of route.errors ?? []) codes.add(code);
  codes.add('internal_error');
  return [...codes];
}

function errorResponsesFor(route: AnyRoute): RouteConfig['responses'] {
  const byStatus = new Map<number, ErrorCode[]>();
  for (const code of errorCodesFor(route)) {
    const status = STATUS_BY_CODE[code];
    byStatus.set(status, [...(byStatus.get(status) ?? []), code]);
  }
  const responses: RouteConfig['responses'] = {};
  for (const [status, codes] of [...byStatus].sort(([a], [b]) => a - b)) {
    responses[status] = {
      description: `Error: ${codes.join(', ')}`,
      content: { 'application/json': { schema: ErrorResponseSchema } },
    };
  }
  return responses;
}
