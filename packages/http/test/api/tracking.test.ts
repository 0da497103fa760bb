import type { Clock } from '@cartwright/core/providers';
import { expect, test } from 'vitest';
import { describeApi, type TestApi } from './support/harness';
import {
  adminOrder,
  createCustomer,
  createProduct,
  expectError,
  expectStatus,
  payCash,
  recordEvents,
  refundRestock,
  ship,
} from './support/order-fixtures';

/**
 * Order tracking over HTTP (decisions §20, docs/order-tracking.md), on every engine:
 * `carrier_code` / `estimated_delivery` set by `PATCH /v1/admin/fulfillments/{id}` and shown
 * wherever fulfillments are; carrier events `POST /v1/admin/fulfillments/{id}/tracking-events`;
 * the customer's `GET /v1/storefront/orders/{id}/tracking`.
 */

type Line = { id: string };
interface CustomerOrder {
  id: string;
  lines: Line[];
  customer: { id: string; token: string };
}

/** A pending admin order of `quantity` units for a new customer with a token. */
async function customerOrder(a: TestApi, quantity = 2): Promise<CustomerOrder> {
  const product = await createProduct(a, { price: 1000, on_hand: 20 });
  const customer = await createCustomer(a);
  const order = expectStatus(
    await adminOrder(a, [{ variant_id: product.variant_id, quantity }], {
      customer_id: customer.id,
      status: 'pending',
    }),
    201,
  ).body;
  return { id: order.id, lines: order.lines, customer };
}

async function fulfil(
  a: TestApi,
  order: CustomerOrder,
  quantity: number,
  body: Record<string, unknown> = {},
) {
  return expectStatus(
    await a.post(`/v1/admin/orders/${order.id}/fulfillments`, {
      lines: [{ order_line_id: order.lines[0]!.id, quantity }],
      ...body,
    }),
    200,
  ).body;
}

const tracking = (a: TestApi, order: CustomerOrder, query = '') =>
  a.storefront.get(`/v1/storefront/orders/${order.id}/tracking${query}`, {
    customerToken: order.customer.token,
  });

const addEvent = (a: TestApi, fulfillmentId: string, body: unknown) =>
  a.post(`/v1/admin/fulfillments/${fulfillmentId}/tracking-events`, body);

const iso = (ms: number) => new Date(ms).toISOString();

/** Never the same millisecond twice: the newest fulfillment is never a tie. */
function tickingClock(): Clock {
  let last = 0;
  return { now: () => (last = Math.max(Date.now(), last + 1)) };
}

describeApi(
  'order tracking (decisions §20)',
  (api) => {
    test('PATCH sets carrier_code and estimated_delivery (null clears); the fulfillment, the admin and storefront order and the events show them', async () => {
      const a = api();
      const order = await customerOrder(a);
      const events = recordEvents(a);
      try {
        const f = await fulfil(a, order, 1, { carrier: 'CJ Logistics' });
        expect(f).toMatchObject({ carrier: 'CJ Logistics', carrier_code: null, estimated_delivery: null });

        const patched = expectStatus(
          await a.patch(`/v1/admin/fulfillments/${f.id}`, {
            carrier_code: 'cj',
            estimated_delivery: '2030-05-02T15:30:00+09:00',
          }),
          200,
        ).body;
        expect(patched).toMatchObject({
          carrier: 'CJ Logistics',
          carrier_code: 'cj',
          estimated_delivery: '2030-05-02T06:30:00.000Z',
        });
        const admin = expectStatus(await a.get(`/v1/admin/orders/${order.id}`), 200).body;
        expect(admin.fulfillments[0]).toMatchObject({
          carrier_code: 'cj',
          estimated_delivery: '2030-05-02T06:30:00.000Z',
        });
        const mine = expectStatus(
          await a.storefront.get(`/v1/storefront/orders/${order.id}`, {
            customerToken: order.customer.token,
          }),
          200,
        ).body;
        expect(mine.fulfillments[0]).toMatchObject({
          carrier_code: 'cj',
          estimated_delivery: '2030-05-02T06:30:00.000Z',
        });

        await ship(a, f.id);
        const shippedEvent = events.seen.find((e) => e.type === 'fulfillment.shipped' && e.data.id === f.id);
        expect(shippedEvent?.data).toMatchObject({
          carrier_code: 'cj',
          estimated_delivery: '2030-05-02T06:30:00.000Z',
        });

        // 64 characters is the limit; null clears.
        const long = 'k'.repeat(64);
        expect(
          expectStatus(await a.patch(`/v1/admin/fulfillments/${f.id}`, { carrier_code: long }), 200).body
            .carrier_code,
        ).toBe(long);
        const cleared = expectStatus(
          await a.patch(`/v1/admin/fulfillments/${f.id}`, { carrier_code: null, estimated_delivery: null }),
          200,
        ).body;
        expect(cleared).toMatchObject({
          carrier_code: null,
          estimated_delivery: null,
          carrier: 'CJ Logistics',
        });
      } finally {
        events.stop();
      }
    });

    test('PATCH refuses a carrier_code over 64 characters and a malformed estimated_delivery with 400 and the param, changing nothing', async () => {
      const a = api();
      const order = await customerOrder(a);
      const f = await fulfil(a, order, 1);
      expectError(
        await a.patch(`/v1/admin/fulfillments/${f.id}`, { carrier_code: 'x'.repeat(65) }),
        400,
        'parameter_invalid',
        'carrier_code',
      );
      expectError(
        await a.patch(`/v1/admin/fulfillments/${f.id}`, { carrier_code: 7 }),
        400,
        'parameter_invalid',
        'carrier_code',
      );
      expectError(
        await a.patch(`/v1/admin/fulfillments/${f.id}`, { carrier_code: 'cj', estimated_delivery: 'soon' }),
        400,
        'parameter_invalid',
        'estimated_delivery',
      );
      const now = expectStatus(await a.get(`/v1/admin/orders/${order.id}`), 200).body.fulfillments[0];
      expect(now).toMatchObject({ carrier_code: null, estimated_delivery: null });
    });

    test('the life of a parcel: pending → in_transit → carrier events by timestamp → delivered, which nothing later undoes', async () => {
      const a = api();
      const order = await customerOrder(a, 1);
      expectError(await tracking(a, order), 404, 'not_found');

      const f = await fulfil(a, order, 1, {
        carrier: 'UPS',
        tracking_number: '1Z9',
        tracking_url: 'https://ups.example/1Z9',
      });
      const first = expectStatus(await tracking(a, order), 200).body;
      expect(first).toEqual({
        order_id: order.id,
        fulfillment_id: f.id,
        carrier: 'UPS',
        carrier_code: null,
        tracking_number: '1Z9',
        tracking_url: 'https://ups.example/1Z9',
        status: 'pending',
        estimated_delivery: null,
        events: [
          { status: 'pending', description: 'Fulfillment created', location: null, timestamp: f.created_at },
        ],
      });

      await ship(a, f.id);
      const shipped = expectStatus(await a.get(`/v1/admin/orders/${order.id}`), 200).body.fulfillments[0];
      const shippedAt = Date.parse(shipped.shipped_at);
      expect(expectStatus(await tracking(a, order), 200).body.status).toBe('in_transit');

      // Posted out of order: the answer sorts them by timestamp.
      expectStatus(
        await addEvent(a, f.id, {
          status: 'out_for_delivery',
          description: 'Out for delivery',
          location: 'London',
          timestamp: iso(shippedAt + 3_600_000),
        }),
        200,
      );
      const scan = expectStatus(
        await addEvent(a, f.id, {
          status: 'in_transit',
          description: 'Arrived at hub',
          timestamp: iso(shippedAt + 60_000),
        }),
        200,
      ).body;
      expect(scan.status).toBe('out_for_delivery');
      expect(scan.events.map((e: { description: string }) => e.description)).toEqual([
        'Fulfillment created',
        'Shipped',
        'Arrived at hub',
        'Out for delivery',
      ]);
      expect(scan.events[3]).toEqual({
        status: 'out_for_delivery',
        description: 'Out for delivery',
        location: 'London',
        timestamp: iso(shippedAt + 3_600_000),
      });
      expect(expectStatus(await tracking(a, order), 200).body).toEqual(scan);

      // A carrier "delivered" moves the tracking, not the fulfillment.
      const said = expectStatus(
        await addEvent(a, f.id, {
          status: 'delivered',
          description: 'Left at door',
          timestamp: iso(shippedAt + 7_200_000),
        }),
        200,
      ).body;
      expect(said.status).toBe('delivered');
      const still = expectStatus(await a.get(`/v1/admin/orders/${order.id}`), 200).body;
      expect(still.fulfillments[0]).toMatchObject({ status: 'shipped', delivered_at: null });

      expectStatus(await a.post(`/v1/admin/fulfillments/${f.id}/deliver`), 200);
      const late = expectStatus(
        await addEvent(a, f.id, {
          status: 'exception',
          description: 'Damage claim opened',
          timestamp: iso(Date.now() + 86_400_000),
        }),
        200,
      ).body;
      expect(late.status).toBe('delivered');
      expect(late.events.at(-1)).toMatchObject({ status: 'exception', description: 'Damage claim opened' });
      expect(late.events.map((e: { description: string }) => e.description)).toContain('Delivered');
      expect(expectStatus(await tracking(a, order), 200).body.status).toBe('delivered');
    });

    test('timestamp defaults to now; equal timestamps keep insertion order; an event before the shipment sorts before "Shipped"', async () => {
      const a = api();
      const order = await customerOrder(a, 1);
      const f = await fulfil(a, order, 1);
      await ship(a, f.id);
      const shippedAt = Date.parse(
        expectStatus(await a.get(`/v1/admin/orders/${order.id}`), 200).body.fulfillments[0].shipped_at,
      );

      const before = Date.now();
      const now = expectStatus(
        await addEvent(a, f.id, { status: 'in_transit', description: 'Now' }),
        200,
      ).body;
      const stamped = Date.parse(now.events.at(-1).timestamp);
      expect(stamped).toBeGreaterThanOrEqual(before - 1);
      // The ticking clock runs at most a few milliseconds ahead of the wall clock.
      expect(stamped).toBeLessThanOrEqual(Date.now() + 1_000);

      const tie = iso(stamped + 60_000);
      for (const [status, description] of [
        ['exception', 'tie 1'],
        ['in_transit', 'tie 2'],
        ['out_for_delivery', 'tie 3'],
      ]) {
        expectStatus(await addEvent(a, f.id, { status, description, timestamp: tie }), 200);
      }
      const early = expectStatus(
        await addEvent(a, f.id, {
          status: 'in_transit',
          description: 'Label created',
          timestamp: iso(shippedAt - 1),
        }),
        200,
      ).body;
      expect(early.events.map((e: { description: string }) => e.description)).toEqual([
        'Fulfillment created',
        'Label created',
        'Shipped',
        'Now',
        'tie 1',
        'tie 2',
        'tie 3',
      ]);
      expect(early.status).toBe('out_for_delivery');
    });

    test('carrier events posted at once all land, each once, in some insertion order (no 5xx)', async () => {
      const a = api();
      const order = await customerOrder(a, 1);
      const f = await fulfil(a, order, 1);
      const at = iso(Date.now() + 60_000);
      const answers = await Promise.all(
        Array.from({ length: 8 }, (_, i) =>
          addEvent(a, f.id, { status: 'in_transit', description: `scan ${i}`, timestamp: at }),
        ),
      );
      expect(answers.map((r) => r.status)).toEqual(Array(8).fill(200));
      const info = expectStatus(await tracking(a, order), 200).body;
      const scans = info.events.filter((e: { description: string }) => e.description.startsWith('scan'));
      expect(scans.map((e: { description: string }) => e.description).sort()).toEqual(
        Array.from({ length: 8 }, (_, i) => `scan ${i}`),
      );
    });

    test('an Idempotency-Key retry answers as the first and adds no second event', async () => {
      const a = api();
      const order = await customerOrder(a, 1);
      const f = await fulfil(a, order, 1);
      const body = { status: 'in_transit', description: 'Picked up' };
      const first = await a.post(`/v1/admin/fulfillments/${f.id}/tracking-events`, body, {
        idempotencyKey: `trk-${f.id}`,
      });
      const again = await a.post(`/v1/admin/fulfillments/${f.id}/tracking-events`, body, {
        idempotencyKey: `trk-${f.id}`,
      });
      expect(expectStatus(first, 200).body).toEqual(expectStatus(again, 200).body);
      expect(expectStatus(await tracking(a, order), 200).body.events).toHaveLength(2);
    });

    test('carrier event input: every field validated (400 with the param), unknown fulfillment 404, publishable key 403; nothing stored', async () => {
      const a = api();
      const order = await customerOrder(a, 1);
      const f = await fulfil(a, order, 1);
      const cases: Array<[unknown, string, string]> = [
        [{ description: 'x' }, 'parameter_missing', 'status'],
        [{ status: 'pending', description: 'x' }, 'parameter_invalid', 'status'],
        [{ status: 'lost', description: 'x' }, 'parameter_invalid', 'status'],
        [{ status: 'in_transit' }, 'parameter_missing', 'description'],
        [{ status: 'in_transit', description: '' }, 'parameter_invalid', 'description'],
        [{ status: 'in_transit', description: 'x'.repeat(10_001) }, 'parameter_invalid', 'description'],
        [{ status: 'in_transit', description: 5 }, 'parameter_invalid', 'description'],
        [{ status: 'in_transit', description: 'x', location: ['Leeds'] }, 'parameter_invalid', 'location'],
        [
          { status: 'in_transit', description: 'x', location: 'l'.repeat(256) },
          'parameter_invalid',
          'location',
        ],
        [{ status: 'in_transit', description: 'x', timestamp: 'tomorrow' }, 'parameter_invalid', 'timestamp'],
        [
          { status: 'in_transit', description: 'x', timestamp: 1735689600000 },
          'parameter_invalid',
          'timestamp',
        ],
        [{ status: 'in_transit', description: 'x', carrier: 'UPS' }, 'parameter_unknown', 'carrier'],
      ];
      for (const [body, code, param] of cases) {
        expectError(await addEvent(a, f.id, body), 400, code, param);
      }
      expectError(
        await a.request('POST', `/v1/admin/fulfillments/${f.id}/tracking-events`, {
          rawBody: '{"status":',
          headers: { 'content-type': 'application/json' },
        }),
        400,
        'invalid_json',
      );
      expectError(
        await addEvent(a, 'ful_doesnotexist', { status: 'in_transit', description: 'x' }),
        404,
        'not_found',
      );
      expectError(
        await a.storefront.post(`/v1/admin/fulfillments/${f.id}/tracking-events`, {
          status: 'in_transit',
          description: 'x',
        }),
        403,
        'forbidden',
      );
      expect(expectStatus(await tracking(a, order), 200).body.events).toHaveLength(1);
    });

    test('a cancelled fulfillment: no carrier event (409 invalid_state_transition), skipped by default, 404 when picked', async () => {
      const a = api();
      const order = await customerOrder(a, 2);
      const shipped = await fulfil(a, order, 1, { tracking_number: 'A' });
      await ship(a, shipped.id);
      const pending = await fulfil(a, order, 1, { tracking_number: 'B' });
      expect(expectStatus(await tracking(a, order), 200).body.fulfillment_id).toBe(pending.id);

      await payCash(a, order.id, 2000);
      await refundRestock(a, order, 1);
      const cancelled = expectStatus(await a.get(`/v1/admin/orders/${order.id}`), 200).body.fulfillments.find(
        (x: { id: string }) => x.id === pending.id,
      );
      expect(cancelled.status).toBe('cancelled');

      expectError(
        await addEvent(a, pending.id, { status: 'in_transit', description: 'x' }),
        409,
        'invalid_state_transition',
      );
      expect(expectStatus(await tracking(a, order), 200).body).toMatchObject({
        fulfillment_id: shipped.id,
        tracking_number: 'A',
        status: 'in_transit',
      });
      expectError(
        await tracking(a, order, `?fulfillment_id=${pending.id}`),
        404,
        'not_found',
        'fulfillment_id',
      );
    });

    test('storefront access: no token 401, a bad token 401, another customer 404, a fulfillment of another order 404, fulfillment_id picks', async () => {
      const a = api();
      const order = await customerOrder(a, 2);
      const older = await fulfil(a, order, 1, { tracking_number: 'OLD' });
      const newer = await fulfil(a, order, 1, { tracking_number: 'NEW' });
      const other = await customerOrder(a, 1);
      const otherF = await fulfil(a, other, 1);

      expectError(
        await a.storefront.get(`/v1/storefront/orders/${order.id}/tracking`),
        401,
        'customer_token_required',
      );
      expectError(
        await a.storefront.get(`/v1/storefront/orders/${order.id}/tracking`, {
          customerToken: 'ct_notarealtokenatall00000',
        }),
        401,
        'invalid_customer_token',
      );
      expectError(
        await a.storefront.get(`/v1/storefront/orders/${order.id}/tracking`, {
          customerToken: other.customer.token,
        }),
        404,
        'not_found',
      );
      expectError(
        await tracking(a, order, `?fulfillment_id=${otherF.id}`),
        404,
        'not_found',
        'fulfillment_id',
      );
      expectError(
        await a.storefront.get('/v1/storefront/orders/ord_doesnotexist/tracking', {
          customerToken: order.customer.token,
        }),
        404,
        'not_found',
      );

      expect(expectStatus(await tracking(a, order), 200).body).toMatchObject({
        fulfillment_id: newer.id,
        tracking_number: 'NEW',
      });
      expect(expectStatus(await tracking(a, order, `?fulfillment_id=${older.id}`), 200).body).toMatchObject({
        fulfillment_id: older.id,
        tracking_number: 'OLD',
      });
      // The admin key with the customer's token is the customer too.
      expect(
        expectStatus(
          await a.get(`/v1/storefront/orders/${order.id}/tracking`, { customerToken: order.customer.token }),
          200,
        ).body.fulfillment_id,
      ).toBe(newer.id);
    });
  },
  { clock: tickingClock() },
);
