import BetterSqlite3 from 'better-sqlite3';
import pg from 'pg';

/**
 * Counts SQL statements sent by this process, for "statements per checkout" figures: wraps
 * better-sqlite3's statement methods and pg's `Client#query` (bench instrumentation only; the
 * storage adapters resolve the same driver modules as the bench, so they are counted too).
 * Installed once; read the counter before and after an operation.
 *
 * The HTTP benchmarks' server process counts too when started with `BENCH_COUNT_STATEMENTS=1`
 * ({@link queryCounterFromEnv}); its `stats` command then reports the count (SQLite has no round
 * trips: each statement is a call into the library, reported as one "round trip" per statement).
 */
let installed = false;
let statements = 0;

export function installQueryCounter(): { count(): number } {
  if (!installed) {
    installed = true;
    const probe = new BetterSqlite3(':memory:');
    const statementProto = Object.getPrototypeOf(probe.prepare('select 1')) as Record<string, unknown>;
    probe.close();
    for (const method of ['all', 'get', 'run', 'iterate']) {
      const original = statementProto[method] as (...args: unknown[]) => unknown;
      statementProto[method] = function (this: unknown, ...args: unknown[]) {
        statements++;
        return original.apply(this, args);
      };
    }
    const clientProto = pg.Client.prototype as unknown as Record<string, unknown>;
    const query = clientProto.query as (...args: unknown[]) => unknown;
    clientProto.query = function (this: unknown, ...args: unknown[]) {
      statements++;
      return query.apply(this, args);
    };
  }
  return { count: () => statements };
}

/** The environment variable that makes the bench's server process count its statements. */
export const COUNT_STATEMENTS_ENV = 'BENCH_COUNT_STATEMENTS';

/** The counter when `BENCH_COUNT_STATEMENTS=1` is set, else null (nothing is wrapped). */
export function queryCounterFromEnv(): { count(): number } | null {
  return process.env[COUNT_STATEMENTS_ENV] === '1' ? installQueryCounter() : null;
}

/** What the server process's `stats` reports as `storage` (see http/server-process.ts). */
export interface StorageTraffic {
  statements: number;
  round_trips: number;
  /** `storage`: the storage's own `stats()`; `driver`: this counter (round trips = statements). */
  source: 'storage' | 'driver';
}

/** Statements and round trips between two server stats, or null when the server does not count. */
export function trafficBetween(
  before: { storage?: StorageTraffic | null },
  after: { storage?: StorageTraffic | null },
): StorageTraffic | null {
  if (!before.storage || !after.storage) return null;
  return {
    statements: after.storage.statements - before.storage.statements,
    round_trips: after.storage.round_trips - before.storage.round_trips,
    source: after.storage.source,
  };
}
