/** Options of {@link startPollingLoop}. */
export interface PollingLoopOptions {
  /** Pause between runs when the last one had nothing (more) to do. */
  intervalMs: number;
  /** Pause before the first run (default 0). */
  initialDelayMs?: number;
  /** Called when a run throws (e.g. the database is unreachable); the loop keeps going. */
  onError: (error: unknown) => void;
  /** Whether the loop's timer keeps the process alive (default true). */
  keepAlive?: boolean;
}

/** A running {@link startPollingLoop}. */
export interface PollingLoop {
  /** Stops scheduling and resolves once the run in flight (if any) is done. */
  stop(): Promise<void>;
}

/**
 * Runs `tick` again and again, one run at a time: at once after a run that reports it is busy
 * (`true`: a full batch, there may be more), else after `intervalMs`. A run that throws is
 * reported to `onError` (a throwing hook is ignored) and the loop goes on. `tick` receives the
 * loop's abort signal, so a long run can stop early on `stop()`.
 */
export function startPollingLoop(
  tick: (signal: { readonly aborted: boolean }) => Promise<boolean>,
  options: PollingLoopOptions,
): PollingLoop {
  const intervalMs = Math.max(1, options.intervalMs);
  const signal = { aborted: false };
  let timer: ReturnType<typeof setTimeout> | undefined;
  let running: Promise<void> | undefined;

  async function run(): Promise<void> {
    let busy = false;
    try {
      busy = await tick(signal);
    } catch (error) {
      try {
        options.onError(error);
      } catch {
        // A failing error hook must not stop the loop.
      }
    }
    if (!signal.aborted) schedule(busy ? 0 : intervalMs);
  }

  function schedule(delay: number): void {
    timer = setTimeout(() => {
      timer = undefined;
      running = run().finally(() => {
        running = undefined;
      });
    }, delay);
    if (options.keepAlive === false) timer.unref?.();
  }

  schedule(Math.max(0, options.initialDelayMs ?? 0));
  return {
    async stop() {
      signal.aborted = true;
      if (timer !== undefined) clearTimeout(timer);
      timer = undefined;
      await running;
    },
  };
}
