import { type Expression, sql } from 'kysely';
import type { DialectCapabilities } from '../dialect-capabilities';

/**
 * SQLite: JSON as TEXT, booleans as 0/1, lists as one JSON-array parameter read with
 * `json_each` (so a statement's text — and its cached prepared statement — does not depend on
 * the list's length). No row locks: every transaction holds the writer lock (BEGIN IMMEDIATE).
 */
export const sqliteCapabilities: DialectCapabilities = {
  dialect: 'sqlite',
  json: (value) => JSON.stringify(value),
  jsonOrNull: (value) => (value === null || value === undefined ? null : JSON.stringify(value)),
  parseJson: <T>(value: unknown): T => (typeof value === 'string' ? (JSON.parse(value) as T) : (value as T)),
  bool: (value) => (value ? 1 : 0),
  toBool: (value) => value === 1 || value === true,
  list: (values) => JSON.stringify(values),
  inList: (column: Expression<unknown>, list: unknown) =>
    sql<boolean>`${column} in (select value from json_each(${list}))`,
  jsonArrayContainsAll: (column: Expression<unknown>, values: unknown) =>
    sql<boolean>`not exists (select 1 from json_each(${values}) as wanted where wanted.value not in (select value from json_each(${column})))`,
  jsonArrayContains: (column: Expression<unknown>, value: Expression<unknown>) =>
    sql<boolean>`exists (select 1 from json_each(${column}) as element where element.value = ${value})`,
  forUpdate: false,
  skipLocked: false,
};
