import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { startPollingLoop } from './polling-loop';

beforeEach(() => {
  vi.useFakeTimers();
});
afterEach(() => {
  vi.useRealTimers();
});

describe('startPollingLoop', () => {
  it('runs after the initial delay, again at once while busy, then after the interval', async () => {
    const answers = [true, true, false];
    const runs: number[] = [];
    const loop = startPollingLoop(
      async () => {
        runs.push(Date.now());
        return answers.shift() ?? false;
      },
      { intervalMs: 1000, initialDelayMs: 50, onError: () => undefined },
    );
    const start = Date.now();
    await vi.advanceTimersByTimeAsync(49);
    expect(runs).toHaveLength(0);
    await vi.advanceTimersByTimeAsync(11);
    // The first run was busy, and so was the second: two more at once (a 0 ms timer each).
    expect(runs).toHaveLength(3);
    expect(runs[0]! - start).toBe(50);
    expect(runs[2]! - start).toBeLessThanOrEqual(52);
    await vi.advanceTimersByTimeAsync(2000);
    // The third had nothing to do: the fourth waits the interval, and the fifth too.
    expect(runs.slice(3).map((at) => at - runs[2]!)).toEqual([1000, 2000]);
    await loop.stop();
  });

  it('reports a failing run to onError (a throwing hook included) and keeps going', async () => {
    const errors: unknown[] = [];
    let calls = 0;
    const loop = startPollingLoop(
      async () => {
        calls++;
        throw new Error(`run ${calls}`);
      },
      {
        intervalMs: 10,
        onError: (error) => {
          errors.push(error);
          throw new Error('the hook fails too');
        },
      },
    );
    await vi.advanceTimersByTimeAsync(25);
    expect(calls).toBe(3);
    expect(errors.map((e) => (e as Error).message)).toEqual(['run 1', 'run 2', 'run 3']);
    await loop.stop();
  });

  it('stop() waits for the run in flight, tells it through the signal, and schedules nothing more', async () => {
    let release: () => void = () => undefined;
    const seen: boolean[] = [];
    let calls = 0;
    const loop = startPollingLoop(
      async (signal) => {
        calls++;
        await new Promise<void>((resolve) => {
          release = resolve;
        });
        seen.push(signal.aborted);
        return true;
      },
      { intervalMs: 10, onError: () => undefined },
    );
    await vi.advanceTimersByTimeAsync(0);
    expect(calls).toBe(1);
    let stopped = false;
    const stopping = loop.stop().then(() => {
      stopped = true;
    });
    await vi.advanceTimersByTimeAsync(0);
    expect(stopped).toBe(false);
    release();
    await stopping;
    expect(seen).toEqual([true]);
    await vi.advanceTimersByTimeAsync(100);
    expect(calls).toBe(1);
  });
});
