import fc from 'fast-check';
import { describe, expect, test } from 'vitest';
import { iso } from './wire-format';

describe('iso', () => {
  test('worked examples: epoch, leap day 2024-02-29, last ms of 9999, year 10000 and before 1970', () => {
    expect(iso(0)).toBe('1970-01-01T00:00:00.000Z');
    expect(iso(1_709_164_800_123)).toBe('2024-02-29T00:00:00.123Z');
    expect(iso(253_402_300_799_999)).toBe('9999-12-31T23:59:59.999Z');
    expect(iso(253_402_300_800_000)).toBe('+010000-01-01T00:00:00.000Z');
    expect(iso(-1)).toBe('1969-12-31T23:59:59.999Z');
  });

  test('equals Date#toISOString for every representable time (integers, fractions, both eras)', () => {
    const times = fc.oneof(
      fc.integer({ min: 0, max: 253_402_300_799_999 }),
      fc.integer({ min: -8_640_000_000_000_000, max: 8_640_000_000_000_000 }),
      fc.double({ min: -8.64e15, max: 8.64e15, noNaN: true }),
      fc.constantFrom(0, 951_782_400_000, 4_107_542_400_000, 946_684_799_999, 253_402_300_799_999),
    );
    fc.assert(
      fc.property(times, (ms) => {
        expect(iso(ms)).toBe(new Date(ms).toISOString());
      }),
      { numRuns: 20_000 },
    );
  });

  test('consecutive calls on different days do not reuse the previous day', () => {
    fc.assert(
      fc.property(fc.array(fc.integer({ min: 0, max: 253_402_300_799_999 }), { minLength: 2 }), (times) => {
        for (const ms of times) expect(iso(ms)).toBe(new Date(ms).toISOString());
      }),
    );
  });

  test('invalid times throw like Date (RangeError)', () => {
    for (const ms of [Number.NaN, Number.POSITIVE_INFINITY, 8.64e15 + 1]) {
      expect(() => iso(ms)).toThrow(RangeError);
    }
  });
});
