import type { Migration } from 'kysely';
import type { SchemaDialect } from './column-types';

/**
 * Placeholder for cart write guards (issue 19): filled in by the change that needs it,
 * or removed if none does. Frozen once released: never import live code into a migration.
 */
export function cartWriteGuardsMigration(_dialect: SchemaDialect): Migration {
  return {
    async up(_db) {},
    async down(_db) {},
  };
}
