import { describe, expect, it } from 'vitest';
import { CommerceError } from '../errors';
import {
  addMoney,
  assertSameCurrency,
  money,
  multiplyMoney,
  sameCurrency,
  subtractMoney,
  sumMoney,
  zeroMoney,
} from './money';

const usd = (amount: number) => money(amount, 'USD');

function thrown(fn: () => unknown): unknown {
  try {
    fn();
  } catch (error) {
    return error;
  }
  return undefined;
}

describe('money', () => {
  it('makes {1999, USD} and refuses 19.99', () => {
    expect(usd(1999)).toEqual({ amount: 1999, currency: 'USD' });
    expect(() => usd(19.99)).toThrow(RangeError);
  });

  it('adds 1999 + 1 USD to 2000 USD', () => {
    expect(addMoney(usd(1999), usd(1))).toEqual(usd(2000));
  });

  it('subtracts 500 − 1999 USD to −1499 USD', () => {
    expect(subtractMoney(usd(500), usd(1999))).toEqual(usd(-1499));
  });

  it('multiplies 1999 USD by 3 to 5997 USD, and refuses a factor of 1.5', () => {
    expect(multiplyMoney(usd(1999), 3)).toEqual(usd(5997));
    expect(() => multiplyMoney(usd(1999), 1.5)).toThrow(RangeError);
  });

  it('refuses USD + EUR with currency_mismatch', () => {
    const error = thrown(() => addMoney(usd(1), money(1, 'EUR')));
    expect(CommerceError.is(error) && error.code).toBe('currency_mismatch');
    const error2 = thrown(() => subtractMoney(usd(1), money(1, 'EUR')));
    expect(CommerceError.is(error2) && error2.code).toBe('currency_mismatch');
    expect(() => assertSameCurrency(usd(1), money(1, 'GBP'))).toThrow(/GBP/);
  });

  it('treats usd and USD as one currency, keeping the left operand’s spelling', () => {
    expect(sameCurrency('usd', 'USD')).toBe(true);
    expect(addMoney(money(1, 'usd'), usd(2))).toEqual(money(3, 'usd'));
  });

  it('refuses sums beyond 2^53', () => {
    expect(() => addMoney(usd(Number.MAX_SAFE_INTEGER), usd(1))).toThrow(RangeError);
    expect(() => multiplyMoney(usd(2 ** 40), 2 ** 20)).toThrow(RangeError);
  });

  it('sums [100, 250, 1] USD to 351 USD and nothing to 0 USD', () => {
    expect(sumMoney('USD', [usd(100), usd(250), usd(1)])).toEqual(usd(351));
    expect(sumMoney('USD', [])).toEqual(zeroMoney('USD'));
  });
});
