/**
 * The slice of the engine that the HTTP pipeline itself calls: authentication, and the optional
 * idempotency hook. Route handlers receive the whole engine as `ctx.engine`, typed as
 * {@link RouteEngine}.
 */

/** A mode partitions all data (decisions §2). */
export type Mode = 'test' | 'live';

/** What an API key resolves to. */
export interface AuthContext {
  key_id: string;
  store_id: string;
  mode: Mode;
  key_type: 'secret' | 'publishable';
}

/** What a customer token resolves to. */
export interface CustomerContext {
  customer_id: string;
  status: string;
}

/** The store and mode a customer token or an idempotency key is scoped to. */
export interface StoreScope {
  store_id: string;
  mode: Mode;
}

/** A finished response as the idempotency store keeps it: status and the exact JSON text. */
export interface StoredResponse {
  status: number;
  body: string;
}

/**
 * Idempotency hook (decisions §12). The pipeline calls it for POST requests that carry an
 * `Idempotency-Key` header, once the input has been validated (as at Stripe, a request that fails
 * validation stores nothing). `execute` runs the route and returns its response, success or
 * domain error; an unexpected exception (500) is thrown through so nothing is stored and the
 * client may retry. The implementation returns the first stored response for the same
 * scope + key + request + body hash, throws `idempotency_key_reused` (409) when the body hash
 * differs, and `idempotency_key_in_use` (409) while the first request still runs.
 */
export interface IdempotencyRunner {
  run(
    scope: StoreScope,
    key: string,
    request: string,
    bodyHash: string,
    execute: () => Promise<StoredResponse>,
  ): Promise<StoredResponse & { replayed?: boolean }>;
}

/** The engine methods the pipeline uses. The real engine has many more; they reach routes via `ctx.engine`. */
export interface HttpEngine {
  auth: {
    /** Resolves a raw API key; throws `CommerceError('invalid_api_key')` for unknown, revoked or expired keys. */
    authenticateApiKey(rawKey: string): Promise<AuthContext> | AuthContext;
    /**
     * Resolves a customer token within a store and mode; throws `invalid_customer_token` (bad or
     * expired) or `customer_disabled`.
     */
    authenticateCustomerToken(scope: StoreScope, token: string): Promise<CustomerContext> | CustomerContext;
  };
  idempotency?: IdempotencyRunner | undefined;
}

/**
 * Module-augmentation point that types `ctx.engine` in every route. The engine package is written
 * separately, so by default routes see only {@link HttpEngine}. Register the real engine once:
 *
 * ```ts
 * declare module '@cartwright/http' { interface Register { engine: Engine } }
 * // or, inside this package: declare module '../engine-port' { interface Register { engine: Engine } }
 * ```
 */
// biome-ignore lint/suspicious/noEmptyInterface: filled by declaration merging (see TSDoc above).
export interface Register {}

/** The engine type routes receive: the registered engine, else {@link HttpEngine}. */
export type RouteEngine = Register extends { engine: infer E extends HttpEngine } ? E : HttpEngine;
