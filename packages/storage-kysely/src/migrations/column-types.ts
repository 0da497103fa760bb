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
 * MySQL/MariaDB: `text` is `mediumtext`, or a `varchar` when keyed (a primary key, foreign key or
 * index column: InnoDB cannot index TEXT whole), both utf8mb4_bin so that ids and tokens compare
 * by code point like the other engines (`a` ≠ `A`); `bigint`, `int`, `double`; `bool` is
 * TINYINT(1); `json` is MariaDB's JSON (LONGTEXT with a validity check). A keyed column's length
 * comes from its name ({@link mysqlKeyLength}): `varchar(64)` for the engine's own ids, `mode` and
 * the status and type enums, `varchar(255)` for everything else (the input limits' identifiers:
 * slugs, SKUs, codes, e-mails, session ids, idempotency keys, tags, hashes). An InnoDB index key
 * holds at most 3,072 bytes, 768 utf8mb4 characters: the widest key is `idempotency_keys`'
 * `(store_id, mode, caller, key)`, two 64s and two 255s (638 characters, 2,552 bytes); every other
 * has at most one 255 beside 64s and bigints (≤ 1,796 bytes). (0014's `bucket varchar(768)` is
 * the one exception, alone in its key: 3,072 bytes.)
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

/**
 * Keyed text columns holding what the engine itself writes, at most 64 characters: ids (the
 * default generator's longest is 49: `optval_` and 42 characters), `mode` (`test`/`live`), and the
 * status and type enums. Columns ending `_id` that hold outside values are not among them.
 */
const MYSQL_SHORT_KEY = /^(id|mode|status|type|[a-z_]+_status|[a-z_]+_id)$/;
const MYSQL_OUTSIDE_IDS = new Set(['session_id', 'external_id', 'provider_id', 'provider_refund_id']);

/** The `varchar` length MySQL/MariaDB give a keyed text column, by its name (64 or 255). */
export function mysqlKeyLength(column: string): 64 | 255 {
  return MYSQL_SHORT_KEY.test(column) && !MYSQL_OUTSIDE_IDS.has(column) ? 64 : 255;
}

const MYSQL_KEYED_TEXT: Record<64 | 255, DataType> = {
  64: sql`varchar(64) character set utf8mb4 collate utf8mb4_bin`,
  255: sql`varchar(255) character set utf8mb4 collate utf8mb4_bin`,
};

/**
 * `keyedColumn`: the column's name when it is part of a key or index (only MySQL's text type
 * depends on it, see {@link mysqlKeyLength}).
 */
export function columnDataType(dialect: SchemaDialect, kind: ColumnKind, keyedColumn?: string): DataType {
  if (dialect === 'mysql') {
    return keyedColumn !== undefined && kind === 'text'
      ? MYSQL_KEYED_TEXT[mysqlKeyLength(keyedColumn)]
      : MYSQL[kind];
  }
  return (dialect === 'postgres' ? POSTGRES : SQLITE)[kind];
}

export function parseColumnSpec(spec: ColumnSpec): { kind: ColumnKind; nullable: boolean } {
  return spec.endsWith('?')
    ? { kind: spec.slice(0, -1) as ColumnKind, nullable: true }
    : { kind: spec as ColumnKind, nullable: false };
}
