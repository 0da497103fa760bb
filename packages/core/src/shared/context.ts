import type { Clock } from '../ports/clock';
import type { CryptoPort } from '../ports/crypto';
import type { EventSink } from '../ports/event-sink';
import type { IdGenerator } from '../ports/id-generator';
import type { PaymentProvider } from '../ports/payment-provider';
import type { Storage } from '../ports/storage';
import type { WebhookTransport } from '../ports/webhook-transport';
import type { PasswordHasher } from './password-hashing';
import type { RateLimiter } from './rate-limits/rate-limiter';

/** Settings of the engine that services read; defaults are filled in by `createEngine`. */
export interface EngineConfig {
  /** Currency of a store created on first start. */
  default_currency: string;
  default_store_name: string;
  default_timezone: string;
  /** Seconds before webhook attempts 1..5 (docs/contract.md#running). */
  webhook_retry_delays: number[];
  webhook_timeout_ms: number;
  /** Lets webhook URLs target loopback/private addresses (docs/contract.md#running). */
  allow_private_webhooks: boolean;
  /** Idempotency records live this long (docs/contract.md#idempotency: 24 h). */
  idempotency_ttl_ms: number;
  /** How long an in-progress idempotency claim blocks a concurrent request with the same key. */
  idempotency_lock_ms: number;
  /**
   * How long a verified API key is remembered (ms) before it is read again; 0 turns it off.
   * Revoking or rotating through this engine takes effect at once here; other processes on the
   * same database notice within this time. Default 1000.
   */
  api_key_cache_ms: number;
  /**
   * How long an order waits for a payment the storefront confirms in the browser (a Stripe
   * checkout without `payment_method_id`, decisions §22) before reconciliation cancels it
   * (`cancel_reason: "payment_expired"`), in ms (`COMMERCE_PAYMENT_TIMEOUT_MINUTES`). Default 30 minutes.
   */
  payment_timeout_ms: number;
}

/** What every service gets: the ports, chosen once at start-up. */
export interface ServiceContext {
  storage: Storage;
  clock: Clock;
  ids: IdGenerator;
  crypto: CryptoPort;
  /** Customer passwords (docs/contract.md#passwords). */
  passwords: PasswordHasher;
  payments: Map<string, PaymentProvider>;
  events: EventSink;
  webhookTransport: WebhookTransport | null;
  config: EngineConfig;
  /** The rate limits (docs/contract.md#rate-limits): the HTTP pipeline's, and the customer-account attempts'. */
  rateLimits: RateLimiter;
}
