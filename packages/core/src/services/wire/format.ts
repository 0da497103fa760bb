/** Small formatters from records to the wire (decisions §6): ISO time, Money objects. */
export interface MoneyWire {
  amount: number;
  currency: string;
}

export const iso = (ms: number): string => new Date(ms).toISOString();
export const isoOrNull = (ms: number | null | undefined): string | null => (ms == null ? null : iso(ms));
export const money = (amount: number, currency: string): MoneyWire => ({ amount, currency });
export const moneyOrNull = (amount: number | null | undefined, currency: string): MoneyWire | null =>
  amount == null ? null : { amount, currency };
/** Parses an ISO date-time from the wire to epoch ms (the schemas already checked the format). */
export const toMillis = (value: string): number => Date.parse(value);
export const toMillisOrNull = (value: string | null | undefined): number | null =>
  value == null ? null : Date.parse(value);
