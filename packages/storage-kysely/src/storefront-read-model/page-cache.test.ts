import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Scope } from '@cartwright/core';
import type { ProductAggregate, Repositories } from '@cartwright/core/storage';
import {
  adjustInventory,
  releaseInventory,
  reserveInventory,
  restockInventory,
  shipInventory,
  updateInventory,
} from '@cartwright/core/storage-rules';
import { productPageToWire, productToWire } from '@cartwright/core/wire';
import {
  createTestDatabase,
  dropTestDatabase,
  makeProduct,
  makeVariant,
  newScope,
} from '@cartwright/storage-conformance';
import { type Kysely, sql } from 'kysely';
import { afterAll, describe, expect, inject, it } from 'vitest';
import { testRun } from '../../../storage-conformance/src/test-engines';
import type { KyselyStorage } from '../kysely-storage';
import { postgresStorage } from '../postgres';
import type { Database } from '../schema/database';
import { sqliteStorage } from '../sqlite';
import { StorefrontPageCache, storefrontPageKey, storefrontProductKey } from './page-cache';

const PAGE = { limit: 20, sort: 'created_at' as const, order: 'desc' as const };
const LIVE = { status: 'active' as const };

describe('StorefrontPageCache', () => {
  it('serves a text only at the version it was kept under, and forgets it at another', () => {
    const cache = new StorefrontPageCache();
    cache.put('k', 3, '{"data":[]}');
    expect(cache.get('k', 3)).toBe('{"data":[]}');
    expect(cache.get('k', 4)).toBeUndefined();
    expect(cache.get('k', 3)).toBeUndefined();
    expect(cache.size).toBe(0);
    expect(cache.chars).toBe(0);
    expect([cache.hits, cache.misses]).toEqual([1, 2]);
  });

  it('is bounded by entries and by characters, least recently used out first; 0 entries turns it off', () => {
    const cache = new StorefrontPageCache({ maxEntries: 2, maxChars: 10 });
    cache.put('a', 1, 'aaa');
    cache.put('b', 1, 'bbb');
    cache.get('a', 1);
    cache.put('c', 1, 'ccc');
    expect([
      cache.get('a', 1) !== undefined,
      cache.get('b', 1) !== undefined,
      cache.get('c', 1) !== undefined,
    ]).toEqual([true, false, true]);
    cache.put('d', 1, 'dddddddd');
    expect(cache.chars).toBeLessThanOrEqual(10);
    expect(cache.get('d', 1)).toBeDefined();
    cache.put('big', 1, 'x'.repeat(11));
    expect(cache.get('big', 1)).toBeUndefined();
    cache.resize({ maxEntries: 0 });
    expect(cache.enabled).toBe(false);
    expect(cache.size).toBe(0);
  });

  it('keeps product texts beside pages under their own keys', () => {
    const cache = new StorefrontPageCache();
    const scope = { store_id: 'store_1', mode: 'test' };
    const productKey = storefrontProductKey(scope, 'id', 'prod_1', 'active');
    cache.put(productKey, 2, '{"id":"prod_1"}');
    cache.put(storefrontPageKey(scope, LIVE, PAGE), 2, '{"data":[{"id":"prod_1"}]}');
    expect(cache.get(productKey, 2)).toBe('{"id":"prod_1"}');
    expect(cache.get(storefrontPageKey(scope, LIVE, PAGE), 2)).toBe('{"data":[{"id":"prod_1"}]}');
    expect(storefrontProductKey(scope, 'slug', 'prod_1', 'active')).not.toBe(productKey);
    expect(storefrontProductKey(scope, 'id', 'prod_1', 'active')).not.toBe(
      storefrontPageKey(scope, LIVE, PAGE),
    );
    expect(cache.get(productKey, 3)).toBeUndefined();
    expect(cache.size).toBe(1);
  });

  it('keys by store, mode, filter and page request', () => {
    const scope = { store_id: 'store_1', mode: 'test' };
    const keys = new Set([
      storefrontPageKey(scope, LIVE, PAGE),
      storefrontPageKey({ ...scope, mode: 'live' }, LIVE, PAGE),
      storefrontPageKey({ ...scope, store_id: 'store_2' }, LIVE, PAGE),
      storefrontPageKey(scope, { ...LIVE, q: 'lamp' }, PAGE),
      storefrontPageKey(scope, LIVE, { ...PAGE, limit: 5 }),
      storefrontPageKey(scope, LIVE, { ...PAGE, starting_after: 'prod_1' }),
    ]);
    expect(keys.size).toBe(6);
  });
});

/** Two storages on one database: two server processes, as far as caches are concerned. */
interface Pair {
  reader: KyselyStorage;
  writer: KyselyStorage;
  close(): Promise<void>;
}

function describeAcrossStorages(name: string, openPair: () => Promise<Pair>): void {
  /** A test body run on a fresh pair of storages and a fresh scope; the pair is closed after it. */
  const withPair = (body: (pair: Pair, scope: Scope) => Promise<void>) => async () => {
    const pair = await openPair();
    try {
      await body(pair, newScope());
    } finally {
      await pair.close();
    }
  };
  describe(`storefront page cache across two storages on one database (${name})`, () => {
    it(
      'a page read again is served from memory until any change it shows commits in the other storage (then read once, exact); rolled-back changes keep it',
      withPair(async ({ reader, writer }, scope) => {
        const desk = makeProduct(scope, {
          name: 'Desk',
          prices: [5000, 5200],
          created_at: 1_700_000_000_001,
        });
        const lamp = makeProduct(scope, { name: 'Lamp', prices: [1500], created_at: 1_700_000_000_002 });
        await writer.transaction(async (tx) => {
          await tx.products.insert(desk);
          await tx.products.insert(lamp);
        });
        const [deskVariant, deskOther] = desk.variants;

        /**
         * The reader's page, checked against the object path read now (the truth); `served`:
         * whether the reader's cache served it (a hit) or read it (a miss).
         */
        const readPage = async (filter: object = LIVE, request: object = PAGE) => {
          const hits = reader.storefrontPages.hits;
          const text = await reader.storefront.listProducts(scope, filter, request as typeof PAGE);
          const objects = await writer.read((r) => r.products.list(scope, filter, request as typeof PAGE));
          expect(text).toBe(JSON.stringify(productPageToWire(objects, 'storefront')));
          return { text, hit: reader.storefrontPages.hits > hits };
        };
        /** A change committed by the writer. */
        const inWriter = (change: (tx: Repositories) => Promise<unknown>) => () => writer.transaction(change);
        const changes: Array<[string, () => Promise<unknown>]> = [
          [
            'a reservation',
            inWriter((tx) =>
              reserveInventory(tx, scope, [{ variant_id: deskVariant?.id as string, quantity: 2 }], 2),
            ),
          ],
          [
            'an adjustment',
            inWriter((tx) => adjustInventory(tx, scope, deskVariant?.inventory.id as string, 5, 3)),
          ],
          [
            'a shipment',
            inWriter((tx) =>
              shipInventory(
                tx,
                scope,
                [{ variant_id: deskVariant?.id as string, quantity: 1, from_reserved: 1 }],
                4,
              ),
            ),
          ],
          [
            'a restock',
            inWriter((tx) =>
              restockInventory(
                tx,
                scope,
                [{ variant_id: deskVariant?.id as string, from_reserved: 1, to_on_hand: 1 }],
                5,
              ),
            ),
          ],
          [
            'an inventory setting',
            inWriter((tx) =>
              updateInventory(tx, scope, deskOther?.inventory.id as string, {
                track_inventory: false,
                updated_at: 6,
              }),
            ),
          ],
          [
            'a rename',
            inWriter((tx) => tx.products.update(scope, lamp.id, { name: 'Lamp II', updated_at: 7 })),
          ],
          [
            'a new variant',
            () => {
              const added = makeVariant(desk, 5, 4000, { inventory: { on_hand: 2 } });
              return writer.transaction((tx) => tx.products.insertVariant(added, added.inventory));
            },
          ],
          [
            'a variant price',
            inWriter((tx) =>
              tx.products.updateVariant(scope, deskOther?.id as string, { price: 4100, updated_at: 8 }),
            ),
          ],
          [
            'archiving',
            inWriter((tx) => tx.products.update(scope, lamp.id, { status: 'archived', updated_at: 9 })),
          ],
          [
            'a new product',
            inWriter((tx) =>
              tx.products.insert(makeProduct(scope, { name: 'Chair', created_at: 1_700_000_000_003 })),
            ),
          ],
          ['a deletion', inWriter((tx) => tx.products.delete(scope, desk.id, 10))],
        ];

        /** The reader's product by id and by slug, checked against the object path read now. */
        const readProducts = async () => {
          for (const product of [desk, lamp]) {
            const truth = await writer.read((r) => r.products.get(scope, product.id));
            const expected =
              truth && truth.status === 'active' ? JSON.stringify(productToWire(truth, 'storefront')) : null;
            for (const [by, key] of [
              ['id', product.id],
              ['slug', truth?.slug ?? product.slug],
            ] as const) {
              for (let i = 0; i < 2; i++) {
                const text = await reader.storefront.getProduct(scope, by, key, 'active');
                expect(text, `${product.name} by ${by}`).toBe(expected);
              }
            }
          }
        };
        let previous = await readPage();
        expect(previous.hit).toBe(false);
        expect(await readPage()).toEqual({ text: previous.text, hit: true });
        await readProducts();
        for (const [what, change] of changes) {
          // Rolled back: nothing committed, so the page read before is still the page.
          await expect(
            writer.transaction(async (tx) => {
              await adjustInventory(tx, scope, deskVariant?.inventory.id as string, 7, 11);
              await tx.products.update(scope, lamp.id, { name: 'Never', updated_at: 11 });
              throw new Error('rolled back');
            }),
          ).rejects.toThrow('rolled back');
          expect(await readPage(), `${what}: after a rollback`).toEqual({ text: previous.text, hit: true });

          await change();
          const next = await readPage();
          expect(next.hit, what).toBe(false);
          // A shipment moves on_hand and reserved alike: the same `available`, read afresh.
          if (what !== 'a shipment') expect(next.text, what).not.toBe(previous.text);
          expect(await readPage(), `${what}: read again`).toEqual({ text: next.text, hit: true });
          await readProducts();
          previous = next;
        }
        expect(previous.text).toContain('Chair');
        expect(previous.text).not.toContain(lamp.id);
        expect(previous.text).not.toContain(desk.id);
      }),
    );

    it(
      'other filters, pages and scopes are kept apart; reads inside a transaction never use or fill the cache',
      withPair(async ({ reader, writer }, scope) => {
        const other: Scope = { store_id: scope.store_id, mode: 'live' };
        const products: ProductAggregate[] = Array.from({ length: 5 }, (_, i) =>
          makeProduct(scope, {
            name: `Stool ${i}`,
            prices: [100 * (i + 1)],
            created_at: 1_700_000_000_000 + i,
          }),
        );
        await writer.transaction(async (tx) => {
          for (const product of products) await tx.products.insert(product);
          await tx.products.insert(makeProduct(other, { name: 'Live stool' }));
        });
        /** A list response of the reader, and whether its cache served it. */
        const list = async (s: Scope, filter: object, request: object) => {
          const hits = reader.storefrontPages.hits;
          const text = await reader.storefront.listProducts(s, filter, request as typeof PAGE);
          return { text, hit: reader.storefrontPages.hits > hits, page: JSON.parse(text) };
        };
        const first = await list(scope, LIVE, { ...PAGE, limit: 2 });
        const cheap = await list(scope, { ...LIVE, price_max: 200 }, PAGE);
        const live = await list(other, LIVE, PAGE);
        expect([first.hit, cheap.hit, live.hit]).toEqual([false, false, false]);
        expect(first.page.data).toHaveLength(2);
        expect(first.page.has_more).toBe(true);
        expect(cheap.page.total_count).toBe(2);
        expect(live.text).toContain('Live stool');
        const second = await list(scope, LIVE, { ...PAGE, limit: 2, starting_after: first.page.next_cursor });
        expect(second.hit).toBe(false);
        expect(second.page.data).not.toEqual(first.page.data);
        expect(await list(scope, LIVE, { ...PAGE, limit: 2 })).toEqual({ ...first, hit: true });
        expect(await list(other, LIVE, PAGE)).toEqual({ ...live, hit: true });

        // A change in one mode leaves the other mode's pages kept.
        await writer.transaction((tx) =>
          tx.products.update(scope, products[0]?.id as string, { name: 'Renamed', updated_at: 5 }),
        );
        expect(await list(other, LIVE, PAGE)).toEqual({ ...live, hit: true });
        const renamed = await list(scope, { ...LIVE, price_max: 200 }, PAGE);
        expect(renamed.hit).toBe(false);
        expect(renamed.text).not.toBe(cheap.text);

        // Inside a transaction: read through it, neither served from nor added to the cache.
        const size = reader.storefrontPages.size;
        const counts = [reader.storefrontPages.hits, reader.storefrontPages.misses];
        const inside = await reader.transaction(() => reader.storefront.listProducts(other, LIVE, PAGE));
        expect(inside).toBe(live.text);
        expect([reader.storefrontPages.hits, reader.storefrontPages.misses]).toEqual(counts);
        expect(reader.storefrontPages.size).toBe(size);
      }),
    );

    it(
      'the catalog version moves with each committed change, once per transaction, and not with a rollback',
      withPair(async ({ reader, writer }, scope) => {
        const version = async () => {
          const rows = await sql<{ version: number | string }>`select version from catalog_versions
            where store_id = ${scope.store_id} and mode = ${scope.mode}`.execute(
            reader.db as Kysely<Database>,
          );
          return rows.rows.length === 0 ? 0 : Number(rows.rows[0]?.version);
        };
        expect(await version()).toBe(0);
        const product = makeProduct(scope, { prices: [100, 200, 300] });
        await writer.transaction((tx) => tx.products.insert(product));
        const afterInsert = await version();
        expect(afterInsert).toBeGreaterThan(0);
        await writer.transaction((tx) =>
          reserveInventory(
            tx,
            scope,
            product.variants.map((v) => ({ variant_id: v.id, quantity: 1 })),
            2,
          ),
        );
        const afterReserve = await version();
        // Postgres bumps once per transaction (bumped_xid); SQLite once per row.
        expect(afterReserve - afterInsert).toBe(writer.dialect === 'postgres' ? 1 : 3);
        await expect(
          writer.transaction(async (tx) => {
            await releaseInventory(
              tx,
              scope,
              [{ variant_id: product.variants[0]?.id as string, quantity: 1 }],
              3,
            );
            throw new Error('rolled back');
          }),
        ).rejects.toThrow('rolled back');
        expect(await version()).toBe(afterReserve);
        // Changes outside what pages show (safety stock, metadata) leave it alone on SQLite and
        // Postgres alike.
        await writer.transaction((tx) =>
          updateInventory(tx, scope, product.variants[0]?.inventory.id as string, {
            safety_stock: 4,
            updated_at: 4,
          }),
        );
        expect(await version()).toBe(afterReserve);
      }),
    );

    it(
      'a page and a product in a locale: a translation (and locale) written in the other storage shows at the next read (decisions §21)',
      withPair(async ({ reader, writer }, scope) => {
        const shirt = makeProduct(scope, { name: 'Shirt', prices: [2000], created_at: 1_700_000_000_001 });
        const at = 1_700_000_000_100;
        await writer.transaction(async (tx) => {
          await tx.products.insert(shirt);
          await tx.locales.insert({
            ...scope,
            id: 'lcl_ko',
            locale: 'ko',
            name: 'Korean',
            is_default: false,
            is_active: true,
            created_at: at,
          });
        });
        const translation = (value: string, id = 'tr_1') => ({
          ...scope,
          id,
          entity_type: 'product' as const,
          entity_id: shirt.id,
          owner_id: shirt.id,
          locale: 'ko',
          field: 'name',
          value,
          created_at: at,
          updated_at: at,
        });
        const ko = { locale: 'ko' };
        const name = async () => {
          const page = JSON.parse(await reader.storefront.listProducts(scope, LIVE, PAGE, ko)) as {
            data: { name: string }[];
          };
          const one = JSON.parse(
            (await reader.storefront.getProduct(scope, 'id', shirt.id, 'active', ko)) as string,
          ) as { name: string };
          expect(one.name).toBe(page.data[0]?.name);
          return one.name;
        };
        expect(await name()).toBe('Shirt');
        const hits = reader.storefrontPages.hits;
        expect(await name()).toBe('Shirt');
        expect(reader.storefrontPages.hits).toBe(hits + 2);
        // The base text's pages are kept apart from the locale's.
        const base = await reader.storefront.listProducts(scope, LIVE, PAGE);
        expect(base).toBe(
          JSON.stringify(
            productPageToWire(await writer.read((r) => r.products.list(scope, LIVE, PAGE)), 'storefront'),
          ),
        );

        await writer.transaction((tx) => tx.translations.upsert(translation('셔츠')));
        expect(await name()).toBe('셔츠');
        await writer.transaction((tx) => tx.translations.upsert(translation('티셔츠', 'tr_2')));
        expect(await name()).toBe('티셔츠');
        expect(await reader.storefront.listProducts(scope, LIVE, PAGE)).toBe(base);
        await writer.transaction((tx) => tx.translations.deleteForLocale(scope, 'ko'));
        expect(await name()).toBe('Shirt');

        // The locales, kept under the same version: a locale added in the other storage shows.
        expect((await reader.storefront.locales?.(scope))?.locales.map((l) => l.locale)).toEqual(['ko']);
        await writer.transaction((tx) =>
          tx.locales.insert({
            ...scope,
            id: 'lcl_fr',
            locale: 'fr',
            name: 'French',
            is_default: true,
            is_active: true,
            created_at: at + 1,
          }),
        );
        const kept = await reader.storefront.locales?.(scope);
        expect(kept?.locales.map((l) => [l.locale, l.is_default])).toEqual([
          ['ko', false],
          ['fr', true],
        ]);
        expect(kept?.version).toBeGreaterThan(0);
      }),
    );

    it(
      'a page and a product in a region: region prices, representative prices, regions and rates written in the other storage show at the next read (decisions §19)',
      withPair(async ({ reader, writer }, scope) => {
        const shirt = makeProduct(scope, { name: 'Shirt', prices: [2000], created_at: 1_700_000_000_001 });
        const variantId = shirt.variants[0]?.id as string;
        const at = 1_700_000_000_100;
        const region = {
          ...scope,
          id: 'reg_eu',
          name: 'Europe',
          code: 'eu',
          currency: 'EUR',
          tax_rate: 20,
          prices_include_tax: true,
          is_default: false,
          is_active: true,
          metadata: {},
          created_at: at,
          updated_at: at,
        };
        await writer.transaction(async (tx) => {
          await tx.products.insert(shirt);
          await tx.regions.insert(region);
          await tx.regionProductPrices.set(scope, region.id, [
            { product_id: shirt.id, price: 1800, compare_at_price: null },
          ]);
        });
        // 1 USD = 0.9 EUR.
        const options = {
          region: { id: region.id, currency: 'EUR', store_currency: 'USD', rate: { digits: 9n, scale: 1 } },
        };
        const filter = { ...LIVE, region_id: region.id, price_max: 1900 };
        const read = async () => {
          const page = JSON.parse(await reader.storefront.listProducts(scope, filter, PAGE, options)) as {
            data: { id: string }[];
          };
          const one = JSON.parse(
            (await reader.storefront.getProduct(scope, 'id', shirt.id, 'active', options)) as string,
          ) as { variants: { price: { amount: number; currency: string } | null }[] };
          return { listed: page.data.map((p) => p.id), price: one.variants[0]?.price };
        };
        expect(await read()).toEqual({ listed: [shirt.id], price: { amount: 1800, currency: 'EUR' } });
        const hits = reader.storefrontPages.hits;
        await read();
        expect(reader.storefrontPages.hits).toBe(hits + 2);
        // The store currency's product is kept apart from the region's.
        const plain = JSON.parse(
          (await reader.storefront.getProduct(scope, 'id', shirt.id, 'active')) as string,
        );
        expect(plain.variants[0].price).toEqual({ amount: 2000, currency: 'USD' });

        // A region price (`region_prices`).
        await writer.transaction((tx) =>
          tx.regions.upsertPrice({
            ...scope,
            id: 'rprice_1',
            region_id: region.id,
            variant_id: variantId,
            product_id: shirt.id,
            price: 1700,
            compare_at_price: null,
            created_at: at,
            updated_at: at,
          }),
        );
        expect((await read()).price).toEqual({ amount: 1700, currency: 'EUR' });
        // A representative price (`region_product_prices`) moves the list's filter: core writes it
        // in the transaction of the write that moved it (here a region price), never alone.
        await writer.transaction(async (tx) => {
          await tx.regions.upsertPrice({
            ...scope,
            id: 'rprice_1',
            region_id: region.id,
            variant_id: variantId,
            product_id: shirt.id,
            price: 2500,
            compare_at_price: null,
            created_at: at,
            updated_at: at + 1,
          });
          await tx.regionProductPrices.set(scope, region.id, [
            { product_id: shirt.id, price: 2500, compare_at_price: null },
          ]);
        });
        expect((await read()).listed).toEqual([]);

        // The regions and rates, kept under the same version: a region and a rate written in the other storage show.
        const first = await reader.storefront.regions?.(scope);
        expect(first?.regions.map((r) => [r.id, r.is_active])).toEqual([[region.id, true]]);
        expect(await reader.storefront.regions?.(scope)).toBe(first);
        await writer.transaction((tx) =>
          tx.regions.update(scope, region.id, { is_active: false, updated_at: at + 1 }),
        );
        const second = await reader.storefront.regions?.(scope);
        expect(second?.regions.map((r) => [r.id, r.is_active])).toEqual([[region.id, false]]);
        expect(second?.rates).toEqual([]);
        await writer.transaction((tx) =>
          tx.regions.upsertRate({
            ...scope,
            id: 'rate_1',
            from_currency: 'USD',
            to_currency: 'EUR',
            rate: '0.92',
            created_at: at,
            updated_at: at,
          }),
        );
        expect((await reader.storefront.regions?.(scope))?.rates.map((r) => r.rate)).toEqual(['0.92']);
      }),
    );
  });
}

describeAcrossStorages('SQLite file, two connections', async () => {
  const dir = mkdtempSync(join(tmpdir(), 'cartwright-pages-'));
  const filename = join(dir, 'shop.db');
  const writer = sqliteStorage({ filename });
  await writer.migrate();
  const reader = sqliteStorage({ filename });
  return {
    reader,
    writer,
    async close() {
      await reader.close();
      await writer.close();
      rmSync(dir, { recursive: true, force: true });
    },
  };
});

const databases: string[] = [];
afterAll(async () => {
  for (const url of databases) await dropTestDatabase(url);
});

// PostgreSQL when it is an engine of the run (test-engines.ts).
if (testRun().engines.includes('postgres'))
  describeAcrossStorages('Postgres, two pools', async () => {
    const error = inject('cartwrightPgError');
    if (error) throw new Error(error);
    const url = await createTestDatabase(inject('cartwrightPgUrl'));
    databases.push(url);
    const writer = postgresStorage({ connectionString: url });
    await writer.migrate();
    const reader = postgresStorage({ connectionString: url });
    return {
      reader,
      writer,
      async close() {
        await reader.close();
        await writer.close();
      },
    };
  });
