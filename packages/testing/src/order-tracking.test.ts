import { afterEach, describe, expect, test } from 'vitest';
import { expectCode } from './commerce-error.test-support';
import { createTestEngine, type TestEngine } from './create-test-engine';

/**
 * Order tracking through the engine (decisions §20, docs/order-tracking.md): `carrier_code` and
 * `estimated_delivery` on fulfillments (PATCH), carrier events posted on a fulfillment, and the
 * signed-in customer's TrackingInfo of an order — its newest non-cancelled fulfillment, or the
 * one `fulfillment_id` names — with the fulfillment's own history merged with the carrier's.
 */

let t: TestEngine | undefined;
afterEach(async () => {
  await t?.close();
  t = undefined;
});

const START = Date.parse('2025-01-01T00:00:00.000Z');
const at = (minutes: number) => new Date(START + minutes * 60_000).toISOString();

/** A pending order of `quantity` units for a new customer. */
async function customerOrder(e: TestEngine, quantity = 2) {
  const { variant } = await e.fixtures.product({ price: 1000 });
  const customer = await e.fixtures.customer();
  const order = await e.store.orders.create({
    customer_id: customer.id,
    status: 'pending',
    lines: [{ variant_id: variant.id, quantity }],
  });
  return { customer, order, line: order.lines[0]! };
}

describe('fulfillments carry carrier_code and estimated_delivery (decisions §20)', () => {
  test('null until set; PATCH sets and clears them; the order (admin and storefront) and fulfillment events show them', async () => {
    t = await createTestEngine();
    const { customer, order, line } = await customerOrder(t);
    const created = await t.store.orders.fulfillments.create(order.id, {
      lines: [{ order_line_id: line.id, quantity: 1 }],
    });
    expect(created).toMatchObject({ carrier_code: null, estimated_delivery: null });
    expect(t.events.list('fulfillment.created')[0]?.data).toMatchObject({
      carrier_code: null,
      estimated_delivery: null,
    });

    const patched = await t.store.orders.fulfillments.update(created.id, {
      carrier: 'CJ Logistics',
      carrier_code: 'cj',
      estimated_delivery: '2025-01-03T18:00:00+09:00',
    });
    expect(patched).toMatchObject({
      carrier: 'CJ Logistics',
      carrier_code: 'cj',
      estimated_delivery: '2025-01-03T09:00:00.000Z',
    });
    // A plain date is midnight UTC.
    expect(
      (await t.store.orders.fulfillments.update(created.id, { estimated_delivery: '2025-01-04' }))
        .estimated_delivery,
    ).toBe('2025-01-04T00:00:00.000Z');
    expect((await t.store.orders.get(order.id)).fulfillments[0]).toMatchObject({
      carrier_code: 'cj',
      estimated_delivery: '2025-01-04T00:00:00.000Z',
    });
    expect((await t.store.orders.getForCustomer(customer.id, order.id)).fulfillments[0]).toMatchObject({
      carrier_code: 'cj',
      estimated_delivery: '2025-01-04T00:00:00.000Z',
    });

    const shipped = await t.store.orders.fulfillments.ship(created.id);
    expect(shipped).toMatchObject({ carrier_code: 'cj', estimated_delivery: '2025-01-04T00:00:00.000Z' });
    expect(t.events.list('fulfillment.shipped')[0]?.data).toMatchObject({
      carrier_code: 'cj',
      estimated_delivery: '2025-01-04T00:00:00.000Z',
    });

    const cleared = await t.store.orders.fulfillments.update(created.id, {
      carrier_code: null,
      estimated_delivery: null,
    });
    expect(cleared).toMatchObject({ carrier: 'CJ Logistics', carrier_code: null, estimated_delivery: null });
  });

  test('carrier_code over 64 characters, blank, or a non-date estimated_delivery: 400 with the param, nothing changed', async () => {
    t = await createTestEngine();
    const { order, line } = await customerOrder(t);
    const f = await t.store.orders.fulfillments.create(order.id, {
      lines: [{ order_line_id: line.id, quantity: 1 }],
    });
    await t.store.orders.fulfillments.update(f.id, { carrier_code: 'x'.repeat(64) });
    await expectCode(
      t.store.orders.fulfillments.update(f.id, { carrier_code: 'y'.repeat(65) }),
      'parameter_invalid',
      'carrier_code',
    );
    await expectCode(
      t.store.orders.fulfillments.update(f.id, { carrier_code: '' }),
      'parameter_invalid',
      'carrier_code',
    );
    await expectCode(
      t.store.orders.fulfillments.update(f.id, { estimated_delivery: 'next tuesday' }),
      'parameter_invalid',
      'estimated_delivery',
    );
    await expectCode(
      t.store.orders.fulfillments.update(f.id, {
        carrier: 'DHL',
        estimated_delivery: 12 as unknown as string,
      }),
      'parameter_invalid',
      'estimated_delivery',
    );
    expect((await t.store.orders.get(order.id)).fulfillments[0]).toMatchObject({
      carrier: null,
      carrier_code: 'x'.repeat(64),
      estimated_delivery: null,
    });
  });
});

describe('carrier events and the TrackingInfo (decisions §20)', () => {
  test('the whole life: created → pending; shipped → in_transit; carrier events; delivered; the fulfillment never moved by carrier events', async () => {
    t = await createTestEngine();
    const { customer, order, line } = await customerOrder(t);
    const track = () => t!.store.orders.getTrackingForCustomer(customer.id, order.id);

    await expectCode(track(), 'not_found');

    const f = await t.store.orders.fulfillments.create(order.id, {
      lines: [{ order_line_id: line.id, quantity: 2 }],
      carrier: 'UPS',
      tracking_number: '1Z999',
      tracking_url: 'https://ups.example/1Z999',
    });
    expect(await track()).toEqual({
      order_id: order.id,
      fulfillment_id: f.id,
      carrier: 'UPS',
      carrier_code: null,
      tracking_number: '1Z999',
      tracking_url: 'https://ups.example/1Z999',
      status: 'pending',
      estimated_delivery: null,
      events: [{ status: 'pending', description: 'Fulfillment created', location: null, timestamp: at(0) }],
    });

    t.clock.advance('10m');
    await t.store.orders.fulfillments.ship(f.id);
    expect((await track()).status).toBe('in_transit');

    t.clock.advance('20m');
    const withScan = await t.store.orders.fulfillments.addTrackingEvent(f.id, {
      status: 'in_transit',
      description: 'Arrived at sort facility',
      location: 'Leeds',
    });
    // `timestamp` defaults to now.
    expect(withScan.events.at(-1)).toEqual({
      status: 'in_transit',
      description: 'Arrived at sort facility',
      location: 'Leeds',
      timestamp: at(30),
    });
    const out = await t.store.orders.fulfillments.addTrackingEvent(f.id, {
      status: 'out_for_delivery',
      description: 'Out for delivery',
      timestamp: at(45),
    });
    expect(out.status).toBe('out_for_delivery');
    // The carrier said "delivered": the tracking says so; the fulfillment stays shipped, the order
    // does not move.
    const said = await t.store.orders.fulfillments.addTrackingEvent(f.id, {
      status: 'delivered',
      description: 'Left at the door',
      timestamp: at(50),
    });
    expect(said.status).toBe('delivered');
    const stored = await t.store.orders.get(order.id);
    expect(stored.fulfillments[0]).toMatchObject({ status: 'shipped', delivered_at: null });
    expect(t.events.list('fulfillment.delivered')).toHaveLength(0);

    // The customer sees what the admin was answered.
    expect(await track()).toEqual(said);
    expect(said.events.map((e) => [e.status, e.description, e.timestamp])).toEqual([
      ['pending', 'Fulfillment created', at(0)],
      ['in_transit', 'Shipped', at(10)],
      ['in_transit', 'Arrived at sort facility', at(30)],
      ['out_for_delivery', 'Out for delivery', at(45)],
      ['delivered', 'Left at the door', at(50)],
    ]);

    // The merchant marks it delivered; a later exception does not undo that.
    t.clock.advance('40m');
    await t.store.orders.fulfillments.deliver(f.id);
    const late = await t.store.orders.fulfillments.addTrackingEvent(f.id, {
      status: 'exception',
      description: 'Damage reported',
      timestamp: at(120),
    });
    expect(late.status).toBe('delivered');
    expect(late.events.map((e) => e.description)).toEqual([
      'Fulfillment created',
      'Shipped',
      'Arrived at sort facility',
      'Out for delivery',
      'Left at the door',
      'Delivered',
      'Damage reported',
    ]);
    expect((await track()).status).toBe('delivered');
  });

  test('events of equal timestamps keep insertion order; an event dated before the shipment sorts before "Shipped"', async () => {
    t = await createTestEngine();
    const { customer, order, line } = await customerOrder(t, 1);
    const f = await t.store.orders.fulfillments.create(order.id, {
      lines: [{ order_line_id: line.id, quantity: 1 }],
    });
    t.clock.advance('10m');
    await t.store.orders.fulfillments.ship(f.id);
    for (const description of ['first', 'second', 'third']) {
      await t.store.orders.fulfillments.addTrackingEvent(f.id, {
        status: description === 'second' ? 'exception' : 'in_transit',
        description,
        timestamp: at(20),
      });
    }
    await t.store.orders.fulfillments.addTrackingEvent(f.id, {
      status: 'in_transit',
      description: 'Label created',
      timestamp: at(5),
    });
    const info = await t.store.orders.getTrackingForCustomer(customer.id, order.id);
    expect(info.events.map((e) => e.description)).toEqual([
      'Fulfillment created',
      'Label created',
      'Shipped',
      'first',
      'second',
      'third',
    ]);
    expect(info.status).toBe('in_transit');
  });

  test('a carrier event on a pending fulfillment: tracking in_transit, the fulfillment still pending (and shippable)', async () => {
    t = await createTestEngine();
    const { customer, order, line } = await customerOrder(t, 1);
    const f = await t.store.orders.fulfillments.create(order.id, {
      lines: [{ order_line_id: line.id, quantity: 1 }],
    });
    const info = await t.store.orders.fulfillments.addTrackingEvent(f.id, {
      status: 'in_transit',
      description: 'Collected by courier',
    });
    expect(info.status).toBe('in_transit');
    expect((await t.store.orders.get(order.id)).fulfillments[0]?.status).toBe('pending');
    expect((await t.store.orders.fulfillments.ship(f.id)).status).toBe('shipped');
    expect((await t.store.orders.getTrackingForCustomer(customer.id, order.id)).events).toHaveLength(3);
  });
});

describe('which fulfillment, and who may see it (decisions §20)', () => {
  /** An order of 2 units: fulfillment A (1 unit, shipped), then B (1 unit, pending). */
  async function twoFulfillments(e: TestEngine) {
    const { customer, order, line } = await customerOrder(e, 2);
    const a = await e.store.orders.fulfillments.create(order.id, {
      lines: [{ order_line_id: line.id, quantity: 1 }],
      tracking_number: 'A-1',
    });
    await e.store.orders.fulfillments.ship(a.id);
    e.clock.advance('1m');
    const b = await e.store.orders.fulfillments.create(order.id, {
      lines: [{ order_line_id: line.id, quantity: 1 }],
      tracking_number: 'B-1',
    });
    return { customer, order, line, a, b };
  }

  test('the newest non-cancelled fulfillment by default; fulfillment_id picks another of the order', async () => {
    t = await createTestEngine();
    const { customer, order, a, b } = await twoFulfillments(t);
    const newest = await t.store.orders.getTrackingForCustomer(customer.id, order.id);
    expect(newest).toMatchObject({ fulfillment_id: b.id, tracking_number: 'B-1', status: 'pending' });
    const picked = await t.store.orders.getTrackingForCustomer(customer.id, order.id, {
      fulfillment_id: a.id,
    });
    expect(picked).toMatchObject({ fulfillment_id: a.id, tracking_number: 'A-1', status: 'in_transit' });
  });

  test('a cancelled fulfillment is skipped, cannot be picked (404) and takes no carrier event (409, nothing stored)', async () => {
    t = await createTestEngine();
    const { customer, order, line, a, b } = await twoFulfillments(t);
    await t.store.orders.payments.create(order.id, { amount: 2000, provider: 'cash' });
    // A restocking refund of the unshipped unit empties (and so cancels) the pending fulfillment B.
    await t.store.orders.refunds.create(order.id, {
      lines: [{ order_line_id: line.id, quantity: 1 }],
      restock: true,
    });
    expect((await t.store.orders.get(order.id)).fulfillments.find((f) => f.id === b.id)?.status).toBe(
      'cancelled',
    );
    expect((await t.store.orders.getTrackingForCustomer(customer.id, order.id)).fulfillment_id).toBe(a.id);
    await expectCode(
      t.store.orders.getTrackingForCustomer(customer.id, order.id, { fulfillment_id: b.id }),
      'not_found',
      'fulfillment_id',
    );
    await expectCode(
      t.store.orders.fulfillments.addTrackingEvent(b.id, { status: 'in_transit', description: 'Scan' }),
      'invalid_state_transition',
    );
    // Nothing was stored: A's tracking is unchanged, and B has no event once picked by the admin.
    expect((await t.store.orders.getTrackingForCustomer(customer.id, order.id)).events).toHaveLength(2);
  });

  test("another customer's order, a draft, an unknown order, a fulfillment of another order: 404 not_found", async () => {
    t = await createTestEngine();
    const { customer, order, a } = await twoFulfillments(t);
    const other = await customerOrder(t, 1);
    const otherF = await t.store.orders.fulfillments.create(other.order.id, {
      lines: [{ order_line_id: other.line.id, quantity: 1 }],
    });

    await expectCode(t.store.orders.getTrackingForCustomer(other.customer.id, order.id), 'not_found');
    await expectCode(t.store.orders.getTrackingForCustomer(customer.id, 'ord_unknown'), 'not_found');
    await expectCode(
      t.store.orders.getTrackingForCustomer(customer.id, order.id, { fulfillment_id: otherF.id }),
      'not_found',
      'fulfillment_id',
    );
    await expectCode(
      t.store.orders.getTrackingForCustomer(customer.id, order.id, { fulfillment_id: 'ful_unknown' }),
      'not_found',
      'fulfillment_id',
    );
    const { variant } = await t.fixtures.product({ price: 500 });
    const draft = await t.store.orders.create({
      customer_id: customer.id,
      lines: [{ variant_id: variant.id, quantity: 1 }],
    });
    expect(draft.status).toBe('draft');
    await expectCode(t.store.orders.getTrackingForCustomer(customer.id, draft.id), 'not_found');
    // The right customer still sees their own.
    expect(
      (await t.store.orders.getTrackingForCustomer(customer.id, order.id, { fulfillment_id: a.id }))
        .fulfillment_id,
    ).toBe(a.id);
  });
});

describe('carrier event input (decisions §20, §4)', () => {
  test('every field validated with the documented 400; an unknown fulfillment is 404; none stores anything', async () => {
    t = await createTestEngine();
    const { customer, order, line } = await customerOrder(t, 1);
    const f = await t.store.orders.fulfillments.create(order.id, {
      lines: [{ order_line_id: line.id, quantity: 1 }],
    });
    type Input = Parameters<NonNullable<typeof t>['store']['orders']['fulfillments']['addTrackingEvent']>[1];
    const post = (input: unknown) => t!.store.orders.fulfillments.addTrackingEvent(f.id, input as Input);

    await expectCode(post({ description: 'x' }), 'parameter_missing', 'status');
    await expectCode(post({ status: 'pending', description: 'x' }), 'parameter_invalid', 'status');
    await expectCode(post({ status: 'lost', description: 'x' }), 'parameter_invalid', 'status');
    await expectCode(post({ status: 'in_transit' }), 'parameter_missing', 'description');
    await expectCode(post({ status: 'in_transit', description: '   ' }), 'parameter_invalid', 'description');
    await expectCode(
      post({ status: 'in_transit', description: 'x'.repeat(10_001) }),
      'parameter_invalid',
      'description',
    );
    await expectCode(
      post({ status: 'in_transit', description: 'x', location: 7 }),
      'parameter_invalid',
      'location',
    );
    await expectCode(
      post({ status: 'in_transit', description: 'x', location: 'l'.repeat(256) }),
      'parameter_invalid',
      'location',
    );
    await expectCode(
      post({ status: 'in_transit', description: 'x', timestamp: 'yesterday' }),
      'parameter_invalid',
      'timestamp',
    );
    await expectCode(
      post({ status: 'in_transit', description: 'x', timestamp: '2025-01-01T10:00:00' }),
      'parameter_invalid',
      'timestamp',
    );
    await expectCode(
      post({ status: 'in_transit', description: 'x', courier: 'me' }),
      'parameter_unknown',
      'courier',
    );
    await expectCode(
      t.store.orders.fulfillments.addTrackingEvent('ful_unknown', { status: 'in_transit', description: 'x' }),
      'not_found',
    );

    expect((await t.store.orders.getTrackingForCustomer(customer.id, order.id)).events).toEqual([
      { status: 'pending', description: 'Fulfillment created', location: null, timestamp: at(0) },
    ]);
    // location null and a date-only timestamp are accepted.
    const ok = await post({
      status: 'exception',
      description: ' Weather delay ',
      location: null,
      timestamp: '2025-01-01',
    });
    expect(ok.events.at(-1)).toEqual({
      status: 'exception',
      description: 'Weather delay',
      location: null,
      timestamp: at(0),
    });
  });
});
