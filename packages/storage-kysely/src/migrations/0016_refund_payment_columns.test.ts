import { makeOrder, makePayment, makeRefund, newScope } from '@cartwright/storage-conformance';
import { Migrator, sql } from 'kysely';
import { describe, expect, it } from 'vitest';
import type { KyselyStorage } from '../kysely-storage';
import { encodeOrder } from '../repositories/order-codecs';
import { createMigrationProvider } from './migration-provider';
import { onEveryEngine } from './migration-test-engines';

const MOVEMENTS = [
  { order_line_id: 'line_1', from_reserved: 1, to_on_hand: 0, returned_quantity: 0 },
  {
    order_line_id: 'line_2',
    from_reserved: 2,
    to_on_hand: 1,
    returned_quantity: 1,
    from_fulfillments: [{ fulfillment_id: 'ful_1', quantity: 2 }],
  },
];
const CALLS = [{ payment_id: 'pay_1', amount: 500 }];
const SNAPSHOT = {
  version: 1,
  order: { id: 'ord_x', lines: [] },
  reserved: [],
  customer_key: 'a@example.com',
};

async function columnsOf(storage: KyselyStorage, table: string): Promise<string[]> {
  const tables = await storage.db.introspection.getTables();
  return tables.find((t) => t.name === table)?.columns.map((column) => column.name) ?? [];
}

/** A JSON column as an object, whichever way the engine returns it. */
function parsed(value: unknown): unknown {
  return typeof value === 'string' ? JSON.parse(value) : value;
}

function describeRefundPaymentColumns(name: string, open: () => Promise<KyselyStorage>): void {
  describe(`0016_refund_payment_columns on ${name}`, () => {
    it('moves restock_movements, provider_calls, failure_message and the checkout snapshot out of metadata into columns; down puts them back', async () => {
      const storage = await open();
      try {
        const migrator = new Migrator({ db: storage.db, provider: createMigrationProvider(storage.dialect) });
        expect((await migrator.migrateTo('0015_customer_accounts')).error).toBeUndefined();
        expect(await columnsOf(storage, 'refunds')).not.toContain('restock_movements');
        expect(await columnsOf(storage, 'payments')).not.toContain('checkout_snapshot');

        // Rows as core wrote them before 0016: the state under metadata keys.
        const scope = newScope();
        const order = makeOrder(scope, 1001);
        const json = (value: unknown) =>
          storage.dialect === 'postgres'
            ? sql`${JSON.stringify(value)}::jsonb`
            : sql`${JSON.stringify(value)}`;
        // The order row as the 0015 schema holds it (the repository writes today's columns).
        const at0015 = new Set(await columnsOf(storage, 'orders'));
        const row = Object.fromEntries(
          Object.entries(encodeOrder(order, storage.caps)).filter(([column]) => at0015.has(column)),
        );
        await storage.db
          .insertInto('orders' as never)
          .values(row as never)
          .execute();
        const legacy = [
          {
            id: 'ref_applied',
            status: 'completed',
            metadata: { restock_movements: MOVEMENTS, note: 'kept' },
          },
          { id: 'ref_in_flight', status: 'pending', metadata: { provider_calls: CALLS } },
          {
            id: 'ref_failed',
            status: 'failed',
            metadata: { restock_movements: MOVEMENTS.slice(0, 1), failure_message: 'card_lost' },
          },
          { id: 'ref_plain', status: 'completed', metadata: {} },
        ];
        for (const r of legacy) {
          await sql`insert into refunds (store_id, mode, id, order_id, amount, currency, reason, restock, status, lines, provider_refund_id, metadata, created_at, updated_at)
            values (${scope.store_id}, ${scope.mode}, ${r.id}, ${order.id}, 500, 'USD', null, ${storage.dialect === 'postgres' ? sql`true` : sql`1`}, ${r.status}, ${json([])}, null, ${json(r.metadata)}, 1, 1)`.execute(
            storage.db,
          );
        }
        const attempt = makePayment(scope, null);
        const manual = makePayment(scope, order.id);
        for (const [p, metadata] of [
          [attempt, { _cartwright_checkout: SNAPSHOT }],
          [manual, { gift: true }],
        ] as const) {
          await sql`insert into payments (store_id, mode, id, order_id, provider, provider_id, amount, currency, status, idempotency_key, cart_id, client_secret, failure_reason, note, metadata, created_at, updated_at)
            values (${scope.store_id}, ${scope.mode}, ${p.id}, ${p.order_id}, 'manual', null, 100, 'USD', 'pending', null, null, null, null, null, ${json(metadata)}, 1, 1)`.execute(
            storage.db,
          );
        }

        await storage.migrate();
        const refunds = new Map(
          ((await storage.read((r) => r.orders.get(scope, order.id)))?.refunds ?? []).map((r) => [r.id, r]),
        );
        expect(refunds.get('ref_applied')).toMatchObject({
          restock_movements: MOVEMENTS,
          provider_calls: null,
          failure_message: null,
          metadata: { note: 'kept' },
        });
        expect(refunds.get('ref_in_flight')).toMatchObject({
          restock_movements: [],
          provider_calls: CALLS,
          failure_message: null,
          metadata: {},
        });
        expect(refunds.get('ref_failed')).toMatchObject({
          restock_movements: MOVEMENTS.slice(0, 1),
          provider_calls: null,
          failure_message: 'card_lost',
          metadata: {},
        });
        expect(refunds.get('ref_plain')).toMatchObject({
          restock_movements: [],
          provider_calls: null,
          failure_message: null,
          metadata: {},
        });
        expect(await storage.read((r) => r.orders.getPayment(scope, attempt.id))).toMatchObject({
          checkout_snapshot: SNAPSHOT,
          metadata: {},
        });
        expect(await storage.read((r) => r.orders.getPayment(scope, manual.id))).toMatchObject({
          checkout_snapshot: null,
          metadata: { gift: true },
        });
        // Written after 0016: a new refund and attempt keep their state in the columns only.
        const fresh = makeRefund(scope, order.id, { provider_calls: CALLS });
        await storage.transaction((tx) => tx.orders.insertRefund(fresh));

        const down = await migrator.migrateTo('0015_customer_accounts');
        expect(down.error).toBeUndefined();
        expect(down.results?.map((result) => result.migrationName)).toContain('0016_refund_payment_columns');
        expect(await columnsOf(storage, 'refunds')).not.toContain('restock_movements');
        expect(await columnsOf(storage, 'refunds')).not.toContain('provider_calls');
        expect(await columnsOf(storage, 'refunds')).not.toContain('failure_message');
        expect(await columnsOf(storage, 'payments')).not.toContain('checkout_snapshot');
        const metadataOf = async (table: 'refunds' | 'payments', id: string) =>
          parsed(
            (
              await sql<{
                metadata: unknown;
              }>`select metadata from ${sql.table(table)} where id = ${id}`.execute(storage.db)
            ).rows[0]?.metadata,
          );
        for (const r of legacy) expect(await metadataOf('refunds', r.id)).toEqual(r.metadata);
        expect(await metadataOf('refunds', fresh.id)).toEqual({ provider_calls: CALLS });
        expect(await metadataOf('payments', attempt.id)).toEqual({ _cartwright_checkout: SNAPSHOT });
        expect(await metadataOf('payments', manual.id)).toEqual({ gift: true });

        await storage.migrate();
        expect(await storage.read((r) => r.orders.getPayment(scope, attempt.id))).toMatchObject({
          checkout_snapshot: SNAPSHOT,
          metadata: {},
        });
      } finally {
        await storage.close();
      }
    });
  });
}

onEveryEngine(describeRefundPaymentColumns);
