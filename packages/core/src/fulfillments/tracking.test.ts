import { describe, expect, it } from 'vitest';
import {
  type CarrierEvent,
  fulfillmentHistory,
  mergeTracking,
  newestTrackableFulfillment,
  type TrackedFulfillment,
  trackingToWire,
} from './tracking';

const T0 = Date.UTC(2026, 11, 1, 9, 0, 0);
const minutes = (n: number) => T0 + n * 60_000;

function fulfillment(overrides: Partial<TrackedFulfillment> = {}): TrackedFulfillment {
  return {
    id: 'ful_1',
    order_id: 'ord_1',
    status: 'pending',
    carrier: null,
    carrier_code: null,
    tracking_number: null,
    tracking_url: null,
    created_at: T0,
    shipped_at: null,
    delivered_at: null,
    estimated_delivery: null,
    ...overrides,
  };
}

const shipped = (at = minutes(10)) => fulfillment({ status: 'shipped', shipped_at: at });
const delivered = (shippedAt = minutes(10), deliveredAt = minutes(100)) =>
  fulfillment({ status: 'delivered', shipped_at: shippedAt, delivered_at: deliveredAt });

function carrier(
  sequence: number,
  status: CarrierEvent['status'],
  occurred_at: number,
  description = `${status} #${sequence}`,
  location: string | null = null,
): CarrierEvent {
  return { sequence, status, description, location, occurred_at };
}

const summary = (events: ReturnType<typeof mergeTracking>['events']) =>
  events.map((e) => `${e.status}:${e.description}`);

describe('fulfillmentHistory (decisions §20)', () => {
  it('pending "Fulfillment created" at created_at; "Shipped" and "Delivered" only once they happened', () => {
    expect(fulfillmentHistory(fulfillment())).toEqual([
      { status: 'pending', description: 'Fulfillment created', location: null, timestamp: T0 },
    ]);
    expect(fulfillmentHistory(delivered())).toEqual([
      { status: 'pending', description: 'Fulfillment created', location: null, timestamp: T0 },
      { status: 'in_transit', description: 'Shipped', location: null, timestamp: minutes(10) },
      { status: 'delivered', description: 'Delivered', location: null, timestamp: minutes(100) },
    ]);
  });
});

describe('mergeTracking: order and status (decisions §20)', () => {
  it('a created fulfillment with no carrier event is pending', () => {
    const merged = mergeTracking(fulfillment(), []);
    expect(merged.status).toBe('pending');
    expect(summary(merged.events)).toEqual(['pending:Fulfillment created']);
  });

  it('a shipped fulfillment is in_transit; carrier events after it follow, and the last decides the status', () => {
    const merged = mergeTracking(shipped(), [
      carrier(1, 'in_transit', minutes(30), 'Arrived at hub', 'Leeds'),
      carrier(2, 'out_for_delivery', minutes(60), 'Out for delivery'),
    ]);
    expect(summary(merged.events)).toEqual([
      'pending:Fulfillment created',
      'in_transit:Shipped',
      'in_transit:Arrived at hub',
      'out_for_delivery:Out for delivery',
    ]);
    expect(merged.events[2]).toEqual({
      status: 'in_transit',
      description: 'Arrived at hub',
      location: 'Leeds',
      timestamp: minutes(30),
    });
    expect(merged.status).toBe('out_for_delivery');
    expect(mergeTracking(shipped(), []).status).toBe('in_transit');
  });

  it('events are ordered by timestamp, not by when they were posted: a late-posted earlier scan goes before', () => {
    const merged = mergeTracking(shipped(), [
      carrier(1, 'exception', minutes(50), 'Address problem'),
      carrier(2, 'in_transit', minutes(20), 'Picked up'),
    ]);
    expect(summary(merged.events)).toEqual([
      'pending:Fulfillment created',
      'in_transit:Shipped',
      'in_transit:Picked up',
      'exception:Address problem',
    ]);
    expect(merged.status).toBe('exception');
  });

  it('a carrier event dated before the shipment goes before "Shipped" (and the status is then in_transit from "Shipped")', () => {
    const merged = mergeTracking(shipped(minutes(10)), [
      carrier(1, 'exception', minutes(5), 'Label printed late'),
    ]);
    expect(summary(merged.events)).toEqual([
      'pending:Fulfillment created',
      'exception:Label printed late',
      'in_transit:Shipped',
    ]);
    expect(merged.status).toBe('in_transit');
  });

  it('a carrier event on a fulfillment not yet shipped decides its status, which stays pending on the record', () => {
    const merged = mergeTracking(fulfillment(), [
      carrier(1, 'in_transit', minutes(1), 'Collected by courier'),
    ]);
    expect(merged.status).toBe('in_transit');
    expect(summary(merged.events)).toEqual([
      'pending:Fulfillment created',
      'in_transit:Collected by courier',
    ]);
  });

  it('ties: equal timestamps keep insertion order — the history first, then carrier events by sequence (not by list order)', () => {
    const at = minutes(10);
    const merged = mergeTracking(shipped(at), [
      carrier(3, 'exception', at, 'third'),
      carrier(1, 'out_for_delivery', at, 'first'),
      carrier(2, 'in_transit', at, 'second'),
    ]);
    expect(summary(merged.events)).toEqual([
      'pending:Fulfillment created',
      'in_transit:Shipped',
      'out_for_delivery:first',
      'in_transit:second',
      'exception:third',
    ]);
    expect(merged.status).toBe('exception');
  });

  it('ties with created_at: a carrier event at the creation instant comes after "Fulfillment created"', () => {
    const merged = mergeTracking(fulfillment(), [carrier(1, 'in_transit', T0, 'Collected')]);
    expect(summary(merged.events)).toEqual(['pending:Fulfillment created', 'in_transit:Collected']);
    expect(merged.status).toBe('in_transit');
  });

  it('delivered override: a delivered fulfillment is delivered even when a carrier event is dated after the delivery', () => {
    const merged = mergeTracking(delivered(minutes(10), minutes(100)), [
      carrier(1, 'exception', minutes(200), 'Parcel damaged in depot'),
    ]);
    expect(summary(merged.events)).toEqual([
      'pending:Fulfillment created',
      'in_transit:Shipped',
      'delivered:Delivered',
      'exception:Parcel damaged in depot',
    ]);
    expect(merged.status).toBe('delivered');
  });

  it('a carrier "delivered" event does not make an undelivered fulfillment delivered, but is its last status', () => {
    const merged = mergeTracking(shipped(), [
      carrier(1, 'delivered', minutes(90), 'Left with neighbour'),
      carrier(2, 'exception', minutes(95), 'Neighbour refused'),
    ]);
    expect(merged.status).toBe('exception');
    expect(mergeTracking(shipped(), [carrier(1, 'delivered', minutes(90))]).status).toBe('delivered');
  });
});

describe('trackingToWire', () => {
  it('the TrackingInfo fields of the SDK, times as ISO strings', () => {
    const info = trackingToWire(
      {
        ...shipped(),
        carrier: 'CJ Logistics',
        carrier_code: 'cj',
        tracking_number: '6301',
        tracking_url: 'https://track.example/6301',
        estimated_delivery: Date.UTC(2026, 11, 3),
      },
      [carrier(1, 'out_for_delivery', minutes(40), 'Out for delivery', 'Seoul')],
    );
    expect(info).toEqual({
      order_id: 'ord_1',
      fulfillment_id: 'ful_1',
      carrier: 'CJ Logistics',
      carrier_code: 'cj',
      tracking_number: '6301',
      tracking_url: 'https://track.example/6301',
      status: 'out_for_delivery',
      estimated_delivery: '2026-12-03T00:00:00.000Z',
      events: [
        {
          status: 'pending',
          description: 'Fulfillment created',
          location: null,
          timestamp: '2026-12-01T09:00:00.000Z',
        },
        {
          status: 'in_transit',
          description: 'Shipped',
          location: null,
          timestamp: '2026-12-01T09:10:00.000Z',
        },
        {
          status: 'out_for_delivery',
          description: 'Out for delivery',
          location: 'Seoul',
          timestamp: '2026-12-01T09:40:00.000Z',
        },
      ],
    });
  });
});

describe('newestTrackableFulfillment', () => {
  it('the newest non-cancelled fulfillment (created_at, then id); none when all are cancelled', () => {
    const f = (id: string, created_at: number, status: TrackedFulfillment['status'] = 'pending') => ({
      id,
      created_at,
      status,
    });
    expect(newestTrackableFulfillment([f('ful_a', 1), f('ful_b', 3), f('ful_c', 2)])?.id).toBe('ful_b');
    expect(newestTrackableFulfillment([f('ful_a', 1), f('ful_b', 3, 'cancelled')])?.id).toBe('ful_a');
    expect(newestTrackableFulfillment([f('ful_a', 5), f('ful_b', 5)])?.id).toBe('ful_b');
    expect(newestTrackableFulfillment([f('ful_a', 1, 'cancelled')])).toBeUndefined();
    expect(newestTrackableFulfillment([])).toBeUndefined();
  });
});
