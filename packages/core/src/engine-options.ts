import type { PasswordHashParams } from './customers/passwords';
import { DEFAULT_PAYMENT_TIMEOUT_MS } from './payments/awaiting-payment';
import type { Clock } from './ports/clock';
import type { CryptoPort } from './ports/crypto';
import type { IdGenerator } from './ports/id-generator';
import type { PaymentProvider } from './ports/payment-provider';
import type { Storage } from './ports/storage';
import type { WebhookTransport } from './ports/webhook-transport';
import type { EngineConfig } from './shared/context';
import type { RateLimitOptions } from './shared/rate-limits/rate-limiter';

export interface EngineOptions {
  storage: Storage;
  /**
   * Payment providers by name; `manual` is always available unless replaced. Checkout accepts
   * exactly the registered names (and the OpenAPI document lists them); a name must be lowercase
   * letters, digits and `_`, starting with a letter, at most 64 characters (else a `TypeError`).
   */
  payments?: readonly PaymentProvider[];
  clock?: Clock;
  ids?: IdGenerator;
  crypto?: CryptoPort;
  webhookTransport?: WebhookTransport;
  config?: Partial<EngineConfig>;
  /** Run migrations on start (default true). */
  migrate?: boolean;
  /** Called when an in-process event listener throws. */
  onListenerError?: (error: unknown) => void;
  /**
   * Rate limits the HTTP API enforces (docs/contract.md#rate-limits): the defaults (`DEFAULT_RATE_LIMITS`)
   * unless given; `false` turns them off, a rule set to `false` turns that one off. In-process
   * calls are never limited.
   */
  rateLimits?: RateLimitOptions;
  /**
   * scrypt parameters for customer passwords (docs/contract.md#passwords); default `{ ln: 15, r: 8, p: 1 }`
   * (about 100 ms of CPU and 32 MiB per hash). Hashes made with other parameters still verify and
   * are upgraded on the customer's next sign-in.
   */
  passwordHashing?: PasswordHashParams;
  /**
   * At most this many password hashes run at once in this engine (docs/security.md#passwords);
   * twice that many more wait, and any further sign-in, registration or password change is refused
   * at once with 503 `service_unavailable` and `Retry-After: 1`. Default: twice the CPU cores the
   * runtime reports (4 if it reports none).
   */
  passwordHashConcurrency?: number;
}

export const DEFAULT_ENGINE_CONFIG: EngineConfig = {
  default_currency: 'USD',
  default_store_name: 'My Store',
  default_timezone: 'UTC',
  webhook_retry_delays: [0, 300, 1800, 7200, 86400],
  webhook_timeout_ms: 10_000,
  allow_private_webhooks: false,
  idempotency_ttl_ms: 24 * 60 * 60 * 1000,
  idempotency_lock_ms: 30_000,
  api_key_cache_ms: 1000,
  payment_timeout_ms: DEFAULT_PAYMENT_TIMEOUT_MS,
};

/**
 * The manual provider (docs/contract.md#checkout): records a pending payment, completed later by the admin.
 * Its `createPayment` touches nothing outside the engine, so checkout calls it inside its one
 * transaction (`settlesInProcess`).
 */
export const manualPaymentProvider: PaymentProvider = {
  name: 'manual',
  requiresPaymentMethod: false,
  settlesInProcess: true,
  async createPayment() {
    return { status: 'pending', provider_id: null };
  },
  async refundPayment() {
    return { status: 'succeeded', provider_refund_id: null };
  },
};
