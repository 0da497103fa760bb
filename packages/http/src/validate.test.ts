import { CommerceError } from '@cartwright/core';
import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { parseInput, toWireParam } from './validate';

function failure(schema: z.ZodType, value: unknown): CommerceError {
  try {
    parseInput(schema, value, { location: 'body' });
  } catch (error) {
    if (CommerceError.is(error)) return error;
    throw error;
  }
  throw new Error('expected a validation failure');
}

const Body = z.strictObject({
  email: z.email().optional(),
  percentage: z.number().gt(0).max(100).optional(),
  lines: z.array(z.strictObject({ quantity: z.number().int().min(1) })).optional(),
  name: z.string().min(2).optional(),
  tags: z.array(z.string()).max(2).optional(),
  note: z
    .string()
    .refine((v) => v !== 'forbidden', 'may not be "forbidden"')
    .optional(),
});

describe('toWireParam', () => {
  it("['lines', 0, 'quantity'] → lines[0][quantity]", () => {
    expect(toWireParam(['lines', 0, 'quantity'])).toBe('lines[0][quantity]');
  });
  it("['shipping_address', 'country'] → shipping_address[country]; [] → undefined", () => {
    expect(toWireParam(['shipping_address', 'country'])).toBe('shipping_address[country]');
    expect(toWireParam([])).toBeUndefined();
  });
});

// The HTTP package validates with core's parseInput: these are the messages the API sends.
describe('parseInput', () => {
  it('returns the parsed value (with defaults) when valid', () => {
    const schema = z.object({ quantity: z.number().int().default(1) });
    expect(parseInput(schema, {}, { location: 'body' })).toEqual({ quantity: 1 });
  });

  it('unknown key → parameter_unknown with the nested wire param', () => {
    const error = failure(Body, { lines: [{ quantity: 1, price: 3 }] });
    expect(error.code).toBe('parameter_unknown');
    expect(error.param).toBe('lines[0][price]');
    expect(error.message).toBe('Received unknown parameter: lines[0][price]');
  });

  it('absent required field → parameter_missing; present but null → parameter_invalid', () => {
    const schema = z.object({ code: z.string() });
    const missing = failure(schema, {});
    expect(missing.code).toBe('parameter_missing');
    expect(missing.param).toBe('code');
    const nulled = failure(schema, { code: null });
    expect(nulled.code).toBe('parameter_invalid');
    expect(nulled.message).toBe('code must be a string');
  });

  it.each([
    [{ percentage: 0 }, 'percentage', 'percentage must be greater than 0'],
    [{ percentage: 100.5 }, 'percentage', 'percentage must be at most 100'],
    [{ lines: [{ quantity: 0 }] }, 'lines[0][quantity]', 'lines[0][quantity] must be at least 1'],
    [{ lines: [{ quantity: 1.5 }] }, 'lines[0][quantity]', 'lines[0][quantity] must be an integer'],
    [{ name: 'a' }, 'name', 'name must be at least 2 characters long'],
    [{ tags: ['a', 'b', 'c'] }, 'tags', 'tags must contain at most 2 items'],
    [{ email: 'nope' }, 'email', 'email must be a valid e-mail address'],
    [{ note: 'forbidden' }, 'note', 'note may not be "forbidden"'],
  ])('%j → parameter_invalid on %s: "%s"', (value, param, message) => {
    const error = failure(Body, value);
    expect(error.code).toBe('parameter_invalid');
    expect(error.param).toBe(param);
    expect(error.message).toBe(message);
  });

  it('lists every issue in details when there are several, the first one as param', () => {
    const error = failure(Body, { percentage: -1, name: 'a' });
    expect(error.param).toBe('percentage');
    expect(error.details).toEqual([
      { param: 'percentage', message: 'percentage must be greater than 0' },
      { param: 'name', message: 'name must be at least 2 characters long' },
    ]);
  });

  it('a root-level failure has no param and names the input', () => {
    const error = failure(z.object({}), 'text');
    expect(error.code).toBe('parameter_invalid');
    expect(error.param).toBeUndefined();
    expect(error.message).toBe('The request body must be a JSON object');
  });
});
