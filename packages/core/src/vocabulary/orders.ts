/**
 * The words of orders and their fulfillments: the values core's rules decide on. They sit below the
 * storage port, whose records (ports/storage/records.ts) use them; the context re-exports them.
 */

export type OrderStatus = 'draft' | 'pending' | 'confirmed' | 'processing' | 'completed' | 'cancelled';

export type FulfillmentStatus = 'unfulfilled' | 'partially_fulfilled' | 'fulfilled' | 'returned';

export type FulfillmentRecordStatus = 'pending' | 'shipped' | 'delivered' | 'cancelled';

/** The status of a carrier's tracking event (decisions §20): what a carrier reports of a parcel. */
export type CarrierEventStatus = 'in_transit' | 'out_for_delivery' | 'delivered' | 'exception';
