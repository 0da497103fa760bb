import { createEngine, type EngineOptions } from '@cartwright/core';
import { engineInternals } from '@cartwright/core/internal';
import type { OrganizationRecord, StoreRecord } from '@cartwright/core/storage';
import type { InventoryItem, Order } from '@headless-commerce/sdk';
import { describe, expect, inject, test } from 'vitest';
import { API_TARGETS, describeApi, type Target } from '../api/support/harness';
import { ADDRESS, createSellable, expectSdkError, type OurVariant, sdkClients, unique } from './support';

/**
 * decisions §22, as `@headless-commerce/sdk` 0.2.0 reads it:
 * - `store.adminGet()` shows `slug`, derived from the store's name (`My Store` → `my-store`), kept
 *   when the name changes, not an input of `adminUpdate`;
 * - `inventory.adminGet / adminList / adminUpdate / adminAdjust` show `variant_id`, `sku`,
 *   `track_inventory`, `allow_backorder`, `safety_stock` and `levels: [{ id, location_id:
 *   "sloc_default", on_hand, reserved, available, version }]` beside the flat fields, the level
 *   repeating them; `version` goes up by one with every stock change and only then;
 * - the storefront's inventory (inside variants) still hides `on_hand`, `reserved`, `safety_stock`
 *   and carries no levels.
 * Plus, on PostgreSQL and MariaDB: two processes creating the first store at once end with one
 * store (the unique slug makes the later one retry and find the other's).
 */

const SLUG = /^[a-z0-9]+(?:-[a-z0-9]+)*$/;

/** The one level of an item must repeat its flat levels. */
function expectConsistent(item: InventoryItem & { on_hand?: number; reserved?: number; available?: number }) {
  expect(item.levels).toHaveLength(1);
  const [level] = item.levels;
  expect(level).toEqual({
    id: `ilvl_${item.id.slice('inv_'.length)}`,
    location_id: 'sloc_default',
    on_hand: item.on_hand,
    reserved: item.reserved,
    available: item.available,
    version: expect.any(Number),
  });
  expect(level!.available).toBe(level!.on_hand - level!.reserved);
  return level!;
}

describeApi('sdk: store slug (decisions §22)', (api) => {
  test('store.adminGet shows the slug derived from the name; renaming keeps it; slug is not an input', async () => {
    const { admin, withKey } = sdkClients(api());
    const store = await admin.store.adminGet();
    expect(store.name).toBe('My Store');
    expect(store.slug).toBe('my-store');
    expect(store.slug).toMatch(SLUG);

    const renamed = await admin.store.adminUpdate({ name: 'Totally Different' });
    expect(renamed).toMatchObject({ id: store.id, name: 'Totally Different', slug: 'my-store' });
    expect((await admin.store.adminGet()).slug).toBe('my-store');

    // The SDK's UpdateStoreInput has no slug: sent anyway, it is refused and nothing changes.
    const refused = await expectSdkError(
      admin.store.adminUpdate({ slug: 'mine', name: 'Not Applied' } as never),
      400,
      'parameter_unknown',
    );
    const details = refused.details as unknown as Array<{ param: string }>;
    expect(details.map((d) => d.param)).toEqual(['slug']);
    expect(await admin.store.adminGet()).toMatchObject({ name: 'Totally Different', slug: 'my-store' });

    // The live-mode key sees the same store settings, slug included.
    const live = await withKey(api().keys.liveSecret).store.adminGet();
    expect(live).toMatchObject({ id: store.id, slug: 'my-store' });
    await admin.store.adminUpdate({ name: store.name });
  });
});

describeApi('sdk: inventory items with sku and levels (decisions §22)', (api) => {
  test('adminGet: variant_id, sku, settings and one sloc_default level repeating on_hand / reserved / available', async () => {
    const { admin } = sdkClients(api());
    const { inventory_id, variant } = await createSellable(admin, { on_hand: 12 });
    const item = await admin.inventory.adminGet(inventory_id);
    expect(item).toMatchObject({
      id: inventory_id,
      variant_id: variant.id,
      sku: variant.sku,
      track_inventory: true,
      allow_backorder: false,
      safety_stock: 0,
      on_hand: 12,
      reserved: 0,
      available: 12,
    });
    expect(variant.sku).toMatch(/^SKU-/);
    // createSellable's adjust was the level's first stock change.
    expect(expectConsistent(item)).toMatchObject({ on_hand: 12, reserved: 0, available: 12, version: 1 });
  });

  test('a variant without a SKU → sku null', async () => {
    const { admin } = sdkClients(api());
    const product = await admin.products.adminCreate({
      name: 'No SKU',
      slug: unique('nosku-').toLowerCase(),
    });
    const variant = (await admin.variants.adminCreate(product.id, { price: 500 })) as OurVariant;
    const item = await admin.inventory.adminGet(variant.inventory.id);
    expect(item).toMatchObject({ variant_id: variant.id, sku: null });
    expect(expectConsistent(item)).toMatchObject({ on_hand: 0, version: 0 });
  });

  test('version: +1 per stock change (adjust, absolute on_hand, checkout reservation, cancel release); settings, a zero adjust and refusals leave it', async () => {
    const { admin, storefront } = sdkClients(api());
    const { inventory_id, variant } = await createSellable(admin, { on_hand: 10 });
    const version = async () => expectConsistent(await admin.inventory.adminGet(inventory_id)).version;
    expect(await version()).toBe(1);

    const up = await admin.inventory.adminAdjust(inventory_id, { quantity: 5, reason: 'restock' });
    expect(up).toMatchObject({ on_hand: 15, available: 15 });
    expect(expectConsistent(up)).toMatchObject({ on_hand: 15, version: 2 });
    const down = await admin.inventory.adminAdjust(inventory_id, { quantity: -3 });
    expect(expectConsistent(down)).toMatchObject({ on_hand: 12, version: 3 });

    // Settings only: the level does not move.
    const settings = await admin.inventory.adminUpdate(inventory_id, {
      safety_stock: 4,
      allow_backorder: true,
    });
    expect(settings).toMatchObject({ safety_stock: 4, allow_backorder: true, on_hand: 12 });
    expect(expectConsistent(settings).version).toBe(3);
    // An adjust of 0 and an on_hand equal to the current one move nothing.
    expect(expectConsistent(await admin.inventory.adminAdjust(inventory_id, { quantity: 0 })).version).toBe(
      3,
    );
    // (`on_hand` is ours beside the SDK's UpdateInventoryInput.)
    const same = await admin.inventory.adminUpdate(inventory_id, { on_hand: 12 } as never);
    expect(expectConsistent(same).version).toBe(3);
    // An absolute on_hand that changes it does.
    const absolute = await admin.inventory.adminUpdate(inventory_id, {
      on_hand: 9,
      allow_backorder: false,
    } as never);
    expect(expectConsistent(absolute)).toMatchObject({ on_hand: 9, reserved: 0, version: 4 });

    // A checkout reserves: reserved and available move, in the level too.
    const cart = await storefront.carts.create();
    await storefront.carts.addItem(cart.id, { variant_id: variant.id, quantity: 3 });
    const placed = await storefront.checkout.create(cart.id, {
      email: `${unique('inv')}@example.com`,
      shipping_address: ADDRESS,
    });
    const reserved = await admin.inventory.adminGet(inventory_id);
    expect(reserved).toMatchObject({ on_hand: 9, reserved: 3, available: 6 });
    expect(expectConsistent(reserved)).toMatchObject({ reserved: 3, available: 6, version: 5 });

    // Below reserved: refused, nothing written.
    await expectSdkError(
      admin.inventory.adminAdjust(inventory_id, { quantity: -7 }),
      422,
      'insufficient_inventory',
    );
    expect(await version()).toBe(5);

    // Cancelling the order releases its reservation: one more change.
    await admin.orders.adminCancel((placed as unknown as Order).id, { reason: 'test' });
    const released = await admin.inventory.adminGet(inventory_id);
    expect(expectConsistent(released)).toMatchObject({ on_hand: 9, reserved: 0, available: 9, version: 6 });
  });

  test('adminList / adminListAutoPaginate / low_stock: the same items as adminGet, levels consistent', async () => {
    const { admin } = sdkClients(api());
    const a = await createSellable(admin, { on_hand: 3 });
    const b = await createSellable(admin, { on_hand: 8 });
    await admin.inventory.adminUpdate(a.inventory_id, { safety_stock: 5 });

    const page = await admin.inventory.adminList({ limit: 100 });
    expect(page.total_count).toBeGreaterThanOrEqual(2);
    for (const item of page.data) expectConsistent(item);
    const listed = new Map(page.data.map((item) => [item.id, item]));
    expect(listed.get(a.inventory_id)).toEqual(await admin.inventory.adminGet(a.inventory_id));
    expect(listed.get(b.inventory_id)).toEqual(await admin.inventory.adminGet(b.inventory_id));
    expect(listed.get(b.inventory_id)).toMatchObject({ sku: b.variant.sku, variant_id: b.variant.id });

    const low = await admin.inventory.adminList({ low_stock: 'true', limit: 100 });
    expect(low.data.map((item) => item.id)).toContain(a.inventory_id);
    expect(low.data.map((item) => item.id)).not.toContain(b.inventory_id);
    expect(low.data.find((item) => item.id === a.inventory_id)).toEqual(listed.get(a.inventory_id));

    const walked: InventoryItem[] = [];
    for await (const item of admin.inventory.adminListAutoPaginate({ limit: 1 })) walked.push(item);
    expect(walked.map((item) => item.id)).toEqual(page.data.map((item) => item.id));
    expect(walked.find((item) => item.id === b.inventory_id)).toEqual(listed.get(b.inventory_id));
  });

  test('the storefront’s inventory (inside variants) still hides on_hand, reserved and safety_stock, and has no levels', async () => {
    const { admin, storefront } = sdkClients(api());
    const { product, variant } = await createSellable(admin, { on_hand: 4 });
    const got = await storefront.products.get(product.id);
    const shown = got.variants.find((v) => v.id === variant.id) as OurVariant | undefined;
    expect(shown?.inventory).toEqual({
      id: variant.inventory.id,
      variant_id: variant.id,
      track_inventory: true,
      allow_backorder: false,
      safety_stock: null,
      on_hand: null,
      reserved: null,
      available: 4,
      metadata: {},
    });
    expect(shown?.stock).toBe(4);
  });
});

// ---------------------------------------------------------------- two processes, one new database

/** A raw statement for `Kysely#executeQuery` (this package does not depend on kysely itself). */
function raw(sql: string) {
  return {
    sql,
    parameters: [],
    query: { kind: 'RawNode', sqlFragments: [sql], parameters: [] },
    queryId: { queryId: 'served-store-inventory' },
  } as never;
}

interface SharedDatabase {
  open(): Promise<
    EngineOptions['storage'] & { db: { executeQuery(q: never): Promise<{ rows: unknown[] }> } }
  >;
  /** Statement counting the sessions of this database waiting for a lock (MariaDB: inserting a store). */
  lockWaits: string;
  dispose(): Promise<void>;
}

async function sharedDatabase(target: Exclude<Target, 'sqlite'>): Promise<SharedDatabase> {
  if (target === 'postgres') {
    const { postgresStorage } = await import('@cartwright/storage-kysely/postgres');
    const { createTestDatabase } = await import('@cartwright/storage-conformance/postgres-server');
    const serverUrl = inject('cartwrightPgUrl');
    if (!serverUrl) throw new Error(`PostgreSQL is not available: ${inject('cartwrightPgError')}`);
    const url = await createTestDatabase(serverUrl);
    return {
      open: async () => postgresStorage({ connectionString: url, max: 4 }) as never,
      lockWaits: `select count(*)::int as n from pg_stat_activity where datname = current_database() and wait_event_type = 'Lock'`,
      dispose: async () => {},
    };
  }
  const { mysqlStorage } = await import('@cartwright/storage-kysely/mysql');
  const { createMariadbTestDatabase, dropMariadbTestDatabase } = await import(
    '../../../storage-conformance/src/mariadb-server'
  );
  const serverUrl = inject('cartwrightMysqlUrl');
  if (!serverUrl) throw new Error(`MariaDB is not available: ${inject('cartwrightMysqlError')}`);
  const url = await createMariadbTestDatabase(serverUrl);
  return {
    open: async () => mysqlStorage({ connectionString: url, max: 4 }) as never,
    // The insert of process 2 in flight (it only stays listed while it waits): it read no store
    // and no slug before, so from here on it can only fail on the slug and retry.
    lockWaits:
      "select count(*) as n from information_schema.processlist where db = database() and command = 'Query' and info like 'insert into `stores`%'",
    dispose: () => dropMariadbTestDatabase(url),
  };
}

for (const target of API_TARGETS.filter((t): t is Exclude<Target, 'sqlite'> => t !== 'sqlite')) {
  describe(`store slug: two processes creating the first store at once [${target}]`, () => {
    test('the later insert waits on the unique slug, fails when the first commits, retries and returns the first’s store: one store in the end', async () => {
      const database = await sharedDatabase(target);
      const first = await database.open();
      const second = await database.open();
      const probe = await database.open();
      let engine: ReturnType<typeof engineInternals> | undefined;
      try {
        await first.migrate();
        const organization: OrganizationRecord = {
          id: 'org_race_first',
          name: 'Race Shop',
          plan: 'free',
          billing_email: null,
          metadata: {},
          created_at: 1,
          updated_at: 1,
        };
        const store: StoreRecord = {
          id: 'store_race_first',
          organization_id: organization.id,
          name: 'Race Shop',
          slug: 'race-shop',
          currency: 'USD',
          timezone: 'UTC',
          prices_include_tax: false,
          tax_rate: 0,
          return_window_days: null,
          metadata: {},
          created_at: 1,
          updated_at: 1,
        };
        // Process 1 creates the store and holds its transaction open.
        let commit!: () => void;
        const held = new Promise<void>((resolve) => {
          commit = resolve;
        });
        let inserted!: () => void;
        const insertedStore = new Promise<void>((resolve) => {
          inserted = resolve;
        });
        const creating = first.transaction(async (tx) => {
          await tx.organizations.insert(organization);
          await tx.stores.insert(store);
          inserted();
          await held;
        });
        await insertedStore;

        // Process 2 starts meanwhile: it sees no store yet, and its insert of the same slug waits.
        engine = engineInternals(await createEngine({ storage: second, migrate: false, rateLimits: false }));
        const ensuring = engine.store.ensureStore({ name: 'Race Shop' });
        const deadline = Date.now() + 10_000;
        for (;;) {
          const { rows } = await probe.db.executeQuery(raw(database.lockWaits));
          if (Number((rows[0] as { n: number | string }).n) > 0) break;
          if (Date.now() > deadline) throw new Error('process 2 never waited on the slug');
          await new Promise((resolve) => setTimeout(resolve, 20));
        }
        commit();
        await creating;

        const ensured = await ensuring;
        expect(ensured.store).toMatchObject({ id: store.id, slug: 'race-shop' });
        expect(ensured.organization.id).toBe(organization.id);
        const { rows } = await probe.db.executeQuery(
          raw('select (select count(*) from stores) as stores, (select count(*) from organizations) as orgs'),
        );
        const counts = rows[0] as { stores: number | string; orgs: number | string };
        expect([Number(counts.stores), Number(counts.orgs)]).toEqual([1, 1]);
      } finally {
        await Promise.allSettled([first.close(), probe.close(), engine ? engine.close() : second.close()]);
        await database.dispose();
      }
    }, 60_000);
  });
}
