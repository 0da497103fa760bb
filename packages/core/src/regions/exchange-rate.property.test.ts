import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { activeCurrencies, currencyExponent } from './currencies';
import {
  convertAmount,
  type ExactRate,
  MAX_RATE_DIGITS,
  parseRate,
  rateNumber,
  rateText,
} from './exchange-rate';

/**
 * Properties of currency conversion (decisions §19): no float ever touches money. The reference
 * below is written independently of `convertAmount`: the exact result of amount × rate ×
 * 10^(e_to − e_from) is a terminating decimal (every factor is an integer times a power of ten),
 * so it is written out as decimal digits (schoolbook multiplication on digit strings, no BigInt)
 * and rounded once, half away from zero, by reading the first dropped digit.
 */

const RUNS = { numRuns: 2000 };

/** The product of two non-negative decimal integers given as digit strings. */
function multiplyDigits(a: string, b: string): string {
  const result = new Array<number>(a.length + b.length).fill(0);
  for (let i = a.length - 1; i >= 0; i--) {
    for (let j = b.length - 1; j >= 0; j--) {
      const sum = Number(a[i]) * Number(b[j]) + (result[i + j + 1] as number);
      result[i + j + 1] = sum % 10;
      result[i + j] = (result[i + j] as number) + Math.floor(sum / 10);
    }
  }
  const text = result.join('').replace(/^0+/, '');
  return text === '' ? '0' : text;
}

/** Adds one to a decimal integer given as a digit string. */
function incrementDigits(text: string): string {
  const digits = text.split('').map(Number);
  let i = digits.length - 1;
  while (i >= 0 && digits[i] === 9) {
    digits[i] = 0;
    i -= 1;
  }
  if (i < 0) digits.unshift(1);
  else digits[i] = (digits[i] as number) + 1;
  return digits.join('');
}

/**
 * The reference conversion as a decimal string (sign included): |amount| × rate digits, the
 * decimal point moved by the exponents, rounded half away from zero at the units.
 */
function referenceConversion(
  amount: number,
  rateDigits: string,
  rateScale: number,
  from: string,
  to: string,
): string {
  const negative = amount < 0;
  const product = multiplyDigits(String(Math.abs(amount)), rateDigits);
  // value = product × 10^shift, shift = (e_to − e_from) − scale
  const shift = currencyExponent(to) - currencyExponent(from) - rateScale;
  let rounded: string;
  if (shift >= 0) {
    rounded = product === '0' ? '0' : product + '0'.repeat(shift);
  } else {
    const dropped = -shift;
    const padded = product.padStart(dropped + 1, '0');
    const integer = padded.slice(0, padded.length - dropped).replace(/^0+(?=\d)/, '');
    const firstDropped = Number(padded[padded.length - dropped]);
    rounded = firstDropped >= 5 ? incrementDigits(integer) : integer;
  }
  return negative && rounded !== '0' ? `-${rounded}` : rounded;
}

/** Whether a decimal integer string is within the safe integers. */
function isSafe(value: string): boolean {
  const magnitude = value.replace('-', '');
  const safe = String(Number.MAX_SAFE_INTEGER);
  return magnitude.length < safe.length || (magnitude.length === safe.length && magnitude <= safe);
}

const currencies = activeCurrencies();
const currencyArb = fc.constantFrom(...currencies);
/** 1..12 significant digits, no trailing zero (the canonical form parseRate keeps). */
const rateDigitsArb = fc
  .bigInt({ min: 1n, max: 10n ** BigInt(MAX_RATE_DIGITS) - 1n })
  .map((n) => n.toString().replace(/0+$/, ''));
const rateArb = fc.record({ digits: rateDigitsArb, scale: fc.integer({ min: -8, max: 20 }) });
const amountArb = fc.oneof(
  fc.integer({ min: -1_000_000, max: 1_000_000 }),
  fc.integer({ min: -Number.MAX_SAFE_INTEGER, max: Number.MAX_SAFE_INTEGER }),
);

/** The rate as a JSON number's text would give it (scientific notation, as `String(1e-7)`). */
function rateOf(digits: string, scale: number): ExactRate {
  return parseRate(`${digits}e${-scale}`);
}

describe('convertAmount (decisions §19)', () => {
  it('equals the exact result rounded once half away from zero, for any safe amount, rate and pair of exponents', () => {
    fc.assert(
      fc.property(amountArb, rateArb, currencyArb, currencyArb, (amount, rate, from, to) => {
        const expected = referenceConversion(amount, rate.digits, rate.scale, from, to);
        const exact = rateOf(rate.digits, rate.scale);
        if (isSafe(expected)) {
          expect(String(convertAmount(amount, exact, from, to))).toBe(expected);
        } else {
          // Beyond the safe integers there is no exact number to answer: it refuses.
          expect(() => convertAmount(amount, exact, from, to)).toThrow();
        }
      }),
      RUNS,
    );
  });

  it('is monotonic in the amount', () => {
    fc.assert(
      fc.property(
        fc.integer({ min: -10_000_000, max: 10_000_000 }),
        fc.integer({ min: -10_000_000, max: 10_000_000 }),
        fc.record({ digits: rateDigitsArb, scale: fc.integer({ min: 6, max: 14 }) }),
        currencyArb,
        currencyArb,
        (a, b, rate, from, to) => {
          const [low, high] = a <= b ? [a, b] : [b, a];
          for (const amount of [low, high]) {
            fc.pre(isSafe(referenceConversion(amount, rate.digits, rate.scale, from, to)));
          }
          const exact = rateOf(rate.digits, rate.scale);
          expect(convertAmount(low, exact, from, to)).toBeLessThanOrEqual(
            convertAmount(high, exact, from, to),
          );
        },
      ),
      RUNS,
    );
  });

  it('rounds the halves away from zero in every exponent pair: worked examples', () => {
    expect(convertAmount(1999, parseRate(1.0825), 'USD', 'EUR')).toBe(2164); // 21.639175 → 21.64
    expect(convertAmount(1999, parseRate(151.37), 'USD', 'JPY')).toBe(3026); // ¥3025.8863 → ¥3026
    expect(convertAmount(1999, parseRate(0.3075), 'USD', 'KWD')).toBe(6147); // 6.146925 → 6.147
    expect(convertAmount(5, parseRate(0.1), 'USD', 'EUR')).toBe(1); // 0.5 cent → 1
    expect(convertAmount(-5, parseRate(0.1), 'USD', 'EUR')).toBe(-1);
    expect(convertAmount(150, parseRate(0.01), 'JPY', 'USD')).toBe(150); // ¥150 at 0.01 → $1.50
    expect(convertAmount(1, parseRate(0.5), 'EUR', 'JPY')).toBe(0); // €0.01 × 0.5 = ¥0.005 → ¥0
    expect(convertAmount(1005, parseRate(1), 'KWD', 'EUR')).toBe(101); // 1.005 KWD → 1.01 (100.5 cents)
  });
});

describe('parseRate / rateText / rateNumber round-trip', () => {
  it('parseRate(rateText(r)) and parseRate(rateNumber(r)) give r back; rateText has no exponent', () => {
    fc.assert(
      fc.property(rateArb, ({ digits, scale }) => {
        const rate = rateOf(digits, scale);
        expect(rate).toEqual({ digits: BigInt(digits), scale });
        const text = rateText(rate);
        expect(text).toMatch(/^\d+(\.\d+)?$/);
        expect(text).not.toMatch(/\.\d*0$/);
        expect(parseRate(text)).toEqual(rate);
        expect(parseRate(rateNumber(rate))).toEqual(rate);
        expect(rateNumber(text)).toBe(rateNumber(rate));
      }),
      RUNS,
    );
  });

  it('a JSON number of at most 12 significant digits is read as its decimal text', () => {
    fc.assert(
      fc.property(rateArb, ({ digits, scale }) => {
        const value = Number(`${digits}e${-scale}`);
        expect(rateText(parseRate(value))).toBe(rateText(rateOf(digits, scale)));
      }),
      RUNS,
    );
  });

  it('refuses 0, negatives, non-finite numbers and more than 12 significant digits (400 parameter_invalid)', () => {
    for (const bad of [
      0,
      -1,
      Number.NaN,
      Number.POSITIVE_INFINITY,
      '1.0000000000001',
      1234567890123,
      '',
      'abc',
      '0.000',
    ]) {
      expect(() => parseRate(bad as number | string)).toThrowError(
        expect.objectContaining({ code: 'parameter_invalid', param: 'rate' }),
      );
    }
  });
});
