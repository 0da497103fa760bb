import { describe, expect, it } from 'vitest';
import type { Clock } from '../../ports/clock';
import type { RateLimitRepository, Repositories, Storage } from '../../ports/storage';
import { createRateLimiter, DEFAULT_RATE_LIMITS } from './rate-limiter';

/** Counters in a Map behind the one repository the limiter uses (its window arithmetic is the subject here; the SQL is covered by the storage conformance suite). */
function countersStorage() {
  const rows = new Map<string, { window_start: number; hits: number }>();
  const pruned: number[] = [];
  const rateLimits: RateLimitRepository = {
    async hit(bucket, window_start) {
      const row = rows.get(bucket);
      if (row === undefined || window_start > row.window_start) {
        rows.set(bucket, { window_start, hits: 1 });
        return 1;
      }
      row.hits += 1;
      return row.hits;
    },
    async peek(bucket, window_start) {
      const row = rows.get(bucket);
      return row !== undefined && row.window_start >= window_start ? row.hits : 0;
    },
    async prune(before) {
      pruned.push(before);
      let count = 0;
      for (const [key, row] of rows) {
        if (row.window_start < before) {
          rows.delete(key);
          count++;
        }
      }
      return count;
    },
  };
  const storage = {
    transaction: <T>(fn: (tx: Repositories) => Promise<T>) => fn({ rateLimits } as Repositories),
    read: <T>(fn: (tx: Repositories) => Promise<T>) => fn({ rateLimits } as Repositories),
  } as unknown as Storage;
  return { storage, rows, pruned };
}

function manualClock(start: number): Clock & { set(ms: number): void } {
  let now = start;
  return { now: () => now, set: (ms) => (now = ms) } as Clock & { set(ms: number): void };
}

const secret = { key_id: 'key_secret', key_type: 'secret' as const };
const publishable = { key_id: 'key_pub', key_type: 'publishable' as const };

describe('createRateLimiter', () => {
  it('uses the defaults unless told otherwise, and false turns everything off', async () => {
    const { storage } = countersStorage();
    const clock = manualClock(0);
    expect(createRateLimiter(storage, clock, undefined).policy).toEqual(DEFAULT_RATE_LIMITS);
    const off = createRateLimiter(storage, clock, false);
    expect(off.take(secret, '203.0.113.1')).toBeNull();
    expect(await off.count('failed_auth', '203.0.113.1')).toBeNull();
    const some = createRateLimiter(storage, clock, {
      sign_in: false,
      secret_key: { limit: 5, window_seconds: 1 },
    });
    expect(some.policy).toMatchObject({ sign_in: null, secret_key: { limit: 5, window_seconds: 1 } });
    expect(some.policy.order_lookup).toEqual(DEFAULT_RATE_LIMITS.order_lookup);
  });

  it('refuses an invalid option with a message that names it', () => {
    const { storage } = countersStorage();
    expect(() =>
      createRateLimiter(storage, manualClock(0), { secret_key: { limit: 0, window_seconds: 1 } }),
    ).toThrow(/Invalid rateLimits option: secret_key\.limit/);
    expect(() =>
      createRateLimiter(storage, manualClock(0), { everything: true } as unknown as Parameters<
        typeof createRateLimiter
      >[2]),
    ).toThrow(/Invalid rateLimits option/);
  });

  it('a secret key has one budget whatever the address; a publishable key one per address, none without one', () => {
    const { storage } = countersStorage();
    const limiter = createRateLimiter(storage, manualClock(0), {
      secret_key: { limit: 2, window_seconds: 60 },
      publishable_key: { limit: 1, window_seconds: 60 },
    });
    expect(limiter.take(secret, '203.0.113.1')?.allowed).toBe(true);
    expect(limiter.take(secret, '203.0.113.2')?.allowed).toBe(true);
    expect(limiter.take(secret, undefined)?.allowed).toBe(false);
    expect(limiter.take(publishable, '203.0.113.1')?.allowed).toBe(true);
    expect(limiter.take(publishable, '203.0.113.1')?.allowed).toBe(false);
    expect(limiter.take(publishable, '::ffff:203.0.113.2')?.allowed).toBe(true);
    expect(limiter.take(publishable, '203.0.113.2')?.allowed).toBe(false);
    expect(limiter.take(publishable, undefined)).toBeNull();
    expect(limiter.take(publishable, '')).toBeNull();
  });

  it('counts shared windows per limit and address, refuses past the limit until the window ends', async () => {
    const { storage, rows } = countersStorage();
    const clock = manualClock(120_000 + 15_000);
    const limiter = createRateLimiter(storage, clock, { failed_auth: { limit: 2, window_seconds: 60 } });
    expect(await limiter.count('failed_auth', '203.0.113.1')).toEqual({
      allowed: true,
      limit: 2,
      remaining: 1,
      reset_seconds: 45,
      retry_after_seconds: 0,
    });
    expect((await limiter.count('failed_auth', '203.0.113.1'))?.allowed).toBe(true);
    expect(await limiter.count('failed_auth', '203.0.113.1')).toMatchObject({
      allowed: false,
      retry_after_seconds: 45,
    });
    expect((await limiter.count('failed_auth', '203.0.113.9'))?.allowed).toBe(true);
    expect((await limiter.count('order_lookup', '203.0.113.1'))?.allowed).toBe(true);
    expect(await limiter.count('failed_auth', undefined)).toBeNull();
    expect([...rows.keys()].sort()).toEqual([
      'failed_auth 203.0.113.1',
      'failed_auth 203.0.113.9',
      'order_lookup 203.0.113.1',
    ]);
    clock.set(180_000);
    expect((await limiter.count('failed_auth', '203.0.113.1'))?.allowed).toBe(true);
  });

  it('counts a shared window per e-mail with the same budget, whatever the case or the address', async () => {
    const { storage, rows } = countersStorage();
    const clock = manualClock(60_000 + 20_000);
    const limiter = createRateLimiter(storage, clock, { sign_in: { limit: 2, window_seconds: 60 } });
    expect(await limiter.countSubject('sign_in', { email: 'Ada@Example.com' })).toEqual({
      allowed: true,
      limit: 2,
      remaining: 1,
      reset_seconds: 40,
      retry_after_seconds: 0,
    });
    expect((await limiter.countSubject('sign_in', { email: ' ada@example.COM ' }))?.allowed).toBe(true);
    expect(await limiter.countSubject('sign_in', { email: 'ada@example.com' })).toMatchObject({
      allowed: false,
      remaining: 0,
      retry_after_seconds: 40,
    });
    // Another e-mail, and the per-address window of the same limit, are counted apart.
    expect((await limiter.countSubject('sign_in', { email: 'bob@example.com' }))?.allowed).toBe(true);
    expect((await limiter.count('sign_in', '203.0.113.1'))?.remaining).toBe(1);
    expect([...rows.keys()].sort()).toEqual([
      'sign_in 203.0.113.1',
      'sign_in email:ada@example.com',
      'sign_in email:bob@example.com',
    ]);
    // The next window starts afresh.
    clock.set(120_000);
    expect((await limiter.countSubject('sign_in', { email: 'ada@example.com' }))?.remaining).toBe(1);
  });

  it('countSubject is off with its limit', async () => {
    const { storage, rows } = countersStorage();
    const clock = manualClock(0);
    expect(
      await createRateLimiter(storage, clock, { sign_in: false }).countSubject('sign_in', {
        email: 'a@b.co',
      }),
    ).toBeNull();
    expect(
      await createRateLimiter(storage, clock, false).countSubject('sign_in', { email: 'a@b.co' }),
    ).toBeNull();
    expect(rows.size).toBe(0);
  });

  it('counts an address subject by its canonical key, an e-mail within a scope apart from the same e-mail elsewhere', async () => {
    const { storage, rows } = countersStorage();
    const limiter = createRateLimiter(storage, manualClock(0), { sign_in: { limit: 2, window_seconds: 60 } });
    await limiter.countSubject('sign_in', { address: '203.000.113.007:4431' });
    expect((await limiter.count('sign_in', '::ffff:203.0.113.7'))?.remaining).toBe(0);
    expect(await limiter.countSubject('sign_in', { address: ' ' })).toBeNull();
    const scope = { store_id: 'store_1', mode: 'live' };
    await limiter.countSubject('sign_in', { email: 'Ada@Example.com', scope });
    expect(
      (await limiter.countSubject('sign_in', { email: 'ada@example.com', scope: { ...scope, mode: 'test' } }))
        ?.remaining,
    ).toBe(1);
    expect([...rows.keys()].sort()).toEqual([
      'sign_in 203.0.113.7',
      'sign_in email:store_1/live/ada@example.com',
      'sign_in email:store_1/test/ada@example.com',
    ]);
  });

  it('peekSubject tells whether one more request would pass, without counting it', async () => {
    const { storage, rows } = countersStorage();
    const clock = manualClock(60_000 + 15_000);
    const limiter = createRateLimiter(storage, clock, { sign_in: { limit: 2, window_seconds: 60 } });
    const subject = { email: 'ada@example.com' };
    expect(await limiter.peekSubject('sign_in', subject)).toEqual({
      allowed: true,
      limit: 2,
      remaining: 1,
      reset_seconds: 45,
      retry_after_seconds: 0,
    });
    expect(rows.size).toBe(0);
    await limiter.countSubject('sign_in', subject);
    expect((await limiter.peekSubject('sign_in', subject))?.allowed).toBe(true);
    await limiter.countSubject('sign_in', subject);
    // Two counted: the budget is spent, a third would be refused until the window ends.
    expect(await limiter.peekSubject('sign_in', subject)).toEqual({
      allowed: false,
      limit: 2,
      remaining: 0,
      reset_seconds: 45,
      retry_after_seconds: 45,
    });
    expect(await limiter.peekSubject('sign_in', subject)).toMatchObject({ allowed: false });
    expect(rows.get('sign_in email:ada@example.com')?.hits).toBe(2);
    expect((await limiter.peekSubject('sign_in', { address: '203.0.113.1' }))?.allowed).toBe(true);
    expect(await limiter.peekSubject('sign_in', { address: '' })).toBeNull();
    expect(await createRateLimiter(storage, clock, false).peekSubject('sign_in', subject)).toBeNull();
    clock.set(120_000);
    expect((await limiter.peekSubject('sign_in', subject))?.allowed).toBe(true);
  });

  it('password_reset defaults to 3 an hour and is a rule of its own', async () => {
    expect(DEFAULT_RATE_LIMITS.password_reset).toEqual({ limit: 3, window_seconds: 3600 });
    const { storage } = countersStorage();
    const limiter = createRateLimiter(storage, manualClock(0), { sign_in: false });
    const subject = { email: 'ada@example.com' };
    for (let i = 0; i < 3; i++)
      expect((await limiter.countSubject('password_reset', subject))?.allowed).toBe(true);
    expect(await limiter.countSubject('password_reset', subject)).toMatchObject({
      allowed: false,
      retry_after_seconds: 3600,
    });
    expect(await limiter.countSubject('sign_in', subject)).toBeNull();
    expect(
      createRateLimiter(storage, manualClock(0), { password_reset: false }).policy.password_reset,
    ).toBeNull();
  });

  it('prunes past windows at most every ten minutes, keeping two of the longest windows', async () => {
    const { storage, pruned } = countersStorage();
    const clock = manualClock(1_000_000);
    const limiter = createRateLimiter(storage, clock, { password_reset: false });
    await limiter.count('sign_in', '203.0.113.1');
    expect(pruned).toEqual([]);
    clock.set(1_000_000 + 10 * 60_000);
    await limiter.count('sign_in', '203.0.113.1');
    await limiter.count('sign_in', '203.0.113.1');
    expect(pruned).toEqual([1_000_000 + 10 * 60_000 - 120_000]);
  });
});
