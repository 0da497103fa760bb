import { CommerceError } from '@cartwright/core';

/**
 * The slice of stripe-node's error classes the provider reads. Errors are recognised by their
 * `type` (`'StripeCardError'`, …), which stripe-node sets on every instance, rather than by
 * `instanceof`, so an injected client from another copy of the package is understood too.
 */
export interface StripeErrorLike {
  type: string;
  message: string;
  code?: string | undefined;
  decline_code?: string | undefined;
  param?: string | undefined;
  statusCode?: number | undefined;
  requestId?: string | undefined;
  payment_intent?: { id: string } | undefined;
}

export function isStripeError(error: unknown, type?: string): error is StripeErrorLike {
  if (typeof error !== 'object' || error === null) return false;
  const value = (error as { type?: unknown }).type;
  if (typeof value !== 'string' || !value.startsWith('Stripe')) return false;
  return type === undefined || value === type;
}

/**
 * The failure code we record for a decline: the issuer's specific reason when it gave one
 * (`insufficient_funds`, `lost_card`), else Stripe's error code (`card_declined`, `expired_card`).
 */
export function failureCode(
  code: string | null | undefined,
  decline_code: string | null | undefined,
): string {
  if (decline_code && decline_code !== 'generic_decline' && decline_code !== code) return decline_code;
  return code ?? 'card_declined';
}

/**
 * Turns a Stripe error that is not an expected payment outcome into our error:
 * - connection errors, timeouts, 5xx and rate limits → `payment_provider_unavailable`
 *   (`data.retryable: true`): the outcome is unknown, so the caller keeps the attempt and
 *   reconciles with `lookupPayment`; the same idempotency key is safe to retry;
 * - a rejected API key → `payment_provider_unavailable` (`data.retryable: false`): a
 *   configuration problem the customer cannot fix;
 * - `idempotency_error` → `idempotency_key_reused`: the key was first used with other
 *   parameters (a caller bug: every distinct attempt needs its own key);
 * - anything else Stripe rejected → `internal_error` (we sent a request Stripe refused).
 * Errors that are not Stripe's are returned unchanged.
 */
export function toCommerceError(error: unknown, action: string): unknown {
  if (!isStripeError(error)) return error;
  const data = { provider: 'stripe', stripe_error_type: error.type, request_id: error.requestId ?? null };
  switch (error.type) {
    case 'StripeConnectionError':
    case 'StripeAPIError':
    case 'StripeRateLimitError':
      return new CommerceError(
        'payment_provider_unavailable',
        `Stripe could not be reached to ${action}; the outcome is unknown and will be reconciled`,
        { data: { ...data, retryable: true }, cause: error },
      );
    case 'StripeAuthenticationError':
    case 'StripePermissionError':
      return new CommerceError('payment_provider_unavailable', `Stripe refused the configured API key`, {
        data: { ...data, retryable: false },
        cause: error,
      });
    case 'StripeIdempotencyError':
      return new CommerceError(
        'idempotency_key_reused',
        `Stripe refused to ${action}: its idempotency key was already used with other parameters`,
        { data, cause: error },
      );
    default:
      return new CommerceError('internal_error', `Stripe refused to ${action}: ${error.message}`, {
        data: { ...data, code: error.code ?? null, param: error.param ?? null },
        cause: error,
      });
  }
}
