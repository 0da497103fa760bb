import type { Millis, Scope } from './scope';

// Idempotency keys: claims of one request each.

export type IdempotencyBegin =
  | { outcome: 'started' }
  | { outcome: 'replay'; status: number; body: string }
  | { outcome: 'mismatch' }
  | { outcome: 'in_progress' };

export interface IdempotencyRepository {
  /**
   * First writer wins: inserts an in-progress record holding `claim_token` (INSERT … ON CONFLICT
   * DO NOTHING). A key is scoped to its caller: the record's key is (scope, `caller`, `key`).
   * When it exists: a different `operation` or `request_hash` → mismatch; completed → replay;
   * in progress with `locked_until` in the future → in_progress; in progress but expired lock, or
   * past `expires_at` → taken over by this caller (started), with this call's `claim_token`.
   */
  begin(
    scope: Scope,
    input: {
      key: string;
      caller: string;
      claim_token: string;
      operation: string;
      request_hash: string;
      now: Millis;
      lock_ms: number;
      ttl_ms: number;
    },
  ): Promise<IdempotencyBegin>;
  /**
   * Stores the response as a compare-and-set on the claim: only while the record still holds
   * `claim.claim_token` (in progress, or completed by this same claim). Returns false when the claim
   * was taken over (its lock expired) — the caller's transaction must then roll back its effect.
   */
  complete(
    scope: Scope,
    claim: IdempotencyClaimRef,
    response: { status: number; body: string },
  ): Promise<boolean>;
  /**
   * Extends the lock of a claim that is still this token's (compare-and-set); false when it was
   * taken over. Interim transactions of a request call it so that a stale claim commits nothing.
   */
  renew(scope: Scope, claim: IdempotencyClaimRef, locked_until: Millis): Promise<boolean>;
  /** Forget an in-progress key held by this claim (the request failed in a way that should not be replayed). */
  release(scope: Scope, claim: IdempotencyClaimRef): Promise<void>;
  /** Housekeeping: delete records past `expires_at`. */
  purgeExpired(now: Millis): Promise<number>;
}

/** One request's claim on an idempotency key. */
export interface IdempotencyClaimRef {
  key: string;
  caller: string;
  claim_token: string;
}
