import { describe, expect, it } from 'vitest';
import { parseRate } from './exchange-rate';
import { priceInRegion, type RegionPriceContext, storeAmountInRegion } from './region-price';

const variant = { price: 1999, compare_at_price: 2499 };
const usdStore = (currency: string, rate: number | null): RegionPriceContext => ({
  currency,
  store_currency: 'USD',
  rate: rate === null ? null : parseRate(rate),
});

describe('the price of a variant in a region (decisions §19)', () => {
  it('a region price wins, with its own compare-at price (null included), whatever the rate', () => {
    expect(priceInRegion(variant, { price: 1800, compare_at_price: null }, usdStore('EUR', 0.92))).toEqual({
      price: 1800,
      compare_at_price: null,
    });
    expect(priceInRegion(variant, { price: 0, compare_at_price: 5 }, usdStore('EUR', null))).toEqual({
      price: 0,
      compare_at_price: 5,
    });
  });

  it('else the base price when the region sells in the store currency, even without any rate', () => {
    expect(priceInRegion(variant, undefined, usdStore('USD', null))).toEqual(variant);
  });

  it('else the base price converted at the store → region rate, compare-at the same way', () => {
    // 19.99 USD × 0.92 = 18.3908 EUR → 18.39; 24.99 × 0.92 = 22.9908 → 22.99
    expect(priceInRegion(variant, undefined, usdStore('EUR', 0.92))).toEqual({
      price: 1839,
      compare_at_price: 2299,
    });
    // JPY has no minor unit: 19.99 × 151.37 = 3025.8863 → 3026
    expect(
      priceInRegion({ price: 1999, compare_at_price: null }, undefined, usdStore('JPY', 151.37)),
    ).toEqual({
      price: 3026,
      compare_at_price: null,
    });
    // KWD has three: 19.99 × 0.3075 = 6.146925 → 6.147
    expect(
      priceInRegion({ price: 1999, compare_at_price: null }, undefined, usdStore('KWD', 0.3075))?.price,
    ).toBe(6147);
  });

  it('else none: the variant is not sold in the region', () => {
    expect(priceInRegion(variant, undefined, usdStore('EUR', null))).toBeNull();
  });

  it('halves round away from zero, once, on the exact product', () => {
    // 0.05 USD at 0.5 = 0.025 EUR → 0.03 (half away from zero), not 0.02 (half to even) nor a float's 0.024999…
    expect(priceInRegion({ price: 5, compare_at_price: null }, undefined, usdStore('EUR', 0.5))?.price).toBe(
      3,
    );
    // 1.15 × 1.1 = 1.265 → 1.27 (a float says 1.2649999999999999)
    expect(
      priceInRegion({ price: 115, compare_at_price: null }, undefined, usdStore('EUR', 1.1))?.price,
    ).toBe(127);
  });
});

describe('store-currency amounts in a region (discount values, thresholds, shipping)', () => {
  it('unchanged in the store currency, converted with a rate, null without one', () => {
    expect(storeAmountInRegion(1000, usdStore('USD', null))).toBe(1000);
    expect(storeAmountInRegion(1000, usdStore('JPY', 151.37))).toBe(1514);
    expect(storeAmountInRegion(1000, usdStore('KWD', 0.3075))).toBe(3075);
    expect(storeAmountInRegion(1000, usdStore('EUR', null))).toBeNull();
  });
});
