import type { CartActor } from './carts/cart-access';
import { createPasswordHasher } from './customers/passwords';
import type { Engine } from './engine-interface';
import { DEFAULT_ENGINE_CONFIG, type EngineOptions, manualPaymentProvider } from './engine-options';
import { createServices } from './engine-services';
import { createEventBus } from './events/event-bus';
import { type ExecuteOptions, executeOperation, type OperationRequest } from './operations/execute';
import { createFrontDoor } from './operations/front-door';
import { type AnyOperation, operationServices } from './operations/operation';
import { operations } from './operations/table';
import { createPaymentRegistry } from './payments/payment-registry';
import { systemClock } from './ports/clock';
import { webCrypto } from './ports/crypto';
import { createRandomIdGenerator } from './ports/random-id-generator';
import type { Mode, Scope } from './ports/storage';
import type { ServiceContext } from './shared/context';
import { createRateLimiter } from './shared/rate-limits/rate-limiter';
import type { StoreApi } from './store-api';

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

export async function buildEngine(options: EngineOptions) {
  const events = createEventBus(options.onListenerError);
  const clock = options.clock ?? systemClock;
  const payments = createPaymentRegistry(manualPaymentProvider, options.payments);
  const ctx: ServiceContext = {
    storage: options.storage,
    clock,
    ids: options.ids ?? createRandomIdGenerator(() => clock.now()),
    crypto: options.crypto ?? webCrypto,
    passwords: createPasswordHasher(
      options.passwordHashing,
      options.crypto ?? webCrypto,
      options.passwordHashConcurrency,
    ),
    payments,
    events: events.sink,
    webhookTransport: options.webhookTransport ?? null,
    config: { ...DEFAULT_ENGINE_CONFIG, ...options.config },
    rateLimits: createRateLimiter(options.storage, clock, options.rateLimits),
  };
  if (options.migrate !== false) await options.storage.migrate();

  const services = createServices(ctx);
  const rateLimits = ctx.rateLimits;
  const handlerServices = operationServices(services);
  const forStore = createFrontDoor(operations, handlerServices, (scope, token) =>
    services.auth.authenticateCustomerToken(scope, token),
  );

  return {
    [INTERNALS]: true as const,
    ...services,
    context: ctx,
    storage: options.storage,
    /** The rate limits the HTTP pipeline consults (docs/contract.md#rate-limits). */
    rateLimits,
    /** The names checkout's `payment_provider` accepts: the registered providers, `manual` first. */
    paymentProviders: Object.freeze([...payments.keys()]) as readonly string[],
    /** In-process subscribers, called after commit. */
    events: { on: events.on },
    /** Staff sign-in and invitations (decisions §23). */
    staff: services.members,
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
      return forStore(scope, actor);
    },
    /**
     * Runs one operation of the table (`@cartwright/core/operations`): what `forStore`'s methods
     * and the HTTP router both call.
     */
    execute(operation: AnyOperation, request: OperationRequest, options?: ExecuteOptions): Promise<unknown> {
      return executeOperation(handlerServices, operation, request, options);
    },
    async close(): Promise<void> {
      await options.storage.close();
    },
  };
}
