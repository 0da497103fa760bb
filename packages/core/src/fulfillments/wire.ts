import type { FulfillmentRecord } from '../ports/storage';
import { iso, isoOrNull } from '../shared/wire-format';
import type { Fulfillment } from './schemas';

/** A fulfillment with its lines. */
export function fulfillmentToWire(fulfillment: FulfillmentRecord): Fulfillment {
  return {
    id: fulfillment.id,
    order_id: fulfillment.order_id,
    status: fulfillment.status,
    tracking_number: fulfillment.tracking_number,
    tracking_url: fulfillment.tracking_url,
    carrier: fulfillment.carrier,
    carrier_code: fulfillment.carrier_code,
    lines: fulfillment.lines.map((l) => ({ order_line_id: l.order_line_id, quantity: l.quantity })),
    metadata: fulfillment.metadata,
    created_at: iso(fulfillment.created_at),
    shipped_at: isoOrNull(fulfillment.shipped_at),
    delivered_at: isoOrNull(fulfillment.delivered_at),
    estimated_delivery: isoOrNull(fulfillment.estimated_delivery),
  };
}
