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
 */
export type ColumnKind = 'text' | 'bigint' | 'int' | 'double' | 'bool' | 'json';

export type ColumnSpec = ColumnKind | `${ColumnKind}?`;

export type SchemaDialect = 'sqlite' | 'postgres';

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

export function columnDataType(dialect: SchemaDialect, kind: ColumnKind): DataType {
  return (dialect === 'postgres' ? POSTGRES : SQLITE)[kind];
}

export function parseColumnSpec(spec: ColumnSpec): { kind: ColumnKind; nullable: boolean } {
  return spec.endsWith('?')
    ? { kind: spec.slice(0, -1) as ColumnKind, nullable: true }
    : { kind: spec as ColumnKind, nullable: false };
}
