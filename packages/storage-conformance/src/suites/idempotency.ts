import type { Scope } from '@cartwright/core';
import { describe, expect, it } from 'vitest';
import { newId, newScope, otherMode } from '../fixtures';
import type { SuiteContext } from '../suite-context';

const LOCK = 30_000;
const TTL = 86_400_000;

/** Idempotency keys: first writer wins, replay, mismatch, takeover of stale claims. */
export function idempotencySuite(ctx: SuiteContext): void {
  const begin = (scope: Scope, key: string, now: number, request_hash = 'h1', operation = 'POST /v1/x') =>
    ctx.tx((tx) =>
      tx.idempotency.begin(scope, { key, operation, request_hash, now, lock_ms: LOCK, ttl_ms: TTL }),
    );

  describe('idempotency', () => {
    it('started → in_progress → complete → replay; a different body or operation → mismatch; per scope', async () => {
      const scope = newScope();
      const key = newId('idem');
      expect(await begin(scope, key, 1000)).toEqual({ outcome: 'started' });
      expect(await begin(scope, key, 1001)).toEqual({ outcome: 'in_progress' });
      expect(await ctx.read((r) => r.idempotency.get(scope, key))).toEqual({
        store_id: scope.store_id,
        mode: scope.mode,
        key,
        operation: 'POST /v1/x',
        request_hash: 'h1',
        state: 'in_progress',
        response_status: null,
        response_body: null,
        locked_until: 1000 + LOCK,
        created_at: 1000,
        expires_at: 1000 + TTL,
      });
      await ctx.tx((tx) =>
        tx.idempotency.complete(scope, key, { status: 201, body: '{"id":"ord_1","é":"✓"}' }),
      );
      expect(await begin(scope, key, 2000)).toEqual({
        outcome: 'replay',
        status: 201,
        body: '{"id":"ord_1","é":"✓"}',
      });
      expect(await begin(scope, key, 2000, 'h2')).toEqual({ outcome: 'mismatch' });
      expect(await begin(scope, key, 2000, 'h1', 'POST /v1/y')).toEqual({ outcome: 'mismatch' });
      expect(await begin(otherMode(scope), key, 2000)).toEqual({ outcome: 'started' });
      expect(await ctx.read((r) => r.idempotency.get(newScope(), key))).toBeNull();
    });

    it('release forgets an in-progress key; a stale lock or an expired record is taken over', async () => {
      const scope = newScope();
      const key = newId('idem');
      expect(await begin(scope, key, 1000)).toEqual({ outcome: 'started' });
      await ctx.tx((tx) => tx.idempotency.release(scope, key));
      expect(await ctx.read((r) => r.idempotency.get(scope, key))).toBeNull();
      expect(await begin(scope, key, 1000)).toEqual({ outcome: 'started' });
      // The holder died: after locked_until, the next caller takes over.
      expect(await begin(scope, key, 1000 + LOCK - 1)).toEqual({ outcome: 'in_progress' });
      expect(await begin(scope, key, 1000 + LOCK)).toEqual({ outcome: 'started' });
      expect(await ctx.read((r) => r.idempotency.get(scope, key))).toMatchObject({
        locked_until: 1000 + 2 * LOCK,
      });
      // A completed record is forgotten after expires_at, whatever the new body.
      await ctx.tx((tx) => tx.idempotency.complete(scope, key, { status: 200, body: '{}' }));
      await ctx.tx((tx) => tx.idempotency.release(scope, key)); // completed keys are not released
      const expiry = 1000 + LOCK + TTL;
      expect(await begin(scope, key, expiry - 1, 'other')).toEqual({ outcome: 'mismatch' });
      expect(await begin(scope, key, expiry, 'other')).toEqual({ outcome: 'started' });
      expect(await ctx.read((r) => r.idempotency.get(scope, key))).toMatchObject({
        request_hash: 'other',
        state: 'in_progress',
        response_body: null,
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
      expect(await ctx.read((r) => r.idempotency.get(scope, old))).toBeNull();
      expect(await ctx.read((r) => r.idempotency.get(scope, fresh))).not.toBeNull();
    });
  });
}
