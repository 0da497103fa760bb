import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { createTokenBuckets, windowDecision } from './token-buckets';

describe('createTokenBuckets', () => {
  it('passes a burst of `limit` at once, then refuses with Retry-After until a token refills', () => {
    const buckets = createTokenBuckets({ limit: 3, window_seconds: 30 }); // one token per 10 s
    const at = 1_000_000;
    expect([1, 2, 3].map(() => buckets.take('k', at).allowed)).toEqual([true, true, true]);
    const refused = buckets.take('k', at);
    expect(refused).toEqual({
      allowed: false,
      limit: 3,
      remaining: 0,
      reset_seconds: 30,
      retry_after_seconds: 10,
    });
    expect(buckets.take('k', at + 9_999).allowed).toBe(false);
    const again = buckets.take('k', at + 10_000);
    expect(again).toMatchObject({ allowed: true, remaining: 0 });
  });

  it('counts each key apart and reports what is left and when the budget is whole again', () => {
    const buckets = createTokenBuckets({ limit: 10, window_seconds: 10 });
    expect(buckets.take('a', 0)).toEqual({
      allowed: true,
      limit: 10,
      remaining: 9,
      reset_seconds: 1,
      retry_after_seconds: 0,
    });
    expect(buckets.take('b', 0).remaining).toBe(9);
    expect(buckets.take('a', 0).remaining).toBe(8);
    // Refills continuously, never past the limit.
    expect(buckets.take('a', 60_000).remaining).toBe(9);
  });

  it('never admits more than limit + rate × elapsed in any stretch of time (property)', () => {
    fc.assert(
      fc.property(
        fc.integer({ min: 1, max: 20 }),
        fc.integer({ min: 1, max: 30 }),
        fc.array(fc.integer({ min: 0, max: 5_000 }), { minLength: 1, maxLength: 300 }),
        (limit, windowSeconds, gaps) => {
          const buckets = createTokenBuckets({ limit, window_seconds: windowSeconds });
          const admitted: number[] = [];
          let now = 0;
          for (const gap of gaps) {
            now += gap;
            const decision = buckets.take('key', now);
            if (decision.allowed) admitted.push(now);
            expect(decision.remaining).toBeGreaterThanOrEqual(0);
            expect(decision.remaining).toBeLessThanOrEqual(limit);
            expect(decision.retry_after_seconds > 0).toBe(!decision.allowed);
          }
          const perMs = limit / (windowSeconds * 1000);
          for (let i = 0; i < admitted.length; i++) {
            for (let j = i; j < admitted.length; j++) {
              const count = j - i + 1;
              const elapsed = (admitted[j] as number) - (admitted[i] as number);
              expect(count).toBeLessThanOrEqual(limit + elapsed * perMs + 1e-9);
            }
          }
        },
      ),
    );
  });

  it('a request refused for Retry-After seconds passes once they are over (property)', () => {
    fc.assert(
      fc.property(
        fc.integer({ min: 1, max: 50 }),
        fc.integer({ min: 1, max: 120 }),
        (limit, windowSeconds) => {
          const buckets = createTokenBuckets({ limit, window_seconds: windowSeconds });
          for (let i = 0; i < limit; i++) buckets.take('k', 0);
          const refused = buckets.take('k', 0);
          expect(refused.allowed).toBe(false);
          expect(buckets.take('k', refused.retry_after_seconds * 1000).allowed).toBe(true);
        },
      ),
    );
  });

  it('keeps at most maxBuckets buckets: full ones are swept, else the oldest goes', () => {
    const buckets = createTokenBuckets({ limit: 2, window_seconds: 1 }, 3);
    buckets.take('a', 0);
    buckets.take('b', 0);
    buckets.take('c', 0);
    expect(buckets.size).toBe(3);
    // 5 s later every bucket has refilled: the sweep drops them all before adding `d`.
    buckets.take('d', 5_000);
    expect(buckets.size).toBe(1);
    buckets.take('e', 5_000);
    buckets.take('f', 5_000);
    // Nothing refilled and the last sweep was just now: the oldest (`d`) is forgotten.
    buckets.take('g', 5_000);
    expect(buckets.size).toBe(3);
    expect(buckets.take('d', 5_000).remaining).toBe(1);
  });
});

describe('windowDecision', () => {
  it('allows up to the limit and then refuses until the window ends', () => {
    const rule = { limit: 2, window_seconds: 60 };
    expect(windowDecision(rule, 1, 60_000, 30_000)).toEqual({
      allowed: true,
      limit: 2,
      remaining: 1,
      reset_seconds: 30,
      retry_after_seconds: 0,
    });
    expect(windowDecision(rule, 3, 60_000, 59_500)).toEqual({
      allowed: false,
      limit: 2,
      remaining: 0,
      reset_seconds: 1,
      retry_after_seconds: 1,
    });
  });
});
