import type { Millis } from './scope';

// Request counters shared by every process.

/**
 * Request counters shared by every process on the database (the strict per-address rate limits:
 * failed authentication, guest order look-ups, sign-in). Not scoped to a store: a client address
 * is the same client whatever store it probes.
 */
export interface RateLimitRepository {
  /**
   * Counts one request in `bucket`'s fixed window that starts at `window_start` (epoch ms) and
   * returns the requests counted in it so far, this one included — one atomic statement (an
   * upsert): a newer window starts the count over; a hit for an older window (a process whose
   * clock lags) counts in the newer one.
   */
  hit(bucket: string, window_start: Millis): Promise<number>;
  /**
   * The requests counted so far in `bucket`'s window that starts at `window_start`, without
   * counting one: 0 when the bucket has none, or only an older window's; a newer window's count
   * (a process whose clock lags) as `hit` would count into it.
   */
  peek(bucket: string, window_start: Millis): Promise<number>;
  /** Deletes the counters of windows that started before `before`; returns how many. */
  prune(before: Millis): Promise<number>;
}
