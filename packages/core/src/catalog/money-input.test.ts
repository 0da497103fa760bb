import { describe, expect, test } from 'vitest';
import { CommerceError } from '../shared/errors';
import { storeAmount, storeAmountOrNull } from './money-input';

describe('storeAmount', () => {
  test('{ amount: 1999 } in a USD store → 1999', () => {
    expect(storeAmount({ amount: 1999 }, 'USD', 'price')).toBe(1999);
  });

  test("{ amount: 1999, currency: 'usd' } in a USD store → 1999 (case-insensitive)", () => {
    expect(storeAmount({ amount: 1999, currency: 'usd' }, 'USD', 'price')).toBe(1999);
  });

  test("{ amount: 1999, currency: 'EUR' } in a USD store → currency_mismatch on the param", () => {
    try {
      storeAmount({ amount: 1999, currency: 'EUR' }, 'USD', 'variants[0][price]');
      expect.unreachable();
    } catch (error) {
      expect(CommerceError.is(error)).toBe(true);
      expect((error as CommerceError).code).toBe('currency_mismatch');
      expect((error as CommerceError).param).toBe('variants[0][price]');
    }
  });
});

describe('storeAmountOrNull', () => {
  test('undefined → undefined, null → null, { amount: 5 } → 5', () => {
    expect(storeAmountOrNull(undefined, 'USD', 'x')).toBeUndefined();
    expect(storeAmountOrNull(null, 'USD', 'x')).toBeNull();
    expect(storeAmountOrNull({ amount: 5 }, 'USD', 'x')).toBe(5);
  });
});
