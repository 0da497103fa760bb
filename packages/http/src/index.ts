// The public surface of @cartwright/http: what an integrator needs to serve the API, mount it,
// add routes of their own and document them. Everything else in src/ is internal (the package's
// own tests and scripts import it by relative path); the framework mounts are on the subpaths
// `/node`, `/express`, `/fastify` and `/hono`.

// Serving the API: the whole /v1 API, or a handler over routes of your choosing.
export {
  ADMIN_CONSOLE_CSP,
  type AdminConsole,
  type AdminConsoleOptions,
  type AdminConsoleRequest,
  createAdminConsole,
} from './admin-console';
export { type ApiHandlerOptions, createApiHandler } from './api';
export type { TrustProxy } from './client-address';
export type { CorsOptions } from './cors';
export {
  type CartwrightHandler,
  createHandler,
  type FetchContext,
  type HandlerOptions,
} from './create-handler';
// Who is calling, as a route sees it.
export type { AuthContext, CustomerContext } from './engine-port';
// Errors in the API's format, for an app that answers beside the API (and the `onError` hook).
export {
  type ErrorHookInfo,
  type ErrorResponseBody,
  errorBody,
  logErrorToStderr,
  type OnError,
} from './error-response';
// The OpenAPI document.
export {
  buildOpenApiDocument,
  DEFAULT_OPENAPI_INFO,
  type OpenApiDocument,
  type OpenApiInfo,
  openApiJson,
} from './openapi';
// The light request and response of `handler.handleRaw` (what the Node mounts use).
export type { BodySource, HeaderReader, RawRequest, RawResponse } from './raw-http';
// Writing routes of your own.
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
  textResponse,
} from './route';
export { apiRoutes } from './routes';
export { createDocsRoute, createOpenApiRoute } from './routes/system';
export {
  CSRF_HEADER,
  MODE_HEADER,
  STAFF_SESSION_COOKIE,
  type StaffAuthorize,
  type StaffAuthorizeRequest,
  type StaffIdentity,
} from './staff-session';
export { statusForCode } from './status-map';
export type { ParseInput } from './validate';
