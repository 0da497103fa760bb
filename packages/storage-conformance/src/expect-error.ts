import { CommerceError, type ErrorCode } from '@cartwright/core';
import { expect } from 'vitest';

/** Asserts that `promise` rejects with a CommerceError of `code` (and `param`, when given). */
export async function expectCommerceError(
  promise: Promise<unknown>,
  code: ErrorCode,
  param?: string,
): Promise<void> {
  let caught: unknown;
  try {
    await promise;
  } catch (error) {
    caught = error;
  }
  expect(CommerceError.is(caught), `expected CommerceError ${code}, got ${String(caught)}`).toBe(true);
  const error = caught as CommerceError;
  expect(error.code).toBe(code);
  if (param !== undefined) expect(error.param).toBe(param);
}
