import { describe, expect, it } from 'vitest';
import { CommerceError } from '../errors';
import { parseDecimal } from './decimal';

function rejection(value: number | string, param?: string): CommerceError {
  try {
    parseDecimal(value, param);
  } catch (error) {
    if (CommerceError.is(error)) return error;
    throw error;
  }
  throw new Error(`parseDecimal(${String(value)}) did not throw`);
}

describe('parseDecimal', () => {
  it('reads 8.875 as 8875/1000', () => {
    expect(parseDecimal(8.875)).toEqual({ numerator: 8875n, denominator: 1000n });
  });

  it('reads the string "8.875" as 8875/1000 too', () => {
    expect(parseDecimal('8.875')).toEqual({ numerator: 8875n, denominator: 1000n });
  });

  it('reads 20 as 20/1 and "0" as 0/1', () => {
    expect(parseDecimal(20)).toEqual({ numerator: 20n, denominator: 1n });
    expect(parseDecimal('0')).toEqual({ numerator: 0n, denominator: 1n });
  });

  it('drops trailing zeros: "8.50" is 85/10 and "3.000" is 3/1', () => {
    expect(parseDecimal('8.50')).toEqual({ numerator: 85n, denominator: 10n });
    expect(parseDecimal('3.000')).toEqual({ numerator: 3n, denominator: 1n });
  });

  it('reads negatives: -0.5 is -5/10, and "-0" is 0/1', () => {
    expect(parseDecimal(-0.5)).toEqual({ numerator: -5n, denominator: 10n });
    expect(parseDecimal('-0.0')).toEqual({ numerator: 0n, denominator: 1n });
  });

  it('accepts 6 decimal places: 0.000001 is 1/1000000, also written 1e-6', () => {
    expect(parseDecimal(0.000001)).toEqual({ numerator: 1n, denominator: 1_000_000n });
    expect(parseDecimal(1e-6)).toEqual({ numerator: 1n, denominator: 1_000_000n });
    expect(parseDecimal('1234567.123456')).toEqual({ numerator: 1234567123456n, denominator: 1_000_000n });
  });

  it('reads large numbers in exponent form: 1e21 is 10^21/1', () => {
    expect(parseDecimal(1e21)).toEqual({ numerator: 10n ** 21n, denominator: 1n });
  });

  it('rejects 7 decimal places (1e-7, "0.1234567") and float noise (0.1 + 0.2)', () => {
    expect(rejection(1e-7).code).toBe('parameter_invalid');
    expect(rejection('0.1234567').code).toBe('parameter_invalid');
    expect(rejection(0.1 + 0.2).message).toMatch(/6 decimal places/);
  });

  it('rejects NaN and Infinity, naming the param', () => {
    expect(rejection(Number.NaN, 'tax_rate').param).toBe('tax_rate');
    expect(rejection(Number.POSITIVE_INFINITY).code).toBe('parameter_invalid');
    expect(rejection(Number.NEGATIVE_INFINITY).param).toBe('value');
  });

  it('rejects malformed strings: "", "abc", "1e5", " 1", "+1", ".5", "1."', () => {
    for (const text of ['', 'abc', '1e5', ' 1', '+1', '.5', '1.']) {
      expect(rejection(text).code).toBe('parameter_invalid');
    }
  });
});

describe('parseDecimal results are shared per input', () => {
  it('reads 8.875 twice as the same frozen 8875/1000, and "8.875" as an equal value', () => {
    const first = parseDecimal(8.875);
    expect(parseDecimal(8.875)).toBe(first);
    expect(Object.isFrozen(first)).toBe(true);
    expect(parseDecimal('8.875')).toEqual(first);
  });

  it('keeps numbers and strings apart: 1e-6 is 1/1000000 but "1e-6" is still refused', () => {
    expect(parseDecimal(1e-6)).toEqual({ numerator: 1n, denominator: 1_000_000n });
    expect(rejection('1e-6').code).toBe('parameter_invalid');
  });

  it('refuses an invalid input every time, naming the param of each call', () => {
    expect(rejection('8.8.8', 'tax_rate').param).toBe('tax_rate');
    expect(rejection('8.8.8', 'value').param).toBe('value');
  });

  it('stays exact past the cache bound: 2,000 distinct rates k/1000 read back as k/1000', () => {
    for (let k = 1; k <= 2000; k++) {
      const parsed = parseDecimal(`${Math.floor(k / 1000)}.${String(k % 1000).padStart(3, '0')}`);
      expect(Number(parsed.numerator) / Number(parsed.denominator)).toBeCloseTo(k / 1000, 9);
    }
  });
});
