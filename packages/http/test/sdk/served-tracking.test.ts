import type { Fulfillment, TrackingInfo, UpdateFulfillmentInput } from '@headless-commerce/sdk';
import { expect, test } from 'vitest';
import { describeApi, type TestApi } from '../api/support/harness';
import {
  ADDRESS,
  createSellable,
  expectSdkError,
  isoDate,
  sdkClients,
  tickingClock,
  unique,
} from './support';

/**
 * decisions §20 as `@headless-commerce/sdk` 0.2.0 reads it: `storefront.tracking.getOrderTracking(orderId)`
 * with a customer token answers the SDK's `TrackingInfo` — the order's newest non-cancelled
 * fulfillment, its carrier details, `carrier_code` and `estimated_delivery` (set with
 * `fulfillments.adminUpdate`), and its events: its own history plus the carrier events the
 * merchant posts (`POST /v1/admin/fulfillments/{id}/tracking-events`, beyond the SDK, sent with
 * its low-level `request`). Another customer's order, or none to track yet, is the SDK's 404.
 */

/** Our Fulfillment: the SDK's plus decisions §20's `carrier_code` and `estimated_delivery`. */
type OurFulfillment = Fulfillment & { carrier_code: string | null; estimated_delivery: string | null };

/** A signed-in customer's order checked out through the SDK (manual payment). */
async function customerOrder(api: TestApi) {
  const { admin, storefrontAs } = sdkClients(api);
  const { variant } = await createSellable(admin, { price: 2500, on_hand: 5 });
  const customer = await admin.customers.adminCreate({ email: `${unique('track')}@example.com` });
  const { token } = await admin.customers.adminCreateToken(customer.id);
  const storefront = storefrontAs(token);
  const cart = await storefront.carts.create();
  await storefront.carts.addItem(cart.id, { variant_id: variant.id, quantity: 2 });
  const order = await storefront.checkout.create(cart.id, {
    email: customer.email,
    shipping_address: ADDRESS,
    payment_method: 'manual',
  });
  return { order, storefront, lineId: order.lines[0]!.id };
}

describeApi(
  'sdk: tracking.getOrderTracking (decisions §20)',
  (api) => {
    test('the TrackingInfo of the newest fulfillment: carrier details, carrier_code, estimated_delivery, own history plus carrier events', async () => {
      const a = api();
      const { admin, withKey } = sdkClients(a);
      const { order, storefront, lineId } = await customerOrder(a);

      // Nothing to track yet: the SDK's 404.
      await expectSdkError(storefront.tracking.getOrderTracking(order.id), 404, 'not_found');

      const first = await admin.fulfillments.adminCreate(order.id, {
        lines: [{ order_line_id: lineId, quantity: 1 }],
        carrier: 'UPS',
        tracking_number: '1Z-FIRST',
      });
      const created = await admin.fulfillments.adminCreate(order.id, {
        lines: [{ order_line_id: lineId, quantity: 1 }],
        carrier: 'CJ Logistics',
        tracking_number: '6301-2299',
        tracking_url: 'https://trace.cjlogistics.example/6301-2299',
      });
      const updated = (await admin.fulfillments.adminUpdate(created.id, {
        carrier_code: 'cj',
        estimated_delivery: '2030-03-04',
      } as UpdateFulfillmentInput)) as OurFulfillment;
      expect(updated).toMatchObject({ carrier_code: 'cj', estimated_delivery: '2030-03-04T00:00:00.000Z' });
      const shipped = (await admin.fulfillments.adminShip(created.id)) as OurFulfillment;
      expect(shipped).toMatchObject({ status: 'shipped', shipped_at: isoDate, carrier_code: 'cj' });

      // A carrier event, beyond the SDK: its low-level request, with the secret key.
      const afterShipping = new Date(Date.parse(shipped.shipped_at!) + 60_000).toISOString();
      const posted = await withKey(a.keys.secret).request<TrackingInfo>(
        'POST',
        `/admin/fulfillments/${created.id}/tracking-events`,
        {
          status: 'out_for_delivery',
          description: 'Out for delivery',
          location: 'Seoul',
          timestamp: afterShipping,
        },
      );

      const info: TrackingInfo = await storefront.tracking.getOrderTracking(order.id);
      expect(info).toEqual(posted);
      expect(info).toEqual({
        order_id: order.id,
        fulfillment_id: created.id,
        carrier: 'CJ Logistics',
        carrier_code: 'cj',
        tracking_number: '6301-2299',
        tracking_url: 'https://trace.cjlogistics.example/6301-2299',
        status: 'out_for_delivery',
        estimated_delivery: '2030-03-04T00:00:00.000Z',
        events: [
          {
            status: 'pending',
            description: 'Fulfillment created',
            location: null,
            timestamp: created.created_at,
          },
          { status: 'in_transit', description: 'Shipped', location: null, timestamp: shipped.shipped_at },
          {
            status: 'out_for_delivery',
            description: 'Out for delivery',
            location: 'Seoul',
            timestamp: afterShipping,
          },
        ],
      });
      expect(info.fulfillment_id).not.toBe(first.id);

      // Delivered by the merchant: `delivered`, even though the carrier's event (dated a minute after
      // shipping, so after this delivery) is the last one.
      await admin.fulfillments.adminDeliver(created.id);
      const delivered = await storefront.tracking.getOrderTracking(order.id);
      expect(delivered.status).toBe('delivered');
      expect(delivered.events.map((e) => e.description)).toEqual([
        'Fulfillment created',
        'Shipped',
        'Delivered',
        'Out for delivery',
      ]);
    });

    test("another customer's order → the SDK's 404; no customer token → 401", async () => {
      const a = api();
      const { admin, storefront: anonymous, storefrontAs } = sdkClients(a);
      const { order, lineId } = await customerOrder(a);
      await admin.fulfillments.adminCreate(order.id, { lines: [{ order_line_id: lineId, quantity: 2 }] });

      const stranger = await admin.customers.adminCreate({ email: `${unique('stranger')}@example.com` });
      const { token } = await admin.customers.adminCreateToken(stranger.id);
      await expectSdkError(storefrontAs(token).tracking.getOrderTracking(order.id), 404, 'not_found');
      await expectSdkError(anonymous.tracking.getOrderTracking(order.id), 401, 'customer_token_required');
    });
  },
  { clock: tickingClock() },
); // never one millisecond twice: "newest" is never a tie
