import { z } from 'zod';
import { renderApiReferenceHtml } from '../api-reference-html';
import { DEFAULT_OPENAPI_INFO, type OpenApiInfo, openApiJson } from '../openapi';
import { type AnyRoute, type ApiInfo, defineRoute, jsonText, textResponse } from '../route';

const OpenApiDocumentSchema = z
  .looseObject({ openapi: z.string(), info: z.looseObject({ title: z.string(), version: z.string() }) })
  .meta({ id: 'OpenApiDocument', description: 'An OpenAPI 3.1 document.' });

/** Media type of the HTML API reference. */
export const HTML_CONTENT_TYPE = 'text/html; charset=utf-8';

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

/**
 * `GET /v1/docs` (no key needed): the browsable HTML API reference of the routes this handler
 * serves, rendered by `renderApiReferenceHtml` from the same cached document as
 * `/v1/openapi.json`. Built once per API on first request, then served from memory.
 *
 * Decision: the page is left out of the OpenAPI document (`excludeFromOpenApi`), as FastAPI
 * leaves out its `/docs`: it is a page for people, not an operation of the API, and the document
 * stays equal to the endpoint list in docs/api-reference.md. It still declares its media type,
 * so including it later documents it as `text/html`.
 */
export function createDocsRoute(info: OpenApiInfo = DEFAULT_OPENAPI_INFO): AnyRoute {
  const pages = new WeakMap<ApiInfo, string>();
  return defineRoute({
    method: 'GET',
    path: '/v1/docs',
    auth: 'none',
    customerToken: 'none',
    response: z.string().meta({ description: 'A self-contained HTML page.' }),
    responseContentType: HTML_CONTENT_TYPE,
    excludeFromOpenApi: true,
    summary: 'The API reference as an HTML page',
    description:
      'Every operation of this API grouped by tag, with its parameters, body and response fields and ' +
      'its errors; the same content as `/v1/openapi.json`, for reading in a browser.',
    tags: ['System'],
    operationId: 'getApiReference',
    handler: async (ctx) => {
      let page = pages.get(ctx.api);
      if (page === undefined) {
        page = renderApiReferenceHtml(JSON.parse(openApiJson(ctx.api, info)) as object);
        pages.set(ctx.api, page);
      }
      return textResponse(HTML_CONTENT_TYPE, page);
    },
  });
}

const ApiIndexSchema = z.object({
  object: z.literal('api'),
  name: z.string(),
  version: z.string(),
  docs: z.string(),
  openapi: z.string(),
});

/**
 * `GET /v1` (no key needed): a small index for whoever opens the API's root in a browser or with
 * curl — the API's name and version and where its reference lives (relative to the mount). Left
 * out of the OpenAPI document, like `/v1/docs`.
 */
export function createIndexRoute(info: OpenApiInfo = DEFAULT_OPENAPI_INFO): AnyRoute {
  return defineRoute({
    method: 'GET',
    path: '/v1',
    auth: 'none',
    customerToken: 'none',
    response: ApiIndexSchema,
    excludeFromOpenApi: true,
    summary: 'Where the API reference lives',
    tags: ['System'],
    operationId: 'getApiIndex',
    handler: async (ctx) => ({
      object: 'api' as const,
      name: info.title,
      version: info.version,
      docs: `${ctx.api.prefix}/v1/docs`,
      openapi: `${ctx.api.prefix}/v1/openapi.json`,
    }),
  });
}

export const openApiRoute = createOpenApiRoute();

export const docsRoute = createDocsRoute();

/** Routes every API serves, whatever else it mounts. */
export const systemRoutes: readonly AnyRoute[] = [openApiRoute, docsRoute, createIndexRoute()];
