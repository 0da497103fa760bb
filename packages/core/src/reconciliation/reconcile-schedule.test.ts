import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import type { ReconcileOptions, ReconcileReport, ReconcileResult } from './payment-reconciliation';
import { RECONCILE_DEFAULTS, startReconcileSchedule } from './reconcile-schedule';

beforeEach(() => {
  vi.useFakeTimers();
});
afterEach(() => {
  vi.useRealTimers();
});

function result(id: string): ReconcileResult {
  return {
    payment_id: id,
    store_id: 'store_1',
    mode: 'test',
    provider: 'stripe',
    outcome: 'order_created',
    order_id: `ord_${id}`,
  } as ReconcileResult;
}

function report(acted: number): ReconcileReport {
  return {
    checked: acted,
    results: Array.from({ length: acted }, (_, i) => result(`pay_${i}`)),
    refunds: [],
  };
}

describe('startReconcileSchedule', () => {
  it('asks with the age threshold and limit, reports runs that acted, and runs again at once after a full run', async () => {
    const asked: ReconcileOptions[] = [];
    const reports: ReconcileReport[] = [];
    const acted = [2, 0, 1];
    const loop = startReconcileSchedule(
      async (options) => {
        asked.push(options);
        return report(acted.shift() ?? 0);
      },
      { intervalMs: 1000, olderThanMs: 5000, limit: 2, onReport: (r) => reports.push(r) },
    );
    await vi.advanceTimersByTimeAsync(1000); // first run within min(interval, 5 s); full → second at once
    await vi.advanceTimersByTimeAsync(0);
    expect(asked).toEqual([
      { olderThanMs: 5000, limit: 2 },
      { olderThanMs: 5000, limit: 2 },
    ]);
    expect(reports.map((r) => r.results.length)).toEqual([2]);
    await vi.advanceTimersByTimeAsync(1000);
    expect(asked).toHaveLength(3);
    expect(reports.map((r) => r.results.length)).toEqual([2, 1]);
    await loop.stop();
  });

  it('defaults: every 30 s, attempts older than 2 min, 100 per run; a failing run goes to onError', async () => {
    expect(RECONCILE_DEFAULTS).toEqual({ intervalMs: 30_000, olderThanMs: 120_000, limit: 100 });
    const asked: ReconcileOptions[] = [];
    const errors: unknown[] = [];
    const loop = startReconcileSchedule(
      async (options) => {
        asked.push(options);
        throw new Error('database unreachable');
      },
      { onError: (error) => errors.push(error) },
    );
    await vi.advanceTimersByTimeAsync(5_000);
    expect(asked).toEqual([{ olderThanMs: 120_000, limit: 100 }]);
    await vi.advanceTimersByTimeAsync(30_000);
    expect(asked).toHaveLength(2);
    expect(errors).toHaveLength(2);
    await loop.stop();
  });
});
