import type { WebhookDeliveryStatus } from './vocabulary';

/**
 * The retry policy of docs/contract.md#webhook-delivery as pure functions. `delays` are the seconds before attempts
 * 1..n (default `0,300,1800,7200,86400`, `COMMERCE_WEBHOOK_RETRY_DELAYS`): attempt 1 goes out
 * `delays[0]` after the event, and each later attempt `delays[k]` after the attempt before it —
 * so by default at 0, +5 min, +30 min, +2 h, +24 h. A delivery makes at most `delays.length`
 * attempts (5 by default); then it is `failed`.
 */

/** Consecutive failed attempts (over all deliveries of a webhook) that deactivate it. */
export const DEACTIVATION_THRESHOLD = 5;

/** When the first attempt of a delivery created at `createdAt` is due. */
export function firstAttemptAt(createdAt: number, delays: readonly number[]): number {
  return createdAt + (delays[0] ?? 0) * 1000;
}

export interface AttemptOutcome {
  status: WebhookDeliveryStatus;
  /** Epoch ms of the next attempt, or null when none follows. */
  next_attempt_at: number | null;
}

/**
 * What follows attempt number `attempt` (1-based), made at `attemptedAt`:
 * success → `succeeded`; failure with attempts left → `pending` at `attemptedAt + delays[attempt]`;
 * the last failure → `failed`.
 *
 * @example afterAttempt(1, false, t, [0, 300, 1800, 7200, 86400]) → { status: 'pending', next_attempt_at: t + 300_000 }
 * @example afterAttempt(5, false, t, [0, 300, 1800, 7200, 86400]) → { status: 'failed', next_attempt_at: null }
 */
export function afterAttempt(
  attempt: number,
  succeeded: boolean,
  attemptedAt: number,
  delays: readonly number[],
): AttemptOutcome {
  if (succeeded) return { status: 'succeeded', next_attempt_at: null };
  const delay = delays[attempt];
  if (attempt >= maxAttempts(delays) || delay === undefined)
    return { status: 'failed', next_attempt_at: null };
  return { status: 'pending', next_attempt_at: attemptedAt + delay * 1000 };
}

/** Attempts a delivery may make: one per configured delay (at least one). */
export function maxAttempts(delays: readonly number[]): number {
  return Math.max(1, delays.length);
}

/** Whether a response status counts as delivered (docs/contract.md#webhook-delivery: 2xx). */
export function isSuccessStatus(status: number | null): boolean {
  return status !== null && status >= 200 && status < 300;
}

/** The `error` recorded for an attempt: the transport's, or a description of a non-2xx status. */
export function attemptError(status: number | null, transportError: string | null): string | null {
  if (transportError !== null) return transportError;
  if (status === null) return 'no response';
  if (isSuccessStatus(status)) return null;
  if (status >= 300 && status < 400) return `HTTP ${status}: redirects are not followed`;
  return `HTTP ${status}`;
}
