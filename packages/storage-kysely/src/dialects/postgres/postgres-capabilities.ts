import { type Expression, sql } from 'kysely';
import type { DialectCapabilities } from '../dialect-capabilities';

/**
 * Postgres: jsonb (sent as JSON text — pg would otherwise turn JS arrays into Postgres arrays —
 * and parsed by pg on the way back), native booleans, lists as one `text[]` parameter
 * (`= any($1)`), jsonb containment (`@>`, GIN-indexed) for tag filters, and row locks.
 */
export const postgresCapabilities: DialectCapabilities = {
  dialect: 'postgres',
  json: (value) => JSON.stringify(value),
  jsonOrNull: (value) => (value === null || value === undefined ? null : JSON.stringify(value)),
  parseJson: <T>(value: unknown): T => value as T,
  bool: (value) => value,
  toBool: (value) => value === true,
  list: (values) => values,
  inList: (column: Expression<unknown>, list: unknown) => sql<boolean>`${column} = any(${list}::text[])`,
  jsonArrayContainsAll: (column: Expression<unknown>, values: unknown) =>
    sql<boolean>`${column} @> ${values}::jsonb`,
  jsonArrayContains: (column: Expression<unknown>, value: Expression<unknown>) =>
    sql<boolean>`${column} @> jsonb_build_array(${value})`,
  forUpdate: true,
  skipLocked: true,
};
