import { describe, expect, it } from 'vitest';
import type { Clock } from '../ports/clock';
import type { RateLimitRepository, Repositories, Storage } from '../ports/storage';
import { CommerceError } from '../shared/errors/commerce-error';
import { createRateLimiter, type RateLimitDecision } from '../shared/rate-limits/rate-limiter';
import { createAttemptLimits } from './attempt-limits';

/** Counters in a Map behind the limiter (the SQL is the storage conformance suite's). */
function limiterOn(rules: Parameters<typeof createRateLimiter>[2]) {
  const rows = new Map<string, number>();
  const rateLimits: RateLimitRepository = {
    async hit(bucket) {
      rows.set(bucket, (rows.get(bucket) ?? 0) + 1);
      return rows.get(bucket) as number;
    },
    async peek(bucket) {
      return rows.get(bucket) ?? 0;
    },
    async prune() {
      return 0;
    },
  };
  const run = <T>(fn: (tx: Repositories) => Promise<T>) => fn({ rateLimits } as Repositories);
  const storage = { transaction: run, read: run } as unknown as Storage;
  const clock = { now: () => 0 } as Clock;
  return { limits: createAttemptLimits(createRateLimiter(storage, clock, rules)), rows };
}

const scope = { store_id: 'store_1', mode: 'test' as const };
const wrong = () => new CommerceError('invalid_credentials', 'Invalid e-mail or password');
const isWrong = (error: CommerceError) => error.code === 'invalid_credentials';

async function codeOf(promise: Promise<unknown>): Promise<string> {
  try {
    await promise;
    return 'ok';
  } catch (error) {
    return CommerceError.is(error) ? error.code : String(error);
  }
}

describe('createAttemptLimits', () => {
  it('counts only the errors that are failures, for the address and the e-mail, and nothing on success', async () => {
    const { limits, rows } = limiterOn({ sign_in: { limit: 2, window_seconds: 60 } });
    const origin = { address: '203.0.113.7' };
    expect(await limits.attempt(origin, scope, 'Ada@Example.com', isWrong, async () => 'signed in')).toBe(
      'signed in',
    );
    expect(
      await codeOf(
        limits.attempt(origin, scope, 'ada@example.com', isWrong, async () => {
          throw new CommerceError('customer_disabled', 'disabled');
        }),
      ),
    ).toBe('customer_disabled');
    expect(rows.size).toBe(0);
    expect(
      await codeOf(
        limits.attempt(origin, scope, 'ada@example.com', isWrong, async () => {
          throw wrong();
        }),
      ),
    ).toBe('invalid_credentials');
    expect(Object.fromEntries(rows)).toEqual({
      'sign_in 203.0.113.7': 1,
      'sign_in email:store_1/test/ada@example.com': 1,
    });
  });

  it('refuses before running once a budget is spent, and shows the refusing budget', async () => {
    const { limits } = limiterOn({ sign_in: { limit: 1, window_seconds: 60 } });
    const seen: RateLimitDecision[] = [];
    const origin = { address: '203.0.113.7', observe: (d: RateLimitDecision) => seen.push(d) };
    await codeOf(
      limits.attempt(origin, scope, 'ada@example.com', isWrong, async () => {
        throw wrong();
      }),
    );
    expect(seen).toEqual([
      { allowed: true, limit: 1, remaining: 0, reset_seconds: 60, retry_after_seconds: 0 },
    ]);
    let ran = false;
    const attempt = () =>
      limits.attempt({ ...origin, address: '198.51.100.1' }, scope, 'ada@example.com', isWrong, async () => {
        ran = true;
      });
    expect(await codeOf(attempt())).toBe('rate_limited');
    expect(ran).toBe(false);
    expect(seen.at(-1)).toMatchObject({ allowed: false, remaining: 0, retry_after_seconds: 60 });
    // Without an e-mail (a reset confirmation) only the address counts: this one is fresh.
    expect(
      await codeOf(limits.attempt({ address: '198.51.100.1' }, scope, undefined, isWrong, async () => 'ok')),
    ).toBe('ok');
  });

  it('without an origin, or with limits off, just runs', async () => {
    const off = limiterOn(false);
    for (let i = 0; i < 5; i++) {
      await codeOf(
        off.limits.attempt({ address: '203.0.113.7' }, scope, 'a@b.co', isWrong, async () => {
          throw wrong();
        }),
      );
    }
    expect(off.rows.size).toBe(0);
    const on = limiterOn({ sign_in: { limit: 1, window_seconds: 60 } });
    for (let i = 0; i < 5; i++) {
      expect(
        await codeOf(
          on.limits.attempt(undefined, scope, 'a@b.co', isWrong, async () => {
            throw wrong();
          }),
        ),
      ).toBe('invalid_credentials');
    }
    expect(on.rows.size).toBe(0);
    expect(await on.limits.resetRequestAllowed(undefined, scope, 'a@b.co')).toBe(true);
  });

  it('reset requests have their own per-e-mail budget, counted whatever the answer', async () => {
    const { limits, rows } = limiterOn({ password_reset: { limit: 2, window_seconds: 3600 } });
    const origin = { address: '203.0.113.7' };
    expect(await limits.resetRequestAllowed(origin, scope, 'Ada@example.com')).toBe(true);
    expect(await limits.resetRequestAllowed(origin, scope, 'ada@example.com')).toBe(true);
    expect(await limits.resetRequestAllowed(origin, scope, 'ada@example.com')).toBe(false);
    expect(Object.fromEntries(rows)).toEqual({ 'password_reset email:store_1/test/ada@example.com': 3 });
  });
});
