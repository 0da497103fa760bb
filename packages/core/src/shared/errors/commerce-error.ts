import { ERROR_TYPES, type ErrorCode, type ErrorType } from './error-codes';

/** One problem with one input field, for validation errors that list several. */
export interface ErrorDetail {
  param: string;
  message: string;
}

export interface CommerceErrorOptions {
  /** The input field at fault, in wire notation, Stripe's bracket form (`lines[0][quantity]`). */
  param?: string;
  details?: ErrorDetail[];
  /** Data an expected outcome carries (e.g. `{ variant_id, available }`), never secrets. */
  data?: Record<string, unknown>;
  cause?: unknown;
}

/** Recognises our errors across duplicated installs of the package (no `instanceof` reliance). */
const BRAND = Symbol.for('cartwright.CommerceError');

/**
 * The one error class of the domain. It carries the wire `code` and `type` of docs/contract.md#errors;
 * the HTTP status is derived from the code in one place in the HTTP package.
 */
export class CommerceError extends Error {
  readonly code: ErrorCode;
  readonly type: ErrorType;
  readonly param: string | undefined;
  readonly details: ErrorDetail[] | undefined;
  readonly data: Record<string, unknown> | undefined;
  readonly [BRAND] = true;

  constructor(code: ErrorCode, message: string, options: CommerceErrorOptions = {}) {
    super(message, options.cause === undefined ? undefined : { cause: options.cause });
    this.name = 'CommerceError';
    this.code = code;
    this.type = ERROR_TYPES[code];
    this.param = options.param;
    this.details = options.details;
    this.data = options.data;
  }

  static is(value: unknown): value is CommerceError {
    return typeof value === 'object' && value !== null && (value as Record<symbol, unknown>)[BRAND] === true;
  }
}

/** Shorthands for the most frequent errors, so call sites read as the rule they enforce. */
export const errors = {
  notFound: (what: string, id?: string) =>
    new CommerceError('not_found', id ? `No such ${what}: '${id}'` : `No such ${what}`),
  invalid: (param: string, message: string) => new CommerceError('parameter_invalid', message, { param }),
  missing: (param: string, message = `${param} is required`) =>
    new CommerceError('parameter_missing', message, { param }),
  invalidTransition: (subject: string, from: string, to: string) =>
    new CommerceError('invalid_state_transition', `Cannot move ${subject} from '${from}' to '${to}'`, {
      data: { from, to },
    }),
};

/**
 * 409 `idempotency_key_in_use` for a request whose claim on its `Idempotency-Key` was taken over
 * by a retry while it ran (its lock expired): its transaction rolls back. Raised by core when the
 * claim's compare-and-set misses, and by a storage whose `idempotency.completeAtCommit` failed.
 */
export function idempotencyClaimTakenOver(cause?: unknown): CommerceError {
  return new CommerceError(
    'idempotency_key_in_use',
    "This request's claim on its Idempotency-Key expired and was taken over by a retry; its changes were rolled back",
    { param: 'Idempotency-Key', ...(cause === undefined ? {} : { cause }) },
  );
}
