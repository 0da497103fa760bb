import BetterSqlite3 from 'better-sqlite3';
import pg from 'pg';

/**
 * Counts SQL statements sent by this process, for "statements per checkout" figures: wraps
 * better-sqlite3's statement methods and pg's `Client#query` (bench instrumentation only; the
 * storage adapters resolve the same driver modules as the bench, so they are counted too).
 * Installed once; read the counter before and after an operation.
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
