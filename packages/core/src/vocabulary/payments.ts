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
