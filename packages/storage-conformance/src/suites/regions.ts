import type { Scope } from '@cartwright/core';
import type {
  CurrencyRateRecord,
  RegionPriceRecord,
  RegionRecord,
  Repositories,
} from '@cartwright/core/storage';
import { describe, expect, it } from 'vitest';
import { expectCommerceError } from '../expect-error';
import { makeCart, makeOrder, newId, newScope, otherMode, RICH_METADATA } from '../fixtures';
import type { SuiteContext } from '../suite-context';

function makeRegion(scope: Scope, overrides: Partial<RegionRecord> = {}): RegionRecord {
  return {
    store_id: scope.store_id,
    mode: scope.mode,
    id: newId('reg'),
    name: 'Europe',
    code: newId('eu').toLowerCase(),
    currency: 'EUR',
    tax_rate: 20,
    prices_include_tax: true,
    is_default: false,
    is_active: true,
    metadata: {},
    created_at: 1_700_000_000_000,
    updated_at: 1_700_000_000_000,
    ...overrides,
  };
}

function makeRegionPrice(
  scope: Scope,
  region_id: string,
  overrides: Partial<RegionPriceRecord> = {},
): RegionPriceRecord {
  return {
    store_id: scope.store_id,
    mode: scope.mode,
    id: newId('rprice'),
    region_id,
    variant_id: newId('var'),
    product_id: 'prod_1',
    price: 1000,
    compare_at_price: null,
    created_at: 1_700_000_000_000,
    updated_at: 1_700_000_000_000,
    ...overrides,
  };
}

function makeRate(scope: Scope, overrides: Partial<CurrencyRateRecord> = {}): CurrencyRateRecord {
  return {
    store_id: scope.store_id,
    mode: scope.mode,
    id: newId('rate'),
    from_currency: 'USD',
    to_currency: 'EUR',
    rate: '0.92',
    created_at: 1_700_000_000_000,
    updated_at: 1_700_000_000_000,
    ...overrides,
  };
}

/** Regions, their prices and currency rates (decisions §19): the `RegionRepository` port. */
export function regionsSuite(ctx: SuiteContext): void {
  const insertRegions = (...regions: RegionRecord[]) =>
    ctx.tx(async (tx) => {
      for (const region of regions) await tx.regions.insert(region);
    });

  describe('regions', () => {
    it('round-trips a region; lists by name then id; get and getDefault are scoped', async () => {
      const scope = newScope();
      const b = makeRegion(scope, {
        name: 'Beta',
        currency: 'JPY',
        tax_rate: 8.875,
        prices_include_tax: false,
        is_default: true,
        is_active: false,
        metadata: RICH_METADATA,
      });
      const a2 = makeRegion(scope, { name: 'Alpha' });
      const a1 = makeRegion(scope, { name: 'Alpha' });
      await insertRegions(b, a2, a1);
      await ctx.tx((tx) => tx.regions.lock(scope));
      expect(await ctx.read((r) => r.regions.get(scope, b.id))).toEqual(b);
      expect((await ctx.read((r) => r.regions.list(scope))).map((r) => r.id)).toEqual(
        [a1.id, a2.id].sort().concat(b.id),
      );
      expect(await ctx.read((r) => r.regions.getDefault(scope))).toEqual(b);
      expect(await ctx.read((r) => r.regions.get(otherMode(scope), b.id))).toBeNull();
      expect(await ctx.read((r) => r.regions.getDefault(otherMode(scope)))).toBeNull();
      expect(await ctx.read((r) => r.regions.list(otherMode(scope)))).toEqual([]);
    });

    it('a duplicate code in the scope → 409 duplicate_code (param code); another mode may reuse it', async () => {
      const scope = newScope();
      const first = makeRegion(scope, { code: 'eu' });
      await insertRegions(first);
      await expectCommerceError(
        ctx.tx((tx) => tx.regions.insert(makeRegion(scope, { code: 'eu' }))),
        'duplicate_code',
        'code',
      );
      await insertRegions(makeRegion(otherMode(scope), { code: 'eu' }));
      expect(await ctx.read((r) => r.regions.list(scope))).toEqual([first]);
    });

    it('update writes the given fields; clearDefault clears every other default', async () => {
      const scope = newScope();
      const a = makeRegion(scope, { name: 'A', is_default: true });
      const b = makeRegion(scope, { name: 'B' });
      const other = makeRegion(otherMode(scope), { is_default: true });
      await insertRegions(a, b, other);
      const updated = await ctx.tx(async (tx) => {
        const row = await tx.regions.update(scope, b.id, {
          name: 'B2',
          currency: 'GBP',
          tax_rate: 17.5,
          prices_include_tax: false,
          is_default: true,
          is_active: false,
          metadata: { k: 'v' },
          updated_at: 5,
        });
        await tx.regions.clearDefault(scope, b.id);
        return row;
      });
      const expected = {
        ...b,
        name: 'B2',
        currency: 'GBP',
        tax_rate: 17.5,
        prices_include_tax: false,
        is_default: true,
        is_active: false,
        metadata: { k: 'v' },
        updated_at: 5,
      };
      expect(updated).toEqual(expected);
      expect(await ctx.read((r) => r.regions.get(scope, b.id))).toEqual(expected);
      expect(await ctx.read((r) => r.regions.get(scope, a.id))).toEqual({ ...a, is_default: false });
      expect(await ctx.read((r) => r.regions.getDefault(scope))).toEqual(expected);
      expect(await ctx.read((r) => r.regions.get(otherMode(scope), other.id))).toEqual(other);
      expect(
        await ctx.tx((tx) => tx.regions.update(scope, 'reg_missing', { name: 'x', updated_at: 6 })),
      ).toBeNull();
    });

    it('delete removes the region and its prices, moves its active carts to the fallback, keeps orders', async () => {
      const scope = newScope();
      const eu = makeRegion(scope);
      const us = makeRegion(scope, { currency: 'USD', is_default: true });
      await insertRegions(eu, us);
      const euPrice = makeRegionPrice(scope, eu.id);
      const usPrice = makeRegionPrice(scope, us.id, { variant_id: euPrice.variant_id });
      const active = makeCart(scope, { region_id: eu.id, currency: 'EUR' });
      const completed = makeCart(scope, { region_id: eu.id, currency: 'EUR', status: 'completed' });
      const elsewhere = makeCart(scope, { region_id: us.id, currency: 'USD' });
      const otherScope = makeCart(otherMode(scope), { region_id: eu.id, currency: 'EUR' });
      const order = makeOrder(scope, 1, { region_id: eu.id, currency: 'EUR' });
      await ctx.tx(async (tx) => {
        await tx.regions.upsertPrice(euPrice);
        await tx.regions.upsertPrice(usPrice);
        for (const cart of [active, completed, elsewhere, otherScope]) await tx.carts.insert(cart);
        await tx.orders.insert(order);
      });

      const deleted = await ctx.tx((tx) =>
        tx.regions.delete(scope, eu.id, { region_id: us.id, currency: 'USD' }),
      );
      expect(deleted).toEqual(eu);
      expect(await ctx.read((r) => r.regions.get(scope, eu.id))).toBeNull();
      expect(await ctx.read((r) => r.regions.pricesFor(scope, eu.id, [euPrice.variant_id]))).toEqual([]);
      expect(await ctx.read((r) => r.regions.pricesFor(scope, us.id, [usPrice.variant_id]))).toEqual([
        usPrice,
      ]);
      const cartOf = (s: Scope, id: string) => ctx.read((r) => r.carts.get(s, id));
      expect(await cartOf(scope, active.id)).toMatchObject({ region_id: us.id, currency: 'USD' });
      expect(await cartOf(scope, completed.id)).toMatchObject({ region_id: eu.id, currency: 'EUR' });
      expect(await cartOf(scope, elsewhere.id)).toMatchObject({ region_id: us.id, currency: 'USD' });
      expect(await cartOf(otherMode(scope), otherScope.id)).toMatchObject({
        region_id: eu.id,
        currency: 'EUR',
      });
      expect(await ctx.read((r) => r.orders.get(scope, order.id))).toMatchObject({
        region_id: eu.id,
        currency: 'EUR',
      });
      expect(
        await ctx.tx((tx) => tx.regions.delete(scope, eu.id, { region_id: us.id, currency: 'USD' })),
      ).toBeNull();

      // Without a fallback region, the carts keep the store's settings (region id null).
      const solo = makeRegion(scope);
      const cart = makeCart(scope, { region_id: solo.id, currency: 'EUR' });
      await ctx.tx(async (tx) => {
        await tx.regions.insert(solo);
        await tx.carts.insert(cart);
      });
      await ctx.tx((tx) => tx.regions.delete(scope, solo.id, { region_id: null, currency: 'GBP' }));
      expect(await cartOf(scope, cart.id)).toMatchObject({ region_id: null, currency: 'GBP' });
    });

    it('isInUse: a region price or an order of the region', async () => {
      const scope = newScope();
      const [idle, priced, ordered] = [makeRegion(scope), makeRegion(scope), makeRegion(scope)];
      await insertRegions(idle, priced, ordered);
      await ctx.tx(async (tx) => {
        await tx.regions.upsertPrice(makeRegionPrice(scope, priced.id));
        await tx.orders.insert(makeOrder(scope, 1, { region_id: ordered.id, currency: 'EUR' }));
        await tx.carts.insert(makeCart(scope, { region_id: idle.id, currency: 'EUR' }));
      });
      const inUse = (id: string) => ctx.read((r) => r.regions.isInUse(scope, id));
      expect(await inUse(idle.id)).toBe(false);
      expect(await inUse(priced.id)).toBe(true);
      expect(await inUse(ordered.id)).toBe(true);
      expect(await ctx.read((r) => r.regions.isInUse(otherMode(scope), priced.id))).toBe(false);
    });
  });

  describe('region prices', () => {
    it('upsertPrice inserts, then replaces price, compare_at_price and updated_at keeping id and created_at', async () => {
      const scope = newScope();
      const region = makeRegion(scope);
      await insertRegions(region);
      const first = makeRegionPrice(scope, region.id, {
        compare_at_price: 1500,
        created_at: 10,
        updated_at: 10,
      });
      expect(await ctx.tx((tx) => tx.regions.upsertPrice(first))).toEqual(first);
      const replaced = await ctx.tx((tx) =>
        tx.regions.upsertPrice({
          ...first,
          id: newId('rprice'),
          price: 900,
          compare_at_price: null,
          created_at: 20,
          updated_at: 20,
        }),
      );
      const expected = { ...first, price: 900, compare_at_price: null, updated_at: 20 };
      expect(replaced).toEqual(expected);
      expect(
        await ctx.read((r) => r.regions.pricesFor(scope, region.id, [first.variant_id, 'var_none'])),
      ).toEqual([expected]);
      expect(await ctx.read((r) => r.regions.pricesFor(scope, region.id, []))).toEqual([]);
    });

    it('concurrent upserts of one pair end with one row', async () => {
      const scope = newScope();
      const region = makeRegion(scope);
      await insertRegions(region);
      const variant_id = newId('var');
      const pool = await ctx.openStorages(
        ctx.options.sharedDatabase ? (ctx.options.concurrentStorages ?? 4) : 1,
      );
      try {
        const attempts = Array.from({ length: 16 }, (_, i) =>
          makeRegionPrice(scope, region.id, { variant_id, price: 100 + i, created_at: i, updated_at: i }),
        );
        const answers = await Promise.all(
          attempts.map((record, i) =>
            pool.storages[i % pool.storages.length]!.transaction((tx) => tx.regions.upsertPrice(record)),
          ),
        );
        const rows = await ctx.read((r) => r.regions.listPrices(scope, region.id, { limit: 10 }));
        expect(rows.data).toHaveLength(1);
        const row = rows.data[0]!;
        expect(attempts.map((a) => a.id)).toContain(row.id);
        expect(new Set(answers.map((a) => a.id))).toEqual(new Set([row.id]));
        expect(attempts.map((a) => a.price)).toContain(row.price);
      } finally {
        await pool.close();
      }
    });

    it('listPrices pages by id both ways with has_more and total_count; variant_id filters; a bad cursor → 400', async () => {
      const scope = newScope();
      const region = makeRegion(scope);
      const other = makeRegion(scope);
      await insertRegions(region, other);
      const prices = Array.from({ length: 5 }, () => makeRegionPrice(scope, region.id));
      const foreign = makeRegionPrice(scope, other.id);
      await ctx.tx(async (tx) => {
        for (const price of [...prices].reverse()) await tx.regions.upsertPrice(price);
        await tx.regions.upsertPrice(foreign);
      });
      const list = (options: Parameters<Repositories['regions']['listPrices']>[2]) =>
        ctx.read((r) => r.regions.listPrices(scope, region.id, options));
      const ids = prices.map((p) => p.id).sort();

      const first = await list({ limit: 2 });
      expect(first).toEqual({
        data: ids.slice(0, 2).map((id) => prices.find((p) => p.id === id)),
        has_more: true,
        total_count: 5,
      });
      const second = await list({ limit: 2, starting_after: ids[1]! });
      expect(second.data.map((p) => p.id)).toEqual(ids.slice(2, 4));
      expect(second).toMatchObject({ has_more: true, total_count: 5 });
      const last = await list({ limit: 2, starting_after: ids[3]! });
      expect(last.data.map((p) => p.id)).toEqual(ids.slice(4));
      expect(last).toMatchObject({ has_more: false, total_count: 5 });
      const before = await list({ limit: 2, ending_before: ids[4]! });
      expect(before.data.map((p) => p.id)).toEqual(ids.slice(2, 4));
      expect(before.has_more).toBe(true);
      const start = await list({ limit: 2, ending_before: ids[1]! });
      expect(start.data.map((p) => p.id)).toEqual(ids.slice(0, 1));
      expect(start.has_more).toBe(false);
      expect(await list({ limit: 10 })).toMatchObject({ has_more: false, total_count: 5 });

      const target = prices[2]!;
      expect(await list({ limit: 10, variant_id: target.variant_id })).toEqual({
        data: [target],
        has_more: false,
        total_count: 1,
      });
      expect(await list({ limit: 10, variant_id: foreign.variant_id })).toEqual({
        data: [],
        has_more: false,
        total_count: 0,
      });
      await expectCommerceError(
        list({ limit: 2, starting_after: foreign.id }),
        'parameter_invalid',
        'starting_after',
      );
      await expectCommerceError(
        list({ limit: 2, ending_before: 'rprice_missing' }),
        'parameter_invalid',
        'ending_before',
      );
      expect(await ctx.read((r) => r.regions.listPrices(otherMode(scope), region.id, { limit: 10 }))).toEqual(
        {
          data: [],
          has_more: false,
          total_count: 0,
        },
      );
    });

    it('pricesForProducts answers every region of the scope; deletePrice removes the pair', async () => {
      const scope = newScope();
      const [eu, uk] = [makeRegion(scope), makeRegion(scope, { currency: 'GBP' })];
      await insertRegions(eu, uk);
      const a1 = makeRegionPrice(scope, eu.id, { product_id: 'prod_a' });
      const a2 = makeRegionPrice(scope, uk.id, { product_id: 'prod_a', variant_id: a1.variant_id });
      const b = makeRegionPrice(scope, eu.id, { product_id: 'prod_b' });
      const c = makeRegionPrice(scope, eu.id, { product_id: 'prod_c' });
      await ctx.tx(async (tx) => {
        for (const price of [a1, a2, b, c]) await tx.regions.upsertPrice(price);
      });
      const byId = (rows: RegionPriceRecord[]) => [...rows].sort((x, y) => (x.id < y.id ? -1 : 1));
      expect(
        byId(await ctx.read((r) => r.regions.pricesForProducts(scope, ['prod_a', 'prod_b', 'prod_z']))),
      ).toEqual(byId([a1, a2, b]));
      expect(await ctx.read((r) => r.regions.pricesForProducts(scope, []))).toEqual([]);
      expect(await ctx.read((r) => r.regions.pricesForProducts(otherMode(scope), ['prod_a']))).toEqual([]);

      expect(await ctx.tx((tx) => tx.regions.deletePrice(scope, eu.id, a1.variant_id))).toEqual(a1);
      expect(await ctx.tx((tx) => tx.regions.deletePrice(scope, eu.id, a1.variant_id))).toBeNull();
      expect(byId(await ctx.read((r) => r.regions.pricesForProducts(scope, ['prod_a'])))).toEqual([a2]);
    });
  });

  describe('currency rates', () => {
    it('upsertRate inserts or replaces rate and updated_at (id and created_at kept, text exact); list by from then to; get; delete', async () => {
      const scope = newScope();
      const usdEur = makeRate(scope, { rate: '0.920000000001', created_at: 1, updated_at: 1 });
      const eurUsd = makeRate(scope, { from_currency: 'EUR', to_currency: 'USD', rate: '1.0825' });
      const usdJpy = makeRate(scope, { to_currency: 'JPY', rate: '151.5' });
      const gbpEur = makeRate(scope, { from_currency: 'GBP', rate: '1.17' });
      await ctx.tx(async (tx) => {
        for (const rate of [usdEur, eurUsd, usdJpy, gbpEur])
          expect(await tx.regions.upsertRate(rate)).toEqual(rate);
      });
      const replaced = await ctx.tx((tx) =>
        tx.regions.upsertRate({ ...usdEur, id: newId('rate'), rate: '0.9', created_at: 2, updated_at: 2 }),
      );
      expect(replaced).toEqual({ ...usdEur, rate: '0.9', updated_at: 2 });
      expect(await ctx.read((r) => r.regions.listRates(scope))).toEqual([
        eurUsd,
        gbpEur,
        { ...usdEur, rate: '0.9', updated_at: 2 },
        usdJpy,
      ]);
      expect(await ctx.read((r) => r.regions.getRate(scope, 'EUR', 'USD'))).toEqual(eurUsd);
      expect(await ctx.read((r) => r.regions.getRate(scope, 'USD', 'GBP'))).toBeNull();
      expect(await ctx.read((r) => r.regions.getRate(otherMode(scope), 'EUR', 'USD'))).toBeNull();
      expect(await ctx.tx((tx) => tx.regions.deleteRate(otherMode(scope), eurUsd.id))).toBeNull();
      expect(await ctx.tx((tx) => tx.regions.deleteRate(scope, eurUsd.id))).toEqual(eurUsd);
      expect(await ctx.tx((tx) => tx.regions.deleteRate(scope, eurUsd.id))).toBeNull();
      expect((await ctx.read((r) => r.regions.listRates(scope))).map((r) => r.id)).toEqual([
        gbpEur.id,
        usdEur.id,
        usdJpy.id,
      ]);
    });

    it('concurrent upserts of one pair end with one row', async () => {
      const scope = newScope();
      const pool = await ctx.openStorages(
        ctx.options.sharedDatabase ? (ctx.options.concurrentStorages ?? 4) : 1,
      );
      try {
        const attempts = Array.from({ length: 16 }, (_, i) => makeRate(scope, { rate: `1.${i + 1}` }));
        const answers = await Promise.all(
          attempts.map((record, i) =>
            pool.storages[i % pool.storages.length]!.transaction((tx) => tx.regions.upsertRate(record)),
          ),
        );
        const rows = await ctx.read((r) => r.regions.listRates(scope));
        expect(rows).toHaveLength(1);
        expect(new Set(answers.map((a) => a.id))).toEqual(new Set([rows[0]!.id]));
      } finally {
        await pool.close();
      }
    });
  });
}
