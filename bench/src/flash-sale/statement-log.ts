/**
 * A log of the SQL statements this process sends, by text, for the flash-sale benchmark's trace
 * of a refusal (which statements a sold-out checkout runs, and whether any of them writes). Runs
 * inside the server under test (server-process.ts, command `sql-log on|off`), loaded only when
 * that command is first given, so that no other benchmark's server carries it.
 *
 * It wraps better-sqlite3's statement methods (`run` reports the rows it changed — SQLite's
 * `changes()`, counted even when the transaction later rolls back) and pg's `Client#query` (the
 * storage adapters resolve the same driver modules as this file, by absolute path in the bundle).
 */
export interface LoggedStatement {
  sql: string;
  count: number;
  /** Rows changed (SQLite `run()` only; null where the driver does not say). */
  changes: number | null;
}

export interface StatementLog {
  statements: LoggedStatement[];
  total: number;
}

let installed = false;
let on = false;
const seen = new Map<string, LoggedStatement>();

function record(sql: unknown, changes: number | null): void {
  if (!on) return;
  const text = String(sql).replace(/\s+/g, ' ').trim().slice(0, 500);
  let entry = seen.get(text);
  if (!entry) {
    entry = { sql: text, count: 0, changes: null };
    seen.set(text, entry);
  }
  entry.count++;
  if (changes !== null) entry.changes = (entry.changes ?? 0) + changes;
}

async function install(): Promise<void> {
  if (installed) return;
  installed = true;
  try {
    const { default: BetterSqlite3 } = await import('better-sqlite3');
    const probe = new BetterSqlite3(':memory:');
    const proto = Object.getPrototypeOf(probe.prepare('select 1')) as Record<string, unknown>;
    probe.close();
    for (const method of ['all', 'get', 'run', 'iterate']) {
      const original = proto[method] as (...args: unknown[]) => unknown;
      proto[method] = function (this: { source: string }, ...args: unknown[]) {
        const result = original.apply(this, args);
        record(this.source, method === 'run' ? ((result as { changes?: number }).changes ?? 0) : null);
        return result;
      };
    }
  } catch {
    // no SQLite driver here
  }
  try {
    const { default: pg } = await import('pg');
    const clientProto = pg.Client.prototype as unknown as Record<string, unknown>;
    const query = clientProto.query as (...args: unknown[]) => unknown;
    clientProto.query = function (this: unknown, ...args: unknown[]) {
      const first = args[0] as string | { text?: string } | undefined;
      record(typeof first === 'string' ? first : first?.text, null);
      return query.apply(this, args);
    };
  } catch {
    // no PostgreSQL driver here
  }
}

/** Starts logging (from an empty log). */
export async function startStatementLog(): Promise<void> {
  await install();
  seen.clear();
  on = true;
}

/** Stops logging and returns what was sent, most frequent first. */
export function stopStatementLog(): StatementLog {
  on = false;
  const statements = [...seen.values()].sort((a, b) => b.count - a.count);
  seen.clear();
  return { statements, total: statements.reduce((sum, s) => sum + s.count, 0) };
}
