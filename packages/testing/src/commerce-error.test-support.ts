import { CommerceError } from '@cartwright/core';
import { expect } from 'vitest';

/** Test helpers shared by this package's engine-level tests: awaiting a refusal. */

/** Awaits a call that must fail with a CommerceError and returns it (any other outcome throws). */
export async function rejection(promise: Promise<unknown>): Promise<CommerceError> {
  try {
    await promise;
  } catch (error) {
    if (CommerceError.is(error)) return error;
    throw error;
  }
  throw new Error('expected a CommerceError');
}

/** Asserts that a call fails with a CommerceError of `code` (and `param`, when given); returns it. */
export async function expectCode(
  promise: Promise<unknown>,
  code: string,
  param?: string,
): Promise<CommerceError> {
  const error = await promise.then(
    () => null,
    (e: unknown) => e,
  );
  expect(CommerceError.is(error), String(error)).toBe(true);
  expect((error as CommerceError).code).toBe(code);
  if (param !== undefined) expect((error as CommerceError).param).toBe(param);
  return error as CommerceError;
}
