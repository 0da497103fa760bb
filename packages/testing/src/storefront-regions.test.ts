import { afterEach, describe, expect, test } from 'vitest';
import { expectCode } from './commerce-error.test-support';
import { createTestEngine, type TestEngine } from './create-test-engine';

/**
 * The storefront in a region through the engine (decisions §19): product list and detail take
 * `region_id` (else the default region, else the store currency), every price in the region's
 * currency by the price rule, `price: null` where a variant is not sold, and `price_min`,
 * `price_max`, `sort=price` on the materialised representative prices (`region_product_prices`),
 * which every product, variant, region, region price and rate write keeps current. The HTTP
 * suite (packages/http/test/api/storefront-regions.test.ts) proves the wire and the read model's
 * bytes on every engine.
 */

let t: TestEngine | undefined;
afterEach(async () => {
  await t?.close();
  t = undefined;
});

const usd = (amount: number) => ({ amount, currency: 'USD' });
const eur = (amount: number) => ({ amount, currency: 'EUR' });
const jpy = (amount: number) => ({ amount, currency: 'JPY' });

/** A store in USD with three active products (one with two variants) and a draft. */
async function catalog(engine: TestEngine) {
  const s = engine.store;
  const cheap = await s.products.create({
    name: 'Cheap',
    status: 'active',
    variants: [{ sku: 'C-1', price: 1000, compare_at_price: 1200, inventory: { on_hand: 5 } }],
  });
  const pair = await s.products.create({
    name: 'Pair',
    status: 'active',
    options: [{ name: 'Size', values: ['S', 'L'] }],
    variants: [
      { sku: 'P-S', price: 3000, options: { Size: 'S' }, inventory: { on_hand: 5 } },
      { sku: 'P-L', price: 2500, compare_at_price: 2800, options: { Size: 'L' }, inventory: { on_hand: 5 } },
    ],
  });
  const dear = await s.products.create({
    name: 'Dear',
    status: 'active',
    variants: [{ sku: 'D-1', price: 9999, inventory: { on_hand: 5 } }],
  });
  const draft = await s.products.create({
    name: 'Draft',
    status: 'draft',
    variants: [{ sku: 'X-1', price: 10, inventory: { on_hand: 5 } }],
  });
  return { cheap, pair, dear, draft };
}

const ids = (page: { data: Array<{ id: string }> }) => page.data.map((product) => product.id);

describe('storefront in a region', () => {
  test('without regions: today’s answer; a region_id that names none → 404 param region_id', async () => {
    t = await createTestEngine();
    const { cheap } = await catalog(t);
    const before = await t.store.products.getStorefront(cheap.id);
    expect(before.price).toEqual(usd(1000));
    expect(before.variants[0]?.price).toEqual(usd(1000));
    const error = await expectCode(t.store.products.listStorefront({ region_id: 'reg_nope' }), 'not_found');
    expect(error.param).toBe('region_id');
    await expectCode(t.store.products.getStorefront(cheap.id, { region_id: 'reg_nope' }), 'not_found');
  });

  test('converted at the rate, region prices first, null where not sold; representative price and compare_at_price there', async () => {
    t = await createTestEngine();
    const { cheap, pair, dear } = await catalog(t);
    const eu = await t.store.regions.create({ name: 'Europe', code: 'eu', currency: 'EUR' });
    // No rate yet: nothing is sold in EUR except what has a region price.
    await t.store.regionPrices.upsert(eu.id, { variant_id: dear.variants[0]?.id as string, price: 5000 });
    let shown = await t.store.products.getStorefront(pair.id, { region_id: eu.id });
    expect(shown.variants.map((variant) => variant.price)).toEqual([null, null]);
    expect(shown.price).toBeNull();
    expect(shown.compare_at_price).toBeNull();
    expect((await t.store.products.getStorefront(dear.id, { region_id: eu.id })).price).toEqual(eur(5000));

    await t.store.currencyRates.upsert({ from_currency: 'USD', to_currency: 'EUR', rate: 0.9 });
    shown = await t.store.products.getStorefront(pair.id, { region_id: eu.id });
    expect(shown.variants.map((variant) => [variant.sku, variant.price, variant.compare_at_price])).toEqual([
      ['P-S', eur(2700), null],
      ['P-L', eur(2250), eur(2520)],
    ]);
    expect(shown.price).toEqual(eur(2250));
    expect(shown.compare_at_price).toEqual(eur(2520));
    // A region price of the other variant makes it the representative one.
    await t.store.regionPrices.upsert(eu.id, {
      variant_id: pair.variants[0]?.id as string,
      price: 2000,
      compare_at_price: 2100,
    });
    shown = await t.store.products.getStorefront(pair.id, { region_id: eu.id });
    expect(shown.price).toEqual(eur(2000));
    expect(shown.compare_at_price).toEqual(eur(2100));
    expect(shown.variants[0]?.price).toEqual(eur(2000));

    // The list in the region: sorted and filtered on the region's prices.
    const asc = await t.store.products.listStorefront({ region_id: eu.id, sort: 'price', order: 'asc' });
    expect(ids(asc)).toEqual([cheap.id, pair.id, dear.id]);
    expect(asc.data.map((product) => product.price)).toEqual([eur(900), eur(2000), eur(5000)]);
    const desc = await t.store.products.listStorefront({ region_id: eu.id, sort: 'price', order: 'desc' });
    expect(ids(desc)).toEqual([dear.id, pair.id, cheap.id]);
    const bounded = await t.store.products.listStorefront({
      region_id: eu.id,
      price_min: 1000,
      price_max: 4999,
    });
    expect(ids(bounded)).toEqual([pair.id]);
    expect(bounded.total_count).toBe(1);
    // The same bounds in the store currency match other products.
    expect(ids(await t.store.products.listStorefront({ price_min: 1000, price_max: 4999 }))).toEqual([
      pair.id,
      cheap.id,
    ]);
  });

  test('the default region applies without region_id; an inactive region → 404; the store currency without a default', async () => {
    t = await createTestEngine();
    const { cheap } = await catalog(t);
    const jp = await t.store.regions.create({ name: 'Japan', code: 'jp', currency: 'JPY', is_default: true });
    await t.store.currencyRates.upsert({ from_currency: 'USD', to_currency: 'JPY', rate: 151.235 });
    // 10.00 USD × 151.235 = 1512.35 JPY → 1512 (exponent 0, half away from zero).
    expect((await t.store.products.getStorefront(cheap.id)).price).toEqual(jpy(1512));
    expect((await t.store.products.listStorefront({})).data.find((p) => p.id === cheap.id)?.price).toEqual(
      jpy(1512),
    );
    await t.store.regions.update(jp.id, { is_active: false });
    const error = await expectCode(
      t.store.products.getStorefront(cheap.id, { region_id: jp.id }),
      'not_found',
    );
    expect(error.param).toBe('region_id');
    // An inactive default does not apply: the store currency.
    expect((await t.store.products.getStorefront(cheap.id)).price).toEqual(usd(1000));
  });

  test('product and variant writes keep the region prices current (list filters and sort)', async () => {
    t = await createTestEngine();
    const { cheap, pair, dear } = await catalog(t);
    const eu = await t.store.regions.create({ name: 'Europe', code: 'eu', currency: 'EUR' });
    await t.store.currencyRates.upsert({ from_currency: 'USD', to_currency: 'EUR', rate: 2 });
    const inEu = async (query: Record<string, unknown> = {}) =>
      t?.store.products.listStorefront({ region_id: eu.id, sort: 'price', order: 'asc', ...query });

    // A new product is in the region at once.
    const fresh = await t.store.products.create({
      name: 'Fresh',
      status: 'active',
      variants: [{ sku: 'F-1', price: 100, inventory: { on_hand: 1 } }],
    });
    expect(ids((await inEu()) as never)).toEqual([fresh.id, cheap.id, pair.id, dear.id]);
    // A variant's price changes.
    await t.store.products.updateVariant(fresh.variants[0]?.id as string, { price: 20000 });
    expect(ids((await inEu()) as never)).toEqual([cheap.id, pair.id, dear.id, fresh.id]);
    // A variant deactivated: the product's representative price moves to the other one.
    await t.store.products.updateVariant(pair.variants[1]?.id as string, { is_active: false });
    expect((await inEu({ price_min: 6000, price_max: 6000 }))?.data.map((p) => p.id)).toEqual([pair.id]);
    // A variant added, then deleted.
    const added = await t.store.products.createVariant(dear.id, { sku: 'D-2', price: 1 });
    expect(ids((await inEu({ price_max: 10 })) as never)).toEqual([dear.id]);
    await t.store.products.deleteVariant(added.id);
    expect(ids((await inEu({ price_max: 10 })) as never)).toEqual([]);
    // A product deleted leaves the list.
    await t.store.products.delete(cheap.id);
    expect(ids((await inEu()) as never)).toEqual([pair.id, dear.id, fresh.id]);
    // The rate changes: every product's price in the region moves.
    await t.store.currencyRates.upsert({ from_currency: 'USD', to_currency: 'EUR', rate: 0.5 });
    expect((await inEu())?.data.map((p) => p.price)).toEqual([eur(1500), eur(5000), eur(10000)]);
  });

  test('a product with no price in the region sorts last both ways and matches no bound; cursors walk the region order', async () => {
    t = await createTestEngine();
    const { cheap, pair, dear } = await catalog(t);
    const eu = await t.store.regions.create({ name: 'Europe', code: 'eu', currency: 'EUR' });
    // Only two products have a price in EUR.
    await t.store.regionPrices.upsert(eu.id, { variant_id: dear.variants[0]?.id as string, price: 700 });
    await t.store.regionPrices.upsert(eu.id, { variant_id: cheap.variants[0]?.id as string, price: 800 });
    const asc = await t.store.products.listStorefront({ region_id: eu.id, sort: 'price', order: 'asc' });
    expect(ids(asc)).toEqual([dear.id, cheap.id, pair.id]);
    const desc = await t.store.products.listStorefront({ region_id: eu.id, sort: 'price', order: 'desc' });
    expect(ids(desc)).toEqual([cheap.id, dear.id, pair.id]);
    expect(ids(await t.store.products.listStorefront({ region_id: eu.id, price_min: 0 }))).toEqual([
      dear.id,
      cheap.id,
    ]);
    // Bounds with a page smaller than the matches: total_count counted in the region.
    const bounded = await t.store.products.listStorefront({ region_id: eu.id, price_min: 0, limit: 1 });
    expect(bounded).toMatchObject({ total_count: 2, has_more: true });
    const boundedDesc = await t.store.products.listStorefront({
      region_id: eu.id,
      price_max: 800,
      sort: 'price',
      order: 'desc',
      limit: 1,
    });
    expect(ids(boundedDesc)).toEqual([cheap.id]);
    expect(boundedDesc).toMatchObject({ total_count: 2, has_more: true });
    const boundedAsc = await t.store.products.listStorefront({
      region_id: eu.id,
      price_min: 750,
      sort: 'price',
      order: 'asc',
    });
    expect(ids(boundedAsc)).toEqual([cheap.id]);
    const first = await t.store.products.listStorefront({
      region_id: eu.id,
      sort: 'price',
      order: 'asc',
      limit: 1,
    });
    expect(first).toMatchObject({ total_count: 3, has_more: true, next_cursor: dear.id });
    const second = await t.store.products.listStorefront({
      region_id: eu.id,
      sort: 'price',
      order: 'asc',
      limit: 1,
      starting_after: dear.id,
    });
    expect(ids(second)).toEqual([cheap.id]);
    const third = await t.store.products.listStorefront({
      region_id: eu.id,
      sort: 'price',
      order: 'asc',
      limit: 5,
      starting_after: cheap.id,
    });
    expect(ids(third)).toEqual([pair.id]);
    expect(third.has_more).toBe(false);
  });
});
