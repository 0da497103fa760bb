/**
 * The words of carts: the values core's rules decide on. They sit below the storage port,
 * whose records (ports/storage/records.ts) use them; the context re-exports them.
 */

export type CartStatus = 'active' | 'completed' | 'abandoned';
