import type BetterSqlite3 from 'better-sqlite3';

/**
 * Pages a file database's write-ahead log may hold before a commit checkpoints it into the
 * database file (SQLite's default is 1,000). A checkout writes about 46 pages, most of them the
 * same hot pages (stock rows, the order counter, the right edges of the order and event indexes),
 * and a checkpoint copies only each page's newest version: at 10,000 pages (about 40 MiB of WAL
 * with 4 KiB pages) a checkpoint comes every ~220 checkouts instead of every ~22, copies far
 * fewer pages per order, and syncs the file ten times less often. Measured in process on a
 * file: mean checkout 2.2 → 1.5 ms, p99 18–20 → 4 ms; the rarer, larger checkpoints lengthen
 * the far tail (p99.9 42–48 → 75–84 ms). docs/benchmarks-before-after.md, seventh round.
 */
export const WAL_AUTOCHECKPOINT_PAGES = 10_000;

export interface SqliteConnectionSettings {
  /** `:memory:` (no WAL: an in-memory database keeps its journal in memory). */
  memory: boolean;
  busyTimeoutMs: number;
}

/**
 * Sets up one better-sqlite3 connection of a storage: `busy_timeout`, WAL with a larger
 * auto-checkpoint for files, `synchronous = NORMAL` (a commit is durable across a crash of the
 * process; across a power cut only once the log is synced, at the next checkpoint or the
 * operating system's write-back), foreign keys on.
 */
export function configureConnection(raw: BetterSqlite3.Database, settings: SqliteConnectionSettings): void {
  raw.pragma(`busy_timeout = ${Math.trunc(settings.busyTimeoutMs)}`);
  if (!settings.memory) {
    raw.pragma('journal_mode = WAL');
    raw.pragma(`wal_autocheckpoint = ${WAL_AUTOCHECKPOINT_PAGES}`);
  }
  raw.pragma('synchronous = NORMAL');
  raw.pragma('foreign_keys = ON');
}
