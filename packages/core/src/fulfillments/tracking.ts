import type { FulfillmentRecord, FulfillmentTrackingEventRecord } from '../ports/storage';
import { iso, isoOrNull } from '../shared/wire-format';
import type { TrackingEvent, TrackingInfo, TrackingStatus } from './schemas';

/** The part of a fulfillment its tracking is made of. */
export type TrackedFulfillment = Pick<
  FulfillmentRecord,
  | 'id'
  | 'order_id'
  | 'status'
  | 'carrier'
  | 'carrier_code'
  | 'tracking_number'
  | 'tracking_url'
  | 'created_at'
  | 'shipped_at'
  | 'delivered_at'
  | 'estimated_delivery'
>;

/** The part of a carrier event its tracking shows. */
export type CarrierEvent = Pick<
  FulfillmentTrackingEventRecord,
  'sequence' | 'status' | 'description' | 'location' | 'occurred_at'
>;

/** One merged event, its time still in epoch milliseconds. */
export interface MergedTrackingEvent {
  status: TrackingStatus;
  description: string;
  location: string | null;
  timestamp: number;
}

/**
 * The fulfillment's own history (decisions §20): `pending` "Fulfillment created" at `created_at`,
 * `in_transit` "Shipped" at `shipped_at`, `delivered` "Delivered" at `delivered_at` — each once it
 * happened.
 */
export function fulfillmentHistory(fulfillment: TrackedFulfillment): MergedTrackingEvent[] {
  const history: MergedTrackingEvent[] = [
    {
      status: 'pending',
      description: 'Fulfillment created',
      location: null,
      timestamp: fulfillment.created_at,
    },
  ];
  if (fulfillment.shipped_at !== null) {
    history.push({
      status: 'in_transit',
      description: 'Shipped',
      location: null,
      timestamp: fulfillment.shipped_at,
    });
  }
  if (fulfillment.delivered_at !== null) {
    history.push({
      status: 'delivered',
      description: 'Delivered',
      location: null,
      timestamp: fulfillment.delivered_at,
    });
  }
  return history;
}

/**
 * A fulfillment's tracking events and status (decisions §20), a pure rule:
 *
 * - the events are the fulfillment's own history ({@link fulfillmentHistory}) followed by the
 *   carrier events in insertion order (`sequence`), then sorted by timestamp — a stable sort, so
 *   events of equal timestamps keep that insertion order (the history first, then the carrier's
 *   by sequence); a carrier event dated before the shipment comes before "Shipped";
 * - `status` is the last event's status in that order, except that a `delivered` fulfillment is
 *   always `delivered` (a carrier event dated after the delivery cannot undo it). Carrier events
 *   never move the fulfillment's own status.
 *
 * @example mergeTracking({ …, created_at: 1, shipped_at: 5, delivered_at: null }, [{ sequence: 1, status: 'out_for_delivery', occurred_at: 9, … }]).status // 'out_for_delivery'
 */
export function mergeTracking(
  fulfillment: TrackedFulfillment,
  carrierEvents: readonly CarrierEvent[],
): { status: TrackingStatus; events: MergedTrackingEvent[] } {
  const carrier = [...carrierEvents]
    .sort((a, b) => a.sequence - b.sequence)
    .map(
      (event): MergedTrackingEvent => ({
        status: event.status,
        description: event.description,
        location: event.location,
        timestamp: event.occurred_at,
      }),
    );
  // Array.prototype.sort is stable: equal timestamps keep the insertion order built here.
  const events = [...fulfillmentHistory(fulfillment), ...carrier].sort((a, b) => a.timestamp - b.timestamp);
  const last = events[events.length - 1];
  const status: TrackingStatus =
    fulfillment.status === 'delivered' ? 'delivered' : (last?.status ?? 'pending');
  return { status, events };
}

/** The TrackingInfo of a fulfillment and its carrier events (docs/order-tracking.md). */
export function trackingToWire(
  fulfillment: TrackedFulfillment,
  carrierEvents: readonly CarrierEvent[],
): TrackingInfo {
  const { status, events } = mergeTracking(fulfillment, carrierEvents);
  return {
    order_id: fulfillment.order_id,
    fulfillment_id: fulfillment.id,
    carrier: fulfillment.carrier,
    carrier_code: fulfillment.carrier_code,
    tracking_number: fulfillment.tracking_number,
    tracking_url: fulfillment.tracking_url,
    status,
    estimated_delivery: isoOrNull(fulfillment.estimated_delivery),
    events: events.map(
      (event): TrackingEvent => ({
        status: event.status,
        description: event.description,
        location: event.location,
        timestamp: iso(event.timestamp),
      }),
    ),
  };
}

/**
 * The fulfillment an order's tracking shows by default (decisions §20): the newest non-cancelled
 * one (latest `created_at`, then the greater id), or none.
 */
export function newestTrackableFulfillment<F extends Pick<FulfillmentRecord, 'id' | 'status' | 'created_at'>>(
  fulfillments: readonly F[],
): F | undefined {
  let newest: F | undefined;
  for (const fulfillment of fulfillments) {
    if (fulfillment.status === 'cancelled') continue;
    if (
      newest === undefined ||
      fulfillment.created_at > newest.created_at ||
      (fulfillment.created_at === newest.created_at && fulfillment.id > newest.id)
    ) {
      newest = fulfillment;
    }
  }
  return newest;
}
