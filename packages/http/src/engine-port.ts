/**
 * The slice of the engine that the HTTP pipeline itself calls: authentication, and the optional
 * idempotency hook. Route handlers receive the whole engine as `ctx.engine`, typed as
 * {@link RouteEngine}.
 */

import type { Engine } from '@cartwright/core';

/** A mode partitions all data (docs/contract.md#keys-and-modes). */
export type Mode = 'test' | 'live';

/** What an API key resolves to. */
export interface AuthContext {
  key_id: string;
  store_id: string;
  mode: Mode;
  key_type: 'secret' | 'publishable';
  /**
   * The back-office person calling through a staff session or the host's `authorize` hook
   * (decisions §23; then `key_id` is `staff:<member_id>` and `key_type` `secret`); absent for an
   * API key. The operation refuses a role that may not call it (403 `forbidden`).
   */
  staff?: { member_id: string; role: 'admin' | 'member' };
}

/** What a customer token resolves to. */
export interface CustomerContext {
  customer_id: string;
  status: string;
  /** The id of the token itself (not the token): sign-out revokes it, a password change keeps it (docs/contract.md#passwords). */
  token_id: string;
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

/** Who sent a keyed request: the API key's id, and the customer of the customer token if one came. */
export interface IdempotencyCaller {
  key_id: string;
  customer_id: string | null;
}

/** A POST request that carries an `Idempotency-Key`. */
export interface IdempotentRequest {
  scope: StoreScope;
  /** A key is scoped to its caller: another caller's identical request is a new request. */
  caller: IdempotencyCaller;
  key: string;
  /** `POST /v1/...` (the path as requested). */
  request: string;
  /** SHA-256 (hex) of the canonical JSON body: key order and whitespace do not matter. */
  bodyHash: string;
}

/** How one of a request's transactions ended, as its caller will see it: a value, or an error. */
export type RequestOutcome = { value: unknown } | { error: unknown };

/**
 * Idempotency hook (docs/contract.md#idempotency). The pipeline calls it for POST requests that carry an
 * `Idempotency-Key` header, once the input has been validated (as at Stripe, a request that fails
 * validation stores nothing). `execute` runs the route with the scope it is given (the request's
 * scope, carrying the claim: core's `RequestScope`) and returns its response, success or domain
 * error; an unexpected exception (500) is thrown through so nothing is stored and the client may
 * retry. `render` turns the outcome of one of the request's transactions into the
 * response the route gives for it (the route's status and serialisation; null for a 5xx), so the
 * implementation can store the response in the same transaction as the effect it describes. The
 * implementation returns the first stored response for the same scope + caller + key + request +
 * body hash, throws `idempotency_key_reused` (409) when the body hash differs, and
 * `idempotency_key_in_use` (409) while the first request still runs.
 */
export interface IdempotencyRunner {
  run(
    request: IdempotentRequest,
    execute: (scope: StoreScope) => Promise<StoredResponse>,
    render: (outcome: RequestOutcome) => StoredResponse | null,
  ): Promise<
    StoredResponse & { replayed?: boolean; committed?: StoredResponse | null; unanswered?: boolean }
  >;
}

/** The engine methods the pipeline uses. The real engine has many more; they reach routes via `ctx.engine`. */
export interface HttpEngine {
  auth: {
    /** Resolves a raw API key; throws `CommerceError('invalid_api_key')` for unknown, revoked or expired keys. */
    authenticateApiKey(rawKey: string): Promise<AuthContext> | AuthContext;
    /**
     * Optional: a key the engine found usable moments ago, taken at its word — its context, and
     * `run`, inside which the request's first statement confirms the key (rejecting with
     * `invalid_api_key` when it is no longer usable, nothing having taken effect). Null: call
     * `authenticateApiKey`. Asked for requests that are not GET or HEAD.
     */
    provisional?(rawKey: string): { principal: AuthContext; run<T>(fn: () => Promise<T>): Promise<T> } | null;
    /**
     * Resolves a customer token within a store and mode; throws `invalid_customer_token` (bad or
     * expired) or `customer_disabled`.
     */
    authenticateCustomerToken(scope: StoreScope, token: string): Promise<CustomerContext> | CustomerContext;
  };
  idempotency?: IdempotencyRunner | undefined;
  /** Rate limits (docs/contract.md#rate-limits); none: no limits, no `RateLimit-*` headers. */
  rateLimits?: HttpRateLimiter | undefined;
  /**
   * The registered payment providers' names, which the served OpenAPI document lists as the
   * `enum` of checkout's `payment_provider`; none: `manual` and `stripe`.
   */
  paymentProviders?: readonly string[] | undefined;
}

/** What a rate limit decided for one request: the numbers behind the `RateLimit-*` headers. */
export interface RateLimitDecision {
  allowed: boolean;
  limit: number;
  remaining: number;
  reset_seconds: number;
  retry_after_seconds: number;
}

/** The engine's rate limiter as the pipeline uses it (core's `RateLimiter`). */
export interface HttpRateLimiter {
  /** One request of an authenticated caller; null when no limit applies to it. */
  take(
    caller: { key_id: string; key_type: 'secret' | 'publishable' },
    address: string | undefined,
  ): RateLimitDecision | null;
  /**
   * One request in a strict per-address window shared by every process; null when off or no
   * address. (Customer sign-in failures are counted by the engine's use cases, not here.)
   */
  count(
    limit: 'failed_auth' | 'order_lookup',
    address: string | undefined,
  ): Promise<RateLimitDecision | null>;
}

/**
 * The engine route handlers receive as `ctx.engine`: the public `Engine` `createEngine` returned.
 * The API's own routes are derived from core's operation table and call `engine.execute`, the
 * entry point `engine.forStore(scope)`'s methods use; the pipeline itself only calls the
 * {@link HttpEngine} slice of it.
 */
export type RouteEngine = Engine;
