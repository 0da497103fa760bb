/** The words of this context live in the vocabulary layer, below the storage port (vocabulary/store.ts). */
export type { KeyType } from '../vocabulary/store';
