import type { Millis, Scope } from './scope';

// Idempotency keys: one record per key, claimed by compare-and-set.

/**
 * One stored idempotency key: the claim of the request that holds it (`claim_token`), what that
 * request was (`operation`, `request_hash`), and its response once `completed`. The record's key
 * is (scope, `caller`, `key`).
 */
export interface IdempotencyRecord {
  key: string;
  caller: string;
  claim_token: string;
  operation: string;
  request_hash: string;
  state: 'in_progress' | 'completed';
  /** Null while in progress. */
  response_status: number | null;
  response_body: string | null;
  locked_until: Millis;
  created_at: Millis;
  expires_at: Millis;
}

/** A new claim: the record a request puts in place, in progress and without a response. */
export type IdempotencyClaim = Omit<IdempotencyRecord, 'state' | 'response_status' | 'response_body'>;

/** What {@link IdempotencyRepository.claim} answers. */
export type IdempotencyClaimResult =
  | { claimed: true }
  /** The record as stored now (read after the write missed), or null when there is none any more. */
  | { claimed: false; current: IdempotencyRecord | null };

export interface IdempotencyRepository {
  /**
   * Compare-and-set of the key's record: puts `claim` in place (in progress, no response) only
   * while the key's record is still `expected` — `null`: there is none (insert-if-absent, first
   * writer wins); else the record as read, unchanged (same `claim_token`, `state`,
   * `locked_until` and `expires_at`). Of concurrent claims expecting the same thing, exactly one
   * wins, across processes. When it misses, answers the record as stored now (null when it was
   * deleted meanwhile); nothing was written. Core decides from that record (replay, mismatch,
   * in progress, or a take-over, which is this call again with `expected` = that record).
   */
  claim(
    scope: Scope,
    claim: IdempotencyClaim,
    expected: IdempotencyRecord | null,
  ): Promise<IdempotencyClaimResult>;
  /**
   * Stores the response as a compare-and-set on the claim: only while the record still holds
   * `claim.claim_token` (in progress, or completed by this same claim). Returns false when the claim
   * was taken over — the caller's transaction must then roll back its effect.
   */
  complete(
    scope: Scope,
    claim: IdempotencyClaimRef,
    response: { status: number; body: string },
  ): Promise<boolean>;
  /**
   * Optional (PostgreSQL): `complete` as a write that travels with COMMIT instead of a round trip
   * of its own — every statement is started at the call, and the caller does not await it before
   * COMMIT (core's `work.defer`). When the claim was taken over, its statement fails, and with it
   * the transaction: it rejects with core's `idempotencyClaimTakenOver()` (409
   * `idempotency_key_in_use`) and nothing of it commits. `numbered`: an order of this transaction
   * was numbered at COMMIT (`orders.insertNumbered`, sent before): the text
   * `"number":<placeholder>` in the body becomes the number the scope's counter holds now.
   */
  completeAtCommit?(
    scope: Scope,
    claim: IdempotencyClaimRef,
    response: { status: number; body: string },
    numbered?: { placeholder: number },
  ): Promise<void>;
  /**
   * Extends the lock of a claim that is still this token's (compare-and-set); false when it was
   * taken over. Interim transactions of a request call it so that a stale claim commits nothing.
   */
  renew(scope: Scope, claim: IdempotencyClaimRef, locked_until: Millis): Promise<boolean>;
  /** Deletes the record while it is in progress and holds this claim's token (guarded delete). */
  release(scope: Scope, claim: IdempotencyClaimRef): Promise<void>;
  /** Housekeeping, unscoped: deletes the records whose `expires_at` ≤ `now`; returns how many. */
  purgeExpired(now: Millis): Promise<number>;
}

/** One request's claim on an idempotency key. */
export interface IdempotencyClaimRef {
  key: string;
  caller: string;
  claim_token: string;
}
