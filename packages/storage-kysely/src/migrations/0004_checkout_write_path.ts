import { type Kysely, type Migration, sql } from 'kysely';
import type { SchemaDialect } from './column-types';

/**
 * The checkout write path: fewer index entries written per checkout, same lookups.
 *
 * - `events_id_idx (id)` is dropped: it only served `events.dispatch` marking its claimed
 *   events by bare id; the repository now marks them by their primary key
 *   `(store_id, mode, id)`. Every event insert (two or more per checkout) wrote one entry less.
 * - `carts_session_idx` and `carts_customer_idx` (`…, session_id | customer_id, status,
 *   created_at`) become partial indexes of ACTIVE carts only — the only carts they are looked up
 *   for (`getActiveBySession`, `getActiveByCustomer`, newest first) — without `status` in the key
 *   and without the carts that have no session / no customer: a checkout's `active → completed`
 *   removes at most one entry per index instead of rewriting an entry in both, a guest cart is
 *   never in the customer index, and the lookups read only live carts. The queries spell
 *   `status = 'active'` as a literal so that both engines (Postgres with generic plans of
 *   prepared statements too) can prove the index predicate.
 *
 * Both engines; nothing else changes (no data is rewritten).
 */
export function checkoutWritePathMigration(_dialect: SchemaDialect): Migration {
  return {
    async up(db: Kysely<unknown>) {
      await sql`drop index if exists events_id_idx`.execute(db);
      await sql`drop index if exists carts_session_idx`.execute(db);
      await sql`drop index if exists carts_customer_idx`.execute(db);
      await sql`create index carts_active_session_idx on carts (store_id, mode, session_id, created_at, id)
        where status = 'active' and session_id is not null`.execute(db);
      await sql`create index carts_active_customer_idx on carts (store_id, mode, customer_id, created_at, id)
        where status = 'active' and customer_id is not null`.execute(db);
    },
    async down(db: Kysely<unknown>) {
      await sql`drop index if exists carts_active_session_idx`.execute(db);
      await sql`drop index if exists carts_active_customer_idx`.execute(db);
      await sql`create index carts_session_idx on carts (store_id, mode, session_id, status, created_at)`.execute(
        db,
      );
      await sql`create index carts_customer_idx on carts (store_id, mode, customer_id, status, created_at)`.execute(
        db,
      );
      await sql`create index events_id_idx on events (id)`.execute(db);
    },
  };
}
