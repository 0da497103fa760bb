import { CommerceError } from '../shared/errors';
import { sameCurrency } from '../shared/money';
import type { MoneyInput } from '../shared/schemas/common';

/**
 * The amount of a money input in the store currency (docs/contract.md#money). The schemas normalise both
 * request forms (`1999` and `{ amount: 1999, currency: 'USD' }`) to `{ amount, currency? }`; a
 * currency other than the store's → 422 `currency_mismatch` with `param`.
 */
export function storeAmount(input: MoneyInput, storeCurrency: string, param: string): number {
  if (input.currency !== undefined && !sameCurrency(input.currency, storeCurrency)) {
    throw new CommerceError(
      'currency_mismatch',
      `${param} is in ${input.currency.toUpperCase()}, but the store's currency is ${storeCurrency}`,
      { param, data: { expected: storeCurrency, actual: input.currency.toUpperCase() } },
    );
  }
  return input.amount;
}

/**
 * {@link storeAmount} for nullable inputs: `undefined` stays `undefined` (field not given, for
 * patches), `null` stays `null` (cleared).
 */
export function storeAmountOrNull(
  input: MoneyInput | null | undefined,
  storeCurrency: string,
  param: string,
): number | null | undefined {
  if (input === undefined || input === null) return input;
  return storeAmount(input, storeCurrency, param);
}
