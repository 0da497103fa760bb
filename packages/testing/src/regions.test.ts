import { afterEach, describe, expect, test } from 'vitest';
import { expectCode } from './commerce-error.test-support';
import { createTestEngine, type TestEngine } from './create-test-engine';

/**
 * Regions, region prices and currency rates through the engine (decisions §19): the admin rules
 * (codes, currencies, the one default, the currency lock, deletes) and the prices and rates kept
 * exactly. The HTTP suite (packages/http/test/api/regions.test.ts) asserts the wire on every
 * engine; the SDK suite (packages/http/test/sdk/served-regions.test.ts) the client's 9 methods.
 */

let t: TestEngine | undefined;
afterEach(async () => {
  await t?.close();
  t = undefined;
});

async function tee(engine: TestEngine, price = 2000) {
  const product = await engine.store.products.create({
    name: 'Tee',
    status: 'active',
    variants: [{ sku: `TEE-${price}`, price, inventory: { on_hand: 5 } }],
  });
  const variant = product.variants[0];
  if (!variant) throw new Error('no variant');
  return { product, variant };
}

describe('regions', () => {
  test('create: defaults from the store, currency upper-cased, listed by name in one page', async () => {
    t = await createTestEngine({ store: { tax_rate: 8.875, prices_include_tax: false } });
    const us = await t.store.regions.create({ name: 'United States', code: 'us', currency: 'usd' });
    expect(us).toEqual({
      id: expect.stringMatching(/^reg_/),
      name: 'United States',
      code: 'us',
      currency: 'USD',
      tax_rate: 8.875,
      prices_include_tax: false,
      is_default: false,
      is_active: true,
      metadata: {},
      created_at: '2025-01-01T00:00:00.000Z',
      updated_at: '2025-01-01T00:00:00.000Z',
    });
    const eu = await t.store.regions.create({
      name: 'Europe',
      code: 'eu',
      currency: 'EUR',
      tax_rate: 20,
      prices_include_tax: true,
      metadata: { vat: 'included' },
    });
    expect(eu).toMatchObject({ tax_rate: 20, prices_include_tax: true, metadata: { vat: 'included' } });
    expect(await t.store.regions.get(eu.id)).toEqual(eu);
    expect(await t.store.regions.list()).toEqual({
      data: [eu, us],
      total_count: 2,
      has_more: false,
      next_cursor: null,
    });
    // The other mode has regions of its own.
    const live = t.engine.forStore({ ...t.scope, mode: 'live' });
    expect((await live.regions.list()).data).toEqual([]);
    await expectCode(live.regions.get(eu.id), 'not_found');
  });

  test('code unique per store and mode (409 duplicate_code) and fixed (parameter_unknown in PATCH)', async () => {
    t = await createTestEngine();
    const eu = await t.store.regions.create({ name: 'Europe', code: 'eu', currency: 'EUR' });
    await expectCode(
      t.store.regions.create({ name: 'Again', code: 'eu', currency: 'GBP' }),
      'duplicate_code',
      'code',
    );
    await expectCode(t.store.regions.update(eu.id, { code: 'europe' } as never), 'parameter_unknown', 'code');
    await expectCode(
      t.store.regions.create({ name: 'Gold', code: 'au', currency: 'XAU' }),
      'parameter_invalid',
      'currency',
    );
    await expectCode(
      t.store.regions.create({ name: 'Bad', code: 'E U', currency: 'EUR' }),
      'parameter_invalid',
      'code',
    );
    // The same code in the other mode is another region.
    const live = t.engine.forStore({ ...t.scope, mode: 'live' });
    expect((await live.regions.create({ name: 'Europe', code: 'eu', currency: 'EUR' })).code).toBe('eu');
    expect((await t.store.regions.list()).data.map((r) => r.id)).toEqual([eu.id]);
  });

  test('at most one default: setting is_default clears the other (create and PATCH)', async () => {
    t = await createTestEngine();
    const a = await t.store.regions.create({ name: 'A', code: 'a', currency: 'USD', is_default: true });
    const b = await t.store.regions.create({ name: 'B', code: 'b', currency: 'EUR', is_default: true });
    const defaults = async () =>
      (await t?.store.regions.list())?.data.filter((r) => r.is_default).map((r) => r.id);
    expect(await defaults()).toEqual([b.id]);
    t.clock.advance(1000);
    const updated = await t.store.regions.update(a.id, { is_default: true, name: 'A2' });
    expect(updated).toMatchObject({ is_default: true, name: 'A2', updated_at: '2025-01-01T00:00:01.000Z' });
    expect(await defaults()).toEqual([a.id]);
    await t.store.regions.update(a.id, { is_default: false });
    expect(await defaults()).toEqual([]);
  });

  test('at most 200 regions per store and mode (400 parameter_invalid, nothing created)', async () => {
    t = await createTestEngine();
    for (let i = 0; i < 200; i++) {
      await t.store.regions.create({ name: `R${i}`, code: `r${i}`, currency: 'EUR' });
    }
    await expectCode(
      t.store.regions.create({ name: 'One more', code: 'r200', currency: 'EUR' }),
      'parameter_invalid',
      'code',
    );
    expect((await t.store.regions.list()).total_count).toBe(200);
  });

  test('currency: changes freely until the region has a price (409 currency_locked), then only to itself', async () => {
    t = await createTestEngine();
    const { variant } = await tee(t);
    const eu = await t.store.regions.create({ name: 'Europe', code: 'eu', currency: 'EUR' });
    expect((await t.store.regions.update(eu.id, { currency: 'gbp' })).currency).toBe('GBP');
    await t.store.regionPrices.upsert(eu.id, { variant_id: variant.id, price: 1500 });
    await expectCode(
      t.store.regions.update(eu.id, { currency: 'EUR', name: 'Nope' }),
      'currency_locked',
      'currency',
    );
    expect(await t.store.regions.get(eu.id)).toMatchObject({ currency: 'GBP', name: 'Europe' });
    // The same currency again is no change.
    expect((await t.store.regions.update(eu.id, { currency: 'GBP', name: 'UK' })).name).toBe('UK');
    await t.store.regionPrices.delete(eu.id, variant.id);
    expect((await t.store.regions.update(eu.id, { currency: 'EUR' })).currency).toBe('EUR');
  });

  test('currency: locked once an order was placed in the region (409 currency_locked)', async () => {
    t = await createTestEngine();
    const { variant } = await tee(t, 2000);
    const jp = await t.store.regions.create({ name: 'Japan', code: 'jp', currency: 'JPY' });
    await t.store.currencyRates.upsert({ from_currency: 'USD', to_currency: 'JPY', rate: 151.37 });
    const cart = await t.store.carts.create({
      region_id: jp.id,
      items: [{ variant_id: variant.id, quantity: 1 }],
    });
    const order = await t.checkout(cart.id);
    expect(order.total).toMatchObject({ currency: 'JPY' });
    await expectCode(t.store.regions.update(jp.id, { currency: 'KRW' }), 'currency_locked', 'currency');
    expect((await t.store.regions.get(jp.id)).currency).toBe('JPY');
  });

  test('delete: the region and its prices go; 404 afterwards', async () => {
    t = await createTestEngine();
    const { variant } = await tee(t);
    const eu = await t.store.regions.create({
      name: 'Europe',
      code: 'eu',
      currency: 'EUR',
      is_default: true,
    });
    await t.store.regionPrices.upsert(eu.id, { variant_id: variant.id, price: 1500 });
    expect(await t.store.regions.delete(eu.id)).toEqual({ id: eu.id, deleted: true });
    await expectCode(t.store.regions.get(eu.id), 'not_found');
    await expectCode(t.store.regions.delete(eu.id), 'not_found');
    await expectCode(t.store.regionPrices.list(eu.id), 'not_found');
    // The code is free again, and the new region has no prices.
    const again = await t.store.regions.create({ name: 'Europe', code: 'eu', currency: 'EUR' });
    expect((await t.store.regionPrices.list(again.id)).data).toEqual([]);
  });

  test("delete: the region's carts fall back to the default region, then to the store currency", async () => {
    t = await createTestEngine();
    const { variant } = await tee(t, 2000);
    const eu = await t.store.regions.create({
      name: 'Europe',
      code: 'eu',
      currency: 'EUR',
      is_default: true,
    });
    const jp = await t.store.regions.create({ name: 'Japan', code: 'jp', currency: 'JPY' });
    await t.store.regionPrices.upsert(eu.id, { variant_id: variant.id, price: 1850 });
    await t.store.regionPrices.upsert(jp.id, { variant_id: variant.id, price: 3000 });
    const cart = await t.store.carts.create({
      region_id: jp.id,
      items: [{ variant_id: variant.id, quantity: 1 }],
    });
    expect(cart).toMatchObject({ region_id: jp.id, currency: 'JPY' });
    await t.store.regions.delete(jp.id);
    // Re-priced in the default region: its own price there.
    expect(await t.store.carts.get(cart.id)).toMatchObject({
      region_id: eu.id,
      currency: 'EUR',
      items: [{ unit_price: { amount: 1850, currency: 'EUR' } }],
    });
    await t.store.regions.delete(eu.id);
    expect(await t.store.carts.get(cart.id)).toMatchObject({
      region_id: null,
      currency: 'USD',
      items: [{ unit_price: { amount: 2000, currency: 'USD' } }],
    });
  });

  test('the storefront lists the active regions only', async () => {
    t = await createTestEngine();
    const eu = await t.store.regions.create({ name: 'Europe', code: 'eu', currency: 'EUR' });
    const jp = await t.store.regions.create({ name: 'Japan', code: 'jp', currency: 'JPY', is_active: false });
    expect((await t.storefront().regions.listStorefront()).data.map((r) => r.id)).toEqual([eu.id]);
    await t.store.regions.update(jp.id, { is_active: true });
    await t.store.regions.update(eu.id, { is_active: false });
    expect((await t.storefront().regions.listStorefront()).data.map((r) => r.id)).toEqual([jp.id]);
  });
});

describe('region prices', () => {
  test('PUT creates, then replaces the (region, variant) pair, keeping id and created_at', async () => {
    t = await createTestEngine();
    const { variant } = await tee(t);
    const jp = await t.store.regions.create({ name: 'Japan', code: 'jp', currency: 'JPY' });
    const first = await t.store.regionPrices.upsert(jp.id, {
      variant_id: variant.id,
      price: 3000,
      compare_at_price: 3500,
    });
    expect(first).toEqual({
      id: expect.stringMatching(/^rprice_/),
      region_id: jp.id,
      variant_id: variant.id,
      price: 3000,
      compare_at_price: 3500,
      created_at: '2025-01-01T00:00:00.000Z',
      updated_at: '2025-01-01T00:00:00.000Z',
    });
    t.clock.advance(5000);
    // A Money object of the region's currency is accepted; compare_at_price left out is null.
    const second = await t.store.regionPrices.upsert(jp.id, {
      variant_id: variant.id,
      price: { amount: 2800, currency: 'jpy' },
    });
    expect(second).toEqual({
      ...first,
      price: 2800,
      compare_at_price: null,
      updated_at: '2025-01-01T00:00:05.000Z',
    });
    expect(await t.store.regionPrices.list(jp.id)).toEqual({
      data: [second],
      total_count: 1,
      has_more: false,
      next_cursor: null,
    });
  });

  test('unknown variant → 404 variant_id; another currency → 422 currency_mismatch; nothing stored', async () => {
    t = await createTestEngine();
    const { variant } = await tee(t);
    const kw = await t.store.regions.create({ name: 'Kuwait', code: 'kw', currency: 'KWD' });
    await expectCode(
      t.store.regionPrices.upsert(kw.id, { variant_id: 'var_nope', price: 1 }),
      'not_found',
      'variant_id',
    );
    await expectCode(
      t.store.regionPrices.upsert(kw.id, {
        variant_id: variant.id,
        price: { amount: 6147, currency: 'USD' },
      }),
      'currency_mismatch',
      'price',
    );
    await expectCode(
      t.store.regionPrices.upsert(kw.id, {
        variant_id: variant.id,
        price: 6147,
        compare_at_price: { amount: 7000, currency: 'EUR' },
      }),
      'currency_mismatch',
      'compare_at_price',
    );
    await expectCode(
      t.store.regionPrices.upsert(kw.id, { variant_id: variant.id, price: -1 }),
      'parameter_invalid',
      'price',
    );
    await expectCode(
      t.store.regionPrices.upsert('reg_nope', { variant_id: variant.id, price: 1 }),
      'not_found',
    );
    expect((await t.store.regionPrices.list(kw.id)).total_count).toBe(0);
    // The region's currency is still free to change: no price was stored.
    expect((await t.store.regions.update(kw.id, { currency: 'BHD' })).currency).toBe('BHD');
  });

  test('list: by id, 100 a page by default, limit and starting_after, filter variant_id', async () => {
    t = await createTestEngine();
    const eu = await t.store.regions.create({ name: 'Europe', code: 'eu', currency: 'EUR' });
    const product = await t.store.products.create({
      name: 'Mugs',
      status: 'active',
      options: [{ name: 'Colour', values: ['a', 'b', 'c', 'd', 'e'] }],
      variants: ['a', 'b', 'c', 'd', 'e'].map((c, i) => ({
        sku: `MUG-${c}`,
        price: 1000 + i,
        options: { Colour: c },
      })),
    });
    const prices = [];
    for (const [i, v] of product.variants.entries()) {
      prices.push(await t.store.regionPrices.upsert(eu.id, { variant_id: v.id, price: 900 + i }));
    }
    const all = await t.store.regionPrices.list(eu.id);
    expect(all.data.map((p) => p.id)).toEqual(prices.map((p) => p.id).sort());
    expect(all).toMatchObject({ total_count: 5, has_more: false, next_cursor: null });
    const first = await t.store.regionPrices.list(eu.id, { limit: 2 });
    expect(first).toMatchObject({ total_count: 5, has_more: true, next_cursor: first.data[1]?.id });
    const next = await t.store.regionPrices.list(eu.id, {
      limit: 2,
      starting_after: first.next_cursor ?? '',
    });
    expect(next.data.map((p) => p.id)).toEqual(all.data.slice(2, 4).map((p) => p.id));
    const one = await t.store.regionPrices.list(eu.id, { variant_id: product.variants[3]?.id });
    expect(one).toMatchObject({
      total_count: 1,
      data: [{ variant_id: product.variants[3]?.id, price: 903 }],
    });
    await expectCode(t.store.regionPrices.list(eu.id, { limit: 101 }), 'parameter_invalid', 'limit');
  });

  test('DELETE removes the pair; 404 when there is none', async () => {
    t = await createTestEngine();
    const { variant } = await tee(t);
    const eu = await t.store.regions.create({ name: 'Europe', code: 'eu', currency: 'EUR' });
    const price = await t.store.regionPrices.upsert(eu.id, { variant_id: variant.id, price: 1800 });
    expect(await t.store.regionPrices.delete(eu.id, variant.id)).toEqual({ id: price.id, deleted: true });
    await expectCode(t.store.regionPrices.delete(eu.id, variant.id), 'not_found');
    expect((await t.store.regionPrices.list(eu.id)).data).toEqual([]);
  });
});

describe('currency rates', () => {
  test("a rate or a region price moves the storefront's price in the region at once (price_min filters on it)", async () => {
    t = await createTestEngine();
    const { product, variant } = await tee(t, 1999);
    const eu = await t.store.regions.create({ name: 'Europe', code: 'eu', currency: 'EUR' });
    const shelf = async (query: Record<string, unknown> = {}) =>
      (await t?.store.products.listStorefront({ region_id: eu.id, ...query }))?.data.map((p) => [
        p.id,
        p.price,
      ]);
    // No rate, no region price: not sold in Europe.
    expect(await shelf({ price_min: 0 })).toEqual([]);
    const rate = await t.store.currencyRates.upsert({
      from_currency: 'USD',
      to_currency: 'EUR',
      rate: 0.9234,
    });
    // 1999 × 0.9234 = 1845.8766 → 1846
    expect(await shelf()).toEqual([[product.id, { amount: 1846, currency: 'EUR' }]]);
    expect(await shelf({ price_min: 1846 })).toHaveLength(1);
    expect(await shelf({ price_min: 1847 })).toHaveLength(0);
    await t.store.currencyRates.upsert({ from_currency: 'USD', to_currency: 'EUR', rate: 1.1 });
    expect(await shelf()).toEqual([[product.id, { amount: 2199, currency: 'EUR' }]]);
    await t.store.regionPrices.upsert(eu.id, { variant_id: variant.id, price: 1500 });
    expect(await shelf({ price_max: 1500 })).toEqual([[product.id, { amount: 1500, currency: 'EUR' }]]);
    await t.store.regionPrices.delete(eu.id, variant.id);
    await t.store.currencyRates.delete(rate.id);
    expect(await shelf({ price_min: 0 })).toEqual([]);
  });

  test('PUT upserts the pair exactly (same id), listed by from then to; DELETE', async () => {
    t = await createTestEngine();
    const eur = await t.store.currencyRates.upsert({ from_currency: 'usd', to_currency: 'eur', rate: 0.92 });
    expect(eur).toEqual({
      id: expect.stringMatching(/^rate_/),
      from_currency: 'USD',
      to_currency: 'EUR',
      rate: 0.92,
      updated_at: '2025-01-01T00:00:00.000Z',
    });
    t.clock.advance(1000);
    const replaced = await t.store.currencyRates.upsert({
      from_currency: 'USD',
      to_currency: 'EUR',
      rate: 0.923456789012,
    });
    expect(replaced).toEqual({ ...eur, rate: 0.923456789012, updated_at: '2025-01-01T00:00:01.000Z' });
    const jpy = await t.store.currencyRates.upsert({
      from_currency: 'USD',
      to_currency: 'JPY',
      rate: 151.37,
    });
    const back = await t.store.currencyRates.upsert({
      from_currency: 'EUR',
      to_currency: 'USD',
      rate: 1.0825,
    });
    expect(await t.store.currencyRates.list()).toEqual({
      data: [back, replaced, jpy],
      total_count: 3,
      has_more: false,
      next_cursor: null,
    });
    expect(await t.store.currencyRates.delete(jpy.id)).toEqual({ id: jpy.id, deleted: true });
    await expectCode(t.store.currencyRates.delete(jpy.id), 'not_found');
    expect((await t.store.currencyRates.list()).data.map((r) => r.id)).toEqual([back.id, replaced.id]);
  });

  test('from = to, rate ≤ 0, more than 12 significant digits, inactive codes → 400; nothing stored', async () => {
    t = await createTestEngine();
    await expectCode(
      t.store.currencyRates.upsert({ from_currency: 'USD', to_currency: 'usd', rate: 1 }),
      'parameter_invalid',
      'to_currency',
    );
    for (const rate of [0, -1.5, 1.0000000000001, 1234567890123]) {
      await expectCode(
        t.store.currencyRates.upsert({ from_currency: 'USD', to_currency: 'EUR', rate }),
        'parameter_invalid',
        'rate',
      );
    }
    // A rate that would turn the largest amount into an inexact (unsafe) integer: refused.
    await expectCode(
      t.store.currencyRates.upsert({ from_currency: 'USD', to_currency: 'KWD', rate: 10_000_000 }),
      'parameter_invalid',
      'rate',
    );
    // The same size from a 3-decimal to a 0-decimal currency is fine (999,999,999 × 10^7 / 1000).
    await t.store.currencyRates.upsert({ from_currency: 'KWD', to_currency: 'JPY', rate: 10_000_000 });
    await t.store.currencyRates.delete((await t.store.currencyRates.list()).data[0]?.id ?? '');
    await expectCode(
      t.store.currencyRates.upsert({ from_currency: 'XAU', to_currency: 'EUR', rate: 1 }),
      'parameter_invalid',
      'from_currency',
    );
    expect((await t.store.currencyRates.list()).data).toEqual([]);
    // Tiny and huge rates within 12 digits are kept exactly.
    expect(
      (await t.store.currencyRates.upsert({ from_currency: 'KRW', to_currency: 'KWD', rate: 0.000000223456 }))
        .rate,
    ).toBe(0.000000223456);
    expect(
      (await t.store.currencyRates.upsert({ from_currency: 'KWD', to_currency: 'KRW', rate: 4475123456.78 }))
        .rate,
    ).toBe(4475123456.78);
  });
});
