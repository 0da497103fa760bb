/** The words of this context live in the vocabulary layer, below the storage port (vocabulary/refunds.ts). */
export type { RefundRecordStatus } from '../vocabulary/refunds';
