import BetterSqlite3 from 'better-sqlite3';
import { Kysely, PostgresDialect, SqliteDialect, sql } from 'kysely';
import { describe, expect, it } from 'vitest';
import { postgresCapabilities } from '../dialects/postgres/postgres-capabilities';
import { sqliteCapabilities } from '../dialects/sqlite/sqlite-capabilities';
import type { Database } from '../schema/database';
import {
  bindTemplate,
  rowFromJson,
  rowFromValues,
  type Slots,
  shapedTemplate,
  sqliteJsonRow,
  TemplateCache,
  template,
} from './template';

// Build-only Kysely instances: compiling never touches a connection.
const sqlite = new TemplateCache({
  db: new Kysely<Database>({ dialect: new SqliteDialect({ database: {} as never }) }),
  caps: sqliteCapabilities,
});
const postgres = new TemplateCache({
  db: new Kysely<Database>({ dialect: new PostgresDialect({ pool: {} as never }) }),
  caps: postgresCapabilities,
});

const byIdInList = template(({ db, caps }, p: Slots<'store_id' | 'mode' | 'ids'>) =>
  db
    .selectFrom('products')
    .select('id')
    .where('mode', '=', p.mode)
    .where('store_id', '=', p.store_id)
    .where(caps.inList(sql.ref('id'), p.ids))
    .where('status', '=', 'active')
    .limit(5),
);

describe('templates', () => {
  it('compile once per storage and bind arguments by slot name, constants kept in place', () => {
    const compiled = sqlite.get(byIdInList, undefined);
    expect(sqlite.get(byIdInList, undefined)).toBe(compiled);
    expect(compiled.compiled.sql).toBe(
      'select "id" from "products" where "mode" = ? and "store_id" = ? and "id" in (select value from json_each(?)) and "status" = ? limit ?',
    );
    const bound = bindTemplate(compiled, { store_id: 's1', mode: 'test', ids: '["a","b"]' });
    expect(bound.parameters).toEqual(['test', 's1', '["a","b"]', 'active', 5]);
    expect(sqlite.sqlTexts.has(compiled.compiled.sql)).toBe(true);
  });

  it('compile per dialect: one text[] parameter for a list on Postgres, whatever its length', () => {
    const compiled = postgres.get(byIdInList, undefined);
    expect(compiled.compiled.sql).toBe(
      'select "id" from "products" where "mode" = $1 and "store_id" = $2 and "id" = any($3::text[]) and "status" = $4 limit $5',
    );
    expect(bindTemplate(compiled, { store_id: 's1', mode: 'live', ids: ['a', 'b', 'c'] }).parameters).toEqual(
      ['live', 's1', ['a', 'b', 'c'], 'active', 5],
    );
  });

  it('a missing argument is a programming error (null is a value)', () => {
    const compiled = sqlite.get(byIdInList, undefined);
    expect(() => bindTemplate(compiled, { store_id: 's1', mode: 'test' })).toThrow(
      "Missing query argument 'ids'",
    );
    expect(bindTemplate(compiled, { store_id: null, mode: 'test', ids: '[]' }).parameters[1]).toBeNull();
  });

  it('shaped templates compile once per shape key', () => {
    const update = shapedTemplate(
      (columns: string[]) => columns.join(','),
      ({ db }, p: Slots<'id' | 'name' | 'slug'>, columns: string[]) =>
        db
          .updateTable('products')
          .set(Object.fromEntries(columns.map((c) => [c, p[c as 'name' | 'slug']])))
          .where('id', '=', p.id),
    );
    const a = sqlite.get(update, ['name']);
    const b = sqlite.get(update, ['name', 'slug']);
    expect(sqlite.get(update, ['name'])).toBe(a);
    expect(a.compiled.sql).toBe('update "products" set "name" = ? where "id" = ?');
    expect(b.compiled.sql).toBe('update "products" set "name" = ?, "slug" = ? where "id" = ?');
    expect(bindTemplate(b, { id: 'p1', name: 'N', slug: 's' }).parameters).toEqual(['N', 's', 'p1']);
  });
});

describe('sqliteJsonRow / rowFromJson', () => {
  it('a row read back from ONE json_array value equals the row better-sqlite3 returns (REAL 0.1+0.2 and 8.875, epoch ms, null, JSON text, quotes)', () => {
    const raw = new BetterSqlite3(':memory:');
    raw.exec('create table t (id text, rate real, at integer, note text, meta text, flag integer) strict');
    const rows = [
      ['a"\\b', 0.1 + 0.2, 1_795_341_534_390, null, '{"k":[1,"x"]}', 1],
      ['é ✓', 8.875, 0, 'line\nbreak', '[]', 0],
      ['big', 33.333333333333336, 2 ** 53 - 1, '', '"s"', 1],
    ];
    const insert = raw.prepare('insert into t values (?, ?, ?, ?, ?, ?)');
    for (const row of rows) insert.run(row);
    const columns = ['id', 'rate', 'at', 'note', 'meta', 'flag'];
    const db = new Kysely<Database>({ dialect: new SqliteDialect({ database: {} as never }) });
    const text =
      sql`select ${sqliteJsonRow(columns, { extra: [sql`1 + 1`] })} as r from t order by rowid`.compile(
        db,
      ).sql;
    expect(text).toBe(
      'select json_array("id", "rate", "at", "note", "meta", "flag", 1 + 1) as r from t order by rowid',
    );
    const expected = raw.prepare('select * from t order by rowid').all();
    const read = (raw.prepare(text).all() as Array<{ r: string }>).map((row) => rowFromJson(columns, row.r));
    expect(read).toEqual(expected);
    expect((JSON.parse((raw.prepare(text).get() as { r: string }).r) as unknown[])[6]).toBe(2);
    raw.close();
  });

  it('rowFromValues maps values by position, and keeps one maker per column list', () => {
    const columns = ['x', 'y'] as const;
    expect(rowFromValues(columns, [1, null])).toEqual({ x: 1, y: null });
    expect(rowFromValues(columns, ['a', 'b'])).toEqual({ x: 'a', y: 'b' });
    expect(rowFromValues(['weird "name"'], [3])).toEqual({ 'weird "name"': 3 });
  });
});
