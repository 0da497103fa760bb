import { type Migration, sql } from 'kysely';
import type { SchemaDialect } from './column-types';

/**
 * Refund reconciliation: `refunds_pending_idx`, a partial index on the
 * refunds still `pending`, by `(created_at, id)`. Refunds are recorded `pending` before their
 * provider calls and settled after them; `engine.orders.payments.reconcile()` lists the ones a
 * crash or an unreachable provider left pending, across stores, oldest first
 * (`OrderRepository.listRefundsByStatus`). Partial: settled refunds — nearly all of them — are
 * not in it, so it costs nothing to keep. Same statement on both engines.
 */
export function refundReconciliationMigration(_dialect: SchemaDialect): Migration {
  return {
    async up(db) {
      await sql`create index refunds_pending_idx on refunds (created_at, id) where status = 'pending'`.execute(
        db,
      );
    },
    async down(db) {
      await sql`drop index if exists refunds_pending_idx`.execute(db);
    },
  };
}
