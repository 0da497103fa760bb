import type { CartActor } from './carts/cart-access';
import type { ApiLogService } from './dashboard/api-log-service';
import type { EngineEvents } from './events/event-data';
import type { MemberService } from './members/member-service';
import type { ExecuteOptions, OperationRequest } from './operations/execute';
import type { AnyOperation } from './operations/operation';
import type { PaymentWebhookInput } from './ports/payment-provider';
import type { Mode, Scope, Storage } from './ports/storage';
import type { ReconcileOptions, ReconcileReport } from './reconciliation/payment-reconciliation';
import type { PaymentWebhookAck, PaymentWebhookOutcome } from './reconciliation/payment-webhooks';
import type { ReconcilerOptions } from './reconciliation/reconcile-schedule';
import type { IdempotentRequest, IdempotentResult } from './shared/idempotency-service';
import type { RateLimiter } from './shared/rate-limits/rate-limiter';
import type { PollingLoop } from './shared/scheduling/polling-loop';
import type { RequestOutcome, RequestScope, StoredResponse } from './shared/unit-of-work';
import type { ApiKeyPrincipal, CustomerPrincipal, ProvisionalApiKey } from './store/auth-service';
import type { StoreApi } from './store-api';
import type { DeliverDueOptions, DeliverDueResult } from './webhooks/webhook-dispatcher';
import type { WebhookWorker, WebhookWorkerOptions } from './webhooks/webhook-worker';

/**
 * The engine, as `createEngine(options)` returns it: the whole commerce API of one database, in
 * process. Its front door is {@link Engine.forStore}: the API of one store and mode, validating
 * every input exactly as the HTTP API does and answering the same objects. The rest is what a host
 * application runs around it: the scope of its store, in-process events, authentication for its
 * own routes, the background jobs, and shutdown.
 *
 * @example
 * const engine = await createEngine({ storage: sqliteStorage({ filename: 'shop.db' }) });
 * const store = engine.forStore(await engine.scopeFor('test'));
 * const product = await store.products.create({ name: 'Tee', status: 'active', variants: [{ price: 2500 }] });
 * engine.events.on('order.created', (e) => console.log(e.data.number, e.data.total.amount));
 */
export interface Engine {
  /**
   * The API of one store and mode (see {@link StoreApi}). Carts and checkout act as `actor`:
   * a secret key unless given (`{ key_type: 'publishable', customer_id }` acts as a storefront
   * with that customer signed in).
   */
  forStore(scope: Scope, actor?: CartActor): StoreApi;
  /**
   * Runs one operation of the table (`@cartwright/core/operations`) — what `forStore`'s methods
   * and the HTTP router both call: `request.input` is validated by the operation's schema unless
   * `options.validated` says the caller did it with that same schema.
   */
  execute(operation: AnyOperation, request: OperationRequest, options?: ExecuteOptions): Promise<unknown>;
  /**
   * The scope of the store for a mode, as an API key of that mode has it; creates the
   * organization and store on first use (one store per database).
   */
  scopeFor(mode?: Mode): Promise<Scope>;
  /** In-process subscriptions to the engine's events, typed by event (`on('order.created', …)`). */
  readonly events: EngineEvents;
  /** Authentication, for host routes that take Cartwright's API keys or customer tokens. */
  readonly auth: EngineAuth;
  /** API keys known to the host (bootstrap from configuration). */
  readonly apiKeys: EngineApiKeys;
  /**
   * Staff sign-in for the back office (decisions §23): e-mail + password sessions, accepting an
   * invitation, and inviting a member with its one-time token (the CLI prints it as a link).
   * `@cartwright/http` serves it as `/v1/admin/session` with an HttpOnly cookie.
   */
  readonly staff: EngineStaff;
  /**
   * API logs (decisions §23): `record` writes a batch the HTTP layer buffered (one multi-row
   * insert), `prune` deletes those older than 30 days; `list`/`get` are `logs.*` of the API.
   */
  readonly apiLogs: EngineApiLogs;
  /** Webhook delivery: one round for cron jobs, or a worker loop for a long-running process. */
  readonly webhooks: EngineWebhookJobs;
  /** Payment reconciliation: settles payments a crash or a lost provider webhook left pending. */
  readonly payments: EnginePaymentJobs;
  /**
   * Runs a keyed request once (docs/contract.md#idempotency): for HTTP layers, which hand it each
   * `POST` that carries an `Idempotency-Key` (`@cartwright/http` does).
   */
  readonly idempotency: EngineIdempotency;
  /** The rate limits an HTTP layer consults (docs/contract.md#rate-limits). */
  readonly rateLimits: RateLimiter;
  /** The names checkout's `payment_provider` accepts: the registered providers, `manual` first. */
  readonly paymentProviders: readonly string[];
  /** The storage the engine runs on (see `@cartwright/core/storage`). */
  readonly storage: Storage;
  /** Closes the storage. Stop workers and reconcilers first. */
  close(): Promise<void>;
}

/** `engine.staff` (decisions §23): the member service's sign-in part. */
export type EngineStaff = Pick<
  MemberService,
  'signIn' | 'acceptInvite' | 'authenticate' | 'signOut' | 'invite' | 'hostSession'
>;

/** `engine.apiLogs` (decisions §23). */
export type EngineApiLogs = Pick<ApiLogService, 'record' | 'prune'>;

/** `engine.auth`. */
export interface EngineAuth {
  /** Resolves a raw API key (`sk_…`/`pk_…`); throws `invalid_api_key` for unknown, revoked or expired keys. */
  authenticateApiKey(rawKey: string): Promise<ApiKeyPrincipal>;
  /**
   * A key this process found usable moments ago, taken at its word: its principal, and `run`,
   * inside which the request's first statement confirms it (nothing commits or is answered
   * otherwise; 401 `invalid_api_key`). Null: authenticate it with `authenticateApiKey`.
   */
  provisional?(rawKey: string): ProvisionalApiKey | null;
  /**
   * Resolves a customer token within a scope; throws `invalid_customer_token` (unknown, revoked,
   * expired) or `customer_disabled`.
   */
  authenticateCustomerToken(scope: Scope, token: string): Promise<CustomerPrincipal>;
}

/** `engine.apiKeys`. */
export interface EngineApiKeys {
  /**
   * Stores a key given in configuration (e.g. `COMMERCE_SECRET_KEY`) for the store, if it is not
   * known yet; its mode and kind come from its prefix. True when it was added.
   */
  register(storeId: string, rawKey: string, name?: string | null): Promise<boolean>;
  /** A new random raw key of that kind and mode (`sk_test_…`), not stored. */
  generateKey(keyType: 'secret' | 'publishable', mode: Mode): string;
}

/** `engine.webhooks`. */
export interface EngineWebhookJobs {
  /** One round: fans out committed events, then claims, sends and records due deliveries. */
  deliverDue(options?: DeliverDueOptions): Promise<DeliverDueResult>;
  /** Starts the in-process delivery loop; `stop()` finishes or releases what is in flight. */
  startWorker(options?: WebhookWorkerOptions): WebhookWorker;
}

/** `engine.idempotency`: the idempotency service (its `run`). */
export interface EngineIdempotency {
  /**
   * Runs `execute` once for the request's scope + caller + key: a retry gets the first response
   * (`replayed`), a different body 409 `idempotency_key_reused`, a retry while the first still
   * runs 409 `idempotency_key_in_use`. `execute` receives the scope carrying the request's claim
   * (pass it to the operation); `render` turns an outcome into the response stored with its effect.
   */
  run(
    request: IdempotentRequest,
    execute: (scope: RequestScope) => Promise<StoredResponse>,
    render: (outcome: RequestOutcome) => StoredResponse | null,
  ): Promise<IdempotentResult>;
}

/** `engine.payments`. */
export interface EnginePaymentJobs {
  /**
   * Handles a payment provider's webhook delivery (`POST /v1/webhooks/{provider}`): verifies it
   * with the provider and settles what it reports.
   */
  handleWebhook(
    provider: string,
    input: PaymentWebhookInput,
  ): Promise<PaymentWebhookAck & { outcome: PaymentWebhookOutcome }>;
  /** Settles payments pending longer than `olderThanMs` with their provider (`cartwright reconcile`). */
  reconcile(options?: ReconcileOptions): Promise<ReconcileReport>;
  /** The same on a schedule, until `stop()`. */
  startReconciler(options?: ReconcilerOptions): PollingLoop;
}
