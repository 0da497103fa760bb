import { CommerceError } from '@cartwright/core';
import { afterEach, describe, expect, test } from 'vitest';
import { createTestEngine, type TestEngine, type TestEngineOptions } from './create-test-engine';

/**
 * Returns and exchanges (decisions §18) through the in-process engine (real SQLite storage):
 * the life cycle, returnable units, the storefront's window on the fake clock, and what
 * `complete` does in one transaction — restock by condition, the refund (amounts, the cap), the
 * `returned` fulfillment status.
 */

let t: TestEngine | undefined;
afterEach(async () => {
  await t?.close();
  t = undefined;
});

async function engine(options: TestEngineOptions = {}): Promise<TestEngine> {
  t = await createTestEngine(options);
  return t;
}

async function errorOf(promise: Promise<unknown>): Promise<CommerceError> {
  const error = await promise.then(
    () => null,
    (e: unknown) => e,
  );
  expect(CommerceError.is(error), String(error)).toBe(true);
  return error as CommerceError;
}

/** A customer's order of `quantity` units at `price`, paid with the fake card, `shipped` units shipped. */
async function shippedOrder(
  e: TestEngine,
  options: { quantity?: number; shipped?: number; price?: number } = {},
) {
  const quantity = options.quantity ?? 3;
  const { variant } = await e.fixtures.product({ price: options.price ?? 1000, on_hand: 10 });
  const customer = await e.fixtures.customer();
  const cart = await e.fixtures.cart([{ variant_id: variant.id, quantity }], { customer_id: customer.id });
  const order = await e.checkout(cart.id);
  const line = order.lines[0]!;
  const shipped = options.shipped ?? quantity;
  if (shipped > 0) {
    const f = await e.store.orders.fulfillments.create(order.id, {
      lines: [{ order_line_id: line.id, quantity: shipped }],
    });
    await e.store.orders.fulfillments.ship(f.id);
  }
  return { order, line, customer, variant, inventoryId: variant.inventory.id };
}

describe('the life cycle of a refund return (decisions §18)', () => {
  test('requested → approved → received → completed: refund of what was paid, restock by condition, events, returned status', async () => {
    const e = await engine({ store: { tax_rate: 10 } });
    const { order, line, customer, inventoryId } = await shippedOrder(e);
    expect(order.total.amount).toBe(3300); // 3 × 1000 + 10 % tax
    expect(await e.store.inventory.get(inventoryId)).toMatchObject({ on_hand: 7, reserved: 0 });
    expect((await e.store.orders.get(order.id)).lines[0]?.returnable_quantity).toBe(3);

    e.events.clear();
    const requested = await e.store.returns.createForCustomer(customer.id, order.id, {
      reason: 'Too small',
      reason_category: 'changed_mind',
      customer_notes: 'Sorry',
      lines: [{ order_line_id: line.id, quantity: 3, condition: 'unopened' }],
    });
    expect(requested).toMatchObject({
      status: 'requested',
      return_type: 'refund',
      order_id: order.id,
      customer_id: customer.id,
      approved_at: null,
      refund_id: null,
      lines: [
        { order_line_id: line.id, quantity: 3, condition: 'unopened', product_name: line.product_name },
      ],
    });
    expect(requested.id).toMatch(/^ret_/);
    expect(requested.lines[0]?.id).toMatch(/^retl_/);
    // Held by the open return: nothing left to return, on both doors.
    expect((await e.store.orders.get(order.id)).lines[0]?.returnable_quantity).toBe(0);
    expect((await e.store.orders.getForCustomer(customer.id, order.id)).lines[0]?.returnable_quantity).toBe(
      0,
    );

    const approved = await e.store.returns.approve(requested.id, { admin_notes: 'Send it back' });
    expect(approved).toMatchObject({ status: 'approved', admin_notes: 'Send it back' });
    expect(approved.approved_at).not.toBeNull();
    const received = await e.store.returns.receive(requested.id, {
      lines: [{ id: requested.lines[0]!.id, condition: 'opened' }],
    });
    expect(received).toMatchObject({ status: 'received', lines: [{ condition: 'opened' }] });
    // receive moves neither stock nor money.
    expect(await e.store.inventory.get(inventoryId)).toMatchObject({ on_hand: 7 });
    expect((await e.store.orders.get(order.id)).refunded_total.amount).toBe(0);

    const completed = await e.store.returns.complete(requested.id);
    expect(completed.status).toBe('completed');
    expect(completed.completed_at).not.toBeNull();
    expect(completed.refund_id).toMatch(/^ref_/);
    const after = await e.store.orders.get(order.id);
    expect(after.refunds).toHaveLength(1);
    expect(after.refunds[0]).toMatchObject({
      id: completed.refund_id,
      amount: { amount: 3300 },
      restock: false,
      status: 'completed',
      reason: 'Too small',
      lines: [{ order_line_id: line.id, quantity: 3 }],
    });
    expect(after).toMatchObject({ payment_status: 'refunded', fulfillment_status: 'returned' });
    expect(after.refunded_total.amount).toBe(3300);
    expect(after.lines[0]).toMatchObject({ refunded_quantity: 3, returnable_quantity: 0 });
    // Opened units go back on the shelf.
    expect(await e.store.inventory.get(inventoryId)).toMatchObject({ on_hand: 10, reserved: 0 });

    const types = e.events.types();
    expect(types.filter((type) => type.startsWith('return.'))).toEqual([
      'return.requested',
      'return.approved',
      'return.received',
      'return.completed',
    ]);
    expect(types).toContain('payment.refunded');
    const event = e.events.list().find((ev) => ev.type === 'return.completed');
    expect(event?.data).toMatchObject({
      id: requested.id,
      status: 'completed',
      refund_id: completed.refund_id,
    });

    // Final: nothing moves it any more.
    expect((await errorOf(e.store.returns.complete(requested.id))).code).toBe('invalid_state_transition');
    expect((await errorOf(e.store.returns.cancel(requested.id))).code).toBe('invalid_state_transition');
  });

  test('an admin return starts approved (approved_at = created_at) and is never limited by the window', async () => {
    const e = await engine();
    const { order, line } = await shippedOrder(e);
    await e.store.settings.update({ return_window_days: 0 });
    e.clock.advance('30d');
    const created = await e.store.returns.create(order.id, {
      lines: [{ order_line_id: line.id, quantity: 1 }],
      admin_notes: 'Goodwill',
      metadata: { ticket: 'T-1' },
    });
    expect(created).toMatchObject({
      status: 'approved',
      admin_notes: 'Goodwill',
      metadata: { ticket: 'T-1' },
    });
    expect(created.approved_at).toBe(created.created_at);
    expect(e.events.types()).toContain('return.approved');
  });
});

describe('restock by condition and the refund (decisions §18 complete)', () => {
  test('unopened and null back to on_hand, damaged and defective written off; all count as returned and are refunded', async () => {
    const e = await engine();
    const { order, line, inventoryId } = await shippedOrder(e, { quantity: 4 });
    expect(await e.store.inventory.get(inventoryId)).toMatchObject({ on_hand: 6 });
    const ret = await e.store.returns.create(order.id, { lines: [{ order_line_id: line.id, quantity: 4 }] });
    await e.store.returns.receive(ret.id, {});
    const done = await e.store.returns.complete(ret.id);
    expect(done.lines[0]?.condition).toBeNull();
    expect(await e.store.inventory.get(inventoryId)).toMatchObject({ on_hand: 10 });

    // Another order: two lines, one damaged, one defective.
    const a = await shippedOrder(e, { quantity: 2 });
    const before = (await e.store.inventory.get(a.inventoryId)).on_hand;
    const ret2 = await e.store.returns.create(a.order.id, {
      lines: [{ order_line_id: a.line.id, quantity: 2, condition: 'unopened' }],
    });
    await e.store.returns.receive(ret2.id, { lines: [{ id: ret2.lines[0]!.id, condition: 'damaged' }] });
    const done2 = await e.store.returns.complete(ret2.id);
    expect(done2.lines[0]?.condition).toBe('damaged');
    expect((await e.store.inventory.get(a.inventoryId)).on_hand).toBe(before);
    const order2 = await e.store.orders.get(a.order.id);
    expect(order2).toMatchObject({ fulfillment_status: 'returned', payment_status: 'refunded' });
    expect(order2.refunded_total.amount).toBe(2000);
  });

  test('partial return: the refund covers the returned units only; returned only once every shipped unit came back', async () => {
    const e = await engine();
    const { order, line } = await shippedOrder(e, { quantity: 3 });
    const ret = await e.store.returns.create(order.id, { lines: [{ order_line_id: line.id, quantity: 1 }] });
    await e.store.returns.receive(ret.id, {});
    await e.store.returns.complete(ret.id);
    let after = await e.store.orders.get(order.id);
    expect(after).toMatchObject({ payment_status: 'partially_refunded', fulfillment_status: 'fulfilled' });
    expect(after.refunded_total.amount).toBe(1000);
    expect(after.lines[0]?.returnable_quantity).toBe(2);

    const rest = await e.store.returns.create(order.id, { lines: [{ order_line_id: line.id, quantity: 2 }] });
    await e.store.returns.receive(rest.id, {});
    await e.store.returns.complete(rest.id);
    after = await e.store.orders.get(order.id);
    expect(after).toMatchObject({ payment_status: 'refunded', fulfillment_status: 'returned' });
    expect(after.lines[0]?.returnable_quantity).toBe(0);
  });

  test('the refund is capped at paid − refunded: a partial refund before the return lowers it; nothing left → no refund', async () => {
    const e = await engine();
    const { order, line } = await shippedOrder(e, { quantity: 2 });
    // 1500 of 2000 refunded as a goodwill amount before the return.
    await e.store.orders.refunds.create(order.id, { amount: 1500, reason: 'goodwill' });
    const ret = await e.store.returns.create(order.id, { lines: [{ order_line_id: line.id, quantity: 1 }] });
    await e.store.returns.receive(ret.id, {});
    const done = await e.store.returns.complete(ret.id);
    const after = await e.store.orders.get(order.id);
    const refund = after.refunds.find((r) => r.id === done.refund_id);
    expect(refund?.amount.amount).toBe(500);
    expect(refund?.reason).toBe(`return ${ret.id}`);
    expect(after.refunded_total.amount).toBe(2000);

    // Everything refunded already: the last unit's return makes no refund.
    const last = await e.store.returns.create(order.id, { lines: [{ order_line_id: line.id, quantity: 1 }] });
    await e.store.returns.receive(last.id, {});
    const none = await e.store.returns.complete(last.id);
    expect(none.refund_id).toBeNull();
    const final = await e.store.orders.get(order.id);
    expect(final.refunds).toHaveLength(2);
    expect(final.fulfillment_status).toBe('returned');
  });
});

describe('returnable units and the order (decisions §18)', () => {
  test('only shipped units are returnable; refunds with restock and open returns take theirs; reject and cancel give them back', async () => {
    const e = await engine();
    const { order, line } = await shippedOrder(e, { quantity: 4, shipped: 3 });
    expect((await e.store.orders.get(order.id)).lines[0]?.returnable_quantity).toBe(3);
    const over = await errorOf(
      e.store.returns.create(order.id, { lines: [{ order_line_id: line.id, quantity: 4 }] }),
    );
    expect(over).toMatchObject({ code: 'quantity_exceeds_returnable', param: 'lines[0][quantity]' });
    expect(over.message).toContain('3 returnable units');

    // A restocking refund of 2: the unshipped unit first (cancelled), then 1 shipped unit comes back.
    await e.store.orders.refunds.create(order.id, {
      lines: [{ order_line_id: line.id, quantity: 2 }],
      restock: true,
    });
    expect((await e.store.orders.get(order.id)).lines[0]?.returnable_quantity).toBe(2);

    const r1 = await e.store.returns.create(order.id, { lines: [{ order_line_id: line.id, quantity: 2 }] });
    expect((await e.store.orders.get(order.id)).lines[0]?.returnable_quantity).toBe(0);
    await e.store.returns.cancel(r1.id);
    expect((await e.store.orders.get(order.id)).lines[0]?.returnable_quantity).toBe(2);

    const r2 = await e.store.returns.create(order.id, { lines: [{ order_line_id: line.id, quantity: 1 }] });
    await e.store.returns.receive(r2.id, {});
    const rejected = await e.store.returns.reject(r2.id, { admin_notes: 'Used beyond policy' });
    expect(rejected).toMatchObject({ status: 'rejected', admin_notes: 'Used beyond policy' });
    expect(rejected.rejected_at).not.toBeNull();
    expect((await e.store.orders.get(order.id)).lines[0]?.returnable_quantity).toBe(2);
  });

  test('draft and cancelled orders cannot be returned (409, before the lines)', async () => {
    const e = await engine();
    const { variant } = await e.fixtures.product({ price: 1000 });
    const draft = await e.store.orders.create({
      email: 'a@example.com',
      lines: [{ variant_id: variant.id, quantity: 1 }],
    });
    const fault = await errorOf(
      e.store.returns.create(draft.id, { lines: [{ order_line_id: 'line_nope', quantity: 99 }] }),
    );
    expect(fault.code).toBe('invalid_state_transition');
    const cancelled = await e.store.orders.cancel(draft.id, {});
    expect(
      (await errorOf(e.store.returns.create(cancelled.id, { lines: [{ order_line_id: 'x', quantity: 1 }] })))
        .code,
    ).toBe('invalid_state_transition');
  });

  test('the storefront sees only its own orders and returns; the customer cancels only a requested return', async () => {
    const e = await engine();
    const { order, line, customer } = await shippedOrder(e);
    const other = await e.fixtures.customer();
    expect(
      (
        await errorOf(
          e.store.returns.createForCustomer(other.id, order.id, {
            lines: [{ order_line_id: line.id, quantity: 1 }],
          }),
        )
      ).code,
    ).toBe('not_found');
    const mine = await e.store.returns.createForCustomer(customer.id, order.id, {
      lines: [{ order_line_id: line.id, quantity: 1 }],
    });
    expect((await errorOf(e.store.returns.getForCustomer(other.id, mine.id))).code).toBe('not_found');
    expect((await errorOf(e.store.returns.cancelForCustomer(other.id, mine.id))).code).toBe('not_found');
    expect((await e.store.returns.listForCustomer(other.id, {})).data).toEqual([]);
    expect((await e.store.returns.listForCustomer(customer.id, {})).data.map((r) => r.id)).toEqual([mine.id]);

    const admin = await e.store.returns.create(order.id, {
      lines: [{ order_line_id: line.id, quantity: 1 }],
    });
    expect((await errorOf(e.store.returns.cancelForCustomer(customer.id, admin.id))).code).toBe(
      'invalid_state_transition',
    );
    const cancelled = await e.store.returns.cancelForCustomer(customer.id, mine.id);
    expect(cancelled.status).toBe('cancelled');
    expect(cancelled.cancelled_at).not.toBeNull();
    expect(e.events.types()).toContain('return.cancelled');
  });
});

describe('the storefront return window (decisions §18, fake clock)', () => {
  test('a line whose latest shipment is older than return_window_days → 422 return_window_expired; no window by default', async () => {
    const e = await engine();
    const { order, line, customer } = await shippedOrder(e, { quantity: 2 });
    expect((await e.store.settings.get()).return_window_days).toBeNull();
    e.clock.advance('400d');
    const noWindow = await e.store.returns.createForCustomer(customer.id, order.id, {
      lines: [{ order_line_id: line.id, quantity: 1 }],
    });
    await e.store.returns.cancelForCustomer(customer.id, noWindow.id);

    const store = await e.store.settings.update({ return_window_days: 14 });
    expect(store.return_window_days).toBe(14);
    const late = await errorOf(
      e.store.returns.createForCustomer(customer.id, order.id, {
        lines: [{ order_line_id: line.id, quantity: 1 }],
      }),
    );
    expect(late).toMatchObject({ code: 'return_window_expired', param: 'lines[0][order_line_id]' });

    // A fresh order: day 14 is inside, one more millisecond is not.
    const fresh = await shippedOrder(e, { quantity: 1 });
    e.clock.advance('14d');
    const inside = await e.store.returns.createForCustomer(fresh.customer.id, fresh.order.id, {
      lines: [{ order_line_id: fresh.line.id, quantity: 1 }],
    });
    await e.store.returns.cancelForCustomer(fresh.customer.id, inside.id);
    e.clock.advance('1ms');
    expect(
      (
        await errorOf(
          e.store.returns.createForCustomer(fresh.customer.id, fresh.order.id, {
            lines: [{ order_line_id: fresh.line.id, quantity: 1 }],
          }),
        )
      ).code,
    ).toBe('return_window_expired');
    // The merchant is never limited.
    expect(
      (
        await e.store.returns.create(fresh.order.id, {
          lines: [{ order_line_id: fresh.line.id, quantity: 1 }],
        })
      ).status,
    ).toBe('approved');
  });

  test('return_window_days: 0..3650 or null', async () => {
    const e = await engine();
    expect((await errorOf(e.store.settings.update({ return_window_days: 3651 }))).code).toBe(
      'parameter_invalid',
    );
    expect((await errorOf(e.store.settings.update({ return_window_days: -1 }))).code).toBe(
      'parameter_invalid',
    );
    expect((await e.store.settings.update({ return_window_days: 3650 })).return_window_days).toBe(3650);
    expect((await e.store.settings.update({ return_window_days: null })).return_window_days).toBeNull();
  });
});
