/** Where the engine reads the time. Tests inject a fake clock; production uses `systemClock`. */
export interface Clock {
  /** Current time in epoch milliseconds. */
  now(): number;
}

export const systemClock: Clock = { now: () => Date.now() };
