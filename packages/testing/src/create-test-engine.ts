import type { CartActor, In } from '@cartwright/core';
import {
  createEngine,
  type Engine,
  type EngineConfig,
  type EngineOptions,
  type Mode,
  type Scope,
  type StoreApi,
} from '@cartwright/core';
import {
  createSequentialIdGenerator,
  type IdGenerator,
  type PaymentProvider,
  type WebhookTransport,
} from '@cartwright/core/providers';
import type { CheckoutSchema, StoreUpdateSchema } from '@cartwright/core/schemas';
import { type EventRecorder, recordEvents } from './event-recorder';
import { createFakeClock, type FakeClock, type TimeInput } from './fake-clock';
import {
  createFakePaymentProvider,
  type FakePaymentProvider,
  type FakePaymentProviderOptions,
} from './fake-payment-provider';
import { createFixtures, type Fixtures, TEST_ADDRESS } from './fixtures';
import { openMemoryStorage, type SchemaStrategy } from './memory-storage';
import { createSeededCrypto } from './seeded-crypto';

export interface TestEngineOptions {
  /** Where the fake clock starts. Default 2025-01-01T00:00:00.000Z. */
  now?: TimeInput;
  /** The store's settings: `currency` (default USD), `tax_rate` (a percentage), `prices_include_tax`, `name`, `timezone`. */
  store?: { name?: string; currency?: string; timezone?: string } & Pick<
    In<typeof StoreUpdateSchema>,
    'tax_rate' | 'prices_include_tax'
  >;
  /** The mode of `t.scope` and `t.store`. Default `test`. */
  mode?: Mode;
  /**
   * The fake card provider (registered as `fake_card`, or the `name` given — e.g. `stripe` —, see
   * `createFakePaymentProvider`), its options, or `false` for none (then naming it as
   * `payment_provider` is 400 `parameter_invalid`, as any provider the engine has not registered).
   */
  payments?: FakePaymentProviderOptions | false;
  /** More payment providers (a real provider against a local double, …). */
  providers?: PaymentProvider[];
  /** Id generator. Default sequential: `prod_000000000001`, `var_000000000002`, … */
  ids?: IdGenerator;
  /** Seed of the deterministic tokens (customer tokens, generated keys, webhook secrets). */
  seed?: string;
  /** `snapshot` (default, fast) or `migrate` (run the migrations on this database). */
  schema?: SchemaStrategy;
  webhookTransport?: WebhookTransport;
  config?: Partial<EngineConfig>;
  onListenerError?: EngineOptions['onListenerError'];
  /**
   * Rate limits of the HTTP API (docs/contract.md#rate-limits). Default `false`: off, so a test suite can send
   * as many requests as it likes; give rules (or `{}` for the defaults) to test them.
   */
  rateLimits?: EngineOptions['rateLimits'];
  /**
   * scrypt parameters for customer passwords (docs/contract.md#passwords). Default `{ ln: 10, r: 8, p: 1 }`:
   * about 2 ms a hash instead of the engine's 100 ms, so suites can sign customers up freely.
   */
  passwordHashing?: EngineOptions['passwordHashing'];
}

/** Cheap password hashing for tests (the engine's default costs about 100 ms a hash). */
export const TEST_PASSWORD_HASHING = { ln: 10, r: 8, p: 1 } as const;

/** What `t.checkout` takes: the checkout body, every field optional. */
export type TestCheckoutInput = In<typeof CheckoutSchema>;

/** A test engine: the engine, its scope, a scope-bound facade, fakes and fixtures. */
export interface TestEngine {
  engine: Engine;
  /** The store + mode every facade call uses. */
  scope: Scope;
  /** The engine's services with `scope` bound, acting with a secret key. */
  store: StoreApi;
  /** The same facade acting as the storefront: a publishable key, with that customer's token if given. */
  storefront(customerId?: string | null): StoreApi;
  clock: FakeClock;
  /** The fake card provider, or null with `payments: false`. */
  payments: FakePaymentProvider | null;
  /** Every event published so far. */
  events: EventRecorder;
  fixtures: Fixtures;
  /**
   * Checks a cart out with test defaults: the fake card (`payment_provider: 'fake_card'`,
   * `payment_method_id: 'pm_card_visa'`, so the order is paid and confirmed) — or `manual`
   * without the fake —, `buyer@example.com` for a guest cart without `email`, and
   * {@link TEST_ADDRESS} when the cart has no shipping address.
   */
  checkout(cartId: string, input?: TestCheckoutInput): ReturnType<StoreApi['checkout']>;
  /** Closes the database. */
  close(): Promise<void>;
}

/** The e-mail `t.checkout` uses for a guest cart when none is given. */
export const TEST_EMAIL = 'buyer@example.com';

/**
 * Creates an engine for a test: SQLite `:memory:` through `sqliteStorage` with the full schema,
 * a fake clock, sequential ids, seeded tokens, a fake card provider and the store created.
 * Each call is an independent database: no state is shared between test engines.
 *
 * @example
 * const t = await createTestEngine();
 * const { variant } = await t.fixtures.product({ price: 1000 });
 * const cart = await t.fixtures.cart([{ variant_id: variant.id, quantity: 2 }]);
 * const order = await t.checkout(cart.id);            // paid with the fake card
 * expect(order.total.amount).toBe(2000);
 * t.clock.advance('25h');
 * await t.close();
 */
export async function createTestEngine(options: TestEngineOptions = {}): Promise<TestEngine> {
  const clock = createFakeClock(options.now);
  const payments = options.payments === false ? null : createFakePaymentProvider(options.payments);
  const storage = await openMemoryStorage(options.schema);
  const { name, currency, timezone, ...settings } = options.store ?? {};
  // The store is created on first use with the engine's defaults (`engine.scopeFor`): name,
  // currency and time zone given here become those defaults.
  const config: Partial<EngineConfig> = {
    ...options.config,
    ...(name !== undefined && { default_store_name: name }),
    ...(currency !== undefined && { default_currency: currency }),
    ...(timezone !== undefined && { default_timezone: timezone }),
  };
  const engine = await createEngine({
    storage,
    migrate: false,
    clock,
    ids: options.ids ?? createSequentialIdGenerator(),
    crypto: createSeededCrypto(options.seed),
    payments: [...(payments ? [payments] : []), ...(options.providers ?? [])],
    ...(options.webhookTransport !== undefined && { webhookTransport: options.webhookTransport }),
    ...(Object.keys(config).length > 0 && { config }),
    ...(options.onListenerError !== undefined && { onListenerError: options.onListenerError }),
    rateLimits: options.rateLimits ?? false,
    passwordHashing: options.passwordHashing ?? TEST_PASSWORD_HASHING,
  });
  try {
    const scope: Scope = await engine.scopeFor(options.mode ?? 'test');
    const store = engine.forStore(scope);
    if (Object.keys(settings).length > 0) await store.settings.update(settings);
    const events = recordEvents(engine);

    return {
      engine,
      scope,
      store,
      storefront: (customerId = null) =>
        engine.forStore(scope, {
          key_type: 'publishable',
          customer_id: customerId,
        } satisfies CartActor),
      clock,
      payments,
      events,
      fixtures: createFixtures(store),
      async checkout(cartId, input = {}) {
        const needsCart = input.email === undefined || input.shipping_address === undefined;
        const cart = needsCart ? await storage.read((tx) => tx.carts.get(scope, cartId)) : null;
        const provider = input.payment_provider ?? input.payment_method ?? payments?.name ?? 'manual';
        const body: TestCheckoutInput = {
          ...input,
          ...(input.payment_provider === undefined &&
            input.payment_method === undefined && { payment_provider: provider }),
          ...(provider === payments?.name &&
            input.payment_method_id === undefined && { payment_method_id: 'pm_card_visa' }),
          ...(input.email === undefined && cart?.customer_id === null && { email: TEST_EMAIL }),
          ...(cart?.shipping_address === null &&
            input.shipping_address === undefined && { shipping_address: TEST_ADDRESS }),
        };
        return store.checkout(cartId, body);
      },
      async close() {
        events.stop();
        await engine.close();
      },
    };
  } catch (error) {
    await engine.close();
    throw error;
  }
}
