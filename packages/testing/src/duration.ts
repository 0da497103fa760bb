/** A length of time: milliseconds, or a string such as `'25h'`, `'30m'`, `'1h30m'`, `'2d'`, `'500ms'`. */
export type Duration = number | string;

const UNIT_MS: Record<string, number> = {
  ms: 1,
  s: 1000,
  m: 60_000,
  h: 3_600_000,
  d: 86_400_000,
  w: 604_800_000,
};

const PART = /(\d+(?:\.\d+)?)\s*(ms|s|m|h|d|w)/y;

/**
 * Milliseconds of a {@link Duration}: `parseDuration('25h')` → 90 000 000, `parseDuration('1h30m')`
 * → 5 400 000, `parseDuration(250)` → 250. Units: `ms`, `s`, `m` (minutes), `h`, `d`, `w`; parts
 * may be separated by spaces. Negative, non-finite or malformed values throw a `RangeError`
 * (time only moves forward through `advance`; use `clock.set` to go back).
 */
export function parseDuration(value: Duration): number {
  if (typeof value === 'number') {
    if (!Number.isFinite(value) || value < 0) {
      throw new RangeError(`A duration must be a finite number of ms ≥ 0, got ${value}`);
    }
    return value;
  }
  const text = value.trim();
  let total = 0;
  let index = 0;
  while (index < text.length) {
    PART.lastIndex = index;
    const match = PART.exec(text);
    if (!match) throw new RangeError(`Not a duration: '${value}' (use e.g. '25h', '30m', '1h30m', 500)`);
    total += Number(match[1]) * (UNIT_MS[match[2] as string] as number);
    index = PART.lastIndex;
    while (text[index] === ' ') index++;
  }
  if (index === 0) throw new RangeError(`Not a duration: '${value}' (use e.g. '25h', '30m', '1h30m', 500)`);
  return Math.round(total);
}
