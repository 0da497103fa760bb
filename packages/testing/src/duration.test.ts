import { describe, expect, test } from 'vitest';
import { parseDuration } from './duration';

describe('parseDuration', () => {
  test.each([
    ['25h', 90_000_000],
    ['30m', 1_800_000],
    ['1h30m', 5_400_000],
    ['1h 30m', 5_400_000],
    ['2d', 172_800_000],
    ['1w', 604_800_000],
    ['500ms', 500],
    ['1.5s', 1500],
    ['0m', 0],
  ])("'%s' → %d ms", (text, ms) => {
    expect(parseDuration(text)).toBe(ms);
  });

  test('a number is milliseconds: 250 → 250', () => {
    expect(parseDuration(250)).toBe(250);
  });

  test.each(['', 'abc', '5', '5x', '-1h', 'h', '1h-30m'])("'%s' is not a duration → RangeError", (text) => {
    expect(() => parseDuration(text)).toThrow(RangeError);
  });

  test.each([-1, Number.NaN, Number.POSITIVE_INFINITY])('%d ms → RangeError', (ms) => {
    expect(() => parseDuration(ms)).toThrow(RangeError);
  });
});
