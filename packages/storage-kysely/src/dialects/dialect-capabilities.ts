import type { Expression, RawBuilder, SqlBool } from 'kysely';

/**
 * What differs between the engines, in one small object the shared repositories consult.
 * Everything else (SQL shape, pagination, atomic operations) is written once.
 */
export interface DialectCapabilities {
  readonly dialect: 'sqlite' | 'postgres' | 'mysql';
  /** Encodes a JSON value for a JSON column (TEXT on SQLite, jsonb on Postgres). */
  json(value: unknown): unknown;
  /** Like `json`, but null/undefined stay SQL NULL (nullable JSON columns). */
  jsonOrNull(value: unknown): unknown;
  /** Decodes a JSON column as the driver returns it. */
  parseJson<T>(value: unknown): T;
  bool(value: boolean): unknown;
  toBool(value: unknown): boolean;
  /** Encodes a list of strings for `inList` (one parameter whatever the length). */
  list(values: readonly string[]): unknown;
  /** `column IN (<list parameter>)`, with the parameter encoded by `list`. */
  inList(column: Expression<unknown>, list: unknown): RawBuilder<SqlBool>;
  /** The JSON array `column` contains every string of `values` (a parameter encoded by `json`). */
  jsonArrayContainsAll(column: Expression<unknown>, values: unknown): RawBuilder<SqlBool>;
  /** The JSON array `column` contains the string `value`. */
  jsonArrayContains(column: Expression<unknown>, value: Expression<unknown>): RawBuilder<SqlBool>;
  /** `SELECT … FOR UPDATE` row locks (Postgres). SQLite's BEGIN IMMEDIATE already holds the writer lock. */
  readonly forUpdate: boolean;
  /** `FOR UPDATE SKIP LOCKED` for work queues (Postgres). */
  readonly skipLocked: boolean;
}
