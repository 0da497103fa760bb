import type { TrackingEventCreate, TrackingInfo, TrackingQuery } from '../fulfillments/schemas';
import { newestTrackableFulfillment, trackingToWire } from '../fulfillments/tracking';
import type { FulfillmentTrackingEventRecord, Scope } from '../ports/storage';
import type { ServiceContext } from '../shared/context';
import { CommerceError } from '../shared/errors';
import { read, write } from '../shared/unit-of-work';
import { requireOrder } from './order-loading';

/**
 * Order tracking (decisions §20, docs/order-tracking.md): a fulfillment's TrackingInfo — its own
 * history plus the carrier events the merchant (or a carrier integration) posts — for the admin
 * and for the signed-in customer. The merge, order and status rule is `mergeTracking`
 * (fulfillments/tracking.ts); carrier events never move the fulfillment's own status.
 */
export function createOrderTracking(ctx: ServiceContext) {
  return {
    /**
     * `POST /v1/admin/fulfillments/{id}/tracking-events`: adds a carrier event to a non-cancelled
     * fulfillment (409 `invalid_state_transition` when cancelled) and answers its TrackingInfo.
     * `timestamp` defaults to now. The event's `sequence` (insertion order) is the fulfillment's
     * next, taken under the order's row lock, which every fulfillment move holds too: two events
     * posted at once get distinct sequences, and a fulfillment cannot be cancelled in between.
     */
    async addEvent(scope: Scope, fulfillmentId: string, input: TrackingEventCreate): Promise<TrackingInfo> {
      return write(ctx, scope, async (work) => {
        const { tx, now } = work;
        const found = await tx.orders.getFulfillment(scope, fulfillmentId);
        if (!found) throw new CommerceError('not_found', `No such fulfillment: '${fulfillmentId}'`);
        const order = await requireOrder(tx, scope, found.order_id, { forUpdate: true });
        const fulfillment = order.fulfillments.find((f) => f.id === fulfillmentId) ?? found;
        if (fulfillment.status === 'cancelled') {
          throw new CommerceError(
            'invalid_state_transition',
            'A cancelled fulfillment takes no tracking events',
            { data: { status: fulfillment.status } },
          );
        }
        const events = await tx.orders.listTrackingEvents(scope, fulfillment.id);
        const event: FulfillmentTrackingEventRecord = {
          store_id: scope.store_id,
          mode: scope.mode,
          fulfillment_id: fulfillment.id,
          sequence: events.reduce((max, e) => Math.max(max, e.sequence), 0) + 1,
          status: input.status,
          description: input.description,
          location: input.location ?? null,
          occurred_at: input.timestamp ?? now,
          created_at: now,
        };
        await tx.orders.insertTrackingEvent(event);
        return trackingToWire(fulfillment, [...events, event]);
      });
    },

    /**
     * `GET /v1/storefront/orders/{id}/tracking` (customer token): the TrackingInfo of the
     * customer's order's newest non-cancelled fulfillment, or of `fulfillment_id` (one of the
     * order's, not cancelled). Another customer's order, a draft, an unknown or foreign
     * fulfillment, a cancelled one, or an order with nothing to track yet → 404 `not_found`.
     */
    async getForCustomer(
      scope: Scope,
      customerId: string,
      orderId: string,
      query: TrackingQuery,
    ): Promise<TrackingInfo> {
      return read(ctx, async (tx) => {
        const order = await tx.orders.get(scope, orderId);
        if (!order || order.status === 'draft' || order.customer_id !== customerId) {
          throw new CommerceError('not_found', `No such order: '${orderId}'`);
        }
        const wanted = query.fulfillment_id;
        const fulfillment =
          wanted === undefined
            ? newestTrackableFulfillment(order.fulfillments)
            : order.fulfillments.find((f) => f.id === wanted && f.status !== 'cancelled');
        if (!fulfillment) {
          throw wanted === undefined
            ? new CommerceError('not_found', `Order '${orderId}' has no fulfillment to track yet`)
            : new CommerceError('not_found', `No such fulfillment of this order: '${wanted}'`, {
                param: 'fulfillment_id',
              });
        }
        return trackingToWire(fulfillment, await tx.orders.listTrackingEvents(scope, fulfillment.id));
      });
    },
  };
}
