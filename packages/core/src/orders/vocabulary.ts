/**
 * The words of orders and their fulfillments: the values core's rules decide on. The storage
 * records use them (ports/storage/records.ts imports them from here), not the reverse.
 */

export type OrderStatus = 'draft' | 'pending' | 'confirmed' | 'processing' | 'completed' | 'cancelled';

export type FulfillmentStatus = 'unfulfilled' | 'partially_fulfilled' | 'fulfilled' | 'returned';

export type FulfillmentRecordStatus = 'pending' | 'shipped' | 'delivered' | 'cancelled';
