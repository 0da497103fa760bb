import type { PaymentRecord } from '../ports/storage';
import { iso, money } from '../shared/wire-format';
import { AWAITING_PAYMENT_KEY } from './awaiting-payment';
import type { Payment } from './schemas';

/**
 * The payment metadata key under which a checkout attempt keeps its snapshot (the order to
 * write and the exact provider input, see `checkout/checkout-attempts.ts`). Internal: the Payment
 * resource never shows it.
 */
export const CHECKOUT_SNAPSHOT_KEY = '_cartwright_checkout';

/** The payment metadata keys the Payment resource never shows (the engine's own bookkeeping). */
const INTERNAL_PAYMENT_KEYS = [CHECKOUT_SNAPSHOT_KEY, AWAITING_PAYMENT_KEY];

function publicMetadata(metadata: PaymentRecord['metadata']): PaymentRecord['metadata'] {
  if (!INTERNAL_PAYMENT_KEYS.some((key) => key in metadata)) return metadata;
  const rest = { ...metadata };
  for (const key of INTERNAL_PAYMENT_KEYS) delete rest[key];
  return rest;
}

/**
 * A payment (admin view). `order_id` is the empty string only for a failed checkout attempt that
 * never became an order (such payments appear in `payment.failed` events, never in an order).
 */
export function paymentToWire(payment: PaymentRecord): Payment {
  return {
    id: payment.id,
    order_id: payment.order_id ?? '',
    provider: payment.provider,
    provider_id: payment.provider_id,
    amount: money(payment.amount, payment.currency),
    status: payment.status,
    note: payment.note,
    metadata: publicMetadata(payment.metadata),
    created_at: iso(payment.created_at),
  };
}

/**
 * A payment as the storefront sees it: the admin view plus `client_secret` while the payment is
 * `pending` and the provider asked the customer to act (3-D Secure), so the storefront can run
 * the provider's authentication step.
 */
export function paymentToStorefrontWire(payment: PaymentRecord): Payment {
  const wire = paymentToWire(payment);
  return payment.status === 'pending' && payment.client_secret !== null
    ? { ...wire, client_secret: payment.client_secret }
    : wire;
}
