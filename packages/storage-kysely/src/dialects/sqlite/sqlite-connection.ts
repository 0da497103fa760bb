import type BetterSqlite3 from 'better-sqlite3';

/**
 * Pages a file database's write-ahead log may hold before a commit checkpoints it into the
 * database file (SQLite's default is 1,000). A checkout writes about 25 pages, most of them the
 * same hot pages (stock rows, the order counter, the right edges of the order and event indexes),
 * and a checkpoint copies only each page's newest version: at 10,000 pages (about 40 MiB of WAL
 * with 4 KiB pages) a checkpoint comes every ~400 checkouts instead of every ~40, copies far
 * fewer pages per order, and syncs the file ten times less often. Measured in-process on a file:
 * checkout p25 1.47–1.69 ms → 0.98–1.09 ms over four runs each (docs/benchmarks-before-after.md, seventh round).
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
