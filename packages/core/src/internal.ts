/**
 * `@cartwright/core/internal`: the services that take validated input, the unit of work, the
 * domain rules (pricing, inventory, refunds, state machines) and the wire formats, for the
 * repository's own tests and benchmarks. NOT published: it exists only under the
 * `@cartwright/source` export condition (package.json), so no published package can import it;
 * what those need is on documented subpaths (`@cartwright/core/wire`, `/storage-rules`, …).
 */

export * from './carts/cart-transitions';
export { productPageToWire } from './catalog/product-support';
export { type RegionPriceRefresh, refreshRegionProductPrices } from './catalog/region-product-prices';
export { type ProductWire, productToWire } from './catalog/wire';
export type { AttemptOrigin } from './customers/attempt-limits';
export type { CustomerSession, SignedInCustomer } from './customers/customer-accounts';
export {
  createPasswordHasher,
  DEFAULT_PASSWORD_HASH_PARAMS,
  type PasswordHasher,
  type PasswordHashParams,
} from './customers/passwords';
export * from './engine';
export * from './engine-interface';
export { type EngineInternals, engineInternals } from './engine-internals';
export { createServices, type EngineServices } from './engine-services';
export { type EventPayload, eventToPayload } from './events/event-bus';
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
export * from './fulfillments/fulfillment-status';
export * from './fulfillments/fulfillment-transitions';
export * from './inventory';
export { SECRET_ACTOR } from './operations/execute';
export * from './orders/order-actions';
export * from './orders/order-automation';
export * from './orders/order-transitions';
export * from './payments/payment-status';
export * from './payments/payment-transitions';
export * from './ports';
export * from './pricing';
export type {
  ReconcileOptions,
  ReconcileOutcome,
  ReconcileReport,
  ReconcileResult,
} from './reconciliation/payment-reconciliation';
export {
  RECONCILE_DEFAULTS,
  type ReconcilerOptions,
} from './reconciliation/reconcile-schedule';
export type {
  RefundReconcileOutcome,
  RefundReconcileResult,
} from './reconciliation/refund-reconciliation';
export * from './refunds';
export * from './refunds/refund-transitions';
export * from './schemas';
export type { EngineConfig, ServiceContext } from './shared/context';
export * from './shared/errors';
export * from './shared/money';
export { addressKey, canonicalClientAddress, canonicalIp } from './shared/rate-limits/client-address';
export {
  DEFAULT_RATE_LIMITS,
  type RateLimitCaller,
  type RateLimitDecision,
  type RateLimiter,
  type RateLimitOptions,
  type RateLimitPolicy,
  type RateLimitRule,
  type RateLimitSubject,
  rateLimitedError,
  type SharedRateLimit,
} from './shared/rate-limits/rate-limiter';
export type { PollingLoop } from './shared/scheduling/polling-loop';
export * from './shared/state-machine';
export { INTERIM, read, type Work, type WriteOptions, write } from './shared/unit-of-work';
export {
  iso,
  isoOrNull,
  type MoneyWire,
  moneyOrNull,
  toMillis,
  toMillisOrNull,
} from './shared/wire-format';
export type { ApiKeyPrincipal, CustomerPrincipal } from './store/auth-service';
export * from './store-api';
export {
  eventsSinceAfterChange,
  receivesEvent,
  subscribedSince,
  type WebhookSubscription,
} from './webhooks/subscriptions';
export type {
  DeliverDueOptions,
  DeliverDueResult,
  WebhookAttemptReport,
  WebhookWorker,
  WebhookWorkerOptions,
} from './webhooks/webhook-service';
