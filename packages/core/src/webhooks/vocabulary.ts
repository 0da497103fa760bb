/**
 * The words of webhooks: the values core's rules decide on. The storage records use them
 * (ports/storage/records.ts imports them from here), not the reverse.
 */

export type WebhookDeliveryStatus = 'pending' | 'succeeded' | 'failed' | 'cancelled';
