import { IdPathSchema, TrackingEventCreateSchema, TrackingInfoSchema, TrackingQuerySchema } from '../schemas';
import { signedIn } from './call';
import { defineOperation } from './operation';

const tags = ['Order tracking'] as const;

/**
 * Order tracking (decisions §20, docs/order-tracking.md): carrier events posted on a fulfillment,
 * and the customer's view of an order's tracking. A fulfillment's `carrier_code` and
 * `estimated_delivery` are set by `PATCH /v1/admin/fulfillments/{id}` (orders.ts).
 */
export const trackingOperations = [
  defineOperation({
    name: 'orders.fulfillments.addTrackingEvent',
    http: { method: 'POST', path: '/v1/admin/fulfillments/:id/tracking-events' },
    auth: 'secret',
    customerToken: 'none',
    params: IdPathSchema,
    input: TrackingEventCreateSchema,
    response: TrackingInfoSchema,
    summary: 'Add a carrier tracking event to a fulfillment',
    description:
      '`status` (`in_transit`, `out_for_delivery`, `delivered`, `exception`) and `description` required, ' +
      '`location` optional, `timestamp` defaults to now. A cancelled fulfillment → 409 `invalid_state_transition`. ' +
      "Answers the fulfillment's TrackingInfo. Carrier events never move the fulfillment's own status " +
      '(ship and deliver do).',
    tags,
    operationId: 'addFulfillmentTrackingEvent',
    errors: ['not_found', 'invalid_state_transition'],
    run: async (s, c) => s.tracking.addEvent(c.scope, c.params.id, c.input),
  }),
  defineOperation({
    name: 'orders.getTrackingForCustomer',
    http: { method: 'GET', path: '/v1/storefront/orders/:id/tracking' },
    args: ['customer_id', 'id'],
    auth: 'any',
    customerToken: 'required',
    params: IdPathSchema,
    inputIn: 'query',
    input: TrackingQuerySchema,
    response: TrackingInfoSchema,
    summary: "Track one of the signed-in customer's orders",
    description:
      "The TrackingInfo of the order's newest non-cancelled fulfillment, or of `fulfillment_id` (another of " +
      'the order\'s fulfillments). Events: the fulfillment\'s own history (`pending` "Fulfillment created", ' +
      '`in_transit` "Shipped", `delivered` "Delivered") and the carrier\'s events, by timestamp then insertion; ' +
      "`status` is the last event's, `delivered` whenever the fulfillment is. Another customer's order, a " +
      'fulfillment not of this order (or cancelled), or an order with no fulfillment yet → 404 `not_found`.',
    tags,
    operationId: 'getMyOrderTracking',
    errors: ['not_found'],
    run: async (s, c) => s.tracking.getForCustomer(c.scope, signedIn(c).customer_id, c.params.id, c.input),
  }),
] as const;
