import { CommerceError } from '@cartwright/core';
import { afterEach, describe, expect, test } from 'vitest';
import { createTestEngine, type TestEngine } from './create-test-engine';

/**
 * Refunds with and without restock against fulfillment and reservations (docs/contract.md#restock,
 * #reservations, #order-status): `restock: false` moves money only — the units still ship and stay
 * reserved until they do —; `restock: true` cancels unfulfilled units first (they leave
 * `reserved` and no longer have to ship), then returns shipped units to `on_hand`. No order ends
 * (completed or cancelled) holding reservations.
 */

let t: TestEngine | undefined;
afterEach(async () => {
  await t?.close();
  t = undefined;
});

async function paidOrder(e: TestEngine, quantity: number, on_hand = 10) {
  const { variant } = await e.fixtures.product({ price: 1000, on_hand });
  const cart = await e.fixtures.cart([{ variant_id: variant.id, quantity }]);
  const order = await e.checkout(cart.id);
  expect(order.payment_status).toBe('paid');
  return { order, line: order.lines[0]!, inventoryId: variant.inventory.id };
}

async function fulfilAndShip(e: TestEngine, orderId: string, lineId: string, quantity: number) {
  const f = await e.store.orders.fulfillments.create(orderId, {
    lines: [{ order_line_id: lineId, quantity }],
  });
  return e.store.orders.fulfillments.ship(f.id);
}

async function errorOf(promise: Promise<unknown>): Promise<CommerceError> {
  const error = await promise.then(
    () => null,
    (e: unknown) => e,
  );
  expect(CommerceError.is(error), String(error)).toBe(true);
  return error as CommerceError;
}

describe('a refund without restock moves money only (issue 35)', () => {
  test('3 paid, 1 shipped, 1 refunded without restock: the 2 unshipped units still ship, then the order completes holding nothing', async () => {
    t = await createTestEngine();
    const { order, line, inventoryId } = await paidOrder(t, 3);
    await fulfilAndShip(t, order.id, line.id, 1);
    expect(await t.store.inventory.get(inventoryId)).toMatchObject({ on_hand: 9, reserved: 2 });

    await t.store.orders.refunds.create(order.id, {
      lines: [{ order_line_id: line.id, quantity: 1 }],
      restock: false,
    });
    const refunded = await t.store.orders.get(order.id);
    expect(refunded).toMatchObject({ status: 'processing', payment_status: 'partially_refunded' });
    expect(refunded.lines[0]).toMatchObject({ refunded_quantity: 1, fulfilled_quantity: 1 });
    expect(await t.store.inventory.get(inventoryId)).toMatchObject({ on_hand: 9, reserved: 2 });

    await fulfilAndShip(t, order.id, line.id, 2);
    const done = await t.store.orders.get(order.id);
    expect(done).toMatchObject({ status: 'completed', fulfillment_status: 'fulfilled' });
    expect(done.lines[0]).toMatchObject({ fulfilled_quantity: 3, refunded_quantity: 1 });
    expect(await t.store.inventory.get(inventoryId)).toMatchObject({ on_hand: 7, reserved: 0, available: 7 });
  });

  test('every unit refunded without restock before shipping: the order ships them all, then completes (refunded counts as paid)', async () => {
    t = await createTestEngine();
    const { order, line, inventoryId } = await paidOrder(t, 2);
    await t.store.orders.refunds.create(order.id, {
      lines: [{ order_line_id: line.id, quantity: 2 }],
      restock: false,
    });
    const refunded = await t.store.orders.get(order.id);
    expect(refunded).toMatchObject({ status: 'confirmed', payment_status: 'refunded' });
    expect(await t.store.inventory.get(inventoryId)).toMatchObject({ reserved: 2 });

    await fulfilAndShip(t, order.id, line.id, 1);
    expect((await t.store.orders.get(order.id)).status).toBe('processing');
    await fulfilAndShip(t, order.id, line.id, 1);
    expect((await t.store.orders.get(order.id)).status).toBe('completed');
    expect(await t.store.inventory.get(inventoryId)).toMatchObject({ on_hand: 8, reserved: 0 });
  });

  test('fulfilling more than the fulfillable units is refused and changes nothing', async () => {
    t = await createTestEngine();
    const { order, line, inventoryId } = await paidOrder(t, 3);
    await fulfilAndShip(t, order.id, line.id, 1);
    await t.store.orders.refunds.create(order.id, {
      lines: [{ order_line_id: line.id, quantity: 1 }],
      restock: false,
    });
    const error = await errorOf(
      t.store.orders.fulfillments.create(order.id, { lines: [{ order_line_id: line.id, quantity: 3 }] }),
    );
    expect(error).toMatchObject({
      code: 'fulfillment_exceeds_unfulfilled',
      param: 'lines[0][quantity]',
      data: { order_line_id: line.id, requested: 3, unfulfilled: 2 },
    });
    expect((await t.store.orders.get(order.id)).lines[0]?.fulfilled_quantity).toBe(1);
    expect(await t.store.inventory.get(inventoryId)).toMatchObject({ on_hand: 9, reserved: 2 });
  });
});

describe('a refund with restock cancels unfulfilled units first', () => {
  test('3 paid, 1 shipped, 1 refunded with restock: 1 unshipped unit is cancelled (leaves reserved), 1 still ships, then completed', async () => {
    t = await createTestEngine();
    const { order, line, inventoryId } = await paidOrder(t, 3);
    await fulfilAndShip(t, order.id, line.id, 1);
    await t.store.orders.refunds.create(order.id, {
      lines: [{ order_line_id: line.id, quantity: 1 }],
      restock: true,
    });
    expect(await t.store.inventory.get(inventoryId)).toMatchObject({ on_hand: 9, reserved: 1 });
    const error = await errorOf(
      t.store.orders.fulfillments.create(order.id, { lines: [{ order_line_id: line.id, quantity: 2 }] }),
    );
    expect(error).toMatchObject({ code: 'fulfillment_exceeds_unfulfilled', data: { unfulfilled: 1 } });

    await fulfilAndShip(t, order.id, line.id, 1);
    expect((await t.store.orders.get(order.id)).status).toBe('completed');
    expect(await t.store.inventory.get(inventoryId)).toMatchObject({ on_hand: 8, reserved: 0 });
  });

  test('without restock then with restock: the restock cancels an unshipped unit, even though an earlier refund took money for one', async () => {
    t = await createTestEngine();
    const { order, line, inventoryId } = await paidOrder(t, 3);
    await t.store.orders.refunds.create(order.id, {
      lines: [{ order_line_id: line.id, quantity: 2 }],
      restock: false,
    });
    await t.store.orders.refunds.create(order.id, {
      lines: [{ order_line_id: line.id, quantity: 1 }],
      restock: true,
    });
    const after = await t.store.orders.get(order.id);
    expect(after.lines[0]).toMatchObject({ refunded_quantity: 3, fulfilled_quantity: 0 });
    expect(after.payment_status).toBe('refunded');
    expect(await t.store.inventory.get(inventoryId)).toMatchObject({ on_hand: 10, reserved: 2 });

    await fulfilAndShip(t, order.id, line.id, 2);
    expect(await t.store.orders.get(order.id)).toMatchObject({
      status: 'completed',
      fulfillment_status: 'fulfilled',
    });
    expect(await t.store.inventory.get(inventoryId)).toMatchObject({ on_hand: 8, reserved: 0 });
  });

  test('restocking every unfulfilled unit of a processing order completes it with what shipped', async () => {
    t = await createTestEngine();
    const { order, line, inventoryId } = await paidOrder(t, 3);
    await fulfilAndShip(t, order.id, line.id, 1);
    await t.store.orders.refunds.create(order.id, {
      lines: [{ order_line_id: line.id, quantity: 2 }],
      restock: true,
    });
    expect(await t.store.orders.get(order.id)).toMatchObject({
      status: 'completed',
      fulfillment_status: 'fulfilled',
      payment_status: 'partially_refunded',
    });
    expect(await t.store.inventory.get(inventoryId)).toMatchObject({ on_hand: 9, reserved: 0 });
  });
});

describe('every unit cancelled by restocking refunds before any shipped', () => {
  test('the order holds nothing, stays confirmed and unfulfilled (no order.completed), and the admin cancels it', async () => {
    t = await createTestEngine();
    const { order, line, inventoryId } = await paidOrder(t, 2);
    await t.store.orders.refunds.create(order.id, {
      lines: [{ order_line_id: line.id, quantity: 2 }],
      restock: true,
    });
    expect(await t.store.orders.get(order.id)).toMatchObject({
      status: 'confirmed',
      payment_status: 'refunded',
      fulfillment_status: 'unfulfilled',
    });
    expect(await t.store.inventory.get(inventoryId)).toMatchObject({ on_hand: 10, reserved: 0 });
    expect(t.events.list('order.completed')).toEqual([]);
    const error = await errorOf(
      t.store.orders.fulfillments.create(order.id, { lines: [{ order_line_id: line.id, quantity: 1 }] }),
    );
    expect(error).toMatchObject({ code: 'fulfillment_exceeds_unfulfilled', data: { unfulfilled: 0 } });
    expect((await t.store.orders.cancel(order.id)).status).toBe('cancelled');
    expect(await t.store.inventory.get(inventoryId)).toMatchObject({ on_hand: 10, reserved: 0 });
  });
});

describe('completing an order by hand', () => {
  test('releases what it still holds: its unshipped units will not ship from the reservation', async () => {
    t = await createTestEngine();
    const { order, line, inventoryId } = await paidOrder(t, 3);
    await fulfilAndShip(t, order.id, line.id, 1);
    const pending = await t.store.orders.fulfillments.create(order.id, {
      lines: [{ order_line_id: line.id, quantity: 1 }],
    });
    expect(await t.store.inventory.get(inventoryId)).toMatchObject({ on_hand: 9, reserved: 2 });

    expect((await t.store.orders.complete(order.id)).status).toBe('completed');
    expect(await t.store.inventory.get(inventoryId)).toMatchObject({ on_hand: 9, reserved: 0, available: 9 });

    // The pending fulfillment may still ship: its unit leaves on_hand (it is no longer reserved).
    await t.store.orders.fulfillments.ship(pending.id);
    expect(await t.store.inventory.get(inventoryId)).toMatchObject({ on_hand: 8, reserved: 0 });
  });
});
