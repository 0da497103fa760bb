import type {
  IdempotencyClaim,
  IdempotencyRecord,
  IdempotencyRepository,
  Millis,
  Scope,
} from '../ports/storage';

/** How a request with an `Idempotency-Key` begins (docs/contract.md#idempotency). */
export type IdempotencyBegin =
  /** This request holds the key now: it runs. */
  | { outcome: 'started' }
  /** The key's first request completed: its response is replayed. */
  | { outcome: 'replay'; status: number; body: string }
  /** The key was used with another operation or body: 409 `idempotency_key_reused`. */
  | { outcome: 'mismatch' }
  /** The key's first request is still running (and its lock holds): wait, then 409 `idempotency_key_in_use`. */
  | { outcome: 'in_progress' };

/** What core decides from the record a key already has. */
export type IdempotencyDecision =
  | Exclude<IdempotencyBegin, { outcome: 'started' }>
  | { outcome: 'take_over' };

/** What a request asks of a key: the operation and its body's hash, at `now`. */
export interface IdempotentAttempt {
  operation: string;
  request_hash: string;
  now: Millis;
}

/**
 * The decision table of a key that is already stored (docs/contract.md#idempotency), in order:
 * - past its `expires_at` (≤ now): forgotten — taken over, whatever it held;
 * - another `operation` or `request_hash` → mismatch;
 * - completed → replay of its response;
 * - in progress and locked (`locked_until` > now) → in_progress;
 * - in progress with its lock run out (its holder died or stalled) → taken over.
 */
export function decideIdempotency(
  record: IdempotencyRecord,
  attempt: IdempotentAttempt,
): IdempotencyDecision {
  if (record.expires_at <= attempt.now) return { outcome: 'take_over' };
  if (record.operation !== attempt.operation || record.request_hash !== attempt.request_hash) {
    return { outcome: 'mismatch' };
  }
  if (record.state === 'completed') {
    return { outcome: 'replay', status: record.response_status ?? 200, body: record.response_body ?? '' };
  }
  if (record.locked_until > attempt.now) return { outcome: 'in_progress' };
  return { outcome: 'take_over' };
}

/**
 * Claims before a caller that keeps losing races (the record released or taken over in between)
 * reports `in_progress`: the first insert, then up to five take-overs.
 */
export const MAX_CLAIM_ROUNDS = 6;

/**
 * Begins a keyed request in the caller's transaction: claims the key (insert-if-absent), and when
 * it is taken decides from the stored record ({@link decideIdempotency}); a take-over is a
 * compare-and-set on the record as read, so of concurrent callers exactly one takes a stale key.
 * A lost race reads again, at most {@link MAX_CLAIM_ROUNDS} times, then answers `in_progress`.
 */
export async function beginIdempotentRequest(
  repo: Pick<IdempotencyRepository, 'claim'>,
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
): Promise<IdempotencyBegin> {
  const claim: IdempotencyClaim = {
    key: input.key,
    caller: input.caller,
    claim_token: input.claim_token,
    operation: input.operation,
    request_hash: input.request_hash,
    locked_until: input.now + input.lock_ms,
    created_at: input.now,
    expires_at: input.now + input.ttl_ms,
  };
  let expected: IdempotencyRecord | null = null;
  for (let round = 0; round < MAX_CLAIM_ROUNDS; round++) {
    const result = await repo.claim(scope, claim, expected);
    if (result.claimed) return { outcome: 'started' };
    if (result.current === null) {
      expected = null; // released in between: claim it afresh
      continue;
    }
    const decision = decideIdempotency(result.current, input);
    if (decision.outcome !== 'take_over') return decision;
    expected = result.current;
  }
  return { outcome: 'in_progress' };
}
