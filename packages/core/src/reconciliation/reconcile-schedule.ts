import { type PollingLoop, startPollingLoop } from '../shared/scheduling/polling-loop';
import type { ReconcileOptions, ReconcileReport } from './payment-reconciliation';

/** Options of `engine.payments.startReconciler`. */
export interface ReconcilerOptions {
  /** Pause between runs when the last one acted on less than `limit` payments. Default 30 000 ms. */
  intervalMs?: number;
  /**
   * Only attempts and refunds at least this old are settled, so requests still waiting for the
   * provider finish by themselves first. Default 120 000 ms: above a Stripe call's worst case
   * (30 s timeout, one retry) with room to spare. Settling one still in flight is safe anyway
   * (both paths take the cart's lock; the first settles it).
   */
  olderThanMs?: number;
  /** Payments (and refunds) acted on per run; a full run is followed by another at once. Default 100. */
  limit?: number;
  /** Called after every run that acted on something (for logs). */
  onReport?: (report: ReconcileReport) => void;
  /** Called when a run fails as a whole (e.g. the database is unreachable); the loop goes on. */
  onError?: (error: unknown) => void;
}

export const RECONCILE_DEFAULTS = Object.freeze({ intervalMs: 30_000, olderThanMs: 120_000, limit: 100 });

/**
 * Reconciliation on a schedule (`cartwright serve` and `worker` run it by default): a crash between
 * the provider taking the money and the order being written heals by itself — the order appears
 * (or the money goes back) within `olderThanMs + intervalMs`, with nobody running `reconcile`.
 * Several processes may run it on one database: every settlement takes the cart's (or order's)
 * lock and re-checks the attempt, so a payment settled by one is passed over by the others. The
 * first run comes after a random part of the first interval (at most 5 s), so processes started
 * together do not all ask the provider at the same moment.
 */
export function startReconcileSchedule(
  reconcile: (options: ReconcileOptions) => Promise<ReconcileReport>,
  options: ReconcilerOptions = {},
): PollingLoop {
  const intervalMs = options.intervalMs ?? RECONCILE_DEFAULTS.intervalMs;
  const olderThanMs = options.olderThanMs ?? RECONCILE_DEFAULTS.olderThanMs;
  const limit = options.limit ?? RECONCILE_DEFAULTS.limit;
  const onError =
    options.onError ?? ((error: unknown) => console.error('[cartwright] reconciliation:', error));
  return startPollingLoop(
    async () => {
      const report = await reconcile({ olderThanMs, limit });
      const acted = report.results.length + report.refunds.length;
      if (acted > 0) options.onReport?.(report);
      return report.results.length >= limit || report.refunds.length >= limit;
    },
    { intervalMs, initialDelayMs: Math.floor(Math.random() * Math.min(intervalMs, 5_000)), onError },
  );
}
