import type { z } from 'zod';
import { CommerceError, type ErrorDetail } from '../errors';
import { findUnstorableText, printable, unstorableMessage } from './limits';

/** Where the validated value came from; only changes wording. `params` is an alias of `path`. */
export type InputLocation = 'body' | 'query' | 'path' | 'params';

export interface ParseInputOptions {
  /** Default `body`. */
  location?: InputLocation;
}

type ValidationCode = 'parameter_unknown' | 'parameter_missing' | 'parameter_invalid';

/** One input problem in wire terms, before it becomes a CommerceError. */
interface InputIssue {
  code: ValidationCode;
  /** Wire notation, Stripe's bracket form (`lines[0][quantity]`); `''` for the value as a whole. */
  param: string;
  message: string;
}

/** The issue shape of zod 4 (`z.core.$ZodIssue`), read structurally. */
type ZodIssue = z.core.$ZodIssue;

/**
 * Parse context for describing a failure, built once. The error map turns zod's default
 * (English, locale) messages into `''`, so the only non-empty messages left are those a schema
 * wrote itself — `parseInput` writes its own for the rest, with the wire param in them.
 */
const PARSE_CONTEXT = { error: () => '' };

const PRECEDENCE: Record<ValidationCode, number> = {
  parameter_unknown: 0,
  parameter_missing: 1,
  parameter_invalid: 2,
};

const WHOLE_VALUE: Record<InputLocation, string> = {
  body: 'The request body',
  query: 'The query string',
  path: 'The path parameters',
  params: 'The path parameters',
};

/**
 * Validates `value` with `schema` and returns the typed output, or throws a `CommerceError`:
 * - `parameter_unknown` for a field the schema does not know (bodies are strict),
 * - `parameter_missing` for a required field that is absent,
 * - `parameter_invalid` for anything else (wrong type, out of range, bad format, unknown enum value).
 *
 * The error's `param` and `message` describe the first issue in that order of precedence
 * (an unknown `quantiy` is reported before the missing `quantity` it causes); `details` lists
 * the first 20 issues (docs/contract.md#errors; the message then says how many more there were). Params use Stripe's bracket form ({@link formatParam}): `lines[0][quantity]`,
 * `shipping_address[country]`.
 *
 * Before the schema, the whole input is checked for text no supported database can store
 * (docs/contract.md#input-limits): a string or an object key, at any depth, holding a NUL character or an
 * unpaired UTF-16 surrogate → `parameter_invalid` naming it (e.g. `metadata[note]`), whatever
 * the schema says about the field.
 *
 * Cheap on the happy path: schemas are built at module load and this only runs `safeParse`
 * (zod's compiled fast path) after one walk of the input; error description happens only on
 * failure.
 */
export function parseInput<S extends z.ZodType>(
  schema: S,
  value: unknown,
  options: ParseInputOptions = {},
): z.output<S> {
  const flood = unknownKeyFlood(schema, value);
  if (flood !== null) throw flood;
  const unstorable = findUnstorableText(value);
  if (unstorable !== null) {
    // A bad key cannot be named faithfully: the object that holds it is the param.
    const path = unstorable.inKey ? unstorable.path.slice(0, -1) : unstorable.path;
    const param = printable(formatParam(path), 200);
    const predicate = unstorableMessage(unstorable.reason, unstorable.inKey);
    const location = options.location ?? 'body';
    const message = param === '' ? `${WHOLE_VALUE[location]} ${predicate}` : `${param} ${predicate}`;
    throw new CommerceError(
      'parameter_invalid',
      message,
      param === '' ? { details: [{ param, message }] } : { param, details: [{ param, message }] },
    );
  }
  const result = schema.safeParse(value);
  if (result.success) return result.data;
  // Parse again with the message-less context, so that the only messages left are the schemas'
  // own (see PARSE_CONTEXT). Only failures pay for it: a context disables zod's compiled fast
  // path (≈ 10× slower), so the happy path runs without one.
  const again = schema.safeParse(value, PARSE_CONTEXT);
  const issues = again.success ? result.error.issues : again.error.issues;
  throw inputError(issues, value, options.location ?? 'body');
}

/**
 * Turns zod issues (from a parse with PARSE_CONTEXT) into the `CommerceError` that
 * {@link parseInput} throws; `input` is the raw value that was parsed.
 */
function inputError(
  issues: readonly ZodIssue[],
  input: unknown,
  location: InputLocation = 'body',
): CommerceError {
  const { issues: flat, total } = describeIssues(issues, input, location);
  let primary = flat[0];
  for (const issue of flat) {
    if (primary === undefined || PRECEDENCE[issue.code] < PRECEDENCE[primary.code]) primary = issue;
  }
  if (primary === undefined) {
    return new CommerceError('parameter_invalid', `${WHOLE_VALUE[location]} is invalid`);
  }
  const listed = flat.slice(0, MAX_DETAILS);
  // The primary issue is always listed (it may have been described after the first 20).
  if (!listed.includes(primary)) listed[MAX_DETAILS - 1] = primary;
  const details: ErrorDetail[] = listed.map(({ param, message }) => ({ param, message }));
  const more = total - details.length;
  const message =
    more > 0
      ? `${primary.message} (and ${more} more ${more === 1 ? 'problem' : 'problems'} not listed)`
      : primary.message;
  return new CommerceError(
    primary.code,
    message,
    primary.param === '' ? { details } : { param: primary.param, details },
  );
}

/**
 * A strict object schema given more than {@link MAX_DETAILS} unknown top-level keys: the error,
 * built from one scan of the keys that stops describing after 20, before any walk or parse of
 * the rest (a 1 MB body of 90,000 unknown keys must cost little and answer small). Null otherwise.
 */
function unknownKeyFlood(schema: z.ZodType, value: unknown): CommerceError | null {
  if (typeof value !== 'object' || value === null || Array.isArray(value)) return null;
  const def = (
    schema as {
      _zod?: { def?: { type?: string; shape?: object; catchall?: { _zod?: { def?: { type?: string } } } } };
    }
  )._zod?.def;
  if (def?.type !== 'object' || def.shape === undefined || def.catchall?._zod?.def?.type !== 'never')
    return null;
  const shape = def.shape;
  const listed: ErrorDetail[] = [];
  let total = 0;
  for (const key in value) {
    if (!Object.hasOwn(value, key) || Object.hasOwn(shape, key)) continue;
    total += 1;
    if (listed.length < MAX_DETAILS) {
      const param = printable(key, 200);
      listed.push({ param, message: `Received unknown parameter: ${param}` });
    }
  }
  if (total <= MAX_DETAILS) return null;
  const first = listed[0] as ErrorDetail;
  const more = total - listed.length;
  return new CommerceError('parameter_unknown', `${first.message} (and ${more} more problems not listed)`, {
    param: first.param,
    details: listed,
  });
}

/** At most this many `details` entries in a validation error (docs/contract.md#errors). */
const MAX_DETAILS = 20;

/**
 * What {@link collect} gathers: the issues described (at most {@link MAX_DETAILS}, plus any that
 * outranks them all) and how many there were in all. Describing stops early: a body with 90,000
 * unknown keys costs the counting of them, not 90,000 messages.
 */
interface IssueSink {
  issues: InputIssue[];
  total: number;
  /** The best (lowest) precedence among the described issues. */
  best: number;
}

/** The zod issues as wire-level issues, in zod's order (one per unknown key), and their count. */
function describeIssues(
  issues: readonly ZodIssue[],
  input: unknown,
  location: InputLocation = 'body',
): IssueSink {
  const sink: IssueSink = { issues: [], total: 0, best: Number.POSITIVE_INFINITY };
  for (const issue of issues) collect(issue, [], input, location, sink);
  return sink;
}

/** Whether an issue of this code is still worth describing. */
function wanted(sink: IssueSink, code: ValidationCode): boolean {
  return sink.issues.length < MAX_DETAILS || PRECEDENCE[code] < sink.best;
}

function push(sink: IssueSink, issue: InputIssue): void {
  sink.issues.push(issue);
  sink.best = Math.min(sink.best, PRECEDENCE[issue.code]);
}

function collect(
  issue: ZodIssue,
  prefix: readonly PropertyKey[],
  input: unknown,
  location: InputLocation,
  sink: IssueSink,
): void {
  const path = prefix.length === 0 ? issue.path : [...prefix, ...issue.path];

  if (issue.code === 'unrecognized_keys') {
    sink.total += issue.keys.length;
    for (const key of issue.keys) {
      if (!wanted(sink, 'parameter_unknown')) break;
      const param = printable(formatParam([...path, key]), 200);
      push(sink, { code: 'parameter_unknown', param, message: `Received unknown parameter: ${param}` });
    }
    return;
  }

  if (issue.code === 'invalid_union' && !isAbsent(input, path)) {
    // Report inside the one alternative whose type matched (e.g. the object form of a money
    // input with a bad `amount`); otherwise the union's own message.
    const matched = issue.errors.filter((branch) => branch.some(madeProgress));
    const only = matched.length === 1 ? matched[0] : undefined;
    if (only !== undefined) {
      for (const inner of only) collect(inner, path, input, location, sink);
      return;
    }
  }

  sink.total += 1;
  const explicitCode =
    issue.code === 'custom' ? (issue.params?.code as ValidationCode | undefined) : undefined;
  const code: ValidationCode =
    explicitCode ?? (isAbsent(input, path) ? 'parameter_missing' : 'parameter_invalid');
  if (!wanted(sink, code)) return;
  const param = formatParam(path);

  let message: string;
  if (code === 'parameter_missing' && issue.code !== 'custom') {
    message = param === '' ? `${WHOLE_VALUE[location]} is required` : `${param} is required`;
  } else if (issue.message !== '') {
    message = param === '' ? capitalize(issue.message) : `${param} ${issue.message}`;
  } else {
    const predicate = describe(issue, location);
    message = param === '' ? `${WHOLE_VALUE[location]} ${predicate}` : `${param} ${predicate}`;
  }
  push(sink, { code, param, message });
}

/** An alternative "matched" when it failed somewhere below its root, or at its root on a value check. */
function madeProgress(issue: ZodIssue): boolean {
  return issue.path.length > 0 || (issue.code !== 'invalid_type' && issue.code !== 'invalid_union');
}

/** The predicate half of a message ("must be at least 1") for an issue without a schema message. */
function describe(issue: ZodIssue, location: InputLocation): string {
  switch (issue.code) {
    case 'invalid_type':
      return `must be ${expectedType(issue.expected, location)}`;
    case 'too_small':
      return describeBound(issue.origin, 'min', issue.minimum, issue.inclusive !== false);
    case 'too_big':
      return describeBound(issue.origin, 'max', issue.maximum, issue.inclusive !== false);
    case 'invalid_value':
      return issue.values.length === 1
        ? `must be ${quote(issue.values[0])}`
        : `must be one of: ${issue.values.map((v) => String(v)).join(', ')}`;
    case 'invalid_format':
      return describeFormat(issue.format);
    case 'not_multiple_of':
      return `must be a multiple of ${issue.divisor}`;
    case 'invalid_key':
      return 'has an invalid key';
    default:
      return 'is invalid';
  }
}

function expectedType(expected: string, location: InputLocation): string {
  switch (expected) {
    case 'int':
      return 'an integer';
    case 'number':
      return location === 'query' ? 'an integer' : 'a number';
    case 'boolean':
      return location === 'query' ? 'true or false' : 'a boolean';
    case 'string':
      return 'a string';
    case 'object':
    case 'record':
      return location === 'body' ? 'a JSON object' : 'an object';
    case 'array':
      return 'an array';
    case 'null':
      return 'null';
    default:
      return `of type ${expected}`;
  }
}

function describeBound(
  origin: string,
  side: 'min' | 'max',
  bound: number | bigint,
  inclusive: boolean,
): string {
  const n = Number(bound);
  switch (origin) {
    case 'string':
      if (side === 'min') return n === 1 ? 'must not be empty' : `must be at least ${n} characters long`;
      return `must be at most ${n} characters long`;
    case 'array':
    case 'set':
      if (side === 'min')
        return n === 1 ? 'must contain at least 1 item' : `must contain at least ${n} items`;
      return `must contain at most ${n} items`;
    default:
      if (side === 'min') return inclusive ? `must be at least ${n}` : `must be greater than ${n}`;
      return inclusive ? `must be at most ${n}` : `must be less than ${n}`;
  }
}

function describeFormat(format: string): string {
  switch (format) {
    case 'email':
      return 'must be a valid e-mail address';
    case 'url':
      return 'must be a valid URL';
    case 'datetime':
      return 'must be an ISO 8601 date-time (e.g. 2024-01-31T12:00:00Z)';
    case 'date':
      return 'must be an ISO 8601 date (e.g. 2024-01-31)';
    case 'regex':
      return 'has an invalid format';
    default:
      return `must be a valid ${format}`;
  }
}

/**
 * A path in Stripe's bracket form (docs/contract.md#errors), the one notation of every `param`:
 * `['lines', 0, 'quantity']` → `lines[0][quantity]`, `['shipping_address', 'country']` →
 * `shipping_address[country]`, `['variants', 0, 'options', 'Size']` → `variants[0][options][Size]`.
 * A top-level name stays bare (`quantity`); every later segment, index or key, is bracketed. Keys
 * are written as they are, without escaping, as Stripe does: the metadata key `a.b` is
 * `metadata[a.b]`, `x[y]` is `metadata[x[y]]`. The empty path is `''` (the value as a whole).
 */
export function formatParam(path: readonly PropertyKey[]): string {
  let out = '';
  for (let i = 0; i < path.length; i++) {
    const segment = path[i] as PropertyKey;
    out += i === 0 && typeof segment !== 'number' ? String(segment) : `[${String(segment)}]`;
  }
  return out;
}

/** Whether the raw input has nothing at `path` while its parent exists (a required field left out). */
function isAbsent(input: unknown, path: readonly PropertyKey[]): boolean {
  if (path.length === 0) return input === undefined;
  let current: unknown = input;
  for (let i = 0; i < path.length - 1; i++) {
    if (typeof current !== 'object' || current === null) return false;
    current = (current as Record<PropertyKey, unknown>)[path[i] as PropertyKey];
  }
  if (typeof current !== 'object' || current === null) return false;
  return (current as Record<PropertyKey, unknown>)[path[path.length - 1] as PropertyKey] === undefined;
}

function quote(value: unknown): string {
  return typeof value === 'string' ? `'${value}'` : String(value);
}

function capitalize(text: string): string {
  return text.charAt(0).toUpperCase() + text.slice(1);
}
