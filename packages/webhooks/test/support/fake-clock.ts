import type { Clock } from '@cartwright/core/providers';

/** A clock the test moves by hand. */
export interface FakeClock extends Clock {
  set(ms: number): void;
  advance(ms: number): void;
}

export function createFakeClock(start = Date.UTC(2024, 0, 1, 9, 0, 0)): FakeClock {
  let now = start;
  return {
    now: () => now,
    set(ms) {
      now = ms;
    },
    advance(ms) {
      now += ms;
    },
  };
}
