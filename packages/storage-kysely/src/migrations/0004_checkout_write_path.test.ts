import type { Scope } from '@cartwright/core';
import type { CartAggregate, EventRecord } from '@cartwright/core/storage';
import { makeCart } from '@cartwright/storage-conformance';
import { type Kysely, Migrator, sql } from 'kysely';
import { describe, expect, it } from 'vitest';
import type { KyselyStorage } from '../kysely-storage';
import type { Database } from '../schema/database';
import { createMigrationProvider } from './migration-provider';
import { indexNames, onEveryEngine } from './migration-test-engines';

const scope: Scope = { store_id: 'store_m4', mode: 'test' };

/** A cart of `scope` (fixtures' `makeCart`), guest unless `fields` say otherwise. */
function cart(id: string, fields: Partial<CartAggregate>): CartAggregate {
  return makeCart(scope, { id, session_id: null, created_at: 1, updated_at: 1, ...fields });
}

/** Writes an item-less cart as a database of 0003 held it (JSON as text; Postgres casts it). */
async function insertCartOf0003(storage: KyselyStorage, c: CartAggregate): Promise<void> {
  const json = (value: unknown) => (value === null ? null : JSON.stringify(value));
  await sql`insert into carts (store_id, mode, id, status, session_id, customer_id, email,
      shipping_address, billing_address, shipping_method_id, discount_codes, currency, metadata,
      created_at, updated_at, completed_at)
    values (${c.store_id}, ${c.mode}, ${c.id}, ${c.status}, ${c.session_id}, ${c.customer_id}, ${c.email},
      ${json(c.shipping_address)}, ${json(c.billing_address)}, ${c.shipping_method_id},
      ${json(c.discount_codes)}, ${c.currency}, ${json(c.metadata)}, ${c.created_at}, ${c.updated_at},
      ${c.completed_at})`.execute(storage.db);
}

/** The plan of the active-cart-by-session lookup as the repository runs it (index names included). */
async function sessionLookupPlan(storage: KyselyStorage): Promise<string> {
  const db = storage.db as Kysely<Database>;
  if (storage.dialect === 'sqlite') {
    const rows = await sql<{ detail: string }>`explain query plan select * from carts
      where store_id = ${scope.store_id} and mode = ${scope.mode} and session_id = ${'sess_a'} and status = 'active'
      order by created_at desc, id desc limit 1`.execute(db);
    return rows.rows.map((row) => row.detail).join('\n');
  }
  // A generic plan (as a named prepared statement gets): the index predicate must be provable
  // from the statement text alone.
  return db.connection().execute(async (conn) => {
    await sql`set enable_seqscan = off`.execute(conn);
    await sql`set plan_cache_mode = force_generic_plan`.execute(conn);
    await sql`prepare m4_by_session(text, text, text) as select * from carts
      where store_id = $1 and mode = $2 and session_id = $3 and status = 'active'
      order by created_at desc, id desc limit 1`.execute(conn);
    const rows = await sql<{
      'QUERY PLAN': string;
    }>`explain execute m4_by_session(${sql.lit(scope.store_id)}, ${sql.lit(scope.mode)}, 'sess_a')`.execute(
      conn,
    );
    await sql`deallocate m4_by_session`.execute(conn);
    await sql`reset plan_cache_mode`.execute(conn);
    await sql`reset enable_seqscan`.execute(conn);
    return rows.rows.map((row) => row['QUERY PLAN']).join('\n');
  });
}

function describeMigration(name: string, open: () => Promise<KyselyStorage>): void {
  describe(`0004_checkout_write_path on ${name}`, () => {
    it('replaces the cart lookup indexes by partial ones of active carts and drops events_id_idx; lookups and dispatch still find their rows', async () => {
      const storage = await open();
      try {
        const migrator = new Migrator({ db: storage.db, provider: createMigrationProvider(storage.dialect) });
        const { error } = await migrator.migrateTo('0003_storefront_documents');
        if (error) throw error;
        // Carts written before 0004: two of one session (the newer completed), one of a customer.
        // (rows of 0003's columns: today's repository writes columns later migrations add)
        await insertCartOf0003(storage, cart('cart_1', { session_id: 'sess_a', created_at: 1 }));
        await insertCartOf0003(storage, cart('cart_2', { session_id: 'sess_a', created_at: 2 }));
        await insertCartOf0003(storage, cart('cart_3', { customer_id: 'cus_1', created_at: 3 }));
        await storage.transaction((tx) => tx.carts.transition(scope, 'cart_2', 'active', 'completed', 4));
        const before = await indexNames(storage);
        expect(before.has('events_id_idx')).toBe(true);
        expect(before.has('carts_session_idx')).toBe(true);

        await storage.migrate();
        const after = await indexNames(storage);
        expect(after.has('events_id_idx')).toBe(false);
        expect(after.has('carts_session_idx')).toBe(false);
        expect(after.has('carts_customer_idx')).toBe(false);
        expect(after.has('carts_active_session_idx')).toBe(true);
        expect(after.has('carts_active_customer_idx')).toBe(true);
        expect(await sessionLookupPlan(storage)).toContain('carts_active_session_idx');

        // Lookups follow status changes: only active carts, newest first.
        expect((await storage.read((r) => r.carts.getActive(scope, { session_id: 'sess_a' })))?.id).toBe(
          'cart_1',
        );
        await storage.transaction(async (tx) => {
          await tx.carts.insert(
            cart('cart_4', { session_id: 'sess_a', customer_id: 'cus_1', created_at: 5 }),
          );
        });
        expect((await storage.read((r) => r.carts.getActive(scope, { session_id: 'sess_a' })))?.id).toBe(
          'cart_4',
        );
        expect(
          (
            await storage.read((r) =>
              r.carts.getActive(scope, { customer_id: 'cus_1', except_cart_id: 'cart_x' }),
            )
          )?.id,
        ).toBe('cart_4');
        expect(
          (
            await storage.read((r) =>
              r.carts.getActive(scope, { customer_id: 'cus_1', except_cart_id: 'cart_4' }),
            )
          )?.id,
        ).toBe('cart_3');
        await storage.transaction((tx) => tx.carts.transition(scope, 'cart_4', 'active', 'abandoned', 6));
        expect((await storage.read((r) => r.carts.getActive(scope, { session_id: 'sess_a' })))?.id).toBe(
          'cart_1',
        );
        expect(
          (
            await storage.read((r) =>
              r.carts.getActive(scope, { customer_id: 'cus_1', except_cart_id: 'cart_x' }),
            )
          )?.id,
        ).toBe('cart_3');
        await storage.transaction((tx) => tx.carts.transition(scope, 'cart_1', 'active', 'completed', 7));
        expect(await storage.read((r) => r.carts.getActive(scope, { session_id: 'sess_a' }))).toBeNull();

        // Dispatch marks its events by primary key, per scope; other scopes' events are untouched.
        const event = (id: string, mode: string, created_at: number): EventRecord => ({
          id,
          store_id: scope.store_id,
          mode: mode as Scope['mode'],
          type: 'order.created',
          data: { id },
          created_at,
        });
        await storage.transaction((tx) =>
          tx.events.append([event('evt_1', 'test', 1), event('evt_2', 'live', 2), event('evt_3', 'test', 3)]),
        );
        const dispatched = await storage.transaction((tx) =>
          tx.events.dispatch(2, 10, (e, w) => {
            throw new Error(`no webhooks expected: ${e.id} ${w.id}`);
          }),
        );
        expect(dispatched).toBe(2);
        const marks = await (storage.db as Kysely<Database>)
          .selectFrom('events')
          .select(['mode', 'id', 'dispatched_at'])
          .where('store_id', '=', scope.store_id)
          .orderBy('id')
          .execute();
        expect(
          marks.map((row) => [
            row.mode,
            row.id,
            row.dispatched_at === null ? null : Number(row.dispatched_at),
          ]),
        ).toEqual([
          ['test', 'evt_1', 10],
          ['live', 'evt_2', 10],
          ['test', 'evt_3', null],
        ]);
      } finally {
        await storage.close();
      }
    });
  });
}

onEveryEngine(describeMigration);
