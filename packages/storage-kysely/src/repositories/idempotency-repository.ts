import type { Scope } from '@cartwright/core';
import type {
  IdempotencyClaim,
  IdempotencyClaimRef,
  IdempotencyClaimResult,
  IdempotencyRecord,
  IdempotencyRepository,
} from '@cartwright/core/storage';
import { type Kysely, sql } from 'kysely';
import type { QueryRunner } from '../query/query-runner';
import { type Slots, shapedTemplate, template } from '../query/template';
import type { Database } from '../schema/database';
import { CLAIM_TAKEN_OVER } from '../translate-db-error';
import { scoped } from './scoped-args';

type ScopeSlots = 'store_id' | 'mode';
type KeySlots = ScopeSlots | 'caller' | 'key';
type ClaimSlots =
  | KeySlots
  | 'claim_token'
  | 'operation'
  | 'request_hash'
  | 'created_at'
  | 'locked_until'
  | 'expires_at';

/** Insert-if-absent (first writer wins): the row exists afterwards, and RETURNING tells whether this call made it. */
const insertClaim = template(({ db }, p: Slots<ClaimSlots>) =>
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
      created_at: p.created_at,
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
/**
 * Compare-and-set on the record that was read (its claim token, state, lock and expiry), so that
 * of the callers that read it only one replaces it. Affected rows tell (the new claim always
 * changes `claim_token`, so a replacement never counts as "unchanged").
 */
const replaceClaim = template(
  ({ db }, p: Slots<ClaimSlots | 'seen_token' | 'seen_state' | 'seen_locked_until' | 'seen_expires_at'>) =>
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
        created_at: p.created_at,
        expires_at: p.expires_at,
      })
      .where('store_id', '=', p.store_id)
      .where('mode', '=', p.mode)
      .where('caller', '=', p.caller)
      .where('key', '=', p.key)
      .where('claim_token', '=', p.seen_token)
      .where('state', '=', p.seen_state)
      .where('locked_until', '=', p.seen_locked_until)
      .where('expires_at', '=', p.seen_expires_at),
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
/**
 * PostgreSQL: {@link complete} as a statement that FAILS when the claim was taken over, so it can
 * travel with COMMIT (the failure rolls the transaction back): `WITH u AS (UPDATE … RETURNING 1)
 * SELECT CASE WHEN count(*) = 1 THEN 1 ELSE cast(concat('<marker>', count(*)) AS integer) END FROM
 * u` — the cast of the marker fails with 22P02, which translateDbError turns into 409
 * `idempotency_key_in_use`. (The failing branch depends on `count(*)`, so the planner cannot
 * evaluate it ahead.) `numbered`: the body's `"number":<placeholder>` becomes the order number
 * the transaction took (`orders.insertNumbered`, sent before it).
 */
const completeAtCommit = shapedTemplate(
  (numbered: boolean) => (numbered ? 'n' : '-'),
  (
    { db },
    p: Slots<KeySlots | 'claim_token' | 'status' | 'body' | 'marker' | 'n_from' | 'n_to'>,
    numbered: boolean,
  ) => {
    const body = numbered
      ? sql<string>`replace(${p.body}, ${p.n_from}, ${p.n_to} || (select last_number::text from order_counters where store_id = ${p.store_id} and mode = ${p.mode}))`
      : p.body;
    return (db as unknown as Kysely<Database>)
      .with('u', (qc) =>
        qc
          .updateTable('idempotency_keys')
          .set({ state: 'completed', response_status: p.status, response_body: body })
          .where('store_id', '=', p.store_id)
          .where('mode', '=', p.mode)
          .where('caller', '=', p.caller)
          .where('key', '=', p.key)
          .where('claim_token', '=', p.claim_token)
          .returning(sql<number>`1`.as('one')),
      )
      .selectFrom('u')
      .select(
        sql<number>`case when count(*) = 1 then 1 else cast(concat(${p.marker}::text, count(*)) as integer) end`.as(
          'held',
        ),
      );
  },
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

function decode(row: {
  key: string;
  caller: string;
  claim_token: string;
  operation: string;
  request_hash: string;
  state: string;
  response_status: number | null;
  response_body: string | null;
  locked_until: number | string;
  created_at: number | string;
  expires_at: number | string;
}): IdempotencyRecord {
  return {
    key: row.key,
    caller: row.caller,
    claim_token: row.claim_token,
    operation: row.operation,
    request_hash: row.request_hash,
    state: row.state === 'completed' ? 'completed' : 'in_progress',
    response_status: row.response_status,
    response_body: row.response_body,
    locked_until: Number(row.locked_until),
    created_at: Number(row.created_at),
    expires_at: Number(row.expires_at),
  };
}

/** The arguments of a claim's completion (`complete`, `completeAtCommit`). */
function completionArgs(
  scope: Scope,
  claim: IdempotencyClaimRef,
  response: { status: number; body: string },
) {
  return scoped(scope, {
    caller: claim.caller,
    key: claim.key,
    claim_token: claim.claim_token,
    status: response.status,
    body: response.body,
  });
}

/**
 * Idempotency keys (docs/contract.md#idempotency): one record per (scope, caller, key), put in place
 * by compare-and-set (`claim`); what a stored record means is core's decision
 * (`beginIdempotentRequest`).
 */
export class KyselyIdempotencyRepository implements IdempotencyRepository {
  constructor(private readonly q: QueryRunner) {
    if (q.caps.dialect === 'postgres') {
      this.completeAtCommit = (scope, claim, response, numbered) => {
        const args = {
          ...completionArgs(scope, claim, response),
          marker: CLAIM_TAKEN_OVER,
          n_from: numbered === undefined ? null : `"number":${numbered.placeholder}`,
          n_to: '"number":',
        };
        return this.q.rows(completeAtCommit, args, numbered !== undefined).then(() => undefined);
      };
    }
  }

  /** An insert-if-absent or a compare-and-set on the record read; on a miss, the record as stored now. */
  async claim(
    scope: Scope,
    claim: IdempotencyClaim,
    expected: IdempotencyRecord | null,
  ): Promise<IdempotencyClaimResult> {
    const args = scoped(scope, {
      key: claim.key,
      caller: claim.caller,
      claim_token: claim.claim_token,
      operation: claim.operation,
      request_hash: claim.request_hash,
      created_at: claim.created_at,
      locked_until: claim.locked_until,
      expires_at: claim.expires_at,
    });
    const won =
      expected === null
        ? (await this.q.first(insertClaim, args)) !== undefined
        : (await this.q.affected(replaceClaim, {
            ...args,
            seen_token: expected.claim_token,
            seen_state: expected.state,
            seen_locked_until: expected.locked_until,
            seen_expires_at: expected.expires_at,
          })) === 1;
    if (won) return { claimed: true };
    const row = await this.q.first(get, scoped(scope, { caller: claim.caller, key: claim.key }));
    return { claimed: false, current: row ? decode(row) : null };
  }

  async complete(
    scope: Scope,
    claim: IdempotencyClaimRef,
    response: { status: number; body: string },
  ): Promise<boolean> {
    return (await this.q.affected(complete, completionArgs(scope, claim, response))) === 1;
  }

  /** PostgreSQL only (the port's optional member): see {@link completeAtCommit}'s template. */
  readonly completeAtCommit?: (
    scope: Scope,
    claim: IdempotencyClaimRef,
    response: { status: number; body: string },
    numbered?: { placeholder: number },
  ) => Promise<void>;

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
