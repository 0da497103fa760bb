/**
 * The words of refunds: the values core's rules decide on. The storage records use them
 * (ports/storage/records.ts imports them from here), not the reverse.
 */

export type RefundRecordStatus = 'pending' | 'completed' | 'failed';
