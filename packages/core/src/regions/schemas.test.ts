import { describe, expect, test } from 'vitest';
import { CommerceError } from '../shared/errors';
import { parseInput } from '../shared/schemas/parse';
import { expectRejected } from '../shared/schemas/test-helpers';
import { amountInRegionCurrency } from './region-service';
import {
  CreateRegionInputSchema,
  RegionPriceListQuerySchema,
  UpdateRegionInputSchema,
  UpsertCurrencyRateInputSchema,
  UpsertRegionPriceInputSchema,
} from './schemas';

/** The request rules of regions, region prices and currency rates (decisions §19). */

describe('CreateRegionInput', () => {
  test('defaults: is_default false, is_active true; currency upper-cased; tax fields left to the store', () => {
    expect(parseInput(CreateRegionInputSchema, { name: 'Europe', code: 'eu', currency: 'eur' })).toEqual({
      name: 'Europe',
      code: 'eu',
      currency: 'EUR',
      is_default: false,
      is_active: true,
    });
  });

  test('code: 1–32 of [a-z0-9_-]', () => {
    for (const code of ['a', 'eu-west_2', 'x'.repeat(32), '0']) {
      expect(parseInput(CreateRegionInputSchema, { name: 'R', code, currency: 'USD' }).code).toBe(code);
    }
    for (const code of ['', 'EU', 'eu west', 'x'.repeat(33), 'é', 'eu.1']) {
      expectRejected(
        CreateRegionInputSchema,
        { name: 'R', code, currency: 'USD' },
        'parameter_invalid',
        'code',
      );
    }
    expectRejected(
      CreateRegionInputSchema,
      { name: 'R', code: 5, currency: 'USD' },
      'parameter_invalid',
      'code',
    );
    expectRejected(CreateRegionInputSchema, { name: 'R', currency: 'USD' }, 'parameter_missing', 'code');
  });

  test('currency: an active ISO 4217 code (any case), else 400', () => {
    for (const [given, stored] of [
      ['jpy', 'JPY'],
      ['Kwd', 'KWD'],
      ['EUR', 'EUR'],
    ]) {
      expect(parseInput(CreateRegionInputSchema, { name: 'R', code: 'r', currency: given }).currency).toBe(
        stored,
      );
    }
    for (const currency of ['XAU', 'ABC', 'EU', 'EURO', '', 'XDR']) {
      expectRejected(
        CreateRegionInputSchema,
        { name: 'R', code: 'r', currency },
        'parameter_invalid',
        'currency',
      );
    }
    expectRejected(CreateRegionInputSchema, { name: 'R', code: 'r' }, 'parameter_missing', 'currency');
  });

  test('tax_rate: a percentage 0..100 with at most 6 decimal places, as the store', () => {
    const base = { name: 'R', code: 'r', currency: 'EUR' };
    expect(parseInput(CreateRegionInputSchema, { ...base, tax_rate: 8.875 }).tax_rate).toBe(8.875);
    expect(parseInput(CreateRegionInputSchema, { ...base, tax_rate: 0 }).tax_rate).toBe(0);
    for (const tax_rate of [-1, 100.5, 0.1234567, '20']) {
      expectRejected(CreateRegionInputSchema, { ...base, tax_rate }, 'parameter_invalid', 'tax_rate');
    }
  });

  test('unknown fields (the SDK example countries, currency_code) → parameter_unknown', () => {
    const base = { name: 'R', code: 'r', currency: 'EUR' };
    expectRejected(CreateRegionInputSchema, { ...base, countries: ['DE'] }, 'parameter_unknown', 'countries');
    expectRejected(
      CreateRegionInputSchema,
      { ...base, currency_code: 'EUR' },
      'parameter_unknown',
      'currency_code',
    );
  });
});

describe('UpdateRegionInput', () => {
  test('code is fixed after creation: 400 parameter_unknown', () => {
    expectRejected(UpdateRegionInputSchema, { code: 'other' }, 'parameter_unknown', 'code');
  });

  test('every other field optional; currency upper-cased and checked', () => {
    expect(parseInput(UpdateRegionInputSchema, {})).toEqual({});
    expect(parseInput(UpdateRegionInputSchema, { currency: 'gbp', is_active: false })).toEqual({
      currency: 'GBP',
      is_active: false,
    });
    expectRejected(UpdateRegionInputSchema, { currency: 'XAU' }, 'parameter_invalid', 'currency');
    expectRejected(UpdateRegionInputSchema, { name: '  ' }, 'parameter_invalid', 'name');
  });
});

describe('UpsertRegionPriceInput', () => {
  test('integers ≥ 0 or Money objects; compare_at_price optional and nullable', () => {
    expect(parseInput(UpsertRegionPriceInputSchema, { variant_id: 'var_1', price: 0 })).toEqual({
      variant_id: 'var_1',
      price: { amount: 0 },
    });
    expect(
      parseInput(UpsertRegionPriceInputSchema, {
        variant_id: 'var_1',
        price: { amount: 1999, currency: 'eur' },
        compare_at_price: null,
      }),
    ).toEqual({ variant_id: 'var_1', price: { amount: 1999, currency: 'EUR' }, compare_at_price: null });
    for (const price of [-1, 1.5, '100', null]) {
      expectRejected(
        UpsertRegionPriceInputSchema,
        { variant_id: 'var_1', price },
        'parameter_invalid',
        'price',
      );
    }
    expectRejected(
      UpsertRegionPriceInputSchema,
      { variant_id: 'var_1', price: { amount: -1, currency: 'EUR' } },
      'parameter_invalid',
      'price[amount]',
    );
    expectRejected(UpsertRegionPriceInputSchema, { variant_id: 'var_1' }, 'parameter_missing', 'price');
    expectRejected(UpsertRegionPriceInputSchema, { price: 1 }, 'parameter_missing', 'variant_id');
    expectRejected(
      UpsertRegionPriceInputSchema,
      { variant_id: 'var_1', price: 1, amount: 1 },
      'parameter_unknown',
      'amount',
    );
  });

  test('a Money object of another currency than the region’s → 422 currency_mismatch', () => {
    const region = { currency: 'JPY' };
    expect(amountInRegionCurrency({ amount: 1500 }, region, 'price')).toBe(1500);
    expect(amountInRegionCurrency({ amount: 1500, currency: 'jpy' }, region, 'price')).toBe(1500);
    try {
      amountInRegionCurrency({ amount: 1500, currency: 'USD' }, region, 'compare_at_price');
      expect.unreachable();
    } catch (error) {
      expect(CommerceError.is(error)).toBe(true);
      expect(error).toMatchObject({ code: 'currency_mismatch', param: 'compare_at_price' });
    }
  });

  test('list query: limit 1..100, default 100', () => {
    expect(parseInput(RegionPriceListQuerySchema, {}, { location: 'query' })).toEqual({ limit: 100 });
    expect(
      parseInput(RegionPriceListQuerySchema, { limit: '5', variant_id: 'var_1' }, { location: 'query' }),
    ).toEqual({
      limit: 5,
      variant_id: 'var_1',
    });
    expectRejected(RegionPriceListQuerySchema, { limit: '101' }, 'parameter_invalid', 'limit', 'query');
    expectRejected(RegionPriceListQuerySchema, { limit: '0' }, 'parameter_invalid', 'limit', 'query');
  });
});

describe('UpsertCurrencyRateInput', () => {
  test('active codes in any case; rate a number (its exactness is parseRate’s)', () => {
    expect(
      parseInput(UpsertCurrencyRateInputSchema, { from_currency: 'usd', to_currency: 'jpy', rate: 151.37 }),
    ).toEqual({ from_currency: 'USD', to_currency: 'JPY', rate: 151.37 });
    expectRejected(
      UpsertCurrencyRateInputSchema,
      { from_currency: 'XAU', to_currency: 'USD', rate: 1 },
      'parameter_invalid',
      'from_currency',
    );
    expectRejected(
      UpsertCurrencyRateInputSchema,
      { from_currency: 'USD', to_currency: 'EUR', rate: '1.1' },
      'parameter_invalid',
      'rate',
    );
    expectRejected(
      UpsertCurrencyRateInputSchema,
      { from: 'USD', to_currency: 'EUR', rate: 1.1 },
      'parameter_unknown',
      'from',
    );
  });
});
