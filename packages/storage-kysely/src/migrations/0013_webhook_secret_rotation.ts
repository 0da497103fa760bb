import type { Migration } from 'kysely';
import type { SchemaDialect } from './column-types';

/**
 * Webhook secret rotation and delivery retry (issue 20). Frozen once released: never import live code into a migration.
 */
export function webhookSecretRotationMigration(_dialect: SchemaDialect): Migration {
  return {
    async up() {},
  };
}
