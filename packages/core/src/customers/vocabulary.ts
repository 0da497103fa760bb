/** The words of this context live in the vocabulary layer, below the storage port (vocabulary/customers.ts). */
export type { CustomerStatus } from '../vocabulary/customers';
