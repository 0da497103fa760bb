import { CommerceError } from '../../errors';
import type { PaymentProvider, PaymentResult } from '../../ports/payment-provider';
import type { PaymentRecord, Scope } from '../../ports/storage';
import type { ServiceContext } from '../context';

/** What checkout asks of its payment provider. */
export interface PaymentAttemptInput {
  scope: Scope;
  provider: PaymentProvider;
  payment_id: string;
  order_id: string;
  cart_id: string;
  amount: number;
  currency: string;
  email: string;
  payment_method_id: string | undefined;
  now: number;
}

/** The payment record an attempt leads to, and whether the provider declined it. */
export interface PaymentAttemptOutcome {
  payment: PaymentRecord;
  declined: boolean;
  failure_message: string | null;
}

/** The provider's idempotency key of a cart's checkout: a retried checkout never charges twice. */
export function checkoutPaymentKey(cart_id: string): string {
  return `checkout_${cart_id}`;
}

/**
 * Resolves checkout's `payment_provider` (decisions §12): an unregistered provider (such as
 * `stripe` while it is not configured) → 400 `parameter_invalid` on `payment_provider`; a provider
 * that needs a payment method without `payment_method_id` → 400 `parameter_missing`.
 */
export function resolveProvider(
  ctx: Pick<ServiceContext, 'payments'>,
  name: string,
  payment_method_id: string | undefined,
): PaymentProvider {
  const provider = ctx.payments.get(name);
  if (!provider) {
    throw new CommerceError('parameter_invalid', `payment_provider '${name}' is not configured`, {
      param: 'payment_provider',
    });
  }
  if (provider.requiresPaymentMethod && payment_method_id === undefined) {
    throw new CommerceError('parameter_missing', `payment_method_id is required for ${name}`, {
      param: 'payment_method_id',
    });
  }
  return provider;
}

/**
 * The one place checkout calls a payment provider, so issue 6 (recorded attempts and
 * reconciliation) can replace it without touching the rest of checkout. Maps the provider's
 * outcome onto the payment record:
 * - `succeeded` → `completed`;
 * - `pending` (manual) and `requires_action` (the customer must act; `client_secret` kept) → `pending`;
 * - `failed` / `cancelled` → `failed`, `declined: true` (checkout answers 402 `payment_failed`).
 * A provider that throws propagates its error (the transaction rolls back; nothing is recorded).
 */
export async function attemptPayment(input: PaymentAttemptInput): Promise<PaymentAttemptOutcome> {
  const result: PaymentResult = await input.provider.createPayment({
    amount: input.amount,
    currency: input.currency,
    idempotency_key: checkoutPaymentKey(input.cart_id),
    payment_method_id: input.payment_method_id,
    reference: {
      payment_id: input.payment_id,
      cart_id: input.cart_id,
      order_id: input.order_id,
      store_id: input.scope.store_id,
      mode: input.scope.mode,
    },
    email: input.email,
  });
  const declined = result.status === 'failed' || result.status === 'cancelled';
  const status = result.status === 'succeeded' ? 'completed' : declined ? 'failed' : 'pending';
  const failure_message = declined ? (result.failure_message ?? 'The payment was declined') : null;
  return {
    declined,
    failure_message,
    payment: {
      id: input.payment_id,
      store_id: input.scope.store_id,
      mode: input.scope.mode,
      order_id: input.order_id,
      provider: input.provider.name,
      provider_id: result.provider_id,
      amount: input.amount,
      currency: input.currency,
      status,
      idempotency_key: checkoutPaymentKey(input.cart_id),
      cart_id: input.cart_id,
      client_secret: result.client_secret ?? null,
      failure_reason: declined ? (result.failure_code ?? failure_message) : null,
      note: null,
      metadata: {},
      created_at: input.now,
      updated_at: input.now,
    },
  };
}
