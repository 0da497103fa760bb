import { CommerceError } from '../errors';
import type { Rational } from './rounding';

/** The most decimal places {@link parseDecimal} accepts (`8.875` has 3; `0.000001` has 6). */
export const MAX_DECIMAL_PLACES = 6;

const DECIMAL_STRING = /^(-)?(\d+)(?:\.(\d+))?$/;
const NUMBER_TEXT = /^(-)?(\d+)(?:\.(\d+))?(?:e([+-]?\d+))?$/;

/**
 * Parses a decimal such as a percentage or a tax rate into an exact {@link Rational}, so that no
 * float ever multiplies money: `8.875` → `8875/1000`, `"20"` → `20/1`, `-0.5` → `-5/10`.
 *
 * Decisions: the denominator is `10^k` where `k` is the number of significant decimal places
 * (trailing zeros are dropped: `"8.50"` → `85/10`). Strings must be plain decimals
 * (`-?digits(.digits)?`, no exponent, sign `+`, whitespace or leading `.`); numbers are read from
 * their shortest round-trip text, so `1e-6` is accepted and `0.1 + 0.2` (17 places) is rejected.
 *
 * @param param the wire field named in the error (default `value`)
 * @throws CommerceError `parameter_invalid` for NaN, ±Infinity, malformed text or more than
 * {@link MAX_DECIMAL_PLACES} decimal places.
 */
export function parseDecimal(value: number | string, param = 'value'): Rational {
  const cache = typeof value === 'number' ? parsedNumbers : parsedStrings;
  const known = cache.get(value);
  if (known) return known;
  const parsed = Object.freeze(readDecimal(value, param));
  if (cache.size >= PARSED_CACHE_SIZE) cache.clear();
  cache.set(value, parsed);
  return parsed;
}

/**
 * Rationals already read, by input (numbers and strings apart: `1e-6` is a valid number but not a
 * valid string). Pricing reads the same few rates and percentages on every request (the store's
 * tax rate, each discount's value), so each is parsed once; results are frozen and shared, and
 * only successes are kept (an invalid input throws every time). Bounded: cleared when full.
 */
const parsedNumbers = new Map<number | string, Rational>();
const parsedStrings = new Map<number | string, Rational>();
const PARSED_CACHE_SIZE = 512;

function readDecimal(value: number | string, param: string): Rational {
  let match: RegExpExecArray | null;
  if (typeof value === 'number') {
    if (!Number.isFinite(value)) throw invalid(param, `${param} must be a finite number`);
    match = NUMBER_TEXT.exec(String(value));
  } else {
    match = DECIMAL_STRING.exec(value);
  }
  if (!match) throw invalid(param, `${param} must be a decimal number`);
  const [, sign, integerPart = '0', fractionPart = '', exponentText] = match;
  let digits = integerPart + fractionPart;
  let scale = fractionPart.length - Number(exponentText ?? 0);
  if (scale < 0) {
    digits += '0'.repeat(-scale);
    scale = 0;
  }
  while (scale > 0 && digits.endsWith('0')) {
    digits = digits.slice(0, -1);
    scale -= 1;
  }
  if (scale > MAX_DECIMAL_PLACES) {
    throw invalid(param, `${param} must have at most ${MAX_DECIMAL_PLACES} decimal places`);
  }
  const magnitude = BigInt(digits);
  return { numerator: sign && magnitude !== 0n ? -magnitude : magnitude, denominator: 10n ** BigInt(scale) };
}

function invalid(param: string, message: string): CommerceError {
  return new CommerceError('parameter_invalid', message, { param });
}
