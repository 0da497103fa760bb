/** The words of this context live in the vocabulary layer, below the storage port (vocabulary/webhooks.ts). */
export type { WebhookDeliveryStatus } from '../vocabulary/webhooks';
