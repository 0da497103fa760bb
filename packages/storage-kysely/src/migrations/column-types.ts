import { type ColumnDataType, type Expression, sql } from 'kysely';

/**
 * The logical column kinds the migrations use, and what each becomes on each engine.
 * - `text`: TEXT; `COLLATE "C"` on Postgres so that both engines compare and order by code point
 *   (SQLite's default BINARY collation) whatever the database's locale — keyset pagination then
 *   walks ids and names in the same order everywhere.
 * - `bigint`: epoch milliseconds and money (minor units); INTEGER on SQLite (64-bit).
 * - `int`: counts, positions, quantities.
 * - `double`: percentages, weights; IEEE doubles on both engines, so any JS number (8.875)
 *   round-trips exactly.
 * - `bool`: boolean on Postgres, INTEGER 0/1 on SQLite.
 * - `json`: jsonb on Postgres, TEXT holding JSON on SQLite.
 * A trailing `?` in a column spec makes the column nullable; every other column is NOT NULL.
 *
 * MySQL/MariaDB: `text` is `mediumtext`, or `varchar(191)` when `keyed` (a primary key, foreign key
 * or index column: InnoDB cannot index TEXT whole, and an index key holds at most 3,072 bytes =
 * four utf8mb4 varchar(191) plus a BIGINT), both utf8mb4_bin so that ids and tokens compare by
 * code point like the other engines (`a` ≠ `A`); `bigint`, `int`, `double`; `bool` is
 * TINYINT(1); `json` is MariaDB's JSON (LONGTEXT with a validity check).
 */
export type ColumnKind = 'text' | 'bigint' | 'int' | 'double' | 'bool' | 'json';

export type ColumnSpec = ColumnKind | `${ColumnKind}?`;

export type SchemaDialect = 'sqlite' | 'postgres' | 'mysql';

type DataType = ColumnDataType | Expression<unknown>;

const POSTGRES: Record<ColumnKind, DataType> = {
  text: sql`text collate "C"`,
  bigint: 'bigint',
  int: 'integer',
  double: 'double precision',
  bool: 'boolean',
  json: 'jsonb',
};

/** SQLite tables are STRICT, whose only type names are INTEGER, REAL, TEXT, BLOB and ANY. */
const SQLITE: Record<ColumnKind, DataType> = {
  text: 'text',
  bigint: 'integer',
  int: 'integer',
  double: 'real',
  bool: 'integer',
  json: 'text',
};

const MYSQL: Record<ColumnKind, DataType> = {
  text: sql`mediumtext character set utf8mb4 collate utf8mb4_bin`,
  bigint: 'bigint',
  int: 'integer',
  double: 'double precision',
  bool: sql`tinyint(1)`,
  json: sql`json`,
};

const MYSQL_KEYED_TEXT: DataType = sql`varchar(191) character set utf8mb4 collate utf8mb4_bin`;

/** `keyed`: the column is part of a key or index (only MySQL's text type depends on it). */
export function columnDataType(dialect: SchemaDialect, kind: ColumnKind, keyed = false): DataType {
  if (dialect === 'mysql') return keyed && kind === 'text' ? MYSQL_KEYED_TEXT : MYSQL[kind];
  return (dialect === 'postgres' ? POSTGRES : SQLITE)[kind];
}

export function parseColumnSpec(spec: ColumnSpec): { kind: ColumnKind; nullable: boolean } {
  return spec.endsWith('?')
    ? { kind: spec.slice(0, -1) as ColumnKind, nullable: true }
    : { kind: spec as ColumnKind, nullable: false };
}
