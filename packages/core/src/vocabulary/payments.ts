/**
 * The words of payments: the values core's rules decide on. They sit below the storage port,
 * whose records (ports/storage/records.ts) use them; the context re-exports them.
 */

export type PaymentStatus =
  | 'unpaid'
  | 'awaiting_payment'
  | 'partially_paid'
  | 'paid'
  | 'partially_refunded'
  | 'refunded';

export type PaymentRecordStatus = 'pending' | 'completed' | 'failed' | 'cancelled' | 'refunded';

/**
 * The provider of the payment that carries a return's exchange credit onto its exchange order
 * (decisions §18): money the original order took, not revenue (decisions §23). Reserved: the
 * admin cannot record a payment under this label.
 */
export const EXCHANGE_CREDIT_PROVIDER = 'exchange_credit';
