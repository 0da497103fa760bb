import { CommerceError, type ErrorCode, type ErrorDetail } from '@cartwright/core';
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

interface Problem {
  code: ErrorCode;
  param: string | undefined;
  message: string;
}

/**
 * Stand-in for core's `parseInput` (schemas/parse.ts) until that exists; pass the core one through
 * `createHandler(engine, { parseInput })`. Issue mapping: an unrecognised key →
 * `parameter_unknown`; a wrong type where the input has no value → `parameter_missing`; anything
 * else → `parameter_invalid`. Messages written by a schema author (refinements, custom errors) are
 * kept; zod's generic ones are rephrased as `<param> must …`.
 */
export const parseInput: ParseInput = (schema, value, options) => {
  const result = schema.safeParse(value);
  if (result.success) return result.data;
  const problems = result.error.issues.flatMap((issue) => describeIssue(issue, value, options.location));
  const first = problems[0] ?? {
    code: 'parameter_invalid',
    param: undefined,
    message: `Invalid ${options.location}`,
  };
  const details: ErrorDetail[] = problems
    .filter((p): p is Problem & { param: string } => p.param !== undefined)
    .map((p) => ({ param: p.param, message: p.message }));
  throw new CommerceError(first.code, first.message, {
    ...(first.param === undefined ? {} : { param: first.param }),
    ...(details.length > 1 ? { details } : {}),
  });
};

/** Wire notation for a path: `lines[0].quantity`. The empty path has no param. */
export function toWireParam(path: readonly PropertyKey[]): string | undefined {
  let out = '';
  for (const segment of path) {
    if (typeof segment === 'number') out += `[${segment}]`;
    else out += out === '' ? String(segment) : `.${String(segment)}`;
  }
  return out === '' ? undefined : out;
}

type Issue = z.core.$ZodIssue;

function describeIssue(issue: Issue, input: unknown, location: InputLocation): Problem[] {
  const param = toWireParam(issue.path);
  const subject = param ?? `The ${location}`;
  if (issue.code === 'unrecognized_keys') {
    return issue.keys.map((key) => {
      const unknown = toWireParam([...issue.path, key]) ?? key;
      return { code: 'parameter_unknown', param: unknown, message: `Received unknown parameter: ${unknown}` };
    });
  }
  if (issue.code === 'invalid_type' && param !== undefined && valueAt(input, issue.path) === undefined) {
    return [{ code: 'parameter_missing', param, message: `Missing required parameter: ${param}` }];
  }
  return [
    {
      code: 'parameter_invalid',
      param,
      message: isDefaultMessage(issue.message) ? rephrase(issue, subject) : issue.message,
    },
  ];
}

function rephrase(issue: Issue, subject: string): string {
  switch (issue.code) {
    case 'invalid_type':
      return `${subject} must be ${article(issue.expected)}`;
    case 'invalid_value':
      return issue.values.length === 1
        ? `${subject} must be ${JSON.stringify(issue.values[0])}`
        : `${subject} must be one of: ${issue.values.map((v) => String(v)).join(', ')}`;
    case 'too_small':
      return `${subject} must ${bound('at least', 'greater than', issue.inclusive, issue.minimum, issue.origin)}`;
    case 'too_big':
      return `${subject} must ${bound('at most', 'less than', issue.inclusive, issue.maximum, issue.origin)}`;
    case 'invalid_format':
      return `${subject} must be a valid ${issue.format}`;
    case 'not_multiple_of':
      return `${subject} must be a multiple of ${String(issue.divisor)}`;
    default:
      return `${subject} is invalid`;
  }
}

function bound(
  inclusiveWord: string,
  exclusiveWord: string,
  inclusive: boolean | undefined,
  limit: number | bigint,
  origin: string,
): string {
  const unit = origin === 'string' ? ' characters' : origin === 'array' || origin === 'set' ? ' items' : '';
  const verb = unit === '' ? 'be ' : 'have ';
  return `${verb}${inclusive === false ? exclusiveWord : inclusiveWord} ${String(limit)}${unit}`;
}

function article(expected: string): string {
  if (expected === 'int') return 'an integer';
  if (expected === 'array' || expected === 'object') return `an ${expected}`;
  return `a ${expected}`;
}

/** zod's built-in English messages start with these words; anything else was written by a schema author. */
function isDefaultMessage(message: string): boolean {
  return /^(Invalid|Too (small|big)|Unrecognized)\b/.test(message);
}

function valueAt(root: unknown, path: readonly PropertyKey[]): unknown {
  let current: unknown = root;
  for (const segment of path) {
    if (current === null || typeof current !== 'object') return undefined;
    current = (current as Record<PropertyKey, unknown>)[segment];
  }
  return current;
}
