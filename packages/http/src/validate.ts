import { parseInput as coreParseInput } from '@cartwright/core';
import type { ZodType, z } from 'zod';

/** Where an input value came from; used in messages. Same values as core's `parseInput`. */
export type InputLocation = 'body' | 'query' | 'path';

/**
 * Validates one input against its schema and returns the parsed value, or throws a
 * `CommerceError` with code `parameter_unknown` / `parameter_missing` / `parameter_invalid`, the
 * first offending field as `param` (wire notation, `lines[0].quantity`) and every issue in `details`.
 */
export type ParseInput = <S extends ZodType>(
  schema: S,
  value: unknown,
  options: { location: InputLocation },
) => z.output<S>;

/**
 * Core's `parseInput` (packages/core/src/schemas/parse.ts): one validator for the engine and the
 * HTTP API, so an input refused in process is refused over HTTP with the same code, param and
 * message. An unrecognised key → `parameter_unknown`; a required field left out →
 * `parameter_missing`; anything else → `parameter_invalid`; `details` lists every issue.
 */
export const parseInput: ParseInput = (schema, value, options) => coreParseInput(schema, value, options);

/** Wire notation for a path: `lines[0].quantity`. The empty path has no param. */
export function toWireParam(path: readonly PropertyKey[]): string | undefined {
  let out = '';
  for (const segment of path) {
    if (typeof segment === 'number') out += `[${segment}]`;
    else out += out === '' ? String(segment) : `.${String(segment)}`;
  }
  return out === '' ? undefined : out;
}
