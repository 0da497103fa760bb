import type { Engine } from './engine-interface';
import { createServices } from './engine-services';
import { type CartActor, createStoreFacade } from './facade/store-facade';
import { type Clock, systemClock } from './ports/clock';
import { type CryptoPort, webCrypto } from './ports/crypto';
import type { IdGenerator } from './ports/id-generator';
import type { PaymentProvider } from './ports/payment-provider';
import { createRandomIdGenerator } from './ports/random-id-generator';
import type { Mode, Scope, Storage } from './ports/storage';
import type { WebhookTransport } from './ports/webhook-transport';
import type { EngineConfig, ServiceContext } from './services/context';
import { createPasswordHasher, type PasswordHashParams } from './services/customers/passwords';
import { createEventBus } from './services/event-bus';
import { createPaymentRegistry } from './services/orders/payment-registry';
import { createRateLimiter, type RateLimitOptions } from './services/rate-limits/rate-limiter';
import type { StoreApi } from './store-api';

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
   * Rate limits the HTTP API enforces (decisions §15): the defaults (`DEFAULT_RATE_LIMITS`)
   * unless given; `false` turns them off, a rule set to `false` turns that one off. In-process
   * calls are never limited.
   */
  rateLimits?: RateLimitOptions;
  /**
   * scrypt parameters for customer passwords (decisions §16); default `{ ln: 15, r: 8, p: 1 }`
   * (about 100 ms of CPU and 32 MiB per hash). Hashes made with other parameters still verify and
   * are upgraded on the customer's next sign-in.
   */
  passwordHashing?: PasswordHashParams;
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
};

/**
 * The manual provider (decisions §12): records a pending payment, completed later by the admin.
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

/**
 * Creates the engine (see {@link Engine}): runs the migrations unless `migrate: false`, builds
 * every service once, and returns the front door.
 */
export async function createEngine(options: EngineOptions): Promise<Engine> {
  return buildEngine(options);
}

/**
 * The engine with its internals: the scope-first services that take already-validated input (what
 * the HTTP routes call after validating), the service context and the rate limiter. For
 * Cartwright's own packages (`@cartwright/core/internal`); no compatibility promise.
 */
export type EngineInternals = Awaited<ReturnType<typeof buildEngine>>;

const INTERNALS = Symbol.for('cartwright.engine.internals');

/**
 * The internals of an engine made by `createEngine` (for Cartwright's own packages: the HTTP
 * routes, the CLI, tests). Throws for any other object.
 */
export function engineInternals(engine: Engine): EngineInternals {
  if ((engine as unknown as Record<symbol, unknown>)[INTERNALS] !== true) {
    throw new TypeError('Not an engine made by createEngine()');
  }
  return engine as unknown as EngineInternals;
}

async function buildEngine(options: EngineOptions) {
  const events = createEventBus(options.onListenerError);
  const clock = options.clock ?? systemClock;
  const payments = createPaymentRegistry(manualPaymentProvider, options.payments);
  const ctx: ServiceContext = {
    storage: options.storage,
    clock,
    ids: options.ids ?? createRandomIdGenerator(() => clock.now()),
    crypto: options.crypto ?? webCrypto,
    passwords: createPasswordHasher(options.passwordHashing),
    payments,
    events: events.sink,
    webhookTransport: options.webhookTransport ?? null,
    config: { ...DEFAULT_ENGINE_CONFIG, ...options.config },
  };
  if (options.migrate !== false) await options.storage.migrate();

  const services = createServices(ctx);
  const rateLimits = createRateLimiter(options.storage, clock, options.rateLimits);

  return {
    [INTERNALS]: true as const,
    ...services,
    context: ctx,
    storage: options.storage,
    /** The rate limits the HTTP pipeline consults (decisions §15). */
    rateLimits,
    /** The names checkout's `payment_provider` accepts: the registered providers, `manual` first. */
    paymentProviders: Object.freeze([...payments.keys()]) as readonly string[],
    /** In-process subscribers, called after commit. */
    events: { on: events.on },
    /**
     * The scope of the (single) store for a mode, as an API key of that mode would have;
     * creates the organization and store on first use.
     */
    async scopeFor(mode: Mode = 'test'): Promise<Scope> {
      const { store } = await services.store.ensureStore();
      return { store_id: store.id, mode };
    },
    /**
     * The services with a scope bound, validating every input with the API's schemas (same
     * defaults and `parameter_*` errors as over HTTP) and returning the same wire objects:
     * `engine.forStore(scope).products.create({ name: 'Tee', variants: [{ price: 2500 }] })`.
     * Carts and checkout act as a secret key unless another actor is given.
     */
    forStore(scope: Scope, actor?: CartActor): StoreApi {
      return createStoreFacade(services, scope, actor);
    },
    async close(): Promise<void> {
      await options.storage.close();
    },
  };
}

export type { Engine } from './engine-interface';
