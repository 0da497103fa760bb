import { FakeStripeError } from './fake-stripe-error';

/** A response kept for an idempotency key, with what identifies the request that produced it. */
interface StoredResponse {
  endpoint: string;
  params: string;
  status: number;
  body: string;
  request_id: string;
}

/** The outcome of looking a request up: run it, replay a stored answer, or refuse the key. */
export type IdempotencyVerdict =
  | { kind: 'execute' }
  | { kind: 'replay'; status: number; body: string; request_id: string }
  | { kind: 'reject'; error: FakeStripeError };

/**
 * Stripe's idempotency rules: keys are scoped to the API key; the same key with the same
 * endpoint and parameters replays the first response (status and body as they were, not the
 * object's current state); the same key with other parameters or another endpoint → 400
 * `idempotency_error`. Only responses of requests that began executing are kept: successes,
 * card declines (402) and server errors; a request that failed validation stores nothing, so
 * it may be retried with the same key and corrected parameters.
 */
export class IdempotencyStore {
  private readonly stored = new Map<string, StoredResponse>();

  check(scope: string, key: string, endpoint: string, params: string): IdempotencyVerdict {
    const found = this.stored.get(`${scope}\u0000${key}`);
    if (!found) return { kind: 'execute' };
    if (found.endpoint !== endpoint) {
      return {
        kind: 'reject',
        error: new FakeStripeError(400, {
          type: 'idempotency_error',
          message:
            `Keys for idempotent requests can only be used for the same endpoint they were first used for ` +
            `('${found.endpoint}' vs '${endpoint}'). Try using a key other than '${key}' if you meant to ` +
            `execute a different request.`,
        }),
      };
    }
    if (found.params !== params) {
      return {
        kind: 'reject',
        error: new FakeStripeError(400, {
          type: 'idempotency_error',
          message:
            `Keys for idempotent requests can only be used with the same parameters they were first used ` +
            `with. Try using a key other than '${key}' if you meant to execute a different request.`,
        }),
      };
    }
    return { kind: 'replay', status: found.status, body: found.body, request_id: found.request_id };
  }

  /** Keeps the response when Stripe would (see the class comment). */
  remember(scope: string, key: string, response: StoredResponse): void {
    const started = response.status < 400 || response.status === 402 || response.status >= 500;
    if (started) this.stored.set(`${scope}\u0000${key}`, response);
  }

  clear(): void {
    this.stored.clear();
  }
}
