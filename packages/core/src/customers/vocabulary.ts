/**
 * The words of customers: the values core's rules decide on. The storage records use them
 * (ports/storage/records.ts imports them from here), not the reverse.
 */

/** A customer's status (the customer object's `status`). */
export type CustomerStatus = 'active' | 'disabled';
