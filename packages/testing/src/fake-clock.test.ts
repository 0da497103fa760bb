import { describe, expect, test } from 'vitest';
import { createFakeClock, DEFAULT_TEST_TIME } from './fake-clock';

describe('createFakeClock', () => {
  test('starts at 2025-01-01T00:00:00Z and stays there until moved', () => {
    const clock = createFakeClock();
    expect(clock.now()).toBe(DEFAULT_TEST_TIME);
    expect(clock.date().toISOString()).toBe('2025-01-01T00:00:00.000Z');
    expect(clock.now()).toBe(clock.now());
  });

  test("advance('25h') then advance(30 * 60_000) → 2025-01-02T01:30:00Z", () => {
    const clock = createFakeClock();
    expect(clock.advance('25h')).toBe(Date.UTC(2025, 0, 2, 1));
    clock.advance(30 * 60_000);
    expect(clock.date().toISOString()).toBe('2025-01-02T01:30:00.000Z');
  });

  test('set accepts a Date, an ISO string or epoch ms, and may go back', () => {
    const clock = createFakeClock('2030-05-05T10:00:00Z');
    expect(clock.now()).toBe(Date.UTC(2030, 4, 5, 10));
    clock.set(new Date(Date.UTC(2020, 0, 1)));
    expect(clock.date().toISOString()).toBe('2020-01-01T00:00:00.000Z');
    clock.set(0);
    expect(clock.now()).toBe(0);
  });

  test('an unparseable time or a negative advance throws', () => {
    const clock = createFakeClock();
    expect(() => clock.set('not a date')).toThrow(RangeError);
    expect(() => clock.advance(-1)).toThrow(RangeError);
    expect(clock.now()).toBe(DEFAULT_TEST_TIME);
  });
});
