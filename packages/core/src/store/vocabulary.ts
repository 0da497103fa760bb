/**
 * The words of the store context: the values core's rules decide on. The storage records use them
 * (ports/storage/records.ts imports them from here), not the reverse.
 */

export type KeyType = 'secret' | 'publishable';
