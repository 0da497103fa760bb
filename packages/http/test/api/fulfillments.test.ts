import { expect, test } from 'vitest';
import { describeApi } from './support/harness';
import {
  adminOrder,
  createProduct,
  expectError,
  expectStatus,
  inventoryOf,
  orderOf,
  payOrder,
  placeOrder,
  recordEvents,
} from './support/order-fixtures';

describeApi('fulfillments', (api) => {
  test('create → ship → deliver: quantities count from creation, stock leaves on ship, events in order', async () => {
    const a = api();
    const shirt = await createProduct(a, { price: 2000, on_hand: 10 });
    const hat = await createProduct(a, { price: 1500, on_hand: 10 });
    const events = recordEvents(a);
    try {
      const order = await payOrder(
        a,
        await placeOrder(a, [
          { variant_id: shirt.variant_id, quantity: 3 },
          { variant_id: hat.variant_id, quantity: 1 },
        ]),
      );
      expect(order.status).toBe('confirmed');
      const [shirtLine, hatLine] = order.lines;

      const f = expectStatus(
        await a.post(`/v1/admin/orders/${order.id}/fulfillments`, {
          lines: [{ order_line_id: shirtLine.id, quantity: 2 }],
          tracking_number: '1Z999',
          tracking_url: 'https://track.example.com/1Z999',
          carrier: 'UPS',
          metadata: { box: 'M' },
        }),
        200,
      ).body;
      expect(f).toMatchObject({
        order_id: order.id,
        status: 'pending',
        tracking_number: '1Z999',
        tracking_url: 'https://track.example.com/1Z999',
        carrier: 'UPS',
        lines: [{ order_line_id: shirtLine.id, quantity: 2 }],
        metadata: { box: 'M' },
        shipped_at: null,
        delivered_at: null,
      });
      let current = expectStatus(await a.get(`/v1/admin/orders/${order.id}`), 200).body;
      expect(current).toMatchObject({ status: 'processing', fulfillment_status: 'partially_fulfilled' });
      expect(current.lines.map((l: { fulfilled_quantity: number }) => l.fulfilled_quantity)).toEqual([2, 0]);
      // Created, not shipped: stock still only reserved.
      expect(await inventoryOf(a, shirt.inventory_id)).toMatchObject({ on_hand: 10, reserved: 3 });

      const shipped = expectStatus(await a.post(`/v1/admin/fulfillments/${f.id}/ship`), 200).body;
      expect(shipped.status).toBe('shipped');
      expect(shipped.shipped_at).not.toBeNull();
      expect(await inventoryOf(a, shirt.inventory_id)).toMatchObject({
        on_hand: 8,
        reserved: 1,
        available: 7,
      });

      const delivered = expectStatus(await a.post(`/v1/admin/fulfillments/${f.id}/deliver`), 200).body;
      expect(delivered.status).toBe('delivered');
      expect(delivered.delivered_at).not.toBeNull();

      // The rest: fully fulfilled and paid, but created only → still processing (docs/contract.md#order-status).
      const rest = expectStatus(
        await a.post(`/v1/admin/orders/${order.id}/fulfillments`, {
          lines: [
            { order_line_id: shirtLine.id, quantity: 1 },
            { order_line_id: hatLine.id, quantity: 1 },
          ],
        }),
        200,
      ).body;
      current = expectStatus(await a.get(`/v1/admin/orders/${order.id}`), 200).body;
      expect(current).toMatchObject({
        status: 'processing',
        fulfillment_status: 'fulfilled',
        completed_at: null,
      });
      expect(current.fulfillments.map((x: { id: string }) => x.id)).toEqual([f.id, rest.id]);
      // Every unit shipped, and paid → completed.
      expectStatus(await a.post(`/v1/admin/fulfillments/${rest.id}/ship`), 200);
      current = expectStatus(await a.get(`/v1/admin/orders/${order.id}`), 200).body;
      expect(current).toMatchObject({ status: 'completed', fulfillment_status: 'fulfilled' });
      expect(current.completed_at).not.toBeNull();
      expect(await inventoryOf(a, shirt.inventory_id)).toMatchObject({ on_hand: 7, reserved: 0 });
      expect(await inventoryOf(a, hat.inventory_id)).toMatchObject({ on_hand: 9, reserved: 0 });
      expect(events.seen.filter((e) => e.type === 'order.completed').map((e) => e.data.id)).toEqual([
        order.id,
      ]);

      const fulfillmentEvents = events.seen
        .filter((e) => e.type.startsWith('fulfillment.'))
        .map((e) => `${e.type} ${e.data.id}`);
      expect(fulfillmentEvents).toEqual([
        `fulfillment.created ${f.id}`,
        `fulfillment.shipped ${f.id}`,
        `fulfillment.delivered ${f.id}`,
        `fulfillment.created ${rest.id}`,
        `fulfillment.shipped ${rest.id}`,
      ]);
    } finally {
      events.stop();
    }
  });

  test('more than the unfulfilled units → 422 fulfillment_exceeds_unfulfilled; bad lines → 400', async () => {
    const a = api();
    const item = await createProduct(a);
    const order = await placeOrder(a, [{ variant_id: item.variant_id, quantity: 2 }]);
    const lineId = order.lines[0].id;
    const res = await a.post(`/v1/admin/orders/${order.id}/fulfillments`, {
      lines: [{ order_line_id: lineId, quantity: 3 }],
    });
    expectError(res, 422, 'fulfillment_exceeds_unfulfilled', 'lines[0][quantity]');

    expectStatus(
      await a.post(`/v1/admin/orders/${order.id}/fulfillments`, {
        lines: [{ order_line_id: lineId, quantity: 1 }],
      }),
      200,
    );
    expectError(
      await a.post(`/v1/admin/orders/${order.id}/fulfillments`, {
        lines: [{ order_line_id: lineId, quantity: 2 }],
      }),
      422,
      'fulfillment_exceeds_unfulfilled',
      'lines[0][quantity]',
    );
    expectError(
      await a.post(`/v1/admin/orders/${order.id}/fulfillments`, {
        lines: [{ order_line_id: 'line_nope', quantity: 1 }],
      }),
      404,
      'not_found',
      'lines[0][order_line_id]',
    );
    expectError(
      await a.post(`/v1/admin/orders/${order.id}/fulfillments`, {
        lines: [
          { order_line_id: lineId, quantity: 1 },
          { order_line_id: lineId, quantity: 1 },
        ],
      }),
      400,
      'parameter_invalid',
      'lines[1][order_line_id]',
    );
    expectError(
      await a.post(`/v1/admin/orders/${order.id}/fulfillments`, { lines: [] }),
      400,
      'parameter_invalid',
      'lines',
    );
    expectError(
      await a.post(`/v1/admin/orders/${order.id}/fulfillments`, {
        lines: [{ order_line_id: lineId, quantity: 0 }],
      }),
      400,
      'parameter_invalid',
      'lines[0][quantity]',
    );
    expectError(
      await a.post(`/v1/admin/orders/${order.id}/fulfillments`, {
        lines: [{ order_line_id: lineId, quantity: 1 }],
        tracking_url: 'not a url',
      }),
      400,
      'parameter_invalid',
      'tracking_url',
    );
    expectError(
      await a.post('/v1/admin/orders/ord_nope/fulfillments', {
        lines: [{ order_line_id: lineId, quantity: 1 }],
      }),
      404,
      'not_found',
    );
    expect(
      expectStatus(await a.get(`/v1/admin/orders/${order.id}`), 200).body.lines[0].fulfilled_quantity,
    ).toBe(1);
  });

  test('a refund without restock moves money only (issue 35): 3 paid, 1 shipped, 1 refunded → the 2 unshipped units still ship, then completed with nothing reserved', async () => {
    const a = api();
    const item = await createProduct(a, { price: 1000, on_hand: 10 });
    const order = await payOrder(a, await placeOrder(a, [{ variant_id: item.variant_id, quantity: 3 }]));
    const lineId = order.lines[0].id;
    const first = expectStatus(
      await a.post(`/v1/admin/orders/${order.id}/fulfillments`, {
        lines: [{ order_line_id: lineId, quantity: 1 }],
      }),
      200,
    ).body;
    expectStatus(await a.post(`/v1/admin/fulfillments/${first.id}/ship`), 200);
    expectStatus(
      await a.post(`/v1/admin/orders/${order.id}/refunds`, {
        lines: [{ order_line_id: lineId, quantity: 1 }],
        restock: false,
      }),
      200,
    );
    expect(await inventoryOf(a, item.inventory_id)).toMatchObject({ on_hand: 9, reserved: 2 });
    expectError(
      await a.post(`/v1/admin/orders/${order.id}/fulfillments`, {
        lines: [{ order_line_id: lineId, quantity: 3 }],
      }),
      422,
      'fulfillment_exceeds_unfulfilled',
      'lines[0][quantity]',
    );
    const rest = expectStatus(
      await a.post(`/v1/admin/orders/${order.id}/fulfillments`, {
        lines: [{ order_line_id: lineId, quantity: 2 }],
      }),
      200,
    ).body;
    expect((await orderOf(a, order.id)).status).toBe('processing');
    expectStatus(await a.post(`/v1/admin/fulfillments/${rest.id}/ship`), 200);
    expect(await orderOf(a, order.id)).toMatchObject({
      status: 'completed',
      fulfillment_status: 'fulfilled',
      payment_status: 'partially_refunded',
    });
    expect(await inventoryOf(a, item.inventory_id)).toMatchObject({ on_hand: 7, reserved: 0, available: 7 });
  });

  test('units cancelled by a restocking refund cannot be fulfilled: 3 ordered, 1 restocked before shipping → 2 left to fulfil', async () => {
    const a = api();
    const item = await createProduct(a, { price: 1000 });
    const order = await payOrder(a, await placeOrder(a, [{ variant_id: item.variant_id, quantity: 3 }]));
    const lineId = order.lines[0].id;
    expectStatus(
      await a.post(`/v1/admin/orders/${order.id}/refunds`, {
        lines: [{ order_line_id: lineId, quantity: 1 }],
        restock: true,
      }),
      200,
    );
    expectError(
      await a.post(`/v1/admin/orders/${order.id}/fulfillments`, {
        lines: [{ order_line_id: lineId, quantity: 3 }],
      }),
      422,
      'fulfillment_exceeds_unfulfilled',
    );
    expectStatus(
      await a.post(`/v1/admin/orders/${order.id}/fulfillments`, {
        lines: [{ order_line_id: lineId, quantity: 2 }],
      }),
      200,
    );
  });

  test('drafts, completed and cancelled orders take no fulfillment (409 invalid_state_transition)', async () => {
    const a = api();
    const item = await createProduct(a);
    const draft = expectStatus(await adminOrder(a, [{ variant_id: item.variant_id }]), 201).body;
    expectError(
      await a.post(`/v1/admin/orders/${draft.id}/fulfillments`, {
        lines: [{ order_line_id: draft.lines[0].id, quantity: 1 }],
      }),
      409,
      'invalid_state_transition',
    );
    const cancelled = await placeOrder(a, [{ variant_id: item.variant_id }]);
    expectStatus(await a.post(`/v1/admin/orders/${cancelled.id}/cancel`), 200);
    expectError(
      await a.post(`/v1/admin/orders/${cancelled.id}/fulfillments`, {
        lines: [{ order_line_id: cancelled.lines[0].id, quantity: 1 }],
      }),
      409,
      'invalid_state_transition',
    );
  });

  test('fulfillment moves follow pending → shipped → delivered; anything else is 409', async () => {
    const a = api();
    const item = await createProduct(a, { on_hand: 5 });
    const order = await placeOrder(a, [{ variant_id: item.variant_id, quantity: 2 }]);
    const f = expectStatus(
      await a.post(`/v1/admin/orders/${order.id}/fulfillments`, {
        lines: [{ order_line_id: order.lines[0].id, quantity: 2 }],
      }),
      200,
    ).body;
    expectError(await a.post(`/v1/admin/fulfillments/${f.id}/deliver`), 409, 'invalid_state_transition');
    expectStatus(await a.post(`/v1/admin/fulfillments/${f.id}/ship`), 200);
    expectError(await a.post(`/v1/admin/fulfillments/${f.id}/ship`), 409, 'invalid_state_transition');
    // Shipping twice did not move stock twice.
    expect(await inventoryOf(a, item.inventory_id)).toMatchObject({ on_hand: 3, reserved: 0 });
    expectStatus(await a.post(`/v1/admin/fulfillments/${f.id}/deliver`), 200);
    expectError(await a.post(`/v1/admin/fulfillments/${f.id}/deliver`), 409, 'invalid_state_transition');
    expectError(await a.post('/v1/admin/fulfillments/ful_nope/ship'), 404, 'not_found');
    expectError(await a.post('/v1/admin/fulfillments/ful_nope/deliver'), 404, 'not_found');
    expectError(
      await a.post(`/v1/admin/fulfillments/${f.id}/ship`, undefined, { key: a.keys.liveSecret }),
      404,
      'not_found',
    );
  });

  test('ship writes the tracking it is given; actions without input refuse unknown fields (400 parameter_unknown) and change nothing', async () => {
    const a = api();
    const item = await createProduct(a, { on_hand: 5 });
    const order = await placeOrder(a, [{ variant_id: item.variant_id, quantity: 1 }]);
    const f = expectStatus(
      await a.post(`/v1/admin/orders/${order.id}/fulfillments`, {
        lines: [{ order_line_id: order.lines[0].id, quantity: 1 }],
        carrier: 'UPS',
      }),
      200,
    ).body;
    expectError(
      await a.post(`/v1/admin/fulfillments/${f.id}/ship`, { tracking: 'X' }),
      400,
      'parameter_unknown',
      'tracking',
    );
    expect(expectStatus(await a.get(`/v1/admin/orders/${order.id}`), 200).body.fulfillments[0].status).toBe(
      'pending',
    );
    const shipped = expectStatus(
      await a.post(`/v1/admin/fulfillments/${f.id}/ship`, {
        tracking_number: '1Z999AA10123456784',
        tracking_url: 'https://ups.example.com/1Z999AA10123456784',
      }),
      200,
    ).body;
    expect(shipped).toMatchObject({
      status: 'shipped',
      carrier: 'UPS',
      tracking_number: '1Z999AA10123456784',
      tracking_url: 'https://ups.example.com/1Z999AA10123456784',
    });
    expectError(
      await a.post(`/v1/admin/fulfillments/${f.id}/deliver`, { foo: 1 }),
      400,
      'parameter_unknown',
      'foo',
    );
    expectStatus(await a.post(`/v1/admin/fulfillments/${f.id}/deliver`, {}), 200);
    expectError(
      await a.post(`/v1/admin/orders/${order.id}/confirm`, { foo: 1 }),
      400,
      'parameter_unknown',
      'foo',
    );
    expectError(
      await a.post(`/v1/admin/payments/${order.payments[0].id}/complete`, { foo: 1 }),
      400,
      'parameter_unknown',
      'foo',
    );
    const after = expectStatus(await a.get(`/v1/admin/orders/${order.id}`), 200).body;
    expect(after).toMatchObject({ status: 'pending', payment_status: 'unpaid' });
  });

  test('PATCH /v1/admin/fulfillments/{id} updates tracking (null clears) and replaces metadata', async () => {
    const a = api();
    const item = await createProduct(a);
    const order = await placeOrder(a, [{ variant_id: item.variant_id }]);
    const f = expectStatus(
      await a.post(`/v1/admin/orders/${order.id}/fulfillments`, {
        lines: [{ order_line_id: order.lines[0].id, quantity: 1 }],
        carrier: 'DHL',
        metadata: { a: 1 },
      }),
      200,
    ).body;
    const updated = expectStatus(
      await a.patch(`/v1/admin/fulfillments/${f.id}`, {
        tracking_number: 'JD014600006281',
        tracking_url: 'https://dhl.example.com/JD014600006281',
        metadata: { b: 2 },
      }),
      200,
    ).body;
    expect(updated).toMatchObject({
      carrier: 'DHL',
      tracking_number: 'JD014600006281',
      tracking_url: 'https://dhl.example.com/JD014600006281',
      metadata: { b: 2 },
      status: 'pending',
    });
    const cleared = expectStatus(
      await a.patch(`/v1/admin/fulfillments/${f.id}`, { carrier: null }),
      200,
    ).body;
    expect(cleared.carrier).toBeNull();
    expectError(
      await a.patch(`/v1/admin/fulfillments/${f.id}`, { status: 'shipped' }),
      400,
      'parameter_unknown',
    );
    expectError(await a.patch('/v1/admin/fulfillments/ful_nope', { carrier: 'x' }), 404, 'not_found');
    const order2 = expectStatus(await a.get(`/v1/admin/orders/${order.id}`), 200).body;
    expect(order2.fulfillments[0].tracking_number).toBe('JD014600006281');
  });
});
