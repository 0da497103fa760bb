import { beforeAll, expect, test } from 'vitest';
import type { TestApi } from './support/harness';
import { describeApi } from './support/harness';
import {
  checkout,
  createCart,
  createCustomer,
  createProduct,
  expectError,
  expectStatus,
  inventoryOf,
  payOrder,
  placeOrder,
  recordEvents,
  unique,
} from './support/order-fixtures';

/** A paid order for `lines` with a percentage code discount, bought by a customer. */
async function paidDiscountedOrder(
  a: TestApi,
  lines: Array<{ variant_id: string; quantity: number }>,
  percent: number,
) {
  const code = unique('OFF').toUpperCase();
  expectStatus(
    await a.post('/v1/admin/discounts', {
      name: `${percent}% off`,
      code,
      type: 'code',
      value_type: 'percentage',
      value: percent,
    }),
    200,
  );
  const customer = await createCustomer(a);
  const cart = await createCart(a, lines, { customerToken: customer.token });
  expectStatus(
    await a.storefront.post(
      `/v1/storefront/carts/${cart.id}/discounts`,
      { code },
      { customerToken: customer.token },
    ),
    200,
  );
  const order = expectStatus(
    await checkout(a, cart.id, { payment_provider: 'manual' }, { customerToken: customer.token }),
    201,
  ).body;
  return { order: await payOrder(a, order), customer };
}

function refund(a: TestApi, orderId: string, body: Record<string, unknown>) {
  return a.post(`/v1/admin/orders/${orderId}/refunds`, body);
}

describeApi('refunds (tax 8.875 %, prices exclude tax)', (api) => {
  beforeAll(async () => {
    expectStatus(await api().patch('/v1/admin/store', { tax_rate: 8.875, prices_include_tax: false }), 200);
  });

  test('worked example: 3 × 1999 + 1 × 4500, 10 % off → lines 5397 + 479 tax and 4050 + 359 tax, total 10285', async () => {
    const a = api();
    const mug = await createProduct(a, { price: 1999 });
    const lamp = await createProduct(a, { price: 4500 });
    const { order } = await paidDiscountedOrder(
      a,
      [
        { variant_id: mug.variant_id, quantity: 3 },
        { variant_id: lamp.variant_id, quantity: 1 },
      ],
      10,
    );
    // subtotal 5997 + 4500 = 10497; 10 % = 1049.7 → 1050, split by largest remainder:
    // 1050 × 5997 / 10497 = 599.86 → 600, 1050 × 4500 / 10497 = 450.13 → 450.
    // Tax: 5397 × 8.875 % = 478.98 → 479; 4050 × 8.875 % = 359.44 → 359.
    expect(
      order.lines.map((l: Record<string, { amount: number }>) => [
        l.line_discount?.amount,
        l.line_total?.amount,
        l.tax_amount?.amount,
      ]),
    ).toEqual([
      [600, 5397, 479],
      [450, 4050, 359],
    ]);
    expect(order).toMatchObject({
      subtotal: { amount: 10497 },
      discount_total: { amount: 1050 },
      tax_total: { amount: 838 },
      total: { amount: 10285 },
      payment_status: 'paid',
    });
  });

  test('partial refunds of a discounted, taxed line: 1959 + 1958 + 1959 = 5876 (its 5397 + 479), then the lamp 4409 → refunded', async () => {
    const a = api();
    const mug = await createProduct(a, { price: 1999 });
    const lamp = await createProduct(a, { price: 4500 });
    const { order, customer } = await paidDiscountedOrder(
      a,
      [
        { variant_id: mug.variant_id, quantity: 3 },
        { variant_id: lamp.variant_id, quantity: 1 },
      ],
      10,
    );
    const [mugLine, lampLine] = order.lines;
    const one = { lines: [{ order_line_id: mugLine.id, quantity: 1 }] };

    // round(1 × 5876 / 3) = round(1958.67) = 1959
    expect(expectStatus(await refund(a, order.id, one), 200).body.amount).toEqual({
      amount: 1959,
      currency: 'USD',
    });
    let current = expectStatus(await a.get(`/v1/admin/orders/${order.id}`), 200).body;
    expect(current).toMatchObject({ payment_status: 'partially_refunded', refunded_total: { amount: 1959 } });
    // round(2 × 5876 / 3) − 1959 = 3917 − 1959 = 1958
    expect(expectStatus(await refund(a, order.id, one), 200).body.amount.amount).toBe(1958);
    // 5876 − 3917 = 1959: the three refunds of the line sum exactly to what it cost.
    expect(expectStatus(await refund(a, order.id, one), 200).body.amount.amount).toBe(1959);
    expectError(await refund(a, order.id, one), 422, 'quantity_exceeds_refundable', 'lines[0][quantity]');
    // 4050 + 359 = 4409
    expect(
      expectStatus(await refund(a, order.id, { lines: [{ order_line_id: lampLine.id, quantity: 1 }] }), 200)
        .body.amount.amount,
    ).toBe(4409);

    current = expectStatus(await a.get(`/v1/admin/orders/${order.id}`), 200).body;
    expect(current).toMatchObject({ payment_status: 'refunded', refunded_total: { amount: 10285 } });
    expect(current.lines.map((l: { refunded_quantity: number }) => l.refunded_quantity)).toEqual([3, 1]);
    expect(current.payments[0].status).toBe('refunded');
    expectError(await refund(a, order.id, { amount: 1 }), 422, 'refund_exceeds_refundable', 'amount');

    // The list: newest first, paged like every list (docs/contract.md#lists).
    const amounts = (page: { data: { amount: { amount: number } }[] }) =>
      page.data.map((r) => r.amount.amount);
    const list = expectStatus(await a.get(`/v1/admin/orders/${order.id}/refunds`), 200).body;
    expect(amounts(list)).toEqual([4409, 1959, 1958, 1959]);
    expect(list).toMatchObject({ total_count: 4, has_more: false, next_cursor: null });
    expect(list.data).toEqual([...current.refunds].reverse());
    const first = expectStatus(await a.get(`/v1/admin/orders/${order.id}/refunds?limit=3`), 200).body;
    expect(amounts(first)).toEqual([4409, 1959, 1958]);
    expect(first).toMatchObject({ total_count: 4, has_more: true, next_cursor: first.data[2].id });
    const second = expectStatus(
      await a.get(`/v1/admin/orders/${order.id}/refunds?limit=3&starting_after=${first.next_cursor}`),
      200,
    ).body;
    expect(second).toMatchObject({
      data: [list.data[3]],
      total_count: 4,
      has_more: false,
      next_cursor: null,
    });
    const oldest = expectStatus(await a.get(`/v1/admin/orders/${order.id}/refunds?order=asc`), 200).body;
    expect(oldest.data).toEqual(current.refunds);
    expectError(
      await a.get(`/v1/admin/orders/${order.id}/refunds?limit=0`),
      400,
      'parameter_invalid',
      'limit',
    );
    expectError(
      await a.get(`/v1/admin/orders/${order.id}/refunds?starting_after=ref_unknown`),
      400,
      'parameter_invalid',
      'starting_after',
    );

    // The customer's totals follow: everything paid was refunded.
    const who = expectStatus(await a.get(`/v1/admin/customers/${customer.id}`), 200).body;
    expect(who).toMatchObject({ total_orders: 1, total_spent: { amount: 0 } });
  });

  test('an explicit amount overrides the default, with or without lines, and never exceeds what is refundable', async () => {
    const a = api();
    const item = await createProduct(a, { price: 1000 });
    const { order, customer } = await paidDiscountedOrder(
      a,
      [{ variant_id: item.variant_id, quantity: 2 }],
      50,
    );
    // 2000 − 50 % = 1000; tax round(1000 × 8.875 %) = round(88.75) = 89; total 1089.
    expect(order.total.amount).toBe(1089);
    const lineId = order.lines[0].id;

    const res = await refund(a, order.id, { amount: 1090 });
    expectError(res, 422, 'refund_exceeds_refundable', 'amount');
    expect(
      expectStatus(await refund(a, order.id, { amount: 300, reason: 'goodwill' }), 200).body,
    ).toMatchObject({
      amount: { amount: 300 },
      lines: [],
      reason: 'goodwill',
      restock: false,
      status: 'completed',
    });
    expect(
      expectStatus(
        await refund(a, order.id, { amount: 100, lines: [{ order_line_id: lineId, quantity: 1 }] }),
        200,
      ).body,
    ).toMatchObject({ amount: { amount: 100 }, lines: [{ order_line_id: lineId, quantity: 1 }] });
    // Left: 1089 − 400 = 689; the default for the last unit would be 1089 − round(1089 / 2) = 544.
    expect(
      expectStatus(await refund(a, order.id, { lines: [{ order_line_id: lineId, quantity: 1 }] }), 200).body
        .amount.amount,
    ).toBe(544);
    expectError(await refund(a, order.id, { amount: 146 }), 422, 'refund_exceeds_refundable', 'amount');
    expectStatus(await refund(a, order.id, { amount: 145 }), 200);
    const done = expectStatus(await a.get(`/v1/admin/orders/${order.id}`), 200).body;
    expect(done).toMatchObject({ payment_status: 'refunded', refunded_total: { amount: 1089 } });
    const who = expectStatus(await a.get(`/v1/admin/customers/${customer.id}`), 200).body;
    expect(who.total_spent.amount).toBe(0);
  });

  test('errors: nothing to refund 400, unknown line 404, currency mismatch 422, unpaid order 422, unknown order 404', async () => {
    const a = api();
    const item = await createProduct(a, { price: 1000 });
    const unpaid = await placeOrder(a, [{ variant_id: item.variant_id }]);
    const lineId = unpaid.lines[0].id;
    expectError(await refund(a, unpaid.id, {}), 400, 'parameter_missing', 'amount');
    expectError(
      await refund(a, unpaid.id, { lines: [{ order_line_id: 'line_nope', quantity: 1 }] }),
      404,
      'not_found',
      'lines[0][order_line_id]',
    );
    expectError(await refund(a, unpaid.id, { amount: 0 }), 400, 'parameter_invalid', 'amount');
    expectError(
      await refund(a, unpaid.id, { amount: { amount: 100, currency: 'GBP' } }),
      422,
      'currency_mismatch',
      'amount',
    );
    expectError(
      await refund(a, unpaid.id, { lines: [{ order_line_id: lineId, quantity: 1 }] }),
      422,
      'refund_exceeds_refundable',
    );
    expectError(
      await refund(a, unpaid.id, { lines: [{ order_line_id: lineId, quantity: 2 }] }),
      422,
      'quantity_exceeds_refundable',
      'lines[0][quantity]',
    );
    expectError(await refund(a, 'ord_nope', { amount: 1 }), 404, 'not_found');
    expectError(await a.get('/v1/admin/orders/ord_nope/refunds'), 404, 'not_found');
    expect(expectStatus(await a.get(`/v1/admin/orders/${unpaid.id}/refunds`), 200).body.data).toEqual([]);
  });

  test('restock: unshipped units leave reserved, shipped units return to on_hand, and the order is returned', async () => {
    const a = api();
    const item = await createProduct(a, { price: 1000, on_hand: 10 });
    const events = recordEvents(a);
    try {
      const order = await payOrder(a, await placeOrder(a, [{ variant_id: item.variant_id, quantity: 3 }]));
      const lineId = order.lines[0].id;
      const f = expectStatus(
        await a.post(`/v1/admin/orders/${order.id}/fulfillments`, {
          lines: [{ order_line_id: lineId, quantity: 2 }],
        }),
        200,
      ).body;
      expectStatus(await a.post(`/v1/admin/fulfillments/${f.id}/ship`), 200);
      expect(await inventoryOf(a, item.inventory_id)).toMatchObject({ on_hand: 8, reserved: 1 });

      // 1 unit: the unfulfilled one first → leaves reserved.
      expectStatus(
        await refund(a, order.id, { lines: [{ order_line_id: lineId, quantity: 1 }], restock: true }),
        200,
      );
      expect(await inventoryOf(a, item.inventory_id)).toMatchObject({
        on_hand: 8,
        reserved: 0,
        available: 8,
      });
      // The cancelled unit no longer has to ship: the 2 shipped are all → fulfilled, completed.
      let current = expectStatus(await a.get(`/v1/admin/orders/${order.id}`), 200).body;
      expect(current).toMatchObject({ fulfillment_status: 'fulfilled', status: 'completed' });

      // 2 more: shipped units → back to on_hand; every fulfilled unit came back → returned.
      const r = expectStatus(
        await refund(a, order.id, { lines: [{ order_line_id: lineId, quantity: 2 }], restock: true }),
        200,
      ).body;
      // 3 × 1000 + round(266.25) tax = 3266; after round(3266 / 3) = 1089, the other two units are 3266 − 1089 = 2177.
      expect(r).toMatchObject({ restock: true, amount: { amount: 2177 } });
      expect(await inventoryOf(a, item.inventory_id)).toMatchObject({
        on_hand: 10,
        reserved: 0,
        available: 10,
      });
      current = expectStatus(await a.get(`/v1/admin/orders/${order.id}`), 200).body;
      expect(current).toMatchObject({ fulfillment_status: 'returned', payment_status: 'refunded' });
      expect(current.lines[0]).toMatchObject({ quantity: 3, fulfilled_quantity: 2, refunded_quantity: 3 });
      expect(
        events.seen.filter((e) => e.type === 'payment.refunded' && e.data.order_id === order.id),
      ).toHaveLength(2);
    } finally {
      events.stop();
    }
  });

  test('restock out of an unshipped fulfillment: 3 ordered, all 3 in a pending fulfillment, restock 2 → reserved −2 and the fulfillment keeps 1; shipping it moves 1; another order’s reservation stays intact', async () => {
    const a = api();
    const item = await createProduct(a, { price: 1000, on_hand: 10 });
    const events = recordEvents(a);
    try {
      const other = await placeOrder(a, [{ variant_id: item.variant_id, quantity: 2 }]);
      const order = await payOrder(a, await placeOrder(a, [{ variant_id: item.variant_id, quantity: 3 }]));
      const lineId = order.lines[0].id;
      expect(await inventoryOf(a, item.inventory_id)).toMatchObject({
        on_hand: 10,
        reserved: 5,
        available: 5,
      });
      const f = expectStatus(
        await a.post(`/v1/admin/orders/${order.id}/fulfillments`, {
          lines: [{ order_line_id: lineId, quantity: 3 }],
        }),
        200,
      ).body;

      expectStatus(
        await refund(a, order.id, { lines: [{ order_line_id: lineId, quantity: 2 }], restock: true }),
        200,
      );
      // The 2 units leave reserved (5 − 2) and the fulfillment.
      expect(await inventoryOf(a, item.inventory_id)).toMatchObject({
        on_hand: 10,
        reserved: 3,
        available: 7,
      });
      let current = expectStatus(await a.get(`/v1/admin/orders/${order.id}`), 200).body;
      expect(current.lines[0]).toMatchObject({
        quantity: 3,
        fulfilled_quantity: 1,
        refunded_quantity: 2,
      });
      // 1 unit left to fulfil (2 cancelled), and it is in the fulfillment; not shipped yet.
      expect(current).toMatchObject({ fulfillment_status: 'fulfilled', status: 'processing' });
      expect(current.fulfillments).toHaveLength(1);
      expect(current.fulfillments[0]).toMatchObject({
        id: f.id,
        status: 'pending',
        lines: [{ order_line_id: lineId, quantity: 1 }],
      });
      // No event type exists for a fulfillment that shrank (docs/contract.md#webhooks).
      expect(events.typesFor(f.id)).toEqual(['fulfillment.created']);

      // Shipping moves only the unit left in it: on_hand −1, reserved −1.
      const shipped = expectStatus(await a.post(`/v1/admin/fulfillments/${f.id}/ship`), 200).body;
      expect(shipped).toMatchObject({ status: 'shipped', lines: [{ order_line_id: lineId, quantity: 1 }] });
      expect(await inventoryOf(a, item.inventory_id)).toMatchObject({
        on_hand: 9,
        reserved: 2,
        available: 7,
      });
      current = expectStatus(await a.get(`/v1/admin/orders/${order.id}`), 200).body;
      expect(current.lines[0]).toMatchObject({ fulfilled_quantity: 1, refunded_quantity: 2 });
      expect(current).toMatchObject({ fulfillment_status: 'fulfilled', status: 'completed' });

      // The other order still holds exactly its 2 units: cancelling it releases them, to 0.
      expectStatus(await a.post(`/v1/admin/orders/${other.id}/cancel`), 200);
      expect(await inventoryOf(a, item.inventory_id)).toMatchObject({
        on_hand: 9,
        reserved: 0,
        available: 9,
      });
      expect(events.typesFor(f.id)).toEqual(['fulfillment.created', 'fulfillment.shipped']);
    } finally {
      events.stop();
    }
  });

  test('restock empties the newest pending fulfillment first and cancels it; the older one ships its unit; the shipped unit comes back → returned', async () => {
    const a = api();
    const item = await createProduct(a, { price: 1000, on_hand: 10 });
    const order = await payOrder(a, await placeOrder(a, [{ variant_id: item.variant_id, quantity: 2 }]));
    const lineId = order.lines[0].id;
    const fulfil = async () =>
      expectStatus(
        await a.post(`/v1/admin/orders/${order.id}/fulfillments`, {
          lines: [{ order_line_id: lineId, quantity: 1 }],
        }),
        200,
      ).body;
    const older = await fulfil();
    const newer = await fulfil();

    expectStatus(
      await refund(a, order.id, { lines: [{ order_line_id: lineId, quantity: 1 }], restock: true }),
      200,
    );
    expect(await inventoryOf(a, item.inventory_id)).toMatchObject({ on_hand: 10, reserved: 1 });
    let current = expectStatus(await a.get(`/v1/admin/orders/${order.id}`), 200).body;
    const byId = new Map(current.fulfillments.map((x: { id: string }) => [x.id, x]));
    expect(byId.get(newer.id)).toMatchObject({ status: 'cancelled', lines: [] });
    expect(byId.get(older.id)).toMatchObject({
      status: 'pending',
      lines: [{ order_line_id: lineId, quantity: 1 }],
    });
    expect(current.lines[0]).toMatchObject({ fulfilled_quantity: 1, refunded_quantity: 1 });
    // 1 unit cancelled, 1 left to fulfil and in the older fulfillment.
    expect(current.fulfillment_status).toBe('fulfilled');

    expectError(await a.post(`/v1/admin/fulfillments/${newer.id}/ship`), 409, 'invalid_state_transition');
    expectStatus(await a.post(`/v1/admin/fulfillments/${older.id}/ship`), 200);
    expect(await inventoryOf(a, item.inventory_id)).toMatchObject({ on_hand: 9, reserved: 0 });

    // The last unit has shipped: restocking it brings it back to on_hand, and it is returned.
    expectStatus(
      await refund(a, order.id, { lines: [{ order_line_id: lineId, quantity: 1 }], restock: true }),
      200,
    );
    expect(await inventoryOf(a, item.inventory_id)).toMatchObject({
      on_hand: 10,
      reserved: 0,
      available: 10,
    });
    current = expectStatus(await a.get(`/v1/admin/orders/${order.id}`), 200).body;
    expect(current).toMatchObject({ fulfillment_status: 'returned', payment_status: 'refunded' });
    expect(current.lines[0]).toMatchObject({ fulfilled_quantity: 1, refunded_quantity: 2 });
  });

  test('without restock, inventory stays as it was; a cancelled paid order can still be refunded', async () => {
    const a = api();
    const item = await createProduct(a, { price: 1000, on_hand: 10 });
    const order = await payOrder(a, await placeOrder(a, [{ variant_id: item.variant_id, quantity: 2 }]));
    expectStatus(
      await refund(a, order.id, { lines: [{ order_line_id: order.lines[0].id, quantity: 1 }] }),
      200,
    );
    expect(await inventoryOf(a, item.inventory_id)).toMatchObject({ on_hand: 10, reserved: 2 });

    const cancelled = expectStatus(await a.post(`/v1/admin/orders/${order.id}/cancel`), 200).body;
    expect(cancelled.status).toBe('cancelled');
    expect(await inventoryOf(a, item.inventory_id)).toMatchObject({ on_hand: 10, reserved: 0 });
    // After cancelling, restocking moves nothing more (the reservation is gone already).
    expectStatus(
      await refund(a, order.id, {
        lines: [{ order_line_id: order.lines[0].id, quantity: 1 }],
        restock: true,
      }),
      200,
    );
    expect(await inventoryOf(a, item.inventory_id)).toMatchObject({ on_hand: 10, reserved: 0 });
    expect(expectStatus(await a.get(`/v1/admin/orders/${order.id}`), 200).body).toMatchObject({
      payment_status: 'refunded',
      refunded_total: { amount: 2178 },
    });
  });
});

describeApi('refunds (tax 8.875 %, prices include tax)', (api) => {
  beforeAll(async () => {
    expectStatus(await api().patch('/v1/admin/store', { tax_rate: 8.875, prices_include_tax: true }), 200);
  });

  test('worked example: 2 × 5000 with 15 % off → line 8500 containing 693 tax; one unit refunds 4250', async () => {
    const a = api();
    const item = await createProduct(a, { price: 5000 });
    const { order } = await paidDiscountedOrder(a, [{ variant_id: item.variant_id, quantity: 2 }], 15);
    // 10000 − 1500 = 8500; contained tax 8500 − round(8500 / 1.08875) = 8500 − 7807 = 693.
    expect(order.lines[0]).toMatchObject({
      line_discount: { amount: 1500 },
      line_total: { amount: 8500 },
      tax_amount: { amount: 693 },
    });
    expect(order).toMatchObject({ tax_total: { amount: 693 }, total: { amount: 8500 } });
    // Prices include tax: a unit costs 8500 / 2 = 4250, tax inside.
    const r = expectStatus(
      await refund(a, order.id, { lines: [{ order_line_id: order.lines[0].id, quantity: 1 }] }),
      200,
    ).body;
    expect(r.amount.amount).toBe(4250);
  });
});
