import type { PaymentStatus } from './vocabulary';

/** The money an order's `payment_status` follows, all in minor units. */
export interface PaymentAmounts {
  /** The order total. */
  total: number;
  /** Sum of the order's `completed` payments. */
  paid: number;
  /** Sum of the order's `completed` refunds. */
  refunded: number;
  /**
   * Whether a `pending` payment of the order awaits the customer's confirmation in the browser
   * (`isAwaitingPayment`: a Stripe checkout without `payment_method_id`). Default false.
   */
  awaiting?: boolean;
}

/** Every value of an order's `payment_status`, in the order money usually moves through them. */
export const ORDER_PAYMENT_STATUSES = [
  'unpaid',
  'awaiting_payment',
  'partially_paid',
  'paid',
  'partially_refunded',
  'refunded',
] as const satisfies readonly PaymentStatus[];

/**
 * Derives an order's `payment_status` (docs/contract.md#payment-status: "paid amount vs total, refunded amount vs
 * paid"), first rule that holds wins:
 *
 * 1. `refunded` — something was refunded and refunds cover everything paid;
 * 2. `partially_refunded` — something was refunded;
 * 3. `paid` — payments cover the total. Decision: an order whose total is 0 is `paid` with no
 *    payment at all (nothing is owed; a free order confirms itself, as at Shopify);
 * 4. `partially_paid` — something was paid;
 * 5. `awaiting_payment` — nothing paid, and a payment awaits the customer's confirmation in the
 *    browser (decisions §22: a Stripe checkout without `payment_method_id`, until it is settled
 *    or expires);
 * 6. `unpaid`.
 *
 * Overpayment (`paid > total`) is `paid`.
 *
 * @example derivePaymentStatus({ total: 5000, paid: 5000, refunded: 1000 }) // 'partially_refunded'
 * @example derivePaymentStatus({ total: 5000, paid: 0, refunded: 0, awaiting: true }) // 'awaiting_payment'
 */
export function derivePaymentStatus({ total, paid, refunded, awaiting }: PaymentAmounts): PaymentStatus {
  if (refunded > 0 && refunded >= paid) return 'refunded';
  if (refunded > 0) return 'partially_refunded';
  if (paid >= total) return 'paid';
  if (paid > 0) return 'partially_paid';
  if (awaiting === true) return 'awaiting_payment';
  return 'unpaid';
}
