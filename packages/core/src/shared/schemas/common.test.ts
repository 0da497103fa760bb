import { describe, expect, test } from 'vitest';
import { z } from 'zod';
import {
  AddressInputSchema,
  CountryCodeSchema,
  CurrencyCodeSchema,
  DeletedResponseSchema,
  ErrorBodySchema,
  fitsDecimalPlaces,
  HttpUrlSchema,
  isHttpUrl,
  ListQuerySchema,
  listOf,
  listQuery,
  MetadataSchema,
  MoneySchema,
  moneyInput,
  positiveMoneyInput,
  QueryBooleanSchema,
  QueryListSchema,
  queryInt,
  TimestampInputSchema,
} from './common';
import { parseInput } from './parse';
import { expectRejected, inputErrorOf } from './test-helpers';

const Priced = z.strictObject({ price: moneyInput });
const Paid = z.strictObject({ amount: positiveMoneyInput });

describe('moneyInput (decisions §6)', () => {
  test('an integer 1999 → { amount: 1999 }', () => {
    expect(parseInput(Priced, { price: 1999 })).toEqual({ price: { amount: 1999 } });
  });

  test('a Money object { amount: 1999, currency: "usd" } → currency upper-cased', () => {
    expect(parseInput(Priced, { price: { amount: 1999, currency: 'usd' } })).toEqual({
      price: { amount: 1999, currency: 'USD' },
    });
  });

  test('a Money object without currency is accepted as a bare amount', () => {
    expect(parseInput(Priced, { price: { amount: 0 } })).toEqual({ price: { amount: 0 } });
  });

  test('floats are refused (19.99 is not minor units)', () => {
    expectRejected(Priced, { price: 19.99 }, 'parameter_invalid', 'price');
  });

  test('a string amount is refused', () => {
    expectRejected(Priced, { price: '1999' }, 'parameter_invalid', 'price');
  });

  test('an unknown key inside the Money object → parameter_unknown price[value]', () => {
    expectRejected(
      Priced,
      { price: { amount: 1, currency: 'USD', value: 1 } },
      'parameter_unknown',
      'price[value]',
    );
  });

  test('a malformed currency → price[currency] invalid', () => {
    expectRejected(Priced, { price: { amount: 1, currency: 'US' } }, 'parameter_invalid', 'price[currency]');
  });

  test('amounts beyond the safe integer range are refused', () => {
    expectRejected(Priced, { price: 2 ** 60 }, 'parameter_invalid', 'price');
  });

  test('positiveMoneyInput refuses 0 with "must be at least 1"', () => {
    const error = expectRejected(Paid, { amount: 0 }, 'parameter_invalid', 'amount');
    expect(error.message).toBe('amount must be at least 1');
    expect(parseInput(Paid, { amount: { amount: 1, currency: 'EUR' } }).amount).toEqual({
      amount: 1,
      currency: 'EUR',
    });
  });
});

describe('addresses', () => {
  const address = {
    name: 'Ada',
    line1: '1 Main St',
    city: 'Springfield',
    postal_code: '12345',
    country: 'us',
  };

  test('accepts the required fields and upper-cases the country', () => {
    expect(parseInput(AddressInputSchema, address)).toEqual({ ...address, country: 'US' });
  });

  test('optional parts may be null or strings', () => {
    const full = { ...address, company: null, line2: 'Apt 4', state: 'IL', phone: null };
    expect(parseInput(AddressInputSchema, full).line2).toBe('Apt 4');
  });

  test('each required field missing → parameter_missing', () => {
    for (const field of ['name', 'line1', 'city', 'postal_code', 'country'] as const) {
      const { [field]: _left, ...rest } = address;
      expectRejected(AddressInputSchema, rest, 'parameter_missing', field);
    }
  });

  test('first_name + last_name instead of name (decisions §22); one part alone names the other; every missing field listed', () => {
    const { name: _name, ...nameless } = address;
    const parts = { ...nameless, first_name: 'Ada', last_name: 'Lovelace' };
    expect(parseInput(AddressInputSchema, parts)).toEqual({ ...parts, country: 'US' });
    expect(parseInput(AddressInputSchema, { ...parts, label: 'Home', receiver_name: 'Ada' }).label).toBe(
      'Home',
    );
    expect(
      expectRejected(AddressInputSchema, { ...nameless, first_name: 'Ada' }, 'parameter_missing', 'last_name')
        .message,
    ).toBe('last_name is required when first_name is given');
    expectRejected(
      AddressInputSchema,
      { ...address, last_name: 'Lovelace' },
      'parameter_missing',
      'first_name',
    );
    expectRejected(AddressInputSchema, { ...parts, first_name: null }, 'parameter_missing', 'first_name');
    const { line1: _line1, ...bare } = nameless;
    const error = inputErrorOf(AddressInputSchema, bare);
    expect(error.code).toBe('parameter_missing');
    expect(error.details?.map((d) => d.param).sort()).toEqual(['line1', 'name']);
    expectRejected(AddressInputSchema, { ...address, label: 'x'.repeat(101) }, 'parameter_invalid', 'label');
    expectRejected(AddressInputSchema, { ...parts, first_name: ' ' }, 'parameter_invalid', 'first_name');
  });

  test('blank name → "name must not be empty"', () => {
    expect(
      expectRejected(AddressInputSchema, { ...address, name: '  ' }, 'parameter_invalid', 'name').message,
    ).toBe('name must not be empty');
  });

  test('country must be an assigned ISO 3166-1 alpha-2 code (UK, USA, XX refused; GB, XK accepted)', () => {
    for (const bad of ['UK', 'USA', 'XX', '', 'U1']) {
      expect(CountryCodeSchema.safeParse(bad).success).toBe(false);
    }
    for (const good of ['GB', 'gb', 'XK', 'DE', 'JP']) {
      expect(CountryCodeSchema.safeParse(good).success).toBe(true);
    }
  });
});

describe('scalars', () => {
  test('currency codes: 3 letters, upper-cased', () => {
    expect(CurrencyCodeSchema.parse('eur')).toBe('EUR');
    expect(CurrencyCodeSchema.safeParse('EURO').success).toBe(false);
    expect(CurrencyCodeSchema.safeParse('E1R').success).toBe(false);
  });

  test('http(s) URLs: absolute only', () => {
    expect(isHttpUrl('https://example.com/hook')).toBe(true);
    expect(isHttpUrl('http://127.0.0.1:8080/x')).toBe(true);
    for (const bad of [
      'ftp://example.com',
      '/relative',
      'example.com',
      'https://',
      'javascript:alert(1)',
      'mailto:a@b.co',
    ]) {
      expect(isHttpUrl(bad)).toBe(false);
    }
    expect(HttpUrlSchema.safeParse('ws://example.com').success).toBe(false);
  });

  test('metadata: a JSON object; arrays, null and non-JSON values refused', () => {
    expect(MetadataSchema.parse({ a: 1, b: [true, null, { c: 'd' }] })).toEqual({
      a: 1,
      b: [true, null, { c: 'd' }],
    });
    expect(MetadataSchema.safeParse([1]).success).toBe(false);
    expect(MetadataSchema.safeParse(null).success).toBe(false);
    expect(MetadataSchema.safeParse({ when: new Date(0) }).success).toBe(false);
    expect(MetadataSchema.safeParse({ n: Number.NaN }).success).toBe(false);
  });

  test('timestamps: date-times with offset and plain dates become epoch ms; local times refused', () => {
    expect(TimestampInputSchema.parse('2024-01-31T12:00:00Z')).toBe(Date.UTC(2024, 0, 31, 12));
    expect(TimestampInputSchema.parse('2024-01-31T12:00:00+02:00')).toBe(Date.UTC(2024, 0, 31, 10));
    expect(TimestampInputSchema.parse('2024-01-31')).toBe(Date.UTC(2024, 0, 31));
    expect(TimestampInputSchema.safeParse('2024-01-31T12:00:00').success).toBe(false);
    expect(TimestampInputSchema.safeParse('yesterday').success).toBe(false);
    expect(TimestampInputSchema.safeParse('2024-02-30').success).toBe(false);
  });

  test('rates: at most 6 decimal places (8.875 yes, 0.1 + 0.2 no)', () => {
    expect(fitsDecimalPlaces(8.875)).toBe(true);
    expect(fitsDecimalPlaces(0.000001)).toBe(true);
    expect(fitsDecimalPlaces(0.1 + 0.2)).toBe(false);
  });
});

describe('query coercion', () => {
  const Int = queryInt(z.int().min(0));

  test("integers from strings: '42' → 42, '-0' → 0", () => {
    expect(Int.parse('42')).toBe(42);
    expect(Int.parse('-0')).toBe(0);
  });

  test("strict: 'abc', '1.5', '1e3', '', ' 1', '0x10' are refused", () => {
    for (const bad of ['abc', '1.5', '1e3', '', ' 1', '0x10']) {
      expect(Int.safeParse(bad).success).toBe(false);
    }
  });

  test("booleans: only 'true' / 'false'", () => {
    expect(QueryBooleanSchema.parse('true')).toBe(true);
    expect(QueryBooleanSchema.parse('false')).toBe(false);
    for (const bad of ['yes', '1', 'TRUE', '']) {
      expect(QueryBooleanSchema.safeParse(bad).success).toBe(false);
    }
  });

  test("comma lists: 'a, b,,c' → ['a', 'b', 'c']", () => {
    expect(QueryListSchema.parse('a, b,,c')).toEqual(['a', 'b', 'c']);
  });
});

describe('list queries (decisions §7)', () => {
  test('defaults: limit 20, sort created_at, order desc', () => {
    expect(parseInput(ListQuerySchema, {}, { location: 'query' })).toEqual({
      limit: 20,
      sort: 'created_at',
      order: 'desc',
    });
  });

  test("limit '1' and '100' accepted; '0', '101', 'x', '5.5' rejected as parameter_invalid", () => {
    expect(parseInput(ListQuerySchema, { limit: '1' }, { location: 'query' }).limit).toBe(1);
    expect(parseInput(ListQuerySchema, { limit: '100' }, { location: 'query' }).limit).toBe(100);
    for (const bad of ['0', '101', 'x', '5.5', '-1']) {
      expectRejected(ListQuerySchema, { limit: bad }, 'parameter_invalid', 'limit', 'query');
    }
  });

  test('starting_after passes through; empty is refused', () => {
    expect(parseInput(ListQuerySchema, { starting_after: 'ord_1' }).starting_after).toBe('ord_1');
    expectRejected(ListQuerySchema, { starting_after: '' }, 'parameter_invalid', 'starting_after', 'query');
  });

  test('order defaults to desc for created_at and asc for other sorts; explicit order wins', () => {
    const Q = listQuery(['created_at', 'name'], {});
    expect(Q.parse({ sort: 'name' })).toMatchObject({ sort: 'name', order: 'asc' });
    expect(Q.parse({ sort: 'created_at' })).toMatchObject({ sort: 'created_at', order: 'desc' });
    expect(Q.parse({ sort: 'name', order: 'desc' })).toMatchObject({ sort: 'name', order: 'desc' });
    expect(Q.parse({ order: 'asc' })).toMatchObject({ sort: 'created_at', order: 'asc' });
  });

  test('unknown sort or order values are refused', () => {
    const Q = listQuery(['created_at', 'name'], {});
    expectRejected(Q, { sort: 'price' }, 'parameter_invalid', 'sort', 'query');
    expectRejected(Q, { order: 'up' }, 'parameter_invalid', 'order', 'query');
  });

  test('unknown query parameters are ignored (only bodies are strict)', () => {
    expect(parseInput(ListQuerySchema, { _: '123' }, { location: 'query' })).toEqual({
      limit: 20,
      sort: 'created_at',
      order: 'desc',
    });
  });

  test('a list query is still a ZodObject (OpenAPI query parameters)', () => {
    expect(ListQuerySchema).toBeInstanceOf(z.ZodObject);
    expect(Object.keys(ListQuerySchema.shape).sort()).toEqual(['limit', 'order', 'sort', 'starting_after']);
  });
});

describe('shared responses', () => {
  test('listOf names the envelope after its item and checks the envelope fields', () => {
    const Thing = z.object({ id: z.string() }).meta({ id: 'ThingForListTest' });
    const ThingList = listOf(Thing);
    expect(z.globalRegistry.get(ThingList)?.id).toBe('ThingForListTest' + 'List');
    expect(
      ThingList.safeParse({ data: [{ id: 'a' }], total_count: 1, has_more: false, next_cursor: null })
        .success,
    ).toBe(true);
    expect(ThingList.safeParse({ data: [], total_count: 0, has_more: false }).success).toBe(false);
  });

  test('Money, DeletedResponse and Error have OpenAPI names', () => {
    expect(z.globalRegistry.get(MoneySchema)?.id).toBe('Money');
    expect(z.globalRegistry.get(DeletedResponseSchema)?.id).toBe('DeletedResponse');
    expect(z.globalRegistry.get(ErrorBodySchema)?.id).toBe('Error');
  });

  test('DeletedResponse requires deleted: true', () => {
    expect(DeletedResponseSchema.safeParse({ id: 'prod_1', deleted: true }).success).toBe(true);
    expect(DeletedResponseSchema.safeParse({ id: 'prod_1', deleted: false }).success).toBe(false);
  });

  test('the error body of decisions §4 validates; unknown codes do not', () => {
    const body = {
      error: {
        type: 'invalid_request_error',
        code: 'parameter_invalid',
        message: 'quantity must be at least 1',
        param: 'quantity',
        request_id: 'req_1',
        details: [{ param: 'quantity', message: 'quantity must be at least 1' }],
      },
    };
    expect(ErrorBodySchema.safeParse(body).success).toBe(true);
    expect(ErrorBodySchema.safeParse({ error: { ...body.error, code: 'oops' } }).success).toBe(false);
  });
});
