import type { Migration } from 'kysely';
import { columnDataType, type SchemaDialect } from './column-types';

/**
 * Webhook secret rotation (docs/contract.md#standard-webhooks). Frozen once released: never import live code
 * into a migration.
 *
 * - `webhooks.previous_secret` (text, nullable): the secret before the latest
 *   `POST /v1/admin/webhooks/{id}/rotate-secret`, which keeps signing deliveries alongside the new
 *   one (two `v1,` signatures in `webhook-signature`) until
 * - `webhooks.previous_secret_expires_at` (bigint epoch ms, nullable): 24 h after the rotation.
 *
 * Only the current secret and one previous one are kept (rotating again drops the oldest).
 * Existing webhooks have none: plain nullable `ADD COLUMN`, no table rebuild on either engine.
 * Delivery retry (`POST …/deliveries/{id}/retry`) needs no schema change: it claims the delivery
 * with the lease columns the worker uses.
 */
export function webhookSecretRotationMigration(dialect: SchemaDialect): Migration {
  return {
    async up(db) {
      await db.schema
        .alterTable('webhooks')
        .addColumn('previous_secret', columnDataType(dialect, 'text'))
        .execute();
      await db.schema
        .alterTable('webhooks')
        .addColumn('previous_secret_expires_at', columnDataType(dialect, 'bigint'))
        .execute();
    },
    async down(db) {
      await db.schema.alterTable('webhooks').dropColumn('previous_secret_expires_at').execute();
      await db.schema.alterTable('webhooks').dropColumn('previous_secret').execute();
    },
  };
}
