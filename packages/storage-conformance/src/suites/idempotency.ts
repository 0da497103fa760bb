import type { Scope } from '@cartwright/core';
import type { IdempotencyClaimRef } from '@cartwright/core/storage';
import { describe, expect, it } from 'vitest';
import { newId, newScope, otherMode } from '../fixtures';
import type { SuiteContext } from '../suite-context';

const LOCK = 30_000;
const TTL = 86_400_000;
const CALLER = 'key_a';

/**
 * Idempotency keys (docs/contract.md#idempotency): first writer wins, replay, mismatch, takeover of stale
 * claims, keys scoped to their caller, and the compare-and-set on the claim token that lets a
 * response be stored in the transaction of its effect.
 */
export function idempotencySuite(ctx: SuiteContext): void {
  const begin = (
    scope: Scope,
    key: string,
    now: number,
    request_hash = 'h1',
    operation = 'POST /v1/x',
    claim: { caller?: string; token?: string } = {},
  ) =>
    ctx.tx((tx) =>
      tx.idempotency.begin(scope, {
        key,
        caller: claim.caller ?? CALLER,
        claim_token: claim.token ?? newId('claim'),
        operation,
        request_hash,
        now,
        lock_ms: LOCK,
        ttl_ms: TTL,
      }),
    );
  const ref = (key: string, claim_token: string, caller = CALLER): IdempotencyClaimRef => ({
    key,
    caller,
    claim_token,
  });

  describe('idempotency', () => {
    it('started → in_progress → complete → replay; a different body or operation → mismatch; per scope', async () => {
      const scope = newScope();
      const key = newId('idem');
      expect(await begin(scope, key, 1000, 'h1', 'POST /v1/x', { token: 'tok_1' })).toEqual({
        outcome: 'started',
      });
      expect(await begin(scope, key, 1001)).toEqual({ outcome: 'in_progress' });
      // Locked until 1000 + LOCK: still in progress just before (an in-progress answer changes nothing).
      expect(await begin(scope, key, 1000 + LOCK - 1)).toEqual({ outcome: 'in_progress' });
      expect(
        await ctx.tx((tx) =>
          tx.idempotency.complete(scope, ref(key, 'tok_1'), { status: 201, body: '{"id":"ord_1","é":"✓"}' }),
        ),
      ).toBe(true);
      expect(await begin(scope, key, 2000)).toEqual({
        outcome: 'replay',
        status: 201,
        body: '{"id":"ord_1","é":"✓"}',
      });
      expect(await begin(scope, key, 2000, 'h2')).toEqual({ outcome: 'mismatch' });
      expect(await begin(scope, key, 2000, 'h1', 'POST /v1/y')).toEqual({ outcome: 'mismatch' });
      expect(await begin(otherMode(scope), key, 2000)).toEqual({ outcome: 'started' });
      expect(await begin(newScope(), key, 2000)).toEqual({ outcome: 'started' });
    });

    it('a key is scoped to its caller: another caller with the same key and body starts its own request', async () => {
      const scope = newScope();
      const key = newId('idem');
      expect(await begin(scope, key, 1000, 'h1', 'POST /v1/x', { caller: 'key_a', token: 't_a' })).toEqual({
        outcome: 'started',
      });
      await ctx.tx((tx) =>
        tx.idempotency.complete(scope, ref(key, 't_a', 'key_a'), { status: 200, body: '{}' }),
      );
      expect(await begin(scope, key, 1001, 'h1', 'POST /v1/x', { caller: 'key_b' })).toEqual({
        outcome: 'started',
      });
      expect(await begin(scope, key, 1001, 'h1', 'POST /v1/x', { caller: 'key_a/cus_1' })).toEqual({
        outcome: 'started',
      });
      expect(await begin(scope, key, 1002, 'h1', 'POST /v1/x', { caller: 'key_a' })).toEqual({
        outcome: 'replay',
        status: 200,
        body: '{}',
      });
      expect(await begin(scope, key, 1002, 'h1', 'POST /v1/x', { caller: 'key_b' })).toEqual({
        outcome: 'in_progress',
      });
    });

    it('release forgets an in-progress key of its own claim; a stale lock or an expired record is taken over', async () => {
      const scope = newScope();
      const key = newId('idem');
      expect(await begin(scope, key, 1000, 'h1', 'POST /v1/x', { token: 't1' })).toEqual({
        outcome: 'started',
      });
      await ctx.tx((tx) => tx.idempotency.release(scope, ref(key, 'someone-else')));
      expect(await begin(scope, key, 1001)).toEqual({ outcome: 'in_progress' });
      await ctx.tx((tx) => tx.idempotency.release(scope, ref(key, 't1')));
      // Forgotten: within what was t1's lock, a new request starts.
      expect(await begin(scope, key, 1000, 'h1', 'POST /v1/x', { token: 't2' })).toEqual({
        outcome: 'started',
      });
      // The holder died: after locked_until, the next caller takes over.
      expect(await begin(scope, key, 1000 + LOCK - 1)).toEqual({ outcome: 'in_progress' });
      expect(await begin(scope, key, 1000 + LOCK, 'h1', 'POST /v1/x', { token: 't3' })).toEqual({
        outcome: 'started',
      });
      // t3 holds it, locked until 1000 + 2 * LOCK.
      expect(await begin(scope, key, 1000 + 2 * LOCK - 1)).toEqual({ outcome: 'in_progress' });
      expect(
        await ctx.tx((tx) => tx.idempotency.complete(scope, ref(key, 't2'), { status: 200, body: '{}' })),
      ).toBe(false);
      // A completed record is forgotten after expires_at, whatever the new body.
      expect(
        await ctx.tx((tx) => tx.idempotency.complete(scope, ref(key, 't3'), { status: 200, body: '{}' })),
      ).toBe(true);
      await ctx.tx((tx) => tx.idempotency.release(scope, ref(key, 't3'))); // completed keys are not released
      const expiry = 1000 + LOCK + TTL;
      expect(await begin(scope, key, expiry - 1, 'other')).toEqual({ outcome: 'mismatch' });
      expect(await begin(scope, key, expiry, 'other')).toEqual({ outcome: 'started' });
      // The new claim replaced the record: its body, in progress, no stored response.
      expect(await begin(scope, key, expiry + 1, 'other')).toEqual({ outcome: 'in_progress' });
      expect(await begin(scope, key, expiry + 1, 'h1')).toEqual({ outcome: 'mismatch' });
    });

    it('compare-and-set: a claim whose lock expired and was taken over cannot complete, renew or release, and its effect rolls back', async () => {
      const scope = newScope();
      const key = newId('idem');
      expect(await begin(scope, key, 1000, 'h1', 'POST /v1/x', { token: 'stale' })).toEqual({
        outcome: 'started',
      });
      expect(await ctx.tx((tx) => tx.idempotency.renew(scope, ref(key, 'stale'), 1000 + 2 * LOCK))).toBe(
        true,
      );
      expect(await begin(scope, key, 1000 + 2 * LOCK - 1)).toEqual({ outcome: 'in_progress' });
      // The lock expires; a retry takes the key over with its own token.
      expect(await begin(scope, key, 1000 + 2 * LOCK, 'h1', 'POST /v1/x', { token: 'fresh' })).toEqual({
        outcome: 'started',
      });
      // The stale request's effect and its response, in one transaction: the CAS finds nothing,
      // the use case throws, and the effect (here: another idempotency row) rolls back with it.
      const marker = newId('idem');
      await expect(
        ctx.tx(async (tx) => {
          await tx.idempotency.begin(scope, {
            key: marker,
            caller: CALLER,
            claim_token: 'effect',
            operation: 'POST /v1/effect',
            request_hash: 'h',
            now: 1000,
            lock_ms: LOCK,
            ttl_ms: TTL,
          });
          const stored = await tx.idempotency.complete(scope, ref(key, 'stale'), {
            status: 201,
            body: '{"n":1}',
          });
          if (!stored) throw new Error('claim lost');
        }),
      ).rejects.toThrow('claim lost');
      // The effect rolled back: the marker key is unknown (a kept row would be in progress now).
      expect(await begin(scope, marker, 1001, 'h', 'POST /v1/effect')).toEqual({ outcome: 'started' });
      expect(await ctx.tx((tx) => tx.idempotency.renew(scope, ref(key, 'stale'), 10 ** 9))).toBe(false);
      await ctx.tx((tx) => tx.idempotency.release(scope, ref(key, 'stale')));
      // Still fresh's claim, in progress (the stale release removed nothing).
      expect(await begin(scope, key, 1000 + 2 * LOCK + 1)).toEqual({ outcome: 'in_progress' });
      // The new holder completes; completing again under the same claim overwrites (a later
      // transaction of the same request), and nothing else can.
      expect(
        await ctx.tx((tx) =>
          tx.idempotency.complete(scope, ref(key, 'fresh'), { status: 201, body: '{"n":2}' }),
        ),
      ).toBe(true);
      expect(
        await ctx.tx((tx) =>
          tx.idempotency.complete(scope, ref(key, 'fresh'), { status: 201, body: '{"n":3}' }),
        ),
      ).toBe(true);
      expect(
        await ctx.tx((tx) =>
          tx.idempotency.complete(scope, ref(key, 'stale'), { status: 201, body: '{"n":4}' }),
        ),
      ).toBe(false);
      expect(await begin(scope, key, 1000 + 2 * LOCK + 1)).toEqual({
        outcome: 'replay',
        status: 201,
        body: '{"n":3}',
      });
    });

    it('purgeExpired deletes records past expires_at and reports how many', async () => {
      const scope = newScope();
      const old = newId('idem');
      const fresh = newId('idem');
      await begin(scope, old, -TTL * 10);
      await begin(scope, fresh, 10_000);
      const purged = await ctx.tx((tx) => tx.idempotency.purgeExpired(-TTL * 9 + 1));
      expect(purged).toBeGreaterThanOrEqual(1);
      // The old record is gone (purging again finds nothing that old); the fresh one stays.
      expect(await ctx.tx((tx) => tx.idempotency.purgeExpired(-TTL * 9 + 1))).toBe(0);
      expect(await begin(scope, fresh, 10_001)).toEqual({ outcome: 'in_progress' });
    });
  });
}
