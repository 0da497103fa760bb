/** The words of this context live in the vocabulary layer, below the storage port (vocabulary/orders.ts). */
export type { FulfillmentRecordStatus, FulfillmentStatus, OrderStatus } from '../vocabulary/orders';
