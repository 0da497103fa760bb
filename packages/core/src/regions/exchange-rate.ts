import { CommerceError } from '../shared/errors';
import { type Rational, roundHalfAwayFromZero } from '../shared/money';
import { currencyExponent } from './currencies';

/** The most significant digits a currency rate may have (decisions §19). */
export const MAX_RATE_DIGITS = 12;

const NUMBER_TEXT = /^(\d+)(?:\.(\d+))?(?:e([+-]?\d+))?$/;

/**
 * A currency rate as an exact decimal: `digits × 10^-scale` (`1.0825` → digits 10825n, scale 4).
 * Kept exactly from the wire to the database and into every conversion; never a float in money
 * arithmetic (the wire's JSON number is read from its shortest round-trip text, which is the
 * typed decimal for every number of at most 15 significant digits).
 */
export interface ExactRate {
  digits: bigint;
  scale: number;
}

/**
 * Reads a rate from the wire (a JSON number, or a decimal string as stored): > 0, finite, at most
 * {@link MAX_RATE_DIGITS} significant digits. Trailing zeros are dropped (`1.50` → 15 × 10^-1).
 *
 * @throws CommerceError 400 `parameter_invalid` (param `rate` unless given) otherwise.
 */
export function parseRate(value: number | string, param = 'rate'): ExactRate {
  if (typeof value === 'number' && !Number.isFinite(value))
    throw invalid(param, `${param} must be a finite number`);
  const match = NUMBER_TEXT.exec(typeof value === 'number' ? String(value) : value);
  if (!match) throw invalid(param, `${param} must be a positive decimal number`);
  const [, integerPart = '0', fractionPart = '', exponentText] = match;
  let digits = (integerPart + fractionPart).replace(/^0+/, '');
  let scale = fractionPart.length - Number(exponentText ?? 0);
  if (digits === '') throw invalid(param, `${param} must be greater than 0`);
  while (digits.endsWith('0')) {
    digits = digits.slice(0, -1);
    scale -= 1;
  }
  if (digits.length > MAX_RATE_DIGITS) {
    throw invalid(param, `${param} must have at most ${MAX_RATE_DIGITS} significant digits`);
  }
  return { digits: BigInt(digits), scale };
}

/** The rate as a plain decimal text without exponent (`0.0001234`, `150`), as stored. */
export function rateText(rate: ExactRate): string {
  const digits = rate.digits.toString();
  if (rate.scale <= 0) return digits + '0'.repeat(-rate.scale);
  const padded = digits.padStart(rate.scale + 1, '0');
  return `${padded.slice(0, padded.length - rate.scale)}.${padded.slice(padded.length - rate.scale)}`;
}

/**
 * The rate as a JSON number for the wire (`CurrencyRate.rate` is a number in the SDK). Exact as
 * text: a number of ≤ 12 significant digits round-trips through its shortest representation.
 */
export function rateNumber(rate: ExactRate | string): number {
  return Number(typeof rate === 'string' ? rate : rateText(rate));
}

/** The rate as a {@link Rational} (`digits / 10^scale`, or `digits × 10^-scale / 1`). */
export function rateRational(rate: ExactRate): Rational {
  return rate.scale >= 0
    ? { numerator: rate.digits, denominator: 10n ** BigInt(rate.scale) }
    : { numerator: rate.digits * 10n ** BigInt(-rate.scale), denominator: 1n };
}

/**
 * Converts `amount` (integer minor units of `from`) into minor units of `to` at `rate`
 * (1 `from` = `rate` `to`), decisions §19:
 * `roundHalfAwayFromZero(amount × rate × 10^(e_to − e_from))`, computed on integers (BigInt), so
 * the result is the exact rational value rounded once.
 *
 * @example convertAmount(1999, parseRate(1.0825), 'USD', 'EUR') // 2164 (21.639175 EUR → 21.64)
 * @example convertAmount(1999, parseRate(151.37), 'USD', 'JPY') // 3026 (3025.8863 → 3026)
 * @example convertAmount(1999, parseRate(0.3075), 'USD', 'KWD') // 6147 (6.146925 KWD → 6.147)
 */
export function convertAmount(amount: number, rate: ExactRate, from: string, to: string): number {
  const { numerator, denominator } = rateRational(rate);
  const shift = currencyExponent(to) - currencyExponent(from);
  const scaledNumerator = BigInt(amount) * numerator * (shift > 0 ? 10n ** BigInt(shift) : 1n);
  const scaledDenominator = denominator * (shift < 0 ? 10n ** BigInt(-shift) : 1n);
  return roundHalfAwayFromZero(scaledNumerator, scaledDenominator);
}

function invalid(param: string, message: string): CommerceError {
  return new CommerceError('parameter_invalid', message, { param });
}
