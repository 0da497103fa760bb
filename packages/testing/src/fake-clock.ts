import type { Clock } from '@cartwright/core/providers';
import { type Duration, parseDuration } from './duration';

/** Where every test engine's clock starts unless told otherwise: 2025-01-01T00:00:00.000Z. */
export const DEFAULT_TEST_TIME = Date.UTC(2025, 0, 1);

/** A point in time as tests like to write it. */
export type TimeInput = Date | number | string;

/**
 * A clock that only moves when told to. The engine reads it for every `created_at`, expiry and
 * time window, so tests of time rules (discount windows, token expiry, idempotency TTL, webhook
 * retry delays) never sleep.
 */
export interface FakeClock extends Clock {
  /** The current time in epoch milliseconds. */
  now(): number;
  /** The current time as a `Date`. */
  date(): Date;
  /** Moves time forward (`'25h'`, `'30m'`, `'1h30m'`, or ms) and returns the new time. */
  advance(by: Duration): number;
  /** Jumps to a point in time, forward or back, and returns it. */
  set(to: TimeInput): number;
}

/** Epoch milliseconds of a {@link TimeInput}; an unparseable string or invalid date throws a `RangeError`. */
export function toEpochMs(value: TimeInput): number {
  const ms = value instanceof Date ? value.getTime() : typeof value === 'number' ? value : Date.parse(value);
  if (!Number.isFinite(ms)) throw new RangeError(`Not a point in time: ${String(value)}`);
  return ms;
}

/** Creates a {@link FakeClock} frozen at `start` (default {@link DEFAULT_TEST_TIME}). */
export function createFakeClock(start: TimeInput = DEFAULT_TEST_TIME): FakeClock {
  let current = toEpochMs(start);
  return {
    now: () => current,
    date: () => new Date(current),
    advance(by) {
      current += parseDuration(by);
      return current;
    },
    set(to) {
      current = toEpochMs(to);
      return current;
    },
  };
}
