import BetterSqlite3 from 'better-sqlite3';
import { describe, expect, it } from 'vitest';
import { cachingDatabase } from './statement-cache';

describe('cachingDatabase', () => {
  it('prepares each SQL text once and evicts the oldest beyond capacity', () => {
    const raw = new BetterSqlite3(':memory:');
    let prepares = 0;
    const original = raw.prepare.bind(raw);
    raw.prepare = ((sql: string) => {
      prepares++;
      return original(sql);
    }) as typeof raw.prepare;
    const db = cachingDatabase(raw, 2);
    const a = db.prepare('select 1');
    expect(db.prepare('select 1')).toBe(a);
    expect(prepares).toBe(1);
    db.prepare('select 2');
    db.prepare('select 3'); // evicts 'select 1'
    expect(db.prepare('select 1')).not.toBe(a);
    expect(prepares).toBe(4);
    expect(db.prepare('select 3').all([])).toEqual([{ 3: 3 }]);
    db.close();
    expect(raw.open).toBe(false);
  });
});
