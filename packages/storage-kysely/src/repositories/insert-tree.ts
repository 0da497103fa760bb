import type { Compilable, Insertable, Kysely } from 'kysely';
import type { EncodedRow } from '../query/insert-template';
import type { QueryRunner } from '../query/query-runner';
import { shapedTemplate, slot, type Template } from '../query/template';
import type { Database, TableName } from '../schema/database';
import { TABLE_COLUMNS } from '../schema/table-columns';

/** Rows per table of one tree insert (each table's share, at most this many rows). */
export const TREE_MAX_ROWS = 100;

/** Argument names `t<table>r<row>_<column>`, built once per position. */
const keyCache = new Map<string, string[]>();

function keysOf(table: TableName, t: number, r: number): string[] {
  const id = `${t}:${r}:${table}`;
  let keys = keyCache.get(id);
  if (!keys) {
    keys = (TABLE_COLUMNS[table] as readonly string[]).map((column) => `t${t}r${r}_${column}`);
    keyCache.set(id, keys);
  }
  return keys;
}

/**
 * Postgres only: `WITH t0 AS (INSERT INTO <tables[0]> …), t1 AS (INSERT INTO <tables[1]> …)
 * INSERT INTO <last non-empty table> …` — rows of several tables (a parent and its children) in
 * ONE statement, one round trip instead of one per table. One compiled statement per row-count
 * combination (the shape). Foreign keys hold: Postgres checks them when the statement ends, after
 * every part ran. Every column of each table is written (absent values as NULL), as
 * `insertRows` does.
 */
export function insertTreeTemplate(
  tables: readonly TableName[],
): Template<string, unknown, readonly number[]> {
  return shapedTemplate(
    (counts: readonly number[]) => counts.join(':'),
    ({ db }, p: object, counts: readonly number[]) => {
      const parts = tables
        .map((table, t) => ({ table, t, count: counts[t] ?? 0 }))
        .filter((part) => part.count > 0);
      const values = (part: (typeof parts)[number]) => treeRows(p, part.table, part.t, part.count);
      const last = parts.at(-1);
      if (!last) throw new Error('insert tree without rows');
      // Kysely types each CTE by its table; the statement only needs to compile, so the chain is
      // built on an untyped creator.
      let creator = db as unknown as Kysely<Database>;
      for (const part of parts.slice(0, -1)) {
        creator = creator.with(`t${part.t}`, (cte) =>
          cte.insertInto(part.table).values(values(part)),
        ) as unknown as Kysely<Database>;
      }
      return creator.insertInto(last.table).values(values(last)) as unknown as Compilable<unknown>;
    },
  );
}

/** The VALUES rows of table `t` (of `table`) in a tree template: every column a slot. */
export function treeRows(
  p: object,
  table: TableName,
  t: number,
  count: number,
): Insertable<Database[TableName]>[] {
  return Array.from({ length: count }, (_, r) => {
    const keys = keysOf(table, t, r);
    return Object.fromEntries(
      (TABLE_COLUMNS[table] as readonly string[]).map((column, i) => [column, slot(p, keys[i]!)]),
    );
  }) as Insertable<Database[TableName]>[];
}

/** The arguments of a tree template's rows (see {@link insertTree}). */
export function treeArgs(
  tables: readonly TableName[],
  rows: ReadonlyArray<readonly EncodedRow<TableName>[]>,
): Record<string, unknown> {
  const args: Record<string, unknown> = {};
  rows.forEach((list, ti) => {
    const table = tables[ti]!;
    const columns = TABLE_COLUMNS[table] as readonly string[];
    list.forEach((row, r) => {
      const keys = keysOf(table, ti, r);
      const record = row as Record<string, unknown>;
      for (let i = 0; i < columns.length; i++) {
        const value = record[columns[i]!];
        args[keys[i]!] = value === undefined ? null : value;
      }
    });
  });
  return args;
}

/**
 * Runs a tree insert: `rows[i]` are the encoded rows of the template's `tables[i]` (parents
 * first), each at most {@link TREE_MAX_ROWS}; empty tables are left out of the statement.
 */
export async function insertTree(
  q: QueryRunner,
  t: Template<string, unknown, readonly number[]>,
  tables: readonly TableName[],
  rows: ReadonlyArray<readonly EncodedRow<TableName>[]>,
): Promise<void> {
  await q.rows(
    t,
    treeArgs(tables, rows),
    rows.map((list) => list.length),
  );
}
