import { idempotencyClaimTakenOver, type Scope } from '@cartwright/core';
import type {
  IdempotencyClaim,
  IdempotencyClaimRef,
  IdempotencyRecord,
  Repositories,
} from '@cartwright/core/storage';
import { describe, expect, it } from 'vitest';
import { makeOrder, newId, newScope, otherMode } from '../fixtures';
import type { SuiteContext } from '../suite-context';

const LOCK = 30_000;
const TTL = 86_400_000;
const CALLER = 'key_a';

/**
 * Idempotency keys, as primitives (what a stored record MEANS — replay, mismatch, in progress,
 * take-over — is core's decision, tested in core): the claim is an insert-if-absent or a
 * compare-and-set on the record read, answering the record as stored when it misses; `complete`,
 * `renew` and `release` are compare-and-sets on the claim token; records are scoped to their
 * caller; `purgeExpired` deletes by `expires_at`.
 */
export function idempotencySuite(ctx: SuiteContext): void {
  const claimOf = (key: string, now: number, over: Partial<IdempotencyClaim> = {}): IdempotencyClaim => ({
    key,
    caller: CALLER,
    claim_token: newId('claim'),
    operation: 'POST /v1/x',
    request_hash: 'h1',
    locked_until: now + LOCK,
    created_at: now,
    expires_at: now + TTL,
    ...over,
  });
  const claim = (scope: Scope, c: IdempotencyClaim, expected: IdempotencyRecord | null = null) =>
    ctx.tx((tx) => tx.idempotency.claim(scope, c, expected));
  /** The record as stored, read through a claim that misses on purpose. */
  const stored = async (scope: Scope, key: string, caller = CALLER): Promise<IdempotencyRecord | null> => {
    const probe = claimOf(key, 0, { caller });
    const result = await claim(scope, probe, {
      ...probe,
      claim_token: 'no-such-claim',
      state: 'in_progress',
      response_status: null,
      response_body: null,
    });
    expect(result.claimed).toBe(false);
    return result.claimed ? null : result.current;
  };
  const ref = (key: string, claim_token: string, caller = CALLER): IdempotencyClaimRef => ({
    key,
    caller,
    claim_token,
  });

  describe('idempotency', () => {
    it('completeAtCommit (optional; PostgreSQL): stored with COMMIT, unawaited; a claim taken over fails the transaction with 409 idempotency_key_in_use and nothing of it commits (elsewhere: complete and its answer)', async () => {
      const scope = newScope();
      /** What core does with the storage's member, or without it. */
      const completeIn = async (tx: Repositories, key: string, token: string, body: string) => {
        if (tx.idempotency.completeAtCommit !== undefined) {
          // Not awaited: its failure must still fail the transaction.
          void tx.idempotency.completeAtCommit(scope, ref(key, token), { status: 200, body }).catch(() => {});
          return;
        }
        if (!(await tx.idempotency.complete(scope, ref(key, token), { status: 200, body })))
          throw idempotencyClaimTakenOver();
      };
      const key = newId('idem');
      const first = claimOf(key, 1000, { claim_token: 'tok_1' });
      expect(await claim(scope, first)).toEqual({ claimed: true });
      await ctx.tx((tx) => completeIn(tx, key, 'tok_1', '{"a":1}'));
      expect(await stored(scope, key)).toMatchObject({
        state: 'completed',
        response_status: 200,
        response_body: '{"a":1}',
      });

      // Taken over meanwhile: the effect written beside it (a second claim) does not commit.
      const other = newId('idem');
      await expect(
        ctx.tx(async (tx) => {
          await tx.idempotency.claim(scope, claimOf(other, 1000), null);
          await completeIn(tx, key, 'tok_stale', '{"a":2}');
        }),
      ).rejects.toMatchObject({ code: 'idempotency_key_in_use', param: 'Idempotency-Key' });
      expect(await stored(scope, key)).toMatchObject({ response_body: '{"a":1}' });
      expect(await stored(scope, other)).toBeNull();
    });

    it('completeAtCommit with an order numbered at COMMIT: the body gets the number (PostgreSQL; elsewhere: the number first, then complete)', async () => {
      const scope = newScope();
      const key = newId('idem');
      expect(await claim(scope, claimOf(key, 1000, { claim_token: 'tok_n' }))).toEqual({ claimed: true });
      const placeholder = -4_503_599_627_370_499;
      const body = `{"id":"ord_x","number":${placeholder},"lines":[{"number":1}]}`;
      const number = await ctx.tx(async (tx) => {
        if (tx.orders.insertNumbered === undefined || tx.idempotency.completeAtCommit === undefined) {
          const n = await tx.orders.nextNumber(scope);
          await tx.idempotency.complete(scope, ref(key, 'tok_n'), {
            status: 201,
            body: body.replace(`"number":${placeholder}`, `"number":${n}`),
          });
          return n;
        }
        const taking = tx.orders.insertNumbered(makeOrder(scope, placeholder), { events: [], placeholder });
        void tx.idempotency
          .completeAtCommit(scope, ref(key, 'tok_n'), { status: 201, body }, { placeholder })
          .catch(() => {});
        return taking;
      });
      expect(number).toBe(1001);
      expect((await stored(scope, key))?.response_body).toBe(
        '{"id":"ord_x","number":1001,"lines":[{"number":1}]}',
      );
    });

    it('claim is insert-if-absent: the first claim wins, the next misses and reads the record as stored (per scope and caller)', async () => {
      const scope = newScope();
      const key = newId('idem');
      const first = claimOf(key, 1000, { claim_token: 'tok_1' });
      expect(await claim(scope, first)).toEqual({ claimed: true });
      const record: IdempotencyRecord = {
        ...first,
        state: 'in_progress',
        response_status: null,
        response_body: null,
      };
      // A second claim expecting no record misses and writes nothing, whatever it carries.
      expect(await claim(scope, claimOf(key, 1001, { request_hash: 'h2', operation: 'POST /v1/y' }))).toEqual(
        {
          claimed: false,
          current: record,
        },
      );
      expect(await stored(scope, key)).toEqual(record);
      // Another mode, store or caller is another record.
      expect(await claim(otherMode(scope), claimOf(key, 1001))).toEqual({ claimed: true });
      expect(await claim(newScope(), claimOf(key, 1001))).toEqual({ claimed: true });
      expect(await claim(scope, claimOf(key, 1001, { caller: 'key_b' }))).toEqual({ claimed: true });
      expect(await claim(scope, claimOf(key, 1001, { caller: 'key_a/cus_1' }))).toEqual({ claimed: true });
      expect(await stored(scope, key)).toEqual(record);
    });

    it('claim with an expected record is a compare-and-set: it replaces exactly the record read, and misses once anything in it moved', async () => {
      const scope = newScope();
      const key = newId('idem');
      await claim(scope, claimOf(key, 1000, { claim_token: 'held' }));
      const read = (await stored(scope, key))!;
      // The holder renews: the record read is no longer the record stored.
      expect(await ctx.tx((tx) => tx.idempotency.renew(scope, ref(key, 'held'), 1000 + 2 * LOCK))).toBe(true);
      const renewed = (await stored(scope, key))!;
      expect(renewed.locked_until).toBe(1000 + 2 * LOCK);
      expect(await claim(scope, claimOf(key, 2000, { claim_token: 'late' }), read)).toEqual({
        claimed: false,
        current: renewed,
      });
      // The holder completes: the record read before is stale again.
      expect(
        await ctx.tx((tx) =>
          tx.idempotency.complete(scope, ref(key, 'held'), { status: 201, body: '{"é":"✓"}' }),
        ),
      ).toBe(true);
      const completed = (await stored(scope, key))!;
      expect(completed).toMatchObject({
        state: 'completed',
        response_status: 201,
        response_body: '{"é":"✓"}',
      });
      expect(await claim(scope, claimOf(key, 2000, { claim_token: 'late' }), renewed)).toEqual({
        claimed: false,
        current: completed,
      });
      // Expecting exactly what is stored replaces it: a new claim, in progress, no response.
      const next = claimOf(key, 3000, { claim_token: 'next', request_hash: 'other' });
      expect(await claim(scope, next, completed)).toEqual({ claimed: true });
      expect(await stored(scope, key)).toEqual({
        ...next,
        state: 'in_progress',
        response_status: null,
        response_body: null,
      });
      // Expecting a record where there is none, or none where there is one, misses.
      const absent = newId('idem');
      expect(await claim(scope, claimOf(absent, 1), completed)).toEqual({ claimed: false, current: null });
      expect((await claim(scope, claimOf(key, 1))).claimed).toBe(false);
      // The other mode's record of the same key is not this one.
      expect(await claim(otherMode(scope), claimOf(key, 1), completed)).toEqual({
        claimed: false,
        current: null,
      });
    });

    it('release deletes only an in-progress record of its own claim token', async () => {
      const scope = newScope();
      const key = newId('idem');
      await claim(scope, claimOf(key, 1000, { claim_token: 't1' }));
      await ctx.tx((tx) => tx.idempotency.release(scope, ref(key, 'someone-else')));
      await ctx.tx((tx) => tx.idempotency.release(otherMode(scope), ref(key, 't1')));
      await ctx.tx((tx) => tx.idempotency.release(scope, ref(key, 't1', 'key_b')));
      expect((await stored(scope, key))?.claim_token).toBe('t1');
      await ctx.tx((tx) => tx.idempotency.release(scope, ref(key, 't1')));
      expect(await stored(scope, key)).toBeNull();
      // Completed records are not released.
      await claim(scope, claimOf(key, 1000, { claim_token: 't2' }));
      await ctx.tx((tx) => tx.idempotency.complete(scope, ref(key, 't2'), { status: 200, body: '{}' }));
      await ctx.tx((tx) => tx.idempotency.release(scope, ref(key, 't2')));
      expect(await stored(scope, key)).toMatchObject({ claim_token: 't2', state: 'completed' });
    });

    it('compare-and-set on the token: a claim replaced by another cannot complete, renew or release, and its effect rolls back', async () => {
      const scope = newScope();
      const key = newId('idem');
      await claim(scope, claimOf(key, 1000, { claim_token: 'stale' }));
      expect(await ctx.tx((tx) => tx.idempotency.renew(scope, ref(key, 'stale'), 1000 + 2 * LOCK))).toBe(
        true,
      );
      // A retry replaces the claim with its own token (core took the stale lock over).
      const read = (await stored(scope, key))!;
      expect(await claim(scope, claimOf(key, 1000 + 2 * LOCK, { claim_token: 'fresh' }), read)).toEqual({
        claimed: true,
      });
      // The stale request's effect and its response, in one transaction: the CAS finds nothing,
      // the use case throws, and the effect (here: another idempotency record) rolls back with it.
      const marker = newId('idem');
      await expect(
        ctx.tx(async (tx) => {
          expect(await tx.idempotency.claim(scope, claimOf(marker, 1000), null)).toEqual({ claimed: true });
          const kept = await tx.idempotency.complete(scope, ref(key, 'stale'), {
            status: 201,
            body: '{"n":1}',
          });
          if (!kept) throw new Error('claim lost');
        }),
      ).rejects.toThrow('claim lost');
      expect(await stored(scope, marker)).toBeNull();
      expect(await ctx.tx((tx) => tx.idempotency.renew(scope, ref(key, 'stale'), 10 ** 9))).toBe(false);
      await ctx.tx((tx) => tx.idempotency.release(scope, ref(key, 'stale')));
      expect(await stored(scope, key)).toMatchObject({ claim_token: 'fresh', state: 'in_progress' });
      // The holder completes; completing again under the same claim overwrites (a later
      // transaction of the same request), and nothing else can.
      for (const [token, body, kept] of [
        ['fresh', '{"n":2}', true],
        ['fresh', '{"n":3}', true],
        ['stale', '{"n":4}', false],
      ] as const) {
        expect(
          await ctx.tx((tx) => tx.idempotency.complete(scope, ref(key, token), { status: 201, body })),
        ).toBe(kept);
      }
      expect(
        await ctx.tx((tx) =>
          tx.idempotency.complete(otherMode(scope), ref(key, 'fresh'), { status: 201, body: '{}' }),
        ),
      ).toBe(false);
      expect(await stored(scope, key)).toMatchObject({
        claim_token: 'fresh',
        state: 'completed',
        response_status: 201,
        response_body: '{"n":3}',
      });
      // Renewing a completed claim of this token still holds (the lock of a later transaction).
      expect(await ctx.tx((tx) => tx.idempotency.renew(scope, ref(key, 'fresh'), 5))).toBe(true);
      expect(await stored(scope, key)).toMatchObject({ state: 'completed', locked_until: 5 });
    });

    it('purgeExpired deletes the records whose expires_at ≤ now, in every scope, and reports how many', async () => {
      const scope = newScope();
      const old = newId('idem');
      const fresh = newId('idem');
      await claim(scope, claimOf(old, -TTL * 10));
      await claim(otherMode(scope), claimOf(old, -TTL * 10));
      await claim(scope, claimOf(fresh, 10_000));
      const purged = await ctx.tx((tx) => tx.idempotency.purgeExpired(-TTL * 9));
      expect(purged).toBeGreaterThanOrEqual(2);
      expect(await ctx.tx((tx) => tx.idempotency.purgeExpired(-TTL * 9))).toBe(0);
      expect(await stored(scope, old)).toBeNull();
      expect(await stored(otherMode(scope), old)).toBeNull();
      expect(await stored(scope, fresh)).not.toBeNull();
    });
  });
}
