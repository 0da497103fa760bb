import { describe, expect, it } from 'vitest';
import { discountsIn } from '../carts/cart-pricing';
import type { CurrencyRateRecord, DiscountRecord, RegionRecord, StoreRecord } from '../ports/storage';
import { CommerceError } from '../shared/errors';
import { parseRate } from './exchange-rate';
import { assertRegionUsable, regionPricing } from './region-pricing-context';

const store = { currency: 'USD', tax_rate: 10, prices_include_tax: false } as StoreRecord;
const region = (overrides: Partial<RegionRecord> = {}) =>
  ({
    id: 'reg_eu',
    currency: 'EUR',
    tax_rate: 20,
    prices_include_tax: true,
    is_active: true,
    ...overrides,
  }) as RegionRecord;
const rate = (from_currency: string, to_currency: string, value: string) =>
  ({ from_currency, to_currency, rate: value }) as CurrencyRateRecord;

describe('regionPricing (decisions §19)', () => {
  it('takes the direct store → region rate only (a reverse or other pair is not used)', () => {
    const eu = regionPricing(
      {
        region: region(),
        rates: [rate('EUR', 'USD', '1.087'), rate('USD', 'GBP', '0.8'), rate('USD', 'EUR', '0.92')],
        prices: [],
      },
      store,
    );
    expect(eu?.context).toEqual({ currency: 'EUR', store_currency: 'USD', rate: parseRate('0.92') });
    const none = regionPricing({ region: region(), rates: [rate('EUR', 'USD', '1.087')], prices: [] }, store);
    expect(none?.context.rate).toBeNull();
  });

  it("keys the region's prices by variant and is null when the region is gone", () => {
    const eu = regionPricing(
      {
        region: region(),
        rates: [],
        prices: [{ variant_id: 'var_1', price: 1800, compare_at_price: 2000 }] as never,
      },
      store,
    );
    expect(eu?.prices.get('var_1')).toEqual({ price: 1800, compare_at_price: 2000 });
    expect(regionPricing({ region: null, rates: [], prices: [] }, store)).toBeNull();
  });

  it('assertRegionUsable: unknown → 404 not_found, inactive → 422 region_unavailable, both on param region_id', () => {
    const codeOf = (call: () => unknown) => {
      try {
        call();
      } catch (error) {
        if (CommerceError.is(error)) return [error.code, error.param];
      }
      return null;
    };
    expect(codeOf(() => assertRegionUsable(null, 'reg_x'))).toEqual(['not_found', 'region_id']);
    expect(codeOf(() => assertRegionUsable(region({ is_active: false }), 'reg_eu'))).toEqual([
      'region_unavailable',
      'region_id',
    ]);
    expect(assertRegionUsable(region(), 'reg_eu').id).toBe('reg_eu');
  });
});

describe('discountsIn: store-currency amounts of discounts in the region currency', () => {
  const discount = (overrides: Partial<DiscountRecord>) =>
    ({
      id: 'disc_1',
      code: 'CODE',
      value_type: 'percentage',
      value: 10,
      minimum_amount: null,
      maximum_discount: null,
      ...overrides,
    }) as DiscountRecord;
  const withRate = { context: { currency: 'JPY', store_currency: 'USD', rate: parseRate('151.37') } };
  const withoutRate = { context: { currency: 'JPY', store_currency: 'USD', rate: null } };

  it('converts a fixed value, minimum_amount and maximum_discount; a percentage value stays', () => {
    const { converted, refused } = discountsIn(
      [
        discount({ id: 'd_fixed', value_type: 'fixed', value: 1999, minimum_amount: 5000 }),
        discount({ id: 'd_pct', value: 12.5, maximum_discount: 1000 }),
      ],
      withRate,
    );
    expect(refused).toEqual([]);
    // 19.99 USD × 151.37 = 3025.8863 JPY → 3026; 50.00 USD → 7568.5 → 7569; 10.00 USD → 1513.7 → 1514.
    expect(converted.map((d) => [d.id, d.value, d.minimum_amount, d.maximum_discount])).toEqual([
      ['d_fixed', 3026, 7569, null],
      ['d_pct', 12.5, null, 1514],
    ]);
  });

  it('without a rate refuses a discount with a store-currency amount (discount_not_applicable); keeps percentage and free shipping', () => {
    const plain = discount({ id: 'd_pct' });
    const free = discount({ id: 'd_free', value_type: 'free_shipping', value: 0 });
    const { converted, refused } = discountsIn(
      [
        discount({ id: 'd_fixed', value_type: 'fixed', value: 100 }),
        discount({ id: 'd_min', minimum_amount: 1 }),
        plain,
        free,
      ],
      withoutRate,
    );
    expect(converted).toEqual([plain, free]);
    expect(refused).toEqual([
      { discount_id: 'd_fixed', code: 'CODE', reason: 'discount_not_applicable' },
      { discount_id: 'd_min', code: 'CODE', reason: 'discount_not_applicable' },
    ]);
  });

  it('in the store currency nothing converts and nothing is refused, rate or not', () => {
    const fixed = discount({ value_type: 'fixed', value: 500, minimum_amount: 100 });
    const same = { context: { currency: 'USD', store_currency: 'USD', rate: null } };
    expect(discountsIn([fixed], same)).toEqual({ converted: [fixed], refused: [] });
  });
});
