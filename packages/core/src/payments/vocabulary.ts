/** The words of this context live in the vocabulary layer, below the storage port (vocabulary/payments.ts). */
export type { PaymentRecordStatus, PaymentStatus } from '../vocabulary/payments';
export { EXCHANGE_CREDIT_PROVIDER } from '../vocabulary/payments';
