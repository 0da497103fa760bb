import { MoneySchema } from '@cartwright/core/schemas';
import { validate } from '@readme/openapi-parser';
import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { createHandler } from '../src/create-handler';
import { buildOpenApiDocument, errorCodesFor, openApiJson, toOpenApiPath } from '../src/openapi';
import { type AnyRoute, defineRoute } from '../src/route';
import { apiRoutes } from '../src/routes';
import { createTestEngine } from './support/test-engine';
import { testRoutes } from './support/test-routes';

// biome-ignore lint/suspicious/noExplicitAny: walking a generated JSON document.
type Json = any;

const doc = buildOpenApiDocument(testRoutes) as Json;
/** The product's own document (every /v1 route). */
const apiDocument = buildOpenApiDocument(apiRoutes) as Json;

describe('buildOpenApiDocument', () => {
  it('is a valid OpenAPI 3.1 document (@readme/openapi-parser)', async () => {
    const result = await validate(structuredClone(doc));
    expect(result.valid ? [] : result.errors).toEqual([]);
    expect(result.specification).toBe('OpenAPI');
    expect(doc.openapi).toBe('3.1.0');
  });

  it('a nullable reference is anyOf [$ref, null], so null validates (zod-to-openapi writes allOf)', () => {
    const route = defineRoute({
      method: 'GET',
      path: '/v1/admin/nullable',
      auth: 'secret',
      customerToken: 'none',
      response: z
        .object({ minimum: MoneySchema, maximum: MoneySchema.nullable() })
        .meta({ id: 'TestCapped' }),
      summary: 'Nullable reference',
      tags: [],
      handler: async () => ({ maximum: null, minimum: { amount: 1, currency: 'USD' } }),
    });
    const built = buildOpenApiDocument([route]) as Json;
    const properties = built.components.schemas.TestCapped.properties;
    expect(properties.maximum).toMatchObject({
      anyOf: [{ $ref: '#/components/schemas/Money' }, { type: 'null' }],
    });
    expect(properties.maximum.allOf).toBeUndefined();
    expect(properties.minimum).toEqual({ $ref: '#/components/schemas/Money' });
  });

  // zod-to-openapi 8 makes the component itself nullable when it meets the nullable use of a schema
  // before any plain use (above, `minimum` comes first); the real document must not have that.
  it('no allOf in the whole document only adds null to a reference, and no component is itself nullable', () => {
    const nullableComponents = Object.entries(apiDocument.components.schemas)
      .filter(([, schema]) => Array.isArray((schema as Json).type) && (schema as Json).type.includes('null'))
      .map(([name]) => name);
    expect(nullableComponents).toEqual([]);
    const offenders: string[] = [];
    const walk = (node: Json, at: string): void => {
      if (node === null || typeof node !== 'object') return;
      if (
        Array.isArray(node.allOf) &&
        node.allOf.some((part: Json) => Array.isArray(part?.type) && part.type.includes('null'))
      ) {
        offenders.push(at);
      }
      for (const [key, value] of Object.entries(node)) walk(value, `${at}/${key}`);
    };
    walk(apiDocument, '#');
    expect(offenders).toEqual([]);
  });

  it('registers every route and alias, with {param} paths', () => {
    for (const route of testRoutes) {
      const methods = doc.paths[toOpenApiPath(route.path)];
      expect(methods?.[route.method.toLowerCase()], route.path).toBeDefined();
    }
    const alias = doc.paths['/admin/customers/{id}/token'].post;
    expect(alias.deprecated).toBe(true);
  });

  it('declares path parameters, including when the route has no params schema', () => {
    const get = doc.paths['/v1/admin/things/{id}'].get;
    expect(get.parameters).toEqual([expect.objectContaining({ in: 'path', name: 'id', required: true })]);
    const del = doc.paths['/v1/admin/things/{id}'].delete;
    expect(del.parameters).toEqual([expect.objectContaining({ in: 'path', name: 'id', required: true })]);
  });

  it('declares query parameters and the JSON request body (required when {} is not valid)', () => {
    const list = doc.paths['/v1/storefront/things'].get;
    expect(list.parameters.map((p: Json) => `${p.in}:${p.name}`).sort()).toEqual([
      'query:limit',
      'query:tag',
    ]);
    const create = doc.paths['/v1/admin/things'].post;
    expect(create.requestBody.required).toBe(true);
    expect(create.requestBody.content['application/json'].schema).toEqual({
      $ref: '#/components/schemas/CreateThingBody',
    });
    expect(doc.paths['/v1/admin/orders'].post.requestBody.required).toBe(false);
  });

  it('names schemas with .meta({ id }) as components', () => {
    expect(Object.keys(doc.components.schemas)).toEqual(
      expect.arrayContaining(['ErrorResponse', 'Thing', 'ThingList', 'CreateThingBody', 'CustomerView']),
    );
    expect(
      doc.paths['/v1/admin/things/{id}'].get.responses['200'].content['application/json'].schema,
    ).toEqual({
      $ref: '#/components/schemas/Thing',
    });
  });

  it('documents the success status (201) and the error responses a route can produce', () => {
    const order = doc.paths['/v1/admin/orders'].post.responses;
    expect(Object.keys(order).sort()).toEqual([
      '201',
      '400',
      '401',
      '403',
      '409',
      '413',
      '415',
      '429',
      '500',
    ]);
    expect(order['400'].content['application/json'].schema).toEqual({
      $ref: '#/components/schemas/ErrorResponse',
    });
    const create = doc.paths['/v1/admin/things'].post.responses;
    expect(create['409'].description).toContain('duplicate_slug');
    const me = doc.paths['/v1/storefront/customers/me'].get.responses;
    expect(me['401'].description).toContain('customer_token_required');
    expect(me['403'].description).toContain('customer_disabled');
    expect(me['403'].description).not.toContain('forbidden');
  });

  it('declares the security schemes and applies them per route', () => {
    expect(doc.components.securitySchemes).toEqual({
      ApiKey: expect.objectContaining({ type: 'http', scheme: 'bearer' }),
      CustomerToken: expect.objectContaining({ type: 'apiKey', in: 'header', name: 'X-Customer-Token' }),
    });
    expect(doc.paths['/v1/health'].get.security).toEqual([]);
    expect(doc.paths['/v1/admin/things'].post.security).toEqual([{ ApiKey: [] }]);
    expect(doc.paths['/v1/storefront/customers/me'].get.security).toEqual([
      { ApiKey: [], CustomerToken: [] },
    ]);
    expect(doc.paths['/v1/storefront/products'].get.security).toEqual([
      { ApiKey: [], CustomerToken: [] },
      { ApiKey: [] },
    ]);
  });

  it('the ErrorResponse component lists every error code', () => {
    const error = doc.components.schemas.ErrorResponse.properties.error;
    expect(error.required.sort()).toEqual(['code', 'message', 'request_id', 'type']);
    expect(error.properties.code.enum).toContain('cart_not_active');
  });

  it('errorCodesFor: a GET without inputs on a secret route → unauthenticated, invalid_api_key, forbidden, rate_limited, internal_error', () => {
    const route = defineRoute({
      method: 'GET',
      path: '/v1/admin/store',
      auth: 'secret',
      customerToken: 'none',
      response: z.object({}),
      summary: 'Store',
      tags: [],
      handler: async () => ({}),
    });
    expect(errorCodesFor(route).sort()).toEqual([
      'forbidden',
      'internal_error',
      'invalid_api_key',
      'rate_limited',
      'unauthenticated',
    ]);
  });

  it('a prefix becomes the server URL', () => {
    const prefixed = buildOpenApiDocument(testRoutes, undefined, { prefix: '/api' }) as Json;
    expect(prefixed.servers).toEqual([{ url: '/api' }]);
    expect(doc.servers).toBeUndefined();
  });
});

describe('GET /v1/openapi.json', () => {
  it('serves the document without a key, as JSON', async () => {
    const handler = createHandler(createTestEngine(), { routes: testRoutes, validateResponses: true });
    const res = await handler(new Request('http://x/v1/openapi.json'));
    expect(res.status).toBe(200);
    expect(res.headers.get('content-type')).toBe('application/json; charset=utf-8');
    const served = (await res.json()) as Json;
    expect(served.paths['/v1/openapi.json'].get.security).toEqual([]);
    expect(Object.keys(served.paths).sort()).toEqual(Object.keys(doc.paths).sort());
  });

  it('is built once per API and then served from the cache', () => {
    const routes: AnyRoute[] = [...testRoutes];
    const api = { routes, prefix: '' };
    const first = openApiJson(api);
    routes.push(
      defineRoute({
        method: 'GET',
        path: '/v1/added-later',
        auth: 'none',
        customerToken: 'none',
        response: z.object({}),
        summary: 'Added after the first build',
        tags: [],
        handler: async () => ({}),
      }),
    );
    const second = openApiJson(api);
    expect(second).toBe(first);
    expect(second).not.toContain('/v1/added-later');
    expect(openApiJson({ routes, prefix: '' })).toContain('/v1/added-later');
  });
});
