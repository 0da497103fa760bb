import { CommerceError } from '../shared/errors';
import { parseDecimal } from '../shared/money/decimal';
import { type Rational, roundScaled } from '../shared/money/rounding';

/** The store's tax settings (docs/contract.md#tax): `rate` is a percentage, `20` = 20 %, `8.875` allowed. */
export interface TaxSettings {
  rate: number | string;
  prices_include_tax: boolean;
}

/**
 * Reads a tax rate percentage exactly (`8.875` → `8875/1000`).
 *
 * @throws CommerceError `parameter_invalid` (param `tax_rate`) when it is not a decimal with at
 * most 6 places, or is negative.
 */
export function parseTaxRate(rate: number | string | Rational): Rational {
  const parsed = typeof rate === 'object' ? rate : parseDecimal(rate, 'tax_rate');
  if (parsed.numerator < 0n) {
    throw new CommerceError('parameter_invalid', 'tax_rate must not be negative', { param: 'tax_rate' });
  }
  return parsed;
}

/**
 * Tax on a price that excludes it: `round(amount × rate / 100)`, half away from zero.
 *
 * @example exclusiveTax(1999, 8.875) // 177 (177.41…)
 */
export function exclusiveTax(amount: number, rate: number | string | Rational): number {
  const r = parseTaxRate(rate);
  return roundScaled(amount, r.numerator, r.denominator * 100n);
}

/**
 * The tax contained in a price that includes it:
 * `amount − round(amount / (1 + rate / 100))` (docs/contract.md#tax), computed exactly as
 * `amount − round(amount × 100·d / (100·d + n))` for `rate = n / d`.
 *
 * @example inclusiveTax(1999, 8.875) // 163 (1999 / 1.08875 = 1836.04… → 1836)
 */
export function inclusiveTax(amount: number, rate: number | string | Rational): number {
  const r = parseTaxRate(rate);
  const hundredD = r.denominator * 100n;
  return amount - roundScaled(amount, hundredD, hundredD + r.numerator);
}

/** Tax on `amount` under the store's settings: {@link inclusiveTax} or {@link exclusiveTax}. */
export function computeTax(
  amount: number,
  rate: number | string | Rational,
  pricesIncludeTax: boolean,
): number {
  return pricesIncludeTax ? inclusiveTax(amount, rate) : exclusiveTax(amount, rate);
}
