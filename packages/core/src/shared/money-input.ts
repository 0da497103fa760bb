import { CommerceError } from './errors';
import type { MoneyInput } from './schemas/common';

/**
 * The amount of a money input in the store currency (docs/contract.md#money): a Money object whose currency
 * differs from the store's → 422 `currency_mismatch` with `param`. `null` stays `null`.
 */
export function amountInStoreCurrency(
  input: MoneyInput | null,
  currency: string,
  param: string,
): number | null {
  if (input === null) return null;
  if (input.currency !== undefined && input.currency.toUpperCase() !== currency.toUpperCase()) {
    throw new CommerceError(
      'currency_mismatch',
      `${param} is in ${input.currency.toUpperCase()}, but the store currency is ${currency}`,
      { param },
    );
  }
  return input.amount;
}
