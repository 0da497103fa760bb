import { describe, expect, test } from 'vitest';
import { afterAttempt, attemptError, firstAttemptAt, isSuccessStatus, maxAttempts } from './retry-schedule';

const DELAYS = [0, 300, 1800, 7200, 86400];
const MIN = 60_000;

describe('retry schedule (decisions §14)', () => {
  test('attempts at 0, +5 min, +30 min, +2 h, +24 h, each counted from the attempt before', () => {
    const t0 = Date.UTC(2024, 0, 1);
    const times = [firstAttemptAt(t0, DELAYS)];
    for (let attempt = 1; attempt <= 5; attempt++) {
      const next = afterAttempt(attempt, false, times[attempt - 1] as number, DELAYS);
      if (next.next_attempt_at !== null) times.push(next.next_attempt_at);
    }
    expect(times.map((t) => (t - t0) / MIN)).toEqual([0, 5, 35, 155, 1595]);
  });

  test('the 5th failure ends the delivery as failed with no next attempt', () => {
    expect(afterAttempt(4, false, 0, DELAYS)).toEqual({ status: 'pending', next_attempt_at: 86_400_000 });
    expect(afterAttempt(5, false, 0, DELAYS)).toEqual({ status: 'failed', next_attempt_at: null });
    expect(maxAttempts(DELAYS)).toBe(5);
  });

  test('a success ends the delivery whatever the attempt', () => {
    expect(afterAttempt(1, true, 1000, DELAYS)).toEqual({ status: 'succeeded', next_attempt_at: null });
    expect(afterAttempt(5, true, 1000, DELAYS)).toEqual({ status: 'succeeded', next_attempt_at: null });
  });

  test('a configured schedule of 3 delays (1,2,3 s) allows 3 attempts', () => {
    expect(firstAttemptAt(10_000, [1, 2, 3])).toBe(11_000);
    expect(afterAttempt(1, false, 11_000, [1, 2, 3])).toEqual({ status: 'pending', next_attempt_at: 13_000 });
    expect(afterAttempt(2, false, 13_000, [1, 2, 3])).toEqual({ status: 'pending', next_attempt_at: 16_000 });
    expect(afterAttempt(3, false, 16_000, [1, 2, 3])).toEqual({ status: 'failed', next_attempt_at: null });
  });

  test('2xx is success; 1xx, 3xx, 4xx, 5xx and no response are failures', () => {
    expect([200, 201, 204, 299].map(isSuccessStatus)).toEqual([true, true, true, true]);
    expect([null, 100, 199, 300, 302, 400, 404, 500, 503].map(isSuccessStatus)).toEqual(Array(9).fill(false));
  });

  test('attempt errors describe what went wrong', () => {
    expect(attemptError(200, null)).toBeNull();
    expect(attemptError(302, null)).toBe('HTTP 302: redirects are not followed');
    expect(attemptError(500, null)).toBe('HTTP 500');
    expect(attemptError(null, 'timed out after 10000 ms')).toBe('timed out after 10000 ms');
    expect(attemptError(null, null)).toBe('no response');
  });
});
