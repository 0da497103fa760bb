import { type Migration, sql } from 'kysely';
import { columnDataType, type SchemaDialect } from './column-types';

/**
 * Order and webhook contract fixes. Frozen once released: never import live code into
 * a migration.
 *
 * - `order_lines.reserved_quantity` (int, default 0): the units the order put in `reserved` for
 *   the line when it reserved its inventory — its quantity when the variant was tracked then,
 *   else 0. Until now the order kept one flag (`orders.inventory_reserved`) and every later
 *   movement asked the variant's CURRENT `track_inventory`, so a variant switched to untracked
 *   before a cancel kept its units reserved for ever, and one switched to tracked released units
 *   it never reserved. Existing lines are filled with the best that is known: the quantity for
 *   lines of orders that hold reservations whose variant is tracked now — exactly what the old
 *   code would have released or shipped.
 * - `webhooks.events_since` (json, default `{}`): per event type, since when (epoch ms) the
 *   webhook receives it (docs/contract.md#webhook-subscriptions: only events created after the webhook, or after the type
 *   was added); a listed type without an entry counts from the webhook's `created_at`, so
 *   existing webhooks need no rows written.
 *
 * Both are plain `ADD COLUMN … NOT NULL DEFAULT`: no table rebuild on either engine.
 */
export function orderKeyWebhookFixesMigration(dialect: SchemaDialect): Migration {
  return {
    async up(db) {
      await db.schema
        .alterTable('order_lines')
        .addColumn('reserved_quantity', columnDataType(dialect, 'int'), (col) => col.notNull().defaultTo(0))
        .execute();
      await sql`update order_lines set reserved_quantity = quantity
        where exists (select 1 from orders o where o.store_id = order_lines.store_id and o.mode = order_lines.mode
            and o.id = order_lines.order_id and o.inventory_reserved = true)
          and exists (select 1 from inventory_items i where i.store_id = order_lines.store_id
            and i.mode = order_lines.mode and i.variant_id = order_lines.variant_id and i.track_inventory = true)`.execute(
        db,
      );
      await db.schema
        .alterTable('webhooks')
        .addColumn('events_since', columnDataType(dialect, 'json'), (col) =>
          col.notNull().defaultTo(dialect === 'postgres' ? sql`'{}'::jsonb` : sql`'{}'`),
        )
        .execute();
    },
    async down(db) {
      await db.schema.alterTable('webhooks').dropColumn('events_since').execute();
      await db.schema.alterTable('order_lines').dropColumn('reserved_quantity').execute();
    },
  };
}
