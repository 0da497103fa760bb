import type { IdempotencyClaimRef, Scope } from '../ports/storage';
import type { ServiceContext } from './context';
import { CommerceError } from './errors';
import { beginIdempotentRequest } from './idempotency-begin';
import { replayOf } from './replay-secrets';
import {
  type RequestClaim,
  type RequestOutcome,
  type RequestScope,
  type StoredResponse,
  scopeUnderClaim,
} from './unit-of-work';

export type { RequestOutcome, RequestScope, StoredResponse } from './unit-of-work';

/** Who sent a keyed request: the API key, and the customer of the customer token if one came. */
export interface IdempotencyCaller {
  key_id: string;
  customer_id: string | null;
}

/** A request that carries an `Idempotency-Key`. */
export interface IdempotentRequest {
  scope: Scope;
  caller: IdempotencyCaller;
  key: string;
  /** `POST /v1/...`: a key is bound to one operation. */
  request: string;
  /** Hash of the canonical request body. */
  bodyHash: string;
}

export interface IdempotentResult extends StoredResponse {
  /** The response is the stored one of an earlier request. */
  replayed?: boolean;
  /**
   * The response stored in the transaction of the request's last effect (null when no effect
   * stored one). The pipeline checks in tests that it equals the final response.
   */
  committed?: StoredResponse | null;
  /** The request's last effect committed without a response stored with it (not crash-safe). */
  unanswered?: boolean;
}

const POLL_MS = 10;

/**
 * How often a process deletes the keys past their `expires_at` (in the transaction of the next
 * key it claims): the table holds a day of keys, not every key ever sent.
 */
const PURGE_EVERY_MS = 10 * 60 * 1000;

/**
 * The caller part of a key (docs/contract.md#idempotency: a key is scoped to store, mode, API key and customer
 * token). The customer is identified by its id, not by the token: the token is a credential that
 * is not stored, and a customer who signs in again (a new token) still gets the replay of their
 * own request, while another customer, or the same API key without a token, never does.
 */
export function callerOf(caller: IdempotencyCaller): string {
  return caller.customer_id === null ? caller.key_id : `${caller.key_id}/${caller.customer_id}`;
}

/**
 * `Idempotency-Key` on POST (docs/contract.md#idempotency): the first request with a key (per scope and caller)
 * runs and its response (success or domain error) is stored for 24 h, with any secret it holds
 * masked (replay-secrets.ts: never a credential at rest, nor one a replay could resurrect); the same key with the same
 * body replays it; a different body → 409 `idempotency_key_reused`. A concurrent request with the
 * key waits for the first to finish and replays its response, so two concurrent requests produce
 * one effect; if the first is still running after the lock time → 409 `idempotency_key_in_use`.
 *
 * Crash safety: the key is claimed (in progress, with a random claim token and a lock expiry) in
 * a transaction of its own; `execute` then runs the request with a scope that carries that claim
 * (`RequestScope`, passed down to every use case it calls), and every `write` given that scope
 * stores the response it leads to in the same transaction as its effect, as a compare-and-set on
 * the token (unit-of-work.ts). A crash therefore never leaves an effect without its replay record
 * or a record without its effect, and a request whose lock expired and was taken over by a retry
 * cannot commit a second effect. A response that differs from the one stored with the effect
 * (no effect, a domain error from a rolled-back transaction) is stored in a separate transaction
 * afterwards; unexpected errors (5xx) store nothing and release the claim, so the client may retry.
 */
export function createIdempotencyService(ctx: ServiceContext) {
  const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));
  /** When this process last deleted expired keys ({@link PURGE_EVERY_MS}). */
  let purgedAt = ctx.clock.now();

  return {
    async run(
      request: IdempotentRequest,
      execute: (scope: RequestScope) => Promise<StoredResponse>,
      render: (outcome: RequestOutcome) => StoredResponse | null,
    ): Promise<IdempotentResult> {
      const { scope, key } = request;
      if (key.length === 0 || key.length > 255) {
        throw new CommerceError('parameter_invalid', 'Idempotency-Key must be 1 to 255 characters', {
          param: 'Idempotency-Key',
        });
      }
      const ref: IdempotencyClaimRef = {
        key,
        caller: callerOf(request.caller),
        claim_token: ctx.crypto.randomToken(16),
      };
      const deadline = ctx.clock.now() + ctx.config.idempotency_lock_ms;
      for (;;) {
        const now = ctx.clock.now();
        const purge = now - purgedAt >= PURGE_EVERY_MS;
        if (purge) purgedAt = now;
        const begin = await ctx.storage.transaction(async (tx) => {
          if (purge) await tx.idempotency.purgeExpired(now);
          return beginIdempotentRequest(tx.idempotency, scope, {
            ...ref,
            operation: request.request,
            request_hash: request.bodyHash,
            now,
            lock_ms: ctx.config.idempotency_lock_ms,
            ttl_ms: ctx.config.idempotency_ttl_ms,
          });
        });
        if (begin.outcome === 'replay') return { status: begin.status, body: begin.body, replayed: true };
        if (begin.outcome === 'mismatch') {
          throw new CommerceError(
            'idempotency_key_reused',
            'This Idempotency-Key was already used with a different request',
            { param: 'Idempotency-Key' },
          );
        }
        if (begin.outcome === 'in_progress') {
          if (ctx.clock.now() >= deadline || Date.now() >= deadline) {
            throw new CommerceError(
              'idempotency_key_in_use',
              'A request with this Idempotency-Key is in progress',
              {
                param: 'Idempotency-Key',
              },
            );
          }
          await sleep(POLL_MS);
          continue;
        }
        const claim: RequestClaim = {
          scope,
          ref,
          render,
          committed: null,
          unanswered: false,
          open: true,
          writing: false,
        };
        let response: StoredResponse;
        try {
          response = await execute(scopeUnderClaim(claim));
        } catch (error) {
          claim.open = false;
          await ctx.storage.transaction((tx) => tx.idempotency.release(scope, ref)).catch(() => undefined);
          throw error;
        }
        claim.open = false;
        const committed = claim.committed;
        if (response.status >= 500) {
          // Nothing is stored for a 5xx; a response stored with an effect stays (release only
          // forgets a claim still in progress).
          await ctx.storage.transaction((tx) => tx.idempotency.release(scope, ref));
        } else if (committed === null || !sameResponse(committed, response)) {
          // No effect stored this response: no effect, or a domain error whose transaction rolled
          // back. Compare-and-set as well: a claim taken over meanwhile stores nothing.
          await ctx.storage.transaction((tx) => tx.idempotency.complete(scope, ref, replayOf(response)));
        }
        return { ...response, committed, unanswered: claim.unanswered };
      }
    },
  };
}

function sameResponse(a: StoredResponse, b: StoredResponse): boolean {
  return a.status === b.status && a.body === b.body;
}

export type IdempotencyService = ReturnType<typeof createIdempotencyService>;
