import { mkdtempSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import BetterSqlite3 from 'better-sqlite3';
import { afterAll, describe, expect, it } from 'vitest';
import { configureConnection, WAL_AUTOCHECKPOINT_PAGES } from './sqlite-connection';

const dir = mkdtempSync(join(tmpdir(), 'cartwright-sqlite-connection-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

function open(filename: string): BetterSqlite3.Database {
  const raw = new BetterSqlite3(filename);
  configureConnection(raw, { memory: filename === ':memory:', busyTimeoutMs: 1234 });
  return raw;
}

describe('configureConnection', () => {
  it('sets WAL, the auto-checkpoint, synchronous, foreign keys and busy_timeout on a file', () => {
    const raw = open(join(dir, 'settings.db'));
    try {
      expect(raw.pragma('journal_mode', { simple: true })).toBe('wal');
      expect(raw.pragma('wal_autocheckpoint', { simple: true })).toBe(WAL_AUTOCHECKPOINT_PAGES);
      expect(raw.pragma('synchronous', { simple: true })).toBe(1); // NORMAL
      expect(raw.pragma('foreign_keys', { simple: true })).toBe(1);
      expect(raw.pragma('busy_timeout', { simple: true })).toBe(1234);
    } finally {
      raw.close();
    }
  });

  it('keeps an in-memory database on its memory journal', () => {
    const raw = open(':memory:');
    try {
      expect(raw.pragma('journal_mode', { simple: true })).toBe('memory');
      expect(raw.pragma('foreign_keys', { simple: true })).toBe(1);
    } finally {
      raw.close();
    }
  });

  it('lets the write-ahead log grow past SQLite’s default 1,000 pages before a checkpoint', () => {
    const filename = join(dir, 'growth.db');
    const raw = open(filename);
    try {
      const pageSize = raw.pragma('page_size', { simple: true }) as number;
      raw.exec('create table t (id integer primary key, body text not null)');
      const insert = raw.prepare('insert into t (body) values (?)');
      const body = 'x'.repeat(pageSize - 100); // about one page per row
      // 3,000 pages in 30 commits: with the default, a commit past 1,000 pages checkpoints and
      // the log starts over, so it never holds much more than 1,000 pages.
      for (let commit = 0; commit < 30; commit++) {
        raw.transaction(() => {
          for (let row = 0; row < 100; row++) insert.run(body);
        })();
      }
      const walPages = statSync(`${filename}-wal`).size / (pageSize + 24);
      expect(walPages).toBeGreaterThan(2_500);
      expect(walPages).toBeLessThan(WAL_AUTOCHECKPOINT_PAGES);
    } finally {
      raw.close();
    }
  });
});
