export { type CartwrightHandler, type HandlerOptions, createHandler, splitUrl } from './create-handler';
export type {
  AuthContext,
  CustomerContext,
  HttpEngine,
  IdempotencyRunner,
  Mode,
  Register,
  RouteEngine,
  StoreScope,
  StoredResponse,
} from './engine-port';
export {
  type ErrorHookInfo,
  type ErrorResponseBody,
  JSON_CONTENT_TYPE,
  type OnError,
  errorBody,
  errorResponse,
  logErrorToStderr,
  toErrorResponse,
} from './error-response';
export { isJsonContentType } from './json-body';
export {
  DEFAULT_OPENAPI_INFO,
  ErrorResponseSchema,
  type OpenApiDocument,
  type OpenApiInfo,
  buildOpenApiDocument,
  errorCodesFor,
  openApiJson,
  toOpenApiPath,
} from './openapi';
export { type Pipeline, type PipelineOptions, createPipeline, parseQuery } from './pipeline';
export type { BodySource, HeaderReader, RawRequest, RawResponse } from './raw-http';
export { MAX_BODY_BYTES } from './read-body';
export { newRequestId } from './request-id';
export {
  type AnyRoute,
  type ApiInfo,
  type AuthRequirement,
  type CustomerTokenRequirement,
  type HttpMethod,
  type JsonText,
  type NoBody,
  type RawParams,
  type RawQuery,
  type RouteContext,
  type RouteDefinition,
  defineRoute,
  jsonText,
} from './route';
export { type RouteMatch, type Router, createRouter } from './router';
export { createOpenApiRoute, openApiRoute, systemRoutes } from './routes/system';
export { STATUS_BY_CODE, errorTypeForStatus, statusForCode } from './status-map';
export { type InputLocation, type ParseInput, parseInput, toWireParam } from './validate';
