/**
 * `@cartwright/core`: the commerce engine for an application to embed. `createEngine(options)`
 * returns an {@link Engine}; `engine.forStore(scope)` is the API of one store ({@link StoreApi}),
 * validating every input exactly as the HTTP API does.
 *
 * Subpaths for who extends the engine rather than uses it:
 * - `@cartwright/core/providers`: payment providers, webhook transport, clock, ids, crypto;
 * - `@cartwright/core/storage`: the storage port a database adapter implements;
 * - `@cartwright/core/schemas`: the zod schemas of every request and response (custom routes,
 *   OpenAPI);
 * - `@cartwright/core/wire`: the serialisers a storefront read model must reproduce byte for byte;
 * - `@cartwright/core/storage-rules`: the rules core runs on the storage port (for adapter tests);
 * - `@cartwright/core/operations`: the operation table `forStore`, the HTTP router and the OpenAPI
 *   document are derived from (HTTP layers, tools).
 */

export { DEFAULT_PASSWORD_HASH_PARAMS, type PasswordHashParams } from './customers/passwords';
export {
  API_LOG_MODES,
  type ApiLogMode,
  DEFAULT_API_LOG_MODE,
  loggedBody,
  loggedBodyOfText,
  loggedJsonText,
  MAX_LOGGED_BODY_BYTES,
  redactSecrets,
  shouldLogRequest,
} from './dashboard/api-log-rules';
export type { ApiLogEntry } from './dashboard/api-log-service';
// ---------------------------------------------------------------------------------- the engine
export { createEngine, DEFAULT_ENGINE_CONFIG, type EngineOptions } from './engine';
export type {
  Engine,
  EngineApiKeys,
  EngineApiLogs,
  EngineAuth,
  EnginePaymentJobs,
  EngineStaff,
  EngineWebhookJobs,
} from './engine-interface';
// ------------------------------------------------------------------------------------- events
export type {
  EngineEvent,
  EngineEventListener,
  EngineEvents,
  EventDataMap,
} from './events/event-data';
export { EVENT_TYPES, type EventType } from './events/schemas';
export type { MemberInvitation, OpenedStaffSession, StaffPrincipal } from './members/member-service';
export { requiredRoleOf, type StaffActor, type StaffRole } from './members/roles';
export type { Mode, Scope } from './ports/storage';
// --------------------------------------------------------------------------- background jobs
export type { ReconcileOptions, ReconcileReport } from './reconciliation/payment-reconciliation';
export type { ReconcilerOptions } from './reconciliation/reconcile-schedule';
// --------------------------------------------------------------------------------- the objects
export type {
  Address,
  ApiKey,
  ApiKeyCreated,
  ApiKeyList,
  ApiKeyRotated,
  AppliedDiscount,
  Cart,
  CartItem,
  CheckoutResult,
  Customer,
  CustomerAddress,
  CustomerAddressList,
  CustomerList,
  CustomerSession,
  CustomerToken,
  DeletedResponse,
  Discount,
  DiscountList,
  ErrorBody,
  Fulfillment,
  Image,
  Inventory,
  InventoryItem,
  InventoryItemList,
  InventoryLevel,
  InventoryList,
  Notification,
  NotificationList,
  Order,
  OrderLine,
  OrderList,
  Organization,
  Payment,
  Product,
  ProductList,
  Refund,
  RefundList,
  ShippingMethod,
  ShippingMethodList,
  Store,
  Success,
  Variant,
  VariantList,
  Webhook,
  WebhookDelivery,
  WebhookDeliveryList,
  WebhookList,
  WebhookTestResult,
} from './schemas';
export type { EngineConfig } from './shared/context';
// ------------------------------------------------------------------------------------- errors
export { CommerceError, type ErrorDetail, idempotencyClaimTakenOver } from './shared/errors/commerce-error';
export { ERROR_CODES, type ErrorCode, type ErrorType } from './shared/errors/error-codes';
// ---------------------------------------------------------------------- limits and passwords
export {
  DEFAULT_RATE_LIMITS,
  type RateLimitOptions,
  type RateLimitPolicy,
  type RateLimitRule,
} from './shared/rate-limits/rate-limiter';
export type { PollingLoop } from './shared/scheduling/polling-loop';
export type { ApiKeyPrincipal, CustomerPrincipal, ProvisionalApiKey } from './store/auth-service';
// ---------------------------------------------------------------------- the API of one store
export type {
  ApiKeysApi,
  CartActor,
  CartsApi,
  CheckoutApi,
  CustomersApi,
  DiscountsApi,
  In,
  InventoryApi,
  OrdersApi,
  ProductsApi,
  ShippingMethodsApi,
  StoreApi,
  StoreSettingsApi,
  WebhooksApi,
} from './store-api';
export type {
  DeliverDueOptions,
  DeliverDueResult,
  WebhookAttemptReport,
} from './webhooks/webhook-dispatcher';
export type { WebhookWorker, WebhookWorkerOptions } from './webhooks/webhook-worker';
