import { CommerceError } from '../errors';
import { toBigInt, toSafeNumber } from './rounding';

/** An amount of money: `amount` in integer minor units of `currency` (e.g. `{ amount: 1999, currency: 'USD' }`). */
export interface Money {
  amount: number;
  currency: string;
}

/**
 * Makes a {@link Money}.
 *
 * @throws RangeError when `amount` is not a safe integer (money is never a float).
 */
export function money(amount: number, currency: string): Money {
  toBigInt(amount, 'amount');
  return { amount, currency };
}

/** Zero in `currency`. */
export function zeroMoney(currency: string): Money {
  return { amount: 0, currency };
}

/**
 * Whether two currency codes name the same currency. Decision: codes compare case-insensitively
 * (`usd` = `USD`, as Stripe's lowercase codes meet ISO's uppercase ones).
 */
export function sameCurrency(a: string, b: string): boolean {
  return a.toUpperCase() === b.toUpperCase();
}

/** @throws CommerceError `currency_mismatch` unless `a` and `b` are in the same currency. */
export function assertSameCurrency(a: Money, b: Money): void {
  if (!sameCurrency(a.currency, b.currency)) {
    throw new CommerceError('currency_mismatch', `Currency ${b.currency} does not match ${a.currency}`, {
      data: { expected: a.currency, actual: b.currency },
    });
  }
}

/**
 * `a + b`, in `a`'s currency.
 *
 * @throws CommerceError `currency_mismatch`; RangeError when the sum is not a safe integer.
 */
export function addMoney(a: Money, b: Money): Money {
  assertSameCurrency(a, b);
  return { amount: toSafeNumber(toBigInt(a.amount) + toBigInt(b.amount), 'sum'), currency: a.currency };
}

/**
 * `a − b`, in `a`'s currency (the result may be negative).
 *
 * @throws CommerceError `currency_mismatch`; RangeError when the difference is not a safe integer.
 */
export function subtractMoney(a: Money, b: Money): Money {
  assertSameCurrency(a, b);
  return {
    amount: toSafeNumber(toBigInt(a.amount) - toBigInt(b.amount), 'difference'),
    currency: a.currency,
  };
}

/**
 * `a × factor` for an integer factor (a quantity). Fractions (percentages, rates) go through
 * `applyPercentage` instead, so that their rounding is explicit.
 *
 * @throws RangeError when `factor` is not an integer or the product is not a safe integer.
 */
export function multiplyMoney(a: Money, factor: number): Money {
  return {
    amount: toSafeNumber(toBigInt(a.amount, 'amount') * toBigInt(factor, 'factor'), 'product'),
    currency: a.currency,
  };
}

/** Sums amounts of one currency; the sum of none is zero in `currency`. */
export function sumMoney(currency: string, items: readonly Money[]): Money {
  return items.reduce<Money>((acc, item) => addMoney(acc, item), zeroMoney(currency));
}
