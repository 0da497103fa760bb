import { CommerceError } from '@cartwright/core';
import {
  parseInput as coreParseInput,
  formatParam,
  MAX_IDENTIFIER_LENGTH,
  printable,
} from '@cartwright/core/schemas';
import type { ZodType, z } from 'zod';

/** Where an input value came from; used in messages. Same values as core's `parseInput`. */
export type InputLocation = 'body' | 'query' | 'path';

/**
 * Validates one input against its schema and returns the parsed value, or throws a
 * `CommerceError` with code `parameter_unknown` / `parameter_missing` / `parameter_invalid`, the
 * first offending field as `param` (Stripe's bracket form, `lines[0][quantity]`) and every issue in
 * `details`.
 */
export type ParseInput = <S extends ZodType>(
  schema: S,
  value: unknown,
  options: { location: InputLocation },
) => z.output<S>;

/**
 * Core's `parseInput` (packages/core/src/shared/schemas/parse.ts): one validator for the engine and the
 * HTTP API, so an input refused in process is refused over HTTP with the same code, param and
 * message. An unrecognised key → `parameter_unknown`; a required field left out →
 * `parameter_missing`; anything else → `parameter_invalid`; `details` lists every issue. Text no
 * database can store (a NUL, an unpaired surrogate, in a value or a key) → `parameter_invalid`.
 *
 * Path parameters name a resource: one that no resource can have (an id with a wrong prefix or
 * bad characters, a NUL, an over-long value) is 404 `not_found` (docs/contract.md#input-limits), never 400 —
 * and never reaches a query.
 */
export const parseInput: ParseInput = (schema, value, options) => {
  if (options.location !== 'path') return coreParseInput(schema, value, options);
  try {
    // No resource has a path value longer than an identifier, whatever the route's schema says.
    if (typeof value === 'object' && value !== null) {
      for (const [name, param] of Object.entries(value)) {
        if (typeof param === 'string' && param.length > MAX_IDENTIFIER_LENGTH) {
          throw new CommerceError('parameter_invalid', `${name} is too long`, { param: name });
        }
      }
    }
    return coreParseInput(schema, value, options);
  } catch (error) {
    throw CommerceError.is(error) && error.type === 'invalid_request_error'
      ? pathNotFound(error, value)
      : error;
  }
};

/** The 404 for path parameters that cannot name a resource. */
function pathNotFound(error: CommerceError, params: unknown): CommerceError {
  const name = error.param;
  const raw =
    name !== undefined && typeof params === 'object' && params !== null
      ? (params as Record<string, unknown>)[name]
      : undefined;
  const message =
    name === undefined
      ? 'No such resource'
      : typeof raw === 'string'
        ? `No such ${name}: '${printable(raw)}'`
        : `No such ${name}`;
  return new CommerceError('not_found', message, name === undefined ? {} : { param: name });
}

/**
 * Wire notation for a path, Stripe's bracket form (core's `formatParam`): `lines[0][quantity]`.
 * The empty path has no param.
 */
export function toWireParam(path: readonly PropertyKey[]): string | undefined {
  const param = formatParam(path);
  return param === '' ? undefined : param;
}
