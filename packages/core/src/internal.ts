/**
 * `@cartwright/core/internal`: everything Cartwright's own packages (the HTTP API, the storage
 * adapters, the CLI, the test kit, the benchmarks) build on — the services that take validated
 * input, the unit of work, the domain rules (pricing, inventory, refunds, state machines), the
 * wire formats. Published so those packages can depend on it; NO compatibility promise: it changes
 * in any release. Applications use `@cartwright/core` and its documented subpaths.
 */

export * from './carts/cart-transitions';
export * from './carts/pricing';
export { productPageToWire } from './catalog/product-support';
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
export { type CartActor, createStoreFacade, type In, SECRET_ACTOR, type StoreFacade } from './facade';
export * from './inventory';
export * from './orders/fulfillment-status';
export * from './orders/fulfillment-transitions';
export * from './orders/order-actions';
export * from './orders/order-automation';
export * from './orders/order-transitions';
export type {
  ReconcileOptions,
  ReconcileOutcome,
  ReconcileReport,
  ReconcileResult,
} from './payments/payment-reconciliation';
export * from './payments/payment-status';
export * from './payments/payment-transitions';
export {
  RECONCILE_DEFAULTS,
  type ReconcilerOptions,
} from './payments/reconcile-schedule';
export * from './ports';
export * from './refunds';
export type {
  RefundReconcileOutcome,
  RefundReconcileResult,
} from './refunds/refund-reconciliation';
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
