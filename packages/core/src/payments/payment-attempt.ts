import type { Checkout } from '../carts/schemas';
import type { PaymentProvider, PaymentResult } from '../ports/payment-provider';
import type { ServiceContext } from '../shared/context';
import { CommerceError } from '../shared/errors';
import type { PaymentRecordStatus } from './vocabulary';

/**
 * Resolves checkout's `payment_provider` (docs/contract.md#checkout) to a registered provider: the one rule
 * that decides which names checkout accepts, for the engine API and HTTP alike. A name the engine
 * has not registered (a provider of your own you did not pass to `createEngine`, or `stripe`
 * while it is not configured) → 400 `parameter_invalid` on the field that named it
 * (`payment_provider`, or the older `payment_method`); a provider that needs a payment method
 * without `payment_method_id` → 400 `parameter_missing`.
 */
export function resolveProvider(
  ctx: Pick<ServiceContext, 'payments'>,
  input: Pick<Checkout, 'payment_provider' | 'payment_method' | 'payment_method_id'>,
): PaymentProvider {
  const name = input.payment_provider;
  const provider = ctx.payments.get(name);
  if (!provider) {
    const param = input.payment_method !== undefined ? 'payment_method' : 'payment_provider';
    const configured = [...ctx.payments.keys()].join(', ');
    throw new CommerceError(
      'parameter_invalid',
      `${param} '${name}' is not configured (configured: ${configured})`,
      { param },
    );
  }
  if (provider.requiresPaymentMethod && input.payment_method_id === undefined) {
    throw new CommerceError(
      'parameter_missing',
      `payment_method_id is required when payment_provider is ${name}`,
      { param: 'payment_method_id' },
    );
  }
  return provider;
}

/** Whether the provider refused the payment for good (`failed`, `cancelled`): checkout answers 402. */
export function isDeclined(result: PaymentResult): boolean {
  return result.status === 'failed' || result.status === 'cancelled';
}

/**
 * The payment record status a provider outcome leads to: `succeeded` → `completed`; `pending`
 * (manual, or Stripe still processing) and `requires_action` (3-D Secure: the customer must act)
 * → `pending`; `failed` → `failed`; `cancelled` → `cancelled`.
 */
export function paymentStatusOf(result: PaymentResult): PaymentRecordStatus {
  switch (result.status) {
    case 'succeeded':
      return 'completed';
    case 'failed':
      return 'failed';
    case 'cancelled':
      return 'cancelled';
    default:
      return 'pending';
  }
}

/** The customer-facing reason of a decline. */
export function declineMessage(result: PaymentResult): string {
  return result.failure_message ?? 'The payment was declined';
}

/**
 * Whether an error is a definitive refusal rather than an unknown outcome:
 * - thrown by a provider call: "nothing happened at the provider" (an unknown payment method, a
 *   request the provider rejected), as opposed to a network failure, a timeout or a crash;
 * - thrown by the order transaction: a business rule refused the order (a discount ran out).
 * Every `CommerceError` except `payment_provider_unavailable` and `internal_error` is one.
 * Anything else — and those two — means the outcome is unknown: the attempt stays open and
 * reconciliation asks the provider what happened.
 */
export function isRefusal(error: unknown): error is CommerceError {
  return (
    CommerceError.is(error) &&
    error.code !== 'payment_provider_unavailable' &&
    error.code !== 'internal_error'
  );
}
