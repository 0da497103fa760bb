import { ORDER_ADMIN_ACTIONS } from '@cartwright/core/internal';
import type { OrderStatus } from '@cartwright/core/storage';
import { expect, test } from 'vitest';
import type { TestApi } from './support/harness';
import { describeApi } from './support/harness';
import {
  adminOrder,
  createProduct,
  expectError,
  expectStatus,
  fulfill,
  inventoryOf,
  orderOf,
  payCash,
  placeOrder,
  recordEvents,
  refundRestock,
  ship,
} from './support/order-fixtures';

const ALL_STATES: OrderStatus[] = ['draft', 'pending', 'confirmed', 'processing', 'completed', 'cancelled'];

/** Puts a fresh order into `state` through the admin API and returns its id. */
async function orderIn(a: TestApi, variantId: string, state: OrderStatus): Promise<string> {
  const initial = state === 'draft' || state === 'cancelled' ? 'draft' : 'pending';
  const id = expectStatus(await adminOrder(a, [{ variant_id: variantId }], { status: initial }), 201).body
    .id as string;
  const steps: Record<OrderStatus, string[]> = {
    draft: [],
    pending: [],
    confirmed: ['confirm'],
    processing: ['confirm', 'process'],
    completed: ['confirm', 'process', 'complete'],
    cancelled: ['cancel'],
  };
  for (const step of steps[state]) expectStatus(await a.post(`/v1/admin/orders/${id}/${step}`, {}), 200);
  expect((await orderOf(a, id)).status).toBe(state);
  return id;
}

/** Performs an action's request (`'POST /v1/admin/orders/{id}/confirm'`, optionally followed by a JSON body). */
function perform(a: TestApi, request: string, id: string) {
  const [method = 'POST', path = '', ...body] = request.split(' ');
  const json = body.length > 0 ? JSON.parse(body.join(' ')) : {};
  return a.request(method, path.replace('{id}', id), { body: json });
}

describeApi('order life cycle', (api) => {
  test('every admin action in every order state: exactly the moves of decisions §13 succeed, the rest are 409', async () => {
    const a = api();
    const item = await createProduct(a, { price: 1000, on_hand: 1000 });
    const outcomes: string[] = [];
    const expected: string[] = [];
    for (const state of ALL_STATES) {
      for (const action of ORDER_ADMIN_ACTIONS) {
        const id = await orderIn(a, item.variant_id, state);
        const res = await perform(a, action.request, id);
        const allowed = action.from.includes(state);
        expected.push(`${action.action} from ${state}: ${allowed ? 200 : 409}`);
        outcomes.push(`${action.action} from ${state}: ${res.status}`);
        const after = await orderOf(a, id);
        if (res.status === 200) {
          expect(res.body.status).toBe(action.to);
          expect(after.status).toBe(action.to);
        } else {
          expectError(res, 409, 'invalid_state_transition');
          expect(after.status).toBe(state);
        }
      }
    }
    expect(outcomes).toEqual(expected);
    // The table is not trivial: 6 states × 5 actions, and exactly these 8 moves are allowed.
    expect(expected.filter((line) => line.endsWith('200'))).toEqual([
      'finalize from draft: 200',
      'cancel from draft: 200',
      'confirm from pending: 200',
      'cancel from pending: 200',
      'process from confirmed: 200',
      'cancel from confirmed: 200',
      'complete from processing: 200',
      'cancel from processing: 200',
    ]);
  });

  test('a processing order cannot be cancelled once units have shipped (409); before that it can', async () => {
    const a = api();
    const item = await createProduct(a, { on_hand: 10 });
    const order = expectStatus(
      await adminOrder(a, [{ variant_id: item.variant_id, quantity: 2 }], { status: 'pending' }),
      201,
    ).body;
    expectStatus(await a.post(`/v1/admin/orders/${order.id}/confirm`), 200);
    const f = await fulfill(a, order, 1);
    expect((await orderOf(a, order.id)).status).toBe('processing');
    await ship(a, f.id);
    expectError(
      await a.post(`/v1/admin/orders/${order.id}/cancel`, { reason: 'too late' }),
      409,
      'invalid_state_transition',
    );
    expect(await inventoryOf(a, item.inventory_id)).toMatchObject({ on_hand: 9, reserved: 1 });
  });

  test('cancelling releases the reservations of unshipped units, cancels pending fulfillments and payments', async () => {
    const a = api();
    const item = await createProduct(a, { on_hand: 10 });
    const events = recordEvents(a);
    try {
      const order = await placeOrder(a, [{ variant_id: item.variant_id, quantity: 3 }]);
      expect(await inventoryOf(a, item.inventory_id)).toMatchObject({ reserved: 3, available: 7 });
      const f = await fulfill(a, order, 2);
      const cancelled = expectStatus(
        await a.post(`/v1/admin/orders/${order.id}/cancel`, { reason: 'customer asked' }),
        200,
      ).body;
      expect(cancelled).toMatchObject({
        status: 'cancelled',
        fulfillment_status: 'unfulfilled',
        payment_status: 'unpaid',
      });
      expect(cancelled.cancelled_at).not.toBeNull();
      expect(cancelled.fulfillments[0]).toMatchObject({ id: f.id, status: 'cancelled' });
      expect(cancelled.payments[0].status).toBe('cancelled');
      expect(cancelled.lines[0].fulfilled_quantity).toBe(0);
      expect(await inventoryOf(a, item.inventory_id)).toMatchObject({
        on_hand: 10,
        reserved: 0,
        available: 10,
      });
      expect(events.typesFor(order.id)).toContain('order.cancelled');

      // Nothing more happens to a cancelled order.
      expectError(await a.post(`/v1/admin/fulfillments/${f.id}/ship`), 409, 'invalid_state_transition');
      expectError(
        await a.post(`/v1/admin/payments/${order.payments[0].id}/complete`),
        409,
        'invalid_state_transition',
      );
      expectError(await a.post(`/v1/admin/orders/${order.id}/cancel`), 409, 'invalid_state_transition');
      expect(await inventoryOf(a, item.inventory_id)).toMatchObject({ reserved: 0 });
    } finally {
      events.stop();
    }
  });

  test('a draft reserves nothing, so cancelling it releases nothing', async () => {
    const a = api();
    const item = await createProduct(a, { on_hand: 10 });
    const pending = await placeOrder(a, [{ variant_id: item.variant_id, quantity: 2 }]);
    const draft = expectStatus(await adminOrder(a, [{ variant_id: item.variant_id, quantity: 4 }]), 201).body;
    expectStatus(await a.post(`/v1/admin/orders/${draft.id}/cancel`), 200);
    expect(await inventoryOf(a, item.inventory_id)).toMatchObject({ reserved: 2 });
    expect(pending.status).toBe('pending');
  });

  test('manual payments: 600 of 1000 → partially_paid and still pending; the other 400 → paid and confirmed', async () => {
    const a = api();
    const item = await createProduct(a, { price: 1000 });
    const events = recordEvents(a);
    try {
      const order = expectStatus(
        await adminOrder(a, [{ variant_id: item.variant_id }], { status: 'pending' }),
        201,
      ).body;
      const first = expectStatus(
        await a.post(`/v1/admin/orders/${order.id}/payments`, {
          amount: 600,
          provider: 'cash',
          note: 'deposit',
          metadata: { till: 3 },
        }),
        200,
      ).body;
      expect(first).toMatchObject({
        order_id: order.id,
        provider: 'cash',
        provider_id: null,
        status: 'completed',
        amount: { amount: 600, currency: 'USD' },
        note: 'deposit',
        metadata: { till: 3 },
      });
      expect(await orderOf(a, order.id)).toMatchObject({
        status: 'pending',
        payment_status: 'partially_paid',
      });
      expectStatus(
        await a.post(`/v1/admin/orders/${order.id}/payments`, {
          amount: { amount: 400, currency: 'usd' },
          provider: 'bank_transfer',
        }),
        200,
      );
      const paid = await orderOf(a, order.id);
      expect(paid).toMatchObject({ status: 'confirmed', payment_status: 'paid' });
      expect(paid.payments.map((p: { provider: string }) => p.provider)).toEqual(['cash', 'bank_transfer']);
      expect(events.typesFor(order.id)).toEqual([
        'order.created',
        'payment.created',
        'payment.completed',
        'payment.created',
        'payment.completed',
        'order.confirmed',
      ]);
    } finally {
      events.stop();
    }
  });

  test('manual payment errors: currency_mismatch 422, bad amount 400, draft or cancelled order 409, unknown order 404', async () => {
    const a = api();
    const item = await createProduct(a, { price: 1000 });
    const order = await placeOrder(a, [{ variant_id: item.variant_id }]);
    expectError(
      await a.post(`/v1/admin/orders/${order.id}/payments`, {
        amount: { amount: 100, currency: 'EUR' },
        provider: 'cash',
      }),
      422,
      'currency_mismatch',
      'amount',
    );
    expectError(
      await a.post(`/v1/admin/orders/${order.id}/payments`, { amount: 0, provider: 'cash' }),
      400,
      'parameter_invalid',
      'amount',
    );
    expectError(
      await a.post(`/v1/admin/orders/${order.id}/payments`, { amount: 100 }),
      400,
      'parameter_missing',
      'provider',
    );
    expectError(
      await a.post('/v1/admin/orders/ord_nope/payments', { amount: 100, provider: 'cash' }),
      404,
      'not_found',
    );
    const draft = expectStatus(await adminOrder(a, [{ variant_id: item.variant_id }]), 201).body;
    expectError(
      await a.post(`/v1/admin/orders/${draft.id}/payments`, { amount: 100, provider: 'cash' }),
      409,
      'invalid_state_transition',
    );
    expectStatus(await a.post(`/v1/admin/orders/${order.id}/cancel`), 200);
    expectError(
      await a.post(`/v1/admin/orders/${order.id}/payments`, { amount: 100, provider: 'cash' }),
      409,
      'invalid_state_transition',
    );
  });

  test('completing a pending payment: once 200 (paid, confirmed), twice 409, unknown 404, other mode 404', async () => {
    const a = api();
    const item = await createProduct(a, { price: 800 });
    const order = await placeOrder(a, [{ variant_id: item.variant_id }]);
    const paymentId = order.payments[0].id;
    expectError(
      await a.post(`/v1/admin/payments/${paymentId}/complete`, undefined, { key: a.keys.liveSecret }),
      404,
      'not_found',
    );
    const payment = expectStatus(await a.post(`/v1/admin/payments/${paymentId}/complete`), 200).body;
    expect(payment).toMatchObject({ id: paymentId, status: 'completed', amount: { amount: 800 } });
    expect(await orderOf(a, order.id)).toMatchObject({
      status: 'confirmed',
      payment_status: 'paid',
    });
    expectError(await a.post(`/v1/admin/payments/${paymentId}/complete`), 409, 'invalid_state_transition');
    expectError(await a.post('/v1/admin/payments/pay_nope/complete'), 404, 'not_found');
  });

  test('automatic moves chain: shipped while unpaid stays pending, then payment in full completes it', async () => {
    const a = api();
    const item = await createProduct(a, { price: 300 });
    const events = recordEvents(a);
    try {
      const order = await placeOrder(a, [{ variant_id: item.variant_id, quantity: 2 }]);
      const f = await fulfill(a, order, 2);
      await ship(a, f.id);
      expect(await orderOf(a, order.id)).toMatchObject({
        status: 'pending',
        fulfillment_status: 'fulfilled',
        payment_status: 'unpaid',
      });
      expectStatus(await a.post(`/v1/admin/payments/${order.payments[0].id}/complete`), 200);
      const done = await orderOf(a, order.id);
      expect(done).toMatchObject({
        status: 'completed',
        payment_status: 'paid',
        fulfillment_status: 'fulfilled',
      });
      expect(done.completed_at).not.toBeNull();
      expect(events.typesFor(order.id).filter((t) => t.startsWith('order.'))).toEqual([
        'order.created',
        'order.confirmed',
        'order.completed',
      ]);
    } finally {
      events.stop();
    }
  });

  test('confirmed unpaid, fully shipped → processing (not completed) until paid', async () => {
    const a = api();
    const item = await createProduct(a, { price: 300 });
    const order = await placeOrder(a, [{ variant_id: item.variant_id }]);
    expectStatus(await a.post(`/v1/admin/orders/${order.id}/confirm`), 200);
    const f = await fulfill(a, order, 1);
    await ship(a, f.id);
    expect(await orderOf(a, order.id)).toMatchObject({
      status: 'processing',
      fulfillment_status: 'fulfilled',
    });
    await payCash(a, order.id, 300);
    expect((await orderOf(a, order.id)).status).toBe('completed');
  });

  test('paid and fully fulfilled but unshipped → processing; completes (order.completed) when the last fulfillment ships, then delivered stays completed', async () => {
    const a = api();
    const item = await createProduct(a, { price: 300 });
    const events = recordEvents(a);
    try {
      const order = await placeOrder(a, [{ variant_id: item.variant_id, quantity: 2 }]);
      await payCash(a, order.id, 600);
      const first = await fulfill(a, order, 1);
      const second = await fulfill(a, order, 1);
      expect(await orderOf(a, order.id)).toMatchObject({
        status: 'processing',
        fulfillment_status: 'fulfilled',
        payment_status: 'paid',
        completed_at: null,
      });
      await ship(a, first.id);
      expectStatus(await a.post(`/v1/admin/fulfillments/${first.id}/deliver`), 200);
      expect((await orderOf(a, order.id)).status).toBe('processing');
      await ship(a, second.id);
      const done = await orderOf(a, order.id);
      expect(done.status).toBe('completed');
      expect(done.completed_at).not.toBeNull();
      expectStatus(await a.post(`/v1/admin/fulfillments/${second.id}/deliver`), 200);
      expect((await orderOf(a, order.id)).status).toBe('completed');
      expect(events.typesFor(order.id).filter((t) => t.startsWith('order.'))).toEqual([
        'order.created',
        'order.confirmed',
        'order.completed',
      ]);
    } finally {
      events.stop();
    }
  });

  test('units refunded need not ship: 2 ordered and paid, 1 refunded with restock, 1 shipped → completed', async () => {
    const a = api();
    const item = await createProduct(a, { price: 300 });
    const order = await placeOrder(a, [{ variant_id: item.variant_id, quantity: 2 }]);
    await payCash(a, order.id, 600);
    await refundRestock(a, order, 1);
    const f = await fulfill(a, order, 1);
    expect((await orderOf(a, order.id)).status).toBe('processing');
    await ship(a, f.id);
    expect(await orderOf(a, order.id)).toMatchObject({
      status: 'completed',
      payment_status: 'partially_refunded',
    });
  });

  test('an order whose total is 0 is paid at once: created pending, it is confirmed', async () => {
    const a = api();
    const freebie = await createProduct(a, { price: 0 });
    const order = expectStatus(
      await adminOrder(a, [{ variant_id: freebie.variant_id }], { status: 'pending' }),
      201,
    ).body;
    expect(order).toMatchObject({
      status: 'confirmed',
      payment_status: 'paid',
      total: { amount: 0 },
      payments: [],
    });
  });
});
