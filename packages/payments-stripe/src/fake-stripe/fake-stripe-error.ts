import type { FakeErrorBody } from './fake-stripe-types';

/** An error answer of the fake: an HTTP status and Stripe's error body. */
export class FakeStripeError extends Error {
  readonly status: number;
  readonly body: FakeErrorBody;

  constructor(status: number, body: FakeErrorBody) {
    super(body.message);
    this.name = 'FakeStripeError';
    this.status = status;
    this.body = body;
  }
}

const DOCS = 'https://stripe.com/docs/error-codes';

/** 400 `invalid_request_error`, optionally with a `code` and the `param` at fault. */
export function invalidRequest(message: string, options: { code?: string; param?: string } = {}) {
  const body: FakeErrorBody = { type: 'invalid_request_error', message };
  if (options.code !== undefined) {
    body.code = options.code;
    body.doc_url = `${DOCS}/${options.code.replace(/_/g, '-')}`;
  }
  if (options.param !== undefined) body.param = options.param;
  return new FakeStripeError(400, body);
}

/** 404 `resource_missing` for an unknown id, worded as Stripe words it. */
export function noSuch(kind: string, id: string, param = 'id') {
  return new FakeStripeError(404, {
    type: 'invalid_request_error',
    code: 'resource_missing',
    doc_url: `${DOCS}/resource-missing`,
    message: `No such ${kind}: '${id}'`,
    param,
  });
}

/** The documentation URL Stripe puts on an error with this code. */
export function docUrl(code: string): string {
  return `${DOCS}/${code.replace(/_/g, '-')}`;
}
