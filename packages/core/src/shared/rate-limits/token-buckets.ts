/**
 * Token buckets in process memory: a bucket holds at most `limit` tokens and refills at
 * `limit / window_seconds` tokens per second; a request takes one token or is refused. Bursts up to
 * `limit` pass at once, and the long-run rate is `limit` per window.
 *
 * Synchronous and allocation-free on the hot path (one Map lookup per request). Buckets that have
 * refilled completely hold no information and are dropped when the map grows past `maxBuckets`
 * (a sweep at most once per window; the oldest bucket goes when none has refilled), so a flood of
 * distinct client addresses cannot grow memory without bound.
 *
 * Why not rate-limiter-flexible's `RateLimiterMemory` (the well-kept library): it is a fixed
 * window, answers through a promise that rejects when limited, and keeps a timer per key; measured
 * on this project's machine (1,000 keys, 1 M calls, same minutes) it took 1.0–2.3 µs per request
 * against 0.18–0.29 µs here, on the path every request takes.
 */
export interface RateLimitRule {
  /** Requests allowed per window (the bucket's size: also the largest burst). */
  limit: number;
  /** The window in seconds: the bucket refills `limit` tokens over this time. */
  window_seconds: number;
}

/** What a limiter decided for one request; the numbers behind the `RateLimit-*` headers. */
export interface RateLimitDecision {
  allowed: boolean;
  limit: number;
  /** Requests left right now (after this one). */
  remaining: number;
  /** Seconds until the budget is whole again (`RateLimit-Reset`). */
  reset_seconds: number;
  /** When refused: seconds until a request would pass again (`Retry-After`), else 0. */
  retry_after_seconds: number;
}

const EPSILON = 1e-9;

interface Bucket {
  tokens: number;
  at: number;
}

export interface TokenBuckets {
  /** Takes one token from the bucket `key` at `now` (epoch ms). */
  take(key: string, now: number): RateLimitDecision;
  readonly size: number;
}

export function createTokenBuckets(rule: RateLimitRule, maxBuckets = 100_000): TokenBuckets {
  const { limit } = rule;
  const perMs = limit / (rule.window_seconds * 1000);
  const buckets = new Map<string, Bucket>();
  let sweptAt = 0;

  const sweep = (now: number) => {
    if (now - sweptAt < rule.window_seconds * 1000) return;
    sweptAt = now;
    for (const [key, bucket] of buckets) {
      if (bucket.tokens + (now - bucket.at) * perMs >= limit) buckets.delete(key);
    }
  };

  return {
    take(key, now) {
      let bucket = buckets.get(key);
      if (bucket === undefined) {
        if (buckets.size >= maxBuckets) {
          sweep(now);
          // Still full: forget the oldest bucket (a forgotten bucket starts over full).
          if (buckets.size >= maxBuckets) buckets.delete(buckets.keys().next().value as string);
        }
        bucket = { tokens: limit, at: now };
        buckets.set(key, bucket);
      } else if (now > bucket.at) {
        bucket.tokens = Math.min(limit, bucket.tokens + (now - bucket.at) * perMs);
        bucket.at = now;
      }
      // Tokens refill in floating point: a whole token may come out as 0.9999999999.
      const allowed = bucket.tokens >= 1 - EPSILON;
      if (allowed) bucket.tokens = Math.max(0, bucket.tokens - 1);
      return {
        allowed,
        limit,
        remaining: Math.floor(bucket.tokens),
        reset_seconds: Math.ceil((limit - bucket.tokens) / perMs / 1000),
        retry_after_seconds: allowed ? 0 : Math.max(1, Math.ceil((1 - bucket.tokens) / perMs / 1000)),
      };
    },
    get size() {
      return buckets.size;
    },
  };
}

/**
 * The decision of a fixed window that has counted `hits` requests (this one included) and ends
 * at `window_end` (epoch ms) — the shape of the database-backed counters.
 */
export function windowDecision(
  rule: RateLimitRule,
  hits: number,
  window_end: number,
  now: number,
): RateLimitDecision {
  const allowed = hits <= rule.limit;
  const reset = Math.max(1, Math.ceil((window_end - now) / 1000));
  return {
    allowed,
    limit: rule.limit,
    remaining: Math.max(0, rule.limit - hits),
    reset_seconds: reset,
    retry_after_seconds: allowed ? 0 : reset,
  };
}
