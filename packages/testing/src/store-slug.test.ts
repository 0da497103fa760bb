import { CommerceError, createEngine, type Engine } from '@cartwright/core';
import { engineInternals } from '@cartwright/core/internal';
import { createSequentialIdGenerator } from '@cartwright/core/providers';
import type { OrganizationRecord, Storage, StoreRecord } from '@cartwright/core/storage';
import { afterEach, describe, expect, test } from 'vitest';
import { createTestEngine, type TestEngine } from './create-test-engine';
import { openMemoryStorage } from './memory-storage';
import { createSeededCrypto } from './seeded-crypto';

/**
 * The store's `slug` (decisions §22) through the engine on real (in-memory SQLite) storage: derived
 * from the name when the store is created, given once to a store that has none when it is first
 * loaded (`ensureStore` at every start, or a read of its settings), unique across the database
 * (a short suffix when the name's slug is taken), and stable when the name changes.
 */

const closers: Array<() => Promise<void>> = [];
afterEach(async () => {
  for (const close of closers.splice(0)) await close();
});

async function testEngine(options?: Parameters<typeof createTestEngine>[0]): Promise<TestEngine> {
  const t = await createTestEngine(options);
  closers.push(() => t.close());
  return t;
}

const ORGANIZATION: OrganizationRecord = {
  id: 'org_slugs',
  name: 'Slugs',
  plan: 'free',
  billing_email: null,
  metadata: {},
  created_at: 1,
  updated_at: 1,
};

function storeRecord(id: string, name: string, slug: string | null, created_at: number): StoreRecord {
  return {
    id,
    organization_id: ORGANIZATION.id,
    name,
    slug,
    currency: 'USD',
    timezone: 'UTC',
    prices_include_tax: false,
    tax_rate: 0,
    return_window_days: null,
    metadata: {},
    created_at,
    updated_at: created_at,
  };
}

/** An in-memory storage holding the organization and these stores, written directly (as an older release or another tool would). */
async function storageWith(stores: StoreRecord[]): Promise<Storage> {
  const storage = await openMemoryStorage();
  await storage.transaction(async (tx) => {
    await tx.organizations.insert(ORGANIZATION);
    for (const store of stores) await tx.stores.insert(store);
  });
  return storage;
}

/** An engine over `storage` (not migrated again). */
async function engineOn(storage: Storage): Promise<Engine> {
  const engine = await createEngine({
    storage,
    migrate: false,
    ids: createSequentialIdGenerator(),
    crypto: createSeededCrypto('store-slugs'),
    rateLimits: false,
  });
  closers.push(() => engine.close());
  return engine;
}

describe('store slug (decisions §22)', () => {
  test('a new store’s slug comes from its name; it stays when the name changes and is not an input', async () => {
    const t = await testEngine({ store: { name: 'Café du Coin!' } });
    const store = await t.store.settings.get();
    expect(store.slug).toBe('cafe-du-coin');

    const renamed = await t.store.settings.update({ name: 'Brand New Name' });
    expect(renamed).toMatchObject({ name: 'Brand New Name', slug: 'cafe-du-coin' });
    expect((await t.store.settings.get()).slug).toBe('cafe-du-coin');

    const refused = await t.store.settings.update({ slug: 'mine' } as never).then(
      () => undefined,
      (error: unknown) => error,
    );
    expect(CommerceError.is(refused) && { code: refused.code, param: refused.param }).toEqual({
      code: 'parameter_unknown',
      param: 'slug',
    });
    expect((await t.store.settings.get()).slug).toBe('cafe-du-coin');
  });

  test('a store without a slug gets one the first time the engine loads it at start; later starts keep it', async () => {
    const storage = await storageWith([storeRecord('store_old', 'Old Shop', null, 1)]);
    const first = engineInternals(await engineOn(storage));
    const { store } = await first.store.ensureStore();
    expect(store).toMatchObject({ id: 'store_old', slug: 'old-shop', updated_at: 1 });
    expect(await storage.read((r) => r.stores.get('store_old'))).toMatchObject({ slug: 'old-shop' });

    // Renamed, then started again: the slug does not follow the name.
    await first.forStore({ store_id: 'store_old', mode: 'test' }).settings.update({ name: 'Renamed' });
    const again = await engineInternals(await engineOn(storage)).store.ensureStore();
    expect(again.store).toMatchObject({ id: 'store_old', name: 'Renamed', slug: 'old-shop' });
  });

  test('two stores with the same name get distinct slugs: the name’s slug, then the name’s slug with a short suffix', async () => {
    const storage = await storageWith([
      // The engine's store (the first): created before slugs, so it has none yet.
      storeRecord('store_first', 'Corner Shop', null, 1),
      // Another store of the same database that already has the name's slug.
      storeRecord('store_other', 'Corner Shop', 'corner-shop', 2),
      // A third one without a slug, reached through its own scope only.
      storeRecord('store_third', 'Corner Shop', null, 3),
    ]);
    const engine = engineInternals(await engineOn(storage));
    const { store } = await engine.store.ensureStore();
    expect(store.id).toBe('store_first');
    expect(store.slug).toMatch(/^corner-shop-[a-z0-9]{6}$/);

    const other = await engine.forStore({ store_id: 'store_other', mode: 'test' }).settings.get();
    expect(other.slug).toBe('corner-shop');
    const third = await engine.forStore({ store_id: 'store_third', mode: 'live' }).settings.get();
    expect(third.slug).toMatch(/^corner-shop-[a-z0-9]{6}$/);

    const slugs = await storage.read(async (r) =>
      Promise.all(
        ['store_first', 'store_other', 'store_third'].map(async (id) => (await r.stores.get(id))?.slug),
      ),
    );
    expect(new Set(slugs).size).toBe(3);
    // Each is kept: loading again changes nothing.
    expect((await engine.store.ensureStore()).store.slug).toBe(store.slug);
    expect((await engine.forStore({ store_id: 'store_third', mode: 'test' }).settings.get()).slug).toBe(
      third.slug,
    );
  });

  test('the storage refuses a second store with a slug already taken (the unique index core relies on)', async () => {
    const storage = await storageWith([storeRecord('store_a', 'A', 'same', 1)]);
    closers.push(() => storage.close());
    const refused = await storage
      .transaction((tx) => tx.stores.insert(storeRecord('store_b', 'B', 'same', 2)))
      .then(
        () => undefined,
        (error: unknown) => error,
      );
    expect(CommerceError.is(refused) && { code: refused.code, param: refused.param }).toEqual({
      code: 'duplicate_slug',
      param: 'slug',
    });
    expect(await storage.read((r) => r.stores.get('store_b'))).toBeNull();
  });
});
