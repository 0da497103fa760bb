/**
 * The words of the store context: the values core's rules decide on. They sit below the storage port,
 * whose records (ports/storage/records.ts) use them; the context re-exports them.
 */

export type KeyType = 'secret' | 'publishable';
