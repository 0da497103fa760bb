import { type Expression, sql } from 'kysely';
import type { DialectCapabilities } from '../dialect-capabilities';

/**
 * MariaDB (10.6+) / MySQL: JSON as text (MariaDB's JSON is LONGTEXT with a validity check, read
 * back as a string), booleans as TINYINT 0/1, lists as one JSON-array parameter read with
 * `json_table` (so a statement's text does not depend on the list's length), `json_contains`
 * for tag filters, and InnoDB row locks (`FOR UPDATE`, `SKIP LOCKED`).
 */
export const mysqlCapabilities: DialectCapabilities = {
  dialect: 'mysql',
  json: (value) => JSON.stringify(value),
  jsonOrNull: (value) => (value === null || value === undefined ? null : JSON.stringify(value)),
  parseJson: <T>(value: unknown): T => (typeof value === 'string' ? (JSON.parse(value) as T) : (value as T)),
  bool: (value) => (value ? 1 : 0),
  toBool: (value) => value === 1 || value === true,
  list: (values) => JSON.stringify(values),
  inList: (column: Expression<unknown>, list: unknown) =>
    sql<boolean>`${column} in (select j.v from json_table(${list}, '$[*]' columns (v varchar(255) path '$')) as j)`,
  jsonArrayContainsAll: (column: Expression<unknown>, values: unknown) =>
    sql<boolean>`json_contains(${column}, ${values})`,
  jsonArrayContains: (column: Expression<unknown>, value: Expression<unknown>) =>
    sql<boolean>`json_contains(${column}, json_quote(${value}))`,
  forUpdate: true,
  skipLocked: true,
};
