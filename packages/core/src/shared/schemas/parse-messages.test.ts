import { describe, expect, test } from 'vitest';
import { z } from 'zod';
import { inputErrorOf } from './test-helpers';

/**
 * The messages `parseInput` writes for each kind of zod issue (docs/contract.md#errors: `message`
 * names the field and what it must be).
 */
describe('parseInput messages', () => {
  test.each([
    ['email', z.email(), 'not-an-email', 'must be a valid e-mail address'],
    ['url', z.url(), 'not a url', 'must be a valid URL'],
    ['datetime', z.iso.datetime(), '2024-13-45', 'must be an ISO 8601 date-time (e.g. 2024-01-31T12:00:00Z)'],
    ['date', z.iso.date(), '31/01/2024', 'must be an ISO 8601 date (e.g. 2024-01-31)'],
    ['regex', z.string().regex(/^[a-z]+$/), 'ABC', 'has an invalid format'],
    ['uuid', z.uuid(), 'nope', 'must be a valid uuid'],
  ])('the %s format: "%s"', (_name, field, value, message) => {
    const error = inputErrorOf(z.strictObject({ field }), { field: value });
    expect([error.code, error.param, error.message]).toEqual([
      'parameter_invalid',
      'field',
      `field ${message}`,
    ]);
  });

  test('a multiple, an invalid record key, null expected, an unnamed type', () => {
    expect(inputErrorOf(z.strictObject({ n: z.number().multipleOf(5) }), { n: 7 }).message).toBe(
      'n must be a multiple of 5',
    );
    const keyed = z.strictObject({ m: z.record(z.string().regex(/^[a-z]+$/), z.string()) });
    const badKey = inputErrorOf(keyed, { m: { A1: 'x' } });
    expect([badKey.param, badKey.message]).toEqual(['m[A1]', 'm[A1] has an invalid key']);
    expect(inputErrorOf(z.strictObject({ v: z.null() }), { v: 1 }).message).toBe('v must be null');
    expect(inputErrorOf(z.strictObject({ b: z.bigint() }), { b: 1 }).message).toBe(
      'b must be of type bigint',
    );
  });

  test('integers: "an integer" for a fraction given to z.int(); numbers and booleans read as query strings', () => {
    expect(inputErrorOf(z.strictObject({ q: z.int() }), { q: 1.5 }).message).toBe('q must be an integer');
    expect(inputErrorOf(z.strictObject({ q: z.number() }), { q: 'x' }).message).toBe('q must be a number');
    expect(inputErrorOf(z.strictObject({ q: z.number() }), { q: 'x' }, 'query').message).toBe(
      'q must be an integer',
    );
    expect(inputErrorOf(z.strictObject({ q: z.boolean() }), { q: 'x' }, 'query').message).toBe(
      'q must be true or false',
    );
    expect(inputErrorOf(z.strictObject({ q: z.boolean() }), { q: 'x' }).message).toBe('q must be a boolean');
  });

  test('a refinement without a message of its own is "is invalid"', () => {
    const schema = z.strictObject({ x: z.string().refine((s) => s.length > 3) });
    const error = inputErrorOf(schema, { x: 'ab' });
    expect([error.code, error.param]).toEqual(['parameter_invalid', 'x']);
    expect(error.message).toBe('x is invalid');
  });
});
