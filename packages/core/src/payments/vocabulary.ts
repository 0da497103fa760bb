/**
 * The words of payments: the values core's rules decide on. The storage records use them
 * (ports/storage/records.ts imports them from here), not the reverse.
 */

export type PaymentStatus =
  | 'unpaid'
  | 'awaiting_payment'
  | 'partially_paid'
  | 'paid'
  | 'partially_refunded'
  | 'refunded';

export type PaymentRecordStatus = 'pending' | 'completed' | 'failed' | 'cancelled' | 'refunded';
