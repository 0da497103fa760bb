import { randomBytes } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import type { SuiteContext } from '../suite-context';

/** A bucket name no other test (or earlier run on a shared database) uses. */
const bucket = (name: string) => `${name} ${randomBytes(6).toString('hex')}`;

/**
 * The shared rate-limit counters (docs/contract.md#rate-limits): `hit` counts atomically in a fixed window —
 * concurrent hits from several connections are all counted, a newer window starts over, an older
 * window's hit (a lagging clock) counts in the newer one — and `prune` deletes past windows.
 */
export function rateLimitsSuite(ctx: SuiteContext): void {
  describe('rate limit counters', () => {
    it('counts hits in one window, starts over in a newer one, and a late hit for an older window counts in the newer', async () => {
      const key = bucket('failed_auth 203.0.113.7');
      const hit = (window: number) => ctx.tx((tx) => tx.rateLimits.hit(key, window));
      expect(await hit(60_000)).toBe(1);
      expect(await hit(60_000)).toBe(2);
      expect(await hit(60_000)).toBe(3);
      expect(await hit(120_000)).toBe(1);
      expect(await hit(60_000)).toBe(2);
      expect(await hit(120_000)).toBe(3);
      // Another bucket is counted apart.
      expect(await ctx.tx((tx) => tx.rateLimits.hit(bucket('order_lookup 203.0.113.7'), 120_000))).toBe(1);
    });

    it('peek reads the count of a window without counting: 0 for none or an older window, a newer window’s count', async () => {
      const key = bucket('sign_in email:peek');
      const peek = (window: number) => ctx.tx((tx) => tx.rateLimits.peek(key, window));
      expect(await peek(60_000)).toBe(0);
      await ctx.tx((tx) => tx.rateLimits.hit(key, 60_000));
      await ctx.tx((tx) => tx.rateLimits.hit(key, 60_000));
      expect(await peek(60_000)).toBe(2);
      expect(await peek(60_000)).toBe(2);
      // A lagging clock's older window sees the newer count it would add to; a newer window sees none.
      expect(await peek(0)).toBe(2);
      expect(await peek(120_000)).toBe(0);
      expect(await ctx.tx((tx) => tx.rateLimits.hit(key, 60_000))).toBe(3);
    });

    it('loses no hit when many connections count in one bucket at once', async () => {
      const key = bucket('failed_auth 198.51.100.1');
      const pool = await ctx.openStorages(ctx.options.sharedDatabase ? 4 : 1);
      try {
        const counts = await Promise.all(
          Array.from({ length: 40 }, (_, i) =>
            pool.storages[i % pool.storages.length]!.transaction((tx) => tx.rateLimits.hit(key, 1_000)),
          ),
        );
        // Every hit saw a distinct count: 1..40, none lost or counted twice.
        expect([...counts].sort((a, b) => a - b)).toEqual(Array.from({ length: 40 }, (_, i) => i + 1));
      } finally {
        await pool.close();
      }
    });

    it('prune deletes the counters of windows that started before the cut-off, and only those', async () => {
      const old = bucket('sign_in old');
      const fresh = bucket('sign_in fresh');
      await ctx.tx(async (tx) => {
        await tx.rateLimits.hit(old, 1_000);
        await tx.rateLimits.hit(fresh, 5_000_000_000_000);
      });
      const pruned = await ctx.tx((tx) => tx.rateLimits.prune(2_000));
      expect(pruned).toBeGreaterThanOrEqual(1);
      // The old bucket starts over; the fresh one kept its count.
      expect(await ctx.tx((tx) => tx.rateLimits.hit(old, 1_000))).toBe(1);
      expect(await ctx.tx((tx) => tx.rateLimits.hit(fresh, 5_000_000_000_000))).toBe(2);
    });
  });
}
