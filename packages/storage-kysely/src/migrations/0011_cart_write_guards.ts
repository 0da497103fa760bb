import { type Migration, sql } from 'kysely';
import type { SchemaDialect } from './column-types';

/**
 * Cart write guards (docs/contract.md#cart-concurrency): a cart with an open checkout attempt — a payment
 * of the cart still `pending` with no order (the provider is being asked, or the process died
 * before the order was written and reconciliation will write it from the attempt's snapshot) —
 * refuses every change with 409 `cart_not_active`. The attempt row itself is the guard: the
 * locked cart read (`carts.get(…, { forUpdate: true })`) looks it up in the same statement as
 * the cart's items, through `payments_open_checkout_idx`, partial on exactly that predicate
 * (`status = 'pending' and order_id is null`), keyed `(store_id, mode, cart_id)`. Only open
 * attempts are in it — at most one per cart, for the seconds a provider call takes — so the
 * probe reads a nearly empty index, and no flag on the cart has to be set and cleared by each of
 * the paths that settle an attempt (checkout, reconciliation, webhooks).
 *
 * Frozen once released: never import live code into a migration.
 */
export function cartWriteGuardsMigration(_dialect: SchemaDialect): Migration {
  return {
    async up(db) {
      await sql`create index payments_open_checkout_idx on payments (store_id, mode, cart_id)
        where status = 'pending' and order_id is null`.execute(db);
    },
    async down(db) {
      await sql`drop index if exists payments_open_checkout_idx`.execute(db);
    },
  };
}
