import { expect } from 'vitest';
import type { z } from 'zod';
import { CommerceError } from '../errors';
import { type InputLocation, parseInput } from './parse';

/** Test helper: the CommerceError that `parseInput` throws for `value` (fails the test if none). */
export function inputErrorOf(
  schema: z.ZodType,
  value: unknown,
  location: InputLocation = 'body',
): CommerceError {
  try {
    parseInput(schema, value, { location });
  } catch (error) {
    if (CommerceError.is(error)) return error;
    throw error;
  }
  throw new Error(`expected ${JSON.stringify(value)} to be rejected`);
}

/** Test helper: asserts the code and param of the primary error, and returns the error. */
export function expectRejected(
  schema: z.ZodType,
  value: unknown,
  code: 'parameter_unknown' | 'parameter_missing' | 'parameter_invalid',
  param: string | undefined,
  location: InputLocation = 'body',
): CommerceError {
  const error = inputErrorOf(schema, value, location);
  expect({ code: error.code, param: error.param, message: error.message }).toMatchObject({ code, param });
  return error;
}
