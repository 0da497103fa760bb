import { z } from 'zod';
import { API_REFERENCE_CSP } from '../api-reference-assets';
import { renderApiReferenceHtml } from '../api-reference-html';
import { type PreparedDocument, prepareDocument, serveDocument } from '../api-reference-page';
import type { HttpEngine } from '../engine-port';
import { JSON_CONTENT_TYPE } from '../error-response';
import { DEFAULT_OPENAPI_INFO, type OpenApiInfo, openApiJson } from '../openapi';
import { type AnyRoute, type ApiInfo, defineRoute } from '../route';

const OpenApiDocumentSchema = z
  .looseObject({ openapi: z.string(), info: z.looseObject({ title: z.string(), version: z.string() }) })
  .meta({ id: 'OpenApiDocument', description: 'An OpenAPI 3.1 document.' });

/** The serving engine's payment providers, which its document lists (default: `manual`, `stripe`). */
function providersOf(engine: Pick<HttpEngine, 'paymentProviders'>): readonly string[] | undefined {
  return engine.paymentProviders;
}

/** Media type of the HTML API reference. */
export const HTML_CONTENT_TYPE = 'text/html; charset=utf-8';

/** The `Content-Security-Policy` of `/v1/openapi.json`: data, never a page (as GitHub's API sends). */
export const JSON_DOCUMENT_CSP = "default-src 'none'; frame-ancestors 'none'";

/**
 * `GET /v1/openapi.json` (no key needed): the document of the routes this handler serves, built
 * once on first request and then served from memory — cacheable (`ETag`, `If-None-Match` → 304),
 * and compressed with brotli or gzip once per encoding when `Accept-Encoding` asks for it (see
 * `serveDocument`).
 */
export function createOpenApiRoute(info: OpenApiInfo = DEFAULT_OPENAPI_INFO): AnyRoute {
  const documents = new WeakMap<ApiInfo, PreparedDocument>();
  return defineRoute({
    method: 'GET',
    path: '/v1/openapi.json',
    auth: 'none',
    customerToken: 'none',
    response: OpenApiDocumentSchema,
    summary: 'The OpenAPI 3.1 document of this API',
    tags: ['System'],
    operationId: 'getOpenApiDocument',
    handler: async (ctx) => {
      let document = documents.get(ctx.api);
      if (document === undefined) {
        document = prepareDocument(JSON_CONTENT_TYPE, openApiJson(ctx.api, info, providersOf(ctx.engine)), {
          contentSecurityPolicy: JSON_DOCUMENT_CSP,
        });
        documents.set(ctx.api, document);
      }
      return serveDocument(document, ctx.headers);
    },
  });
}

/**
 * `GET /v1/docs` (no key needed): the browsable HTML API reference of the routes this handler
 * serves, rendered by `renderApiReferenceHtml` from the same cached document as
 * `/v1/openapi.json`. Built once per API on first request, then served from memory with a
 * `Content-Security-Policy` that allows only the page's own inline style sheet and script (by
 * hash), `Cache-Control` and a strong `ETag` (`If-None-Match` → 304), and compressed with brotli
 * or gzip once per encoding (750 KB → 22 KB br, 35 KB gzip) when `Accept-Encoding` asks for it.
 *
 * Decision: the page is left out of the OpenAPI document (`excludeFromOpenApi`), as FastAPI
 * leaves out its `/docs`: it is a page for people, not an operation of the API, and the document
 * stays equal to the endpoint list in docs/api-reference.md. It still declares its media type,
 * so including it later documents it as `text/html`.
 */
export function createDocsRoute(info: OpenApiInfo = DEFAULT_OPENAPI_INFO): AnyRoute {
  const pages = new WeakMap<ApiInfo, PreparedDocument>();
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
        const html = renderApiReferenceHtml(
          JSON.parse(openApiJson(ctx.api, info, providersOf(ctx.engine))) as object,
        );
        page = prepareDocument(HTML_CONTENT_TYPE, html, { contentSecurityPolicy: API_REFERENCE_CSP });
        pages.set(ctx.api, page);
      }
      return serveDocument(page, ctx.headers);
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
