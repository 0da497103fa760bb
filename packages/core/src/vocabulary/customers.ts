/**
 * The words of customers: the values core's rules decide on. They sit below the storage port,
 * whose records (ports/storage/records.ts) use them; the context re-exports them.
 */

/** A customer's status (the customer object's `status`). */
export type CustomerStatus = 'active' | 'disabled';
