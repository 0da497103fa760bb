/** The words of this context live in the vocabulary layer, below the storage port (vocabulary/carts.ts). */
export type { CartStatus } from '../vocabulary/carts';
