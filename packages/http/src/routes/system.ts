import { z } from 'zod';
import { DEFAULT_OPENAPI_INFO, type OpenApiInfo, openApiJson } from '../openapi';
import { type AnyRoute, defineRoute, jsonText } from '../route';

const OpenApiDocumentSchema = z
  .looseObject({ openapi: z.string(), info: z.looseObject({ title: z.string(), version: z.string() }) })
  .meta({ id: 'OpenApiDocument', description: 'An OpenAPI 3.1 document.' });

/**
 * `GET /v1/openapi.json` (no key needed): the document of the routes this handler serves, built
 * once on first request and then served from memory as prepared JSON.
 */
export function createOpenApiRoute(info: OpenApiInfo = DEFAULT_OPENAPI_INFO): AnyRoute {
  return defineRoute({
    method: 'GET',
    path: '/v1/openapi.json',
    auth: 'none',
    customerToken: 'none',
    response: OpenApiDocumentSchema,
    summary: 'The OpenAPI 3.1 document of this API',
    tags: ['System'],
    operationId: 'getOpenApiDocument',
    handler: async (ctx) => jsonText(openApiJson(ctx.api, info)),
  });
}

export const openApiRoute = createOpenApiRoute();

/** Routes every API serves, whatever else it mounts. */
export const systemRoutes: readonly AnyRoute[] = [openApiRoute];
