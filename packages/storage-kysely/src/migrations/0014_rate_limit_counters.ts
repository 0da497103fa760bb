import type { Migration } from 'kysely';
import type { SchemaDialect } from './column-types';

/**
 * Shared rate-limit counters (issue 20). Frozen once released: never import live code into a migration.
 */
export function rateLimitCountersMigration(_dialect: SchemaDialect): Migration {
  return {
    async up() {},
  };
}
