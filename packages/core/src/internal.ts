/**
 * `@cartwright/core/internal`: everything Cartwright's own packages (the HTTP API, the storage
 * adapters, the CLI, the test kit, the benchmarks) build on — the services that take validated
 * input, the unit of work, the domain rules (pricing, inventory, refunds, state machines), the
 * wire formats. Published so those packages can depend on it; NO compatibility promise: it changes
 * in any release. Applications use `@cartwright/core` and its documented subpaths.
 */
export * from './engine';
export * from './engine-interface';
export { type EngineInternals, engineInternals } from './engine-internals';
export { createServices, type EngineServices } from './engine-services';
export * from './errors';
export {
  type CheckoutPaymentFailed,
  CheckoutPaymentFailedSchema,
  type EngineEvent,
  type EngineEventListener,
  type EngineEventOf,
  type EngineEvents,
  EVENT_DATA_SCHEMAS,
  type EventDataMap,
  type PasswordResetRequested,
  PasswordResetRequestedSchema,
} from './events/event-data';
export { type CartActor, createStoreFacade, type In, SECRET_ACTOR, type StoreFacade } from './facade';
export * from './inventory';
export * from './money';
export * from './ports';
export * from './pricing';
export * from './refunds';
export * from './schemas';
export type { ApiKeyPrincipal, CustomerPrincipal } from './services/auth-service';
export type { EngineConfig, ServiceContext } from './services/context';
export type { CustomerSession, SignedInCustomer } from './services/customers/customer-accounts';
export {
  createPasswordHasher,
  DEFAULT_PASSWORD_HASH_PARAMS,
  type PasswordHasher,
  type PasswordHashParams,
} from './services/customers/passwords';
export { type EventPayload, eventToPayload } from './services/event-bus';
export type {
  ReconcileOptions,
  ReconcileOutcome,
  ReconcileReport,
  ReconcileResult,
} from './services/orders/payment-reconciliation';
export {
  RECONCILE_DEFAULTS,
  type ReconcilerOptions,
} from './services/orders/reconcile-schedule';
export type {
  RefundReconcileOutcome,
  RefundReconcileResult,
} from './services/orders/refund-reconciliation';
export { addressKey } from './services/rate-limits/client-address';
export {
  DEFAULT_RATE_LIMITS,
  type RateLimitCaller,
  type RateLimitDecision,
  type RateLimiter,
  type RateLimitOptions,
  type RateLimitPolicy,
  type RateLimitRule,
  type SharedRateLimit,
} from './services/rate-limits/rate-limiter';
export type { PollingLoop } from './services/scheduling/polling-loop';
export { INTERIM, read, type Work, type WriteOptions, write } from './services/unit-of-work';
export {
  eventsSinceAfterChange,
  receivesEvent,
  subscribedSince,
  type WebhookSubscription,
} from './services/webhooks/subscriptions';
export type {
  DeliverDueOptions,
  DeliverDueResult,
  WebhookAttemptReport,
  WebhookWorker,
  WebhookWorkerOptions,
} from './services/webhooks/webhook-service';
export {
  iso,
  isoOrNull,
  type MoneyWire,
  moneyOrNull,
  toMillis,
  toMillisOrNull,
} from './services/wire/format';
export {
  fillSplitStorefrontTemplate,
  fillStorefrontTemplate,
  fillStorefrontTemplateBy,
  type SplitStorefrontTemplate,
  STOREFRONT_SLOT,
  type StorefrontTemplate,
  splitStorefrontTemplate,
  storefrontProductJson,
  storefrontStockFragment,
  storefrontTemplate,
} from './services/wire/storefront-product-text';
export * from './state';
export * from './store-api';
