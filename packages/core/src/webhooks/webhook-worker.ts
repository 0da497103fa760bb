import { startPollingLoop } from '../shared/scheduling/polling-loop';
import type { DeliverDueOptions, DeliverDueResult, WebhookAttemptReport } from './webhook-dispatcher';

export interface WebhookWorkerOptions {
  /** Pause between polls when there was nothing (more) to do; default 1000 ms. */
  intervalMs?: number;
  /** Lease holder id; give each process its own (default: one per engine). */
  workerId?: string;
  /** Deliveries per batch (see `deliverDue`); default 25. */
  limit?: number;
  /** Called when a batch fails (e.g. the database is unreachable); the loop keeps going. */
  onError?: (error: unknown) => void;
  /** Called once per attempt sent, after it is recorded (e.g. one log line per attempt). */
  onAttempt?: (attempt: WebhookAttemptReport) => void;
}

export interface WebhookWorker {
  readonly workerId: string | undefined;
  /**
   * Stops polling and resolves once the batch in flight is done: attempts already sent are
   * recorded, claimed deliveries not yet sent are released for other workers.
   */
  stop(): Promise<void>;
}

/**
 * The in-process delivery loop (`cartwright serve` and `cartwright worker`): calls `deliverDue`,
 * again at once while batches come back full, else after `intervalMs`. One batch at a time per
 * worker; run several workers (processes) for more throughput — leases keep them apart. The
 * timer is not `unref`'d: a worker keeps its process alive until `stop()`.
 */
export function startWebhookWorker(
  deliverDue: (options: DeliverDueOptions) => Promise<DeliverDueResult>,
  options: WebhookWorkerOptions = {},
): WebhookWorker {
  const limit = options.limit ?? 25;
  const loop = startPollingLoop(
    async (signal) => {
      const result = await deliverDue({
        limit,
        signal,
        ...(options.workerId !== undefined && { workerId: options.workerId }),
        ...(options.onAttempt !== undefined && { onAttempt: options.onAttempt }),
      });
      return result.claimed >= limit;
    },
    {
      intervalMs: options.intervalMs ?? 1000,
      onError: options.onError ?? ((error: unknown) => console.error('[cartwright] webhook worker:', error)),
    },
  );
  return { workerId: options.workerId, stop: () => loop.stop() };
}
