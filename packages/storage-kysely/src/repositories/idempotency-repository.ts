import type { Scope } from '@cartwright/core';
import type { IdempotencyBegin, IdempotencyClaimRef, IdempotencyRepository } from '@cartwright/core/storage';
import type { QueryRunner } from '../query/query-runner';
import { type Slots, template } from '../query/template';
import { scoped } from './scoped-args';

type ScopeSlots = 'store_id' | 'mode';
type KeySlots = ScopeSlots | 'caller' | 'key';
type ClaimSlots =
  | KeySlots
  | 'claim_token'
  | 'operation'
  | 'request_hash'
  | 'now'
  | 'locked_until'
  | 'expires_at';

/** First writer wins: the row exists afterwards, and RETURNING tells whether this call made it. */
const claim = template(({ db }, p: Slots<ClaimSlots>) =>
  db
    .insertInto('idempotency_keys')
    .values({
      store_id: p.store_id,
      mode: p.mode,
      key: p.key,
      caller: p.caller,
      claim_token: p.claim_token,
      operation: p.operation,
      request_hash: p.request_hash,
      state: 'in_progress',
      response_status: null,
      response_body: null,
      locked_until: p.locked_until,
      created_at: p.now,
      expires_at: p.expires_at,
    })
    .onConflict((oc) => oc.doNothing())
    .returning('key'),
);
const get = template(({ db }, p: Slots<KeySlots>) =>
  db
    .selectFrom('idempotency_keys')
    .selectAll()
    .where('store_id', '=', p.store_id)
    .where('mode', '=', p.mode)
    .where('caller', '=', p.caller)
    .where('key', '=', p.key),
);
/** Compare-and-set on the state that was read, so only one caller takes a stale key over. */
const takeOver = template(
  ({ db }, p: Slots<ClaimSlots | 'seen_state' | 'seen_locked_until' | 'seen_expires_at'>) =>
    db
      .updateTable('idempotency_keys')
      .set({
        claim_token: p.claim_token,
        operation: p.operation,
        request_hash: p.request_hash,
        state: 'in_progress',
        response_status: null,
        response_body: null,
        locked_until: p.locked_until,
        created_at: p.now,
        expires_at: p.expires_at,
      })
      .where('store_id', '=', p.store_id)
      .where('mode', '=', p.mode)
      .where('caller', '=', p.caller)
      .where('key', '=', p.key)
      .where('state', '=', p.seen_state)
      .where('locked_until', '=', p.seen_locked_until)
      .where('expires_at', '=', p.seen_expires_at)
      .returning('key'),
);
/**
 * Compare-and-set on the claim: stores the response only while the record still holds this
 * claim's token (in progress, or already completed by the same claim, e.g. a later transaction of
 * the same request). Runs in the transaction of the effect it describes.
 */
const complete = template(({ db }, p: Slots<KeySlots | 'claim_token' | 'status' | 'body'>) =>
  db
    .updateTable('idempotency_keys')
    .set({ state: 'completed', response_status: p.status, response_body: p.body })
    .where('store_id', '=', p.store_id)
    .where('mode', '=', p.mode)
    .where('caller', '=', p.caller)
    .where('key', '=', p.key)
    .where('claim_token', '=', p.claim_token),
);
const renew = template(({ db }, p: Slots<KeySlots | 'claim_token' | 'locked_until'>) =>
  db
    .updateTable('idempotency_keys')
    .set({ locked_until: p.locked_until })
    .where('store_id', '=', p.store_id)
    .where('mode', '=', p.mode)
    .where('caller', '=', p.caller)
    .where('key', '=', p.key)
    .where('claim_token', '=', p.claim_token),
);
const release = template(({ db }, p: Slots<KeySlots | 'claim_token'>) =>
  db
    .deleteFrom('idempotency_keys')
    .where('store_id', '=', p.store_id)
    .where('mode', '=', p.mode)
    .where('caller', '=', p.caller)
    .where('key', '=', p.key)
    .where('claim_token', '=', p.claim_token)
    .where('state', '=', 'in_progress'),
);
const purge = template(({ db }, p: Slots<'now'>) =>
  db.deleteFrom('idempotency_keys').where('expires_at', '<=', p.now),
);

/** Attempts before a caller that keeps losing takeover races reports `in_progress`. */
const MAX_ROUNDS = 5;

/** Idempotency keys (docs/contract.md#idempotency): one in-progress claim per key, replay of the first response. */
export class KyselyIdempotencyRepository implements IdempotencyRepository {
  constructor(private readonly q: QueryRunner) {}

  async begin(
    scope: Scope,
    input: {
      key: string;
      caller: string;
      claim_token: string;
      operation: string;
      request_hash: string;
      now: number;
      lock_ms: number;
      ttl_ms: number;
    },
  ): Promise<IdempotencyBegin> {
    const args = scoped(scope, {
      key: input.key,
      caller: input.caller,
      claim_token: input.claim_token,
      operation: input.operation,
      request_hash: input.request_hash,
      now: input.now,
      locked_until: input.now + input.lock_ms,
      expires_at: input.now + input.ttl_ms,
    });
    for (let round = 0; round < MAX_ROUNDS; round++) {
      if (await this.q.first(claim, args)) return { outcome: 'started' };
      const row = await this.q.first(get, scoped(scope, { caller: input.caller, key: input.key }));
      if (!row) continue; // released in between: claim again
      const expired = row.expires_at <= input.now;
      if (!expired) {
        if (row.operation !== input.operation || row.request_hash !== input.request_hash)
          return { outcome: 'mismatch' };
        if (row.state === 'completed') {
          return { outcome: 'replay', status: row.response_status ?? 200, body: row.response_body ?? '' };
        }
        if (row.locked_until > input.now) return { outcome: 'in_progress' };
      }
      const taken = await this.q.first(takeOver, {
        ...args,
        seen_state: row.state,
        seen_locked_until: row.locked_until,
        seen_expires_at: row.expires_at,
      });
      if (taken) return { outcome: 'started' };
    }
    return { outcome: 'in_progress' };
  }

  async complete(
    scope: Scope,
    claim: IdempotencyClaimRef,
    response: { status: number; body: string },
  ): Promise<boolean> {
    const args = scoped(scope, {
      caller: claim.caller,
      key: claim.key,
      claim_token: claim.claim_token,
      status: response.status,
      body: response.body,
    });
    return (await this.q.affected(complete, args)) === 1;
  }

  async renew(scope: Scope, claim: IdempotencyClaimRef, locked_until: number): Promise<boolean> {
    const args = scoped(scope, {
      caller: claim.caller,
      key: claim.key,
      claim_token: claim.claim_token,
      locked_until,
    });
    return (await this.q.affected(renew, args)) === 1;
  }

  async release(scope: Scope, claim: IdempotencyClaimRef): Promise<void> {
    const args = scoped(scope, { caller: claim.caller, key: claim.key, claim_token: claim.claim_token });
    await this.q.affected(release, args);
  }

  async purgeExpired(now: number): Promise<number> {
    return this.q.affected(purge, { now });
  }
}
