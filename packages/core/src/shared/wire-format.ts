/** Small formatters from records to the wire (docs/contract.md#money): ISO time, Money objects. */
export interface MoneyWire {
  amount: number;
  currency: string;
}

/** Two-digit and three-digit zero-padded numbers, by value. */
const PAD2 = Array.from({ length: 100 }, (_, n) => String(n).padStart(2, '0'));
const PAD3 = Array.from({ length: 1000 }, (_, n) => String(n).padStart(3, '0'));
const DAY_MS = 86_400_000;
/** 10000-01-01T00:00:00.000Z: from here on `toISOString` writes six-digit years. */
const FAST_LIMIT_MS = 253_402_300_800_000;

/** `YYYY-MM-DDT` of the last day formatted (timestamps of one response mostly share a day). */
let lastDay = Number.NaN;
let lastDayPrefix = '';

/** `YYYY-MM-DDT` of a day counted from 1970-01-01 (0 ≤ day), proleptic Gregorian (H. Hinnant's days→civil). */
function dayPrefix(day: number): string {
  const z = day + 719_468;
  const era = Math.floor(z / 146_097);
  const doe = z - era * 146_097;
  const yoe = Math.floor(
    (doe - Math.floor(doe / 1460) + Math.floor(doe / 36_524) - Math.floor(doe / 146_096)) / 365,
  );
  const doy = doe - (365 * yoe + Math.floor(yoe / 4) - Math.floor(yoe / 100));
  const mp = Math.floor((5 * doy + 2) / 153);
  const d = doy - Math.floor((153 * mp + 2) / 5) + 1;
  const m = mp < 10 ? mp + 3 : mp - 9;
  const y = yoe + era * 400 + (m <= 2 ? 1 : 0);
  return `${PAD2[Math.floor(y / 100)]}${PAD2[y % 100]}-${PAD2[m]}-${PAD2[d]}T`;
}

/**
 * Epoch milliseconds as ISO 8601, exactly `new Date(ms).toISOString()` (property-tested), but
 * without a Date per call: integer times from 1970 to year 9999 are formatted arithmetically
 * (the catalog list formats ~170 timestamps per page); anything else (negative, fractional,
 * six-digit years, invalid → RangeError) goes through Date.
 */
export function iso(ms: number): string {
  if (!(ms >= 0 && ms < FAST_LIMIT_MS && Number.isInteger(ms))) return new Date(ms).toISOString();
  const day = Math.floor(ms / DAY_MS);
  if (day !== lastDay) {
    lastDayPrefix = dayPrefix(day);
    lastDay = day;
  }
  let rest = ms - day * DAY_MS;
  const hours = Math.floor(rest / 3_600_000);
  rest -= hours * 3_600_000;
  const minutes = Math.floor(rest / 60_000);
  rest -= minutes * 60_000;
  const seconds = Math.floor(rest / 1000);
  return `${lastDayPrefix}${PAD2[hours]}:${PAD2[minutes]}:${PAD2[seconds]}.${PAD3[rest - seconds * 1000]}Z`;
}

export const isoOrNull = (ms: number | null | undefined): string | null => (ms == null ? null : iso(ms));
export const money = (amount: number, currency: string): MoneyWire => ({ amount, currency });
export const moneyOrNull = (amount: number | null | undefined, currency: string): MoneyWire | null =>
  amount == null ? null : { amount, currency };
/** Parses an ISO date-time from the wire to epoch ms (the schemas already checked the format). */
export const toMillis = (value: string): number => Date.parse(value);
export const toMillisOrNull = (value: string | null | undefined): number | null =>
  value == null ? null : Date.parse(value);
