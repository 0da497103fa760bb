import type { SqliteStorage } from '@cartwright/storage-kysely/sqlite';
import { afterEach, describe, expect, test } from 'vitest';
import { openMemoryStorage } from './memory-storage';

type Compiled = Parameters<SqliteStorage['db']['executeQuery']>[0];
const select = async (storage: SqliteStorage, sql: string) =>
  (await storage.db.executeQuery({ sql, parameters: [], query: { kind: 'RawNode' } } as unknown as Compiled))
    .rows;

const open: SqliteStorage[] = [];
afterEach(async () => {
  for (const storage of open.splice(0)) await storage.close();
});

describe('openMemoryStorage', () => {
  test('a snapshot database has exactly the schema and bookkeeping the migrations produce', async () => {
    const migrated = await openMemoryStorage('migrate');
    const replayed = await openMemoryStorage('snapshot');
    open.push(migrated, replayed);
    const schema = 'select type, name, tbl_name, sql from sqlite_master order by type, name';
    expect(await select(replayed, schema)).toEqual(await select(migrated, schema));
    const applied = 'select name from kysely_migration order by name';
    expect(await select(replayed, applied)).toEqual(await select(migrated, applied));
    expect((await select(replayed, applied)).length).toBeGreaterThan(0);
  });

  test('a snapshot database is complete: migrate() finds nothing to do and the schema is unchanged', async () => {
    const storage = await openMemoryStorage();
    open.push(storage);
    const before = await select(storage, 'select name, sql from sqlite_master order by name');
    await storage.migrate();
    expect(await select(storage, 'select name, sql from sqlite_master order by name')).toEqual(before);
  });

  test('every snapshot database is a fresh one', async () => {
    const a = await openMemoryStorage();
    const b = await openMemoryStorage();
    open.push(a, b);
    await a.db.executeQuery({
      sql: "insert into organizations (id, name, plan, billing_email, metadata, created_at, updated_at) values ('org_x', 'x', 'free', null, '{}', 0, 0)",
      parameters: [],
      query: { kind: 'RawNode' },
    } as unknown as Compiled);
    expect(await select(a, 'select id from organizations')).toEqual([{ id: 'org_x' }]);
    expect(await select(b, 'select id from organizations')).toEqual([]);
  });
});
