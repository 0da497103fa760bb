export { type ApiHandlerOptions, createApiHandler } from './api';
export { escapeHtml, renderApiReferenceHtml } from './api-reference-html';
export type { TrustProxy } from './client-address';
export type { CorsOptions } from './cors';
export {
  type CartwrightHandler,
  createHandler,
  type FetchContext,
  type HandlerOptions,
  isHandler,
  splitUrl,
} from './create-handler';
export type {
  AuthContext,
  CustomerContext,
  HttpEngine,
  HttpRateLimiter,
  IdempotencyCaller,
  IdempotencyRunner,
  IdempotentRequest,
  Mode,
  RateLimitDecision,
  Register,
  RequestOutcome,
  RouteEngine,
  StoredResponse,
  StoreScope,
} from './engine-port';
export {
  type ErrorHookInfo,
  type ErrorResponseBody,
  errorBody,
  errorResponse,
  JSON_CONTENT_TYPE,
  logErrorToStderr,
  type OnError,
  toErrorResponse,
} from './error-response';
export { isJsonContentType } from './json-body';
export {
  AUTH_EXTENSION,
  buildOpenApiDocument,
  DEFAULT_OPENAPI_INFO,
  ErrorResponseSchema,
  errorCodesFor,
  type OpenApiDocument,
  type OpenApiInfo,
  openApiJson,
  toOpenApiPath,
} from './openapi';
export { createPipeline, type Pipeline, type PipelineOptions, parseQuery } from './pipeline';
export type { BodySource, HeaderReader, RawRequest, RawResponse } from './raw-http';
export { MAX_BODY_BYTES } from './read-body';
export { newRequestId } from './request-id';
export {
  type AnyRoute,
  type ApiInfo,
  type AuthRequirement,
  type CustomerTokenRequirement,
  defineRoute,
  type HttpMethod,
  type JsonText,
  jsonText,
  type NoBody,
  type RawParams,
  type RawQuery,
  type RouteContext,
  type RouteDefinition,
  type TextResponse,
  type TextResponseOptions,
  type TextResponseParts,
  textResponse,
} from './route';
export { createRouter, type RouteMatch, type Router } from './router';
export { apiRoutes } from './routes';
export {
  createDocsRoute,
  createOpenApiRoute,
  docsRoute,
  HTML_CONTENT_TYPE,
  openApiRoute,
  systemRoutes,
} from './routes/system';
export { errorTypeForStatus, STATUS_BY_CODE, statusForCode } from './status-map';
export { type InputLocation, type ParseInput, parseInput, toWireParam } from './validate';
