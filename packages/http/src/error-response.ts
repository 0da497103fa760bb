import { CommerceError, type ErrorCode, type ErrorDetail, type ErrorType } from '@cartwright/core';
import type { RawResponse } from './raw-http';
import { errorTypeForStatus, statusForCode } from './status-map';

/** The error body of docs/contract.md#errors, exactly. */
export interface ErrorResponseBody {
  error: {
    type: ErrorType;
    code: ErrorCode;
    message: string;
    param?: string;
    details?: ErrorDetail[];
    request_id: string;
  };
}

/** What the `onError` hook learns about a failed request. */
export interface ErrorHookInfo {
  requestId: string;
  /** `METHOD /path/pattern` of the matched route, when one matched. */
  route: string | undefined;
}

/** Called for every 5xx: unexpected exceptions and domain errors that map to 5xx. */
export type OnError = (error: unknown, info: ErrorHookInfo) => void;

export const JSON_CONTENT_TYPE = 'application/json; charset=utf-8';

const INTERNAL_MESSAGE = 'An unexpected error occurred. Please retry later or quote the request id.';

/**
 * Default `onError`: one JSON line on stderr with the request id, the route and the stack, so that
 * a 500 can be traced without leaking anything into the response body.
 */
export const logErrorToStderr: OnError = (error, info) => {
  const err =
    error instanceof Error
      ? { name: error.name, message: error.message, stack: error.stack }
      : { message: String(error) };
  console.error(
    JSON.stringify({
      level: 'error',
      msg: 'request failed',
      request_id: info.requestId,
      route: info.route,
      err,
    }),
  );
};

/** Builds the error body (docs/contract.md#errors) for a code. `type` follows the status. */
export function errorBody(
  code: ErrorCode,
  message: string,
  requestId: string,
  extra: { param?: string | undefined; details?: ErrorDetail[] | undefined } = {},
): ErrorResponseBody {
  const error: ErrorResponseBody['error'] = {
    type: errorTypeForStatus(statusForCode(code, extra.param)),
    code,
    message,
    request_id: requestId,
  };
  if (extra.param !== undefined) error.param = extra.param;
  if (extra.details !== undefined && extra.details.length > 0) error.details = extra.details;
  return { error };
}

/** A complete error response (status from the status map, JSON body, `Request-Id` header). */
export function errorResponse(
  code: ErrorCode,
  message: string,
  requestId: string,
  extra: {
    param?: string | undefined;
    details?: ErrorDetail[] | undefined;
    headers?: Record<string, string>;
  } = {},
): RawResponse {
  return {
    status: statusForCode(code, extra.param),
    headers: { 'Content-Type': JSON_CONTENT_TYPE, 'Request-Id': requestId, ...extra.headers },
    body: JSON.stringify(errorBody(code, message, requestId, extra)),
  };
}

/**
 * The one place an exception becomes a response. A `CommerceError` (recognised by its brand, so a
 * second installed copy of core works too) keeps its code, message, param and details; anything
 * else becomes a generic 500 `internal_error` whose body says nothing about the cause. Every 5xx
 * goes to `onError`.
 */
export function toErrorResponse(error: unknown, info: ErrorHookInfo, onError: OnError): RawResponse {
  if (CommerceError.is(error)) {
    if (error.code === 'service_unavailable') {
      // A refusal of load (too many password hashes at once), not a failure: try again shortly.
      const seconds = error.data?.retry_after_seconds;
      return errorResponse(error.code, error.message, info.requestId, {
        param: error.param,
        details: error.details,
        headers: { 'Retry-After': String(typeof seconds === 'number' ? seconds : 1) },
      });
    }
    const response = errorResponse(error.code, error.message, info.requestId, {
      param: error.param,
      details: error.details,
    });
    if (response.status >= 500) safeCall(onError, error, info);
    return response;
  }
  safeCall(onError, error, info);
  return errorResponse('internal_error', INTERNAL_MESSAGE, info.requestId);
}

function safeCall(onError: OnError, error: unknown, info: ErrorHookInfo): void {
  try {
    onError(error, info);
  } catch {
    // A failing logger must not turn an error response into a crash.
  }
}
