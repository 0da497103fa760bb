import { newScope } from '@cartwright/storage-conformance';
import { Migrator, sql } from 'kysely';
import { describe, expect, it } from 'vitest';
import type { KyselyStorage } from '../kysely-storage';
import { createMigrationProvider, migrationsFor } from './migration-provider';
import { onEveryEngine } from './migration-test-engines';

const QUARTER = 900_000;
const T0 = 1_700_006_400_000;

/** The migration applied just before 0032 (whichever numbers exist in the tree). */
function before0032(storage: KyselyStorage): string {
  const names = Object.keys(migrationsFor(storage.dialect)).sort();
  return names[names.indexOf('0032_revenue_buckets') - 1] as string;
}

function describeRevenueBuckets(name: string, open: () => Promise<KyselyStorage>): void {
  describe(`0032_revenue_buckets on ${name}`, () => {
    it('fills the buckets from the payments and refunds already there; later writes keep them; down drops it all', async () => {
      const storage = await open();
      try {
        const migrator = new Migrator({ db: storage.db, provider: createMigrationProvider(storage.dialect) });
        expect((await migrator.migrateTo(before0032(storage))).error).toBeUndefined();
        const scope = newScope();
        const json = (value: unknown) =>
          storage.dialect === 'postgres'
            ? sql`${JSON.stringify(value)}::jsonb`
            : sql`${JSON.stringify(value)}`;
        // Rows in the SQL of 0031's time.
        const payment = (id: string, amount: number, status: string, provider: string, at: number) =>
          sql`insert into payments (store_id, mode, id, order_id, provider, provider_id, amount, currency, status,
              idempotency_key, cart_id, client_secret, failure_reason, note, metadata, checkout_snapshot, created_at, updated_at)
            values (${scope.store_id}, ${scope.mode}, ${id}, null, ${provider}, null, ${amount}, 'USD', ${status},
              null, null, null, null, null, ${json({})}, null, ${at}, ${at})`.execute(storage.db);
        const bool = (value: boolean) =>
          storage.dialect === 'sqlite' ? sql`${value ? 1 : 0}` : sql`${value}`;
        await sql`insert into orders (store_id, mode, id, number, status, payment_status, fulfillment_status, customer_id,
              email, email_lower, shipping_address, billing_address, currency, subtotal, discount_total, shipping_total,
              tax_total, total, paid_total, refunded_total, prices_include_tax, tax_rate, shipping_method_id,
              shipping_method_name, shipping_discount, shipping_tax, applied_discounts, note, metadata, cart_id,
              inventory_reserved, cancel_reason, created_at, updated_at, cancelled_at, completed_at, confirmed_at)
            values (${scope.store_id}, ${scope.mode}, 'ord_a', 1001, 'confirmed', 'paid', 'unfulfilled', null,
              'a@example.com', 'a@example.com', null, null, 'USD', 1000, 0, 0, 0, 1000, 1000, 0, ${bool(false)}, 0, null,
              null, 0, 0, ${json([])}, null, ${json({})}, null, ${bool(false)}, null, ${T0}, ${T0}, null, null, ${T0})`.execute(
          storage.db,
        );
        await payment('pay_a', 1000, 'completed', 'manual', T0 + 10);
        await payment('pay_b', 2000, 'refunded', 'stripe', T0 + 20);
        await payment('pay_c', 4000, 'pending', 'manual', T0 + 30);
        await payment('pay_d', 8000, 'completed', 'exchange_credit', T0 + 40);
        await payment('pay_e', 16000, 'completed', 'stripe', T0 + QUARTER + 5);
        await sql`insert into refunds (store_id, mode, id, order_id, amount, currency, reason, restock, status, lines,
              provider_refund_id, metadata, restock_movements, provider_calls, failure_message, created_at, updated_at)
            values (${scope.store_id}, ${scope.mode}, 'ref_a', 'ord_a', 300, 'USD', null, ${bool(false)},
              'completed', ${json([])}, null, ${json({})}, ${json([])}, null, null, ${T0 + QUARTER + 6}, ${T0 + QUARTER + 6})`.execute(
          storage.db,
        );

        expect((await migrator.migrateTo('0032_revenue_buckets')).error).toBeUndefined();
        const buckets = async () =>
          (
            await sql<{
              bucket: number | string;
              amount: number | string;
            }>`select bucket, amount from revenue_buckets
              where store_id = ${scope.store_id} order by bucket`.execute(storage.db)
          ).rows.map((row) => [Number(row.bucket), Number(row.amount)]);
        expect(await buckets()).toEqual([
          [T0 / QUARTER, 3000],
          [T0 / QUARTER + 1, 15700],
        ]);

        await sql`update payments set status = 'completed' where id = 'pay_c'`.execute(storage.db);
        await sql`delete from payments where id = 'pay_e'`.execute(storage.db);
        expect(await buckets()).toEqual([
          [T0 / QUARTER, 7000],
          [T0 / QUARTER + 1, -300],
        ]);

        expect((await migrator.migrateTo(before0032(storage))).error).toBeUndefined();
        const tables = await storage.db.introspection.getTables();
        expect(tables.map((table) => table.name)).not.toContain('revenue_buckets');
        // No trigger is left to write into a table that is gone.
        await sql`update payments set status = 'refunded' where id = 'pay_a'`.execute(storage.db);
      } finally {
        await storage.close();
      }
    });
  });
}

onEveryEngine(describeRevenueBuckets);
