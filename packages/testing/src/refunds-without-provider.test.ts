import { CommerceError } from '@cartwright/core';
import { afterEach, describe, expect, test } from 'vitest';
import { createTestEngine, type TestEngine } from './create-test-engine';

/**
 * Refunds of money taken outside the engine (a payment the admin recorded, `provider: 'cash'`):
 * no provider is called, so the refund is completed at once, in one transaction, with its lines,
 * restock and fulfillment effects (docs/contract.md#refunds).
 */

let t: TestEngine | undefined;
afterEach(async () => {
  await t?.close();
  t = undefined;
});

async function cashOrder(e: TestEngine, quantity: number) {
  const { variant } = await e.fixtures.product({ price: 1000, on_hand: 10 });
  const cart = await e.fixtures.cart([{ variant_id: variant.id, quantity }]);
  const order = await e.checkout(cart.id, { payment_provider: 'manual' });
  expect(order.payment_status).toBe('unpaid');
  await e.store.orders.payments.create(order.id, { amount: order.total.amount, provider: 'cash' });
  const paid = await e.store.orders.get(order.id);
  expect(paid.payment_status).toBe('paid');
  return { order: paid, variant, inventoryId: variant.inventory.id };
}

describe('refunds without a provider call', () => {
  test('refunding every unit with restock: completed at once, the pending fulfillment cancelled, the units back in stock', async () => {
    t = await createTestEngine();
    const { order, inventoryId } = await cashOrder(t, 3);
    const line = order.lines[0]!;
    const fulfillment = await t.store.orders.fulfillments.create(order.id, {
      lines: [{ order_line_id: line.id, quantity: 2 }],
    });
    expect((await t.store.inventory.get(inventoryId)).reserved).toBe(3);

    const refund = await t.store.orders.refunds.create(order.id, {
      lines: [{ order_line_id: line.id, quantity: 3 }],
      restock: true,
    });
    expect(refund).toMatchObject({ status: 'completed', amount: { amount: order.total.amount } });
    const after = await t.store.orders.get(order.id);
    expect(after.lines[0]).toMatchObject({ refunded_quantity: 3, fulfilled_quantity: 0 });
    expect(after.fulfillments.find((f) => f.id === fulfillment.id)?.status).toBe('cancelled');
    expect(after).toMatchObject({
      payment_status: 'refunded',
      refunded_total: { amount: order.total.amount },
    });
    expect(await t.store.inventory.get(inventoryId)).toMatchObject({
      on_hand: 10,
      reserved: 0,
      available: 10,
    });
    expect(t.events.list('payment.refunded').map((e) => e.data.status)).toEqual(['completed']);
  });

  test('refunding part of the units shrinks the pending fulfillment that holds them', async () => {
    t = await createTestEngine();
    const { order, inventoryId } = await cashOrder(t, 3);
    const line = order.lines[0]!;
    const fulfillment = await t.store.orders.fulfillments.create(order.id, {
      lines: [{ order_line_id: line.id, quantity: 3 }],
    });
    const refund = await t.store.orders.refunds.create(order.id, {
      lines: [{ order_line_id: line.id, quantity: 1 }],
      restock: true,
    });
    expect(refund).toMatchObject({ status: 'completed', amount: { amount: 1000 } });
    const after = await t.store.orders.get(order.id);
    const shrunk = after.fulfillments.find((f) => f.id === fulfillment.id);
    expect(shrunk?.status).toBe('pending');
    expect(shrunk?.lines).toMatchObject([{ order_line_id: line.id, quantity: 2 }]);
    expect(after.lines[0]).toMatchObject({ refunded_quantity: 1, fulfilled_quantity: 2 });
    expect(await t.store.inventory.get(inventoryId)).toMatchObject({ reserved: 2, available: 8 });
    expect(after.payment_status).toBe('partially_refunded');
  });

  test('an amount refund completes at once; more than what is left to refund is refused', async () => {
    t = await createTestEngine();
    const { order } = await cashOrder(t, 2);
    const first = await t.store.orders.refunds.create(order.id, { amount: 500 });
    expect(first.status).toBe('completed');
    const error = await t.store.orders.refunds.create(order.id, { amount: order.total.amount }).then(
      () => null,
      (e: unknown) => e,
    );
    expect(CommerceError.is(error)).toBe(true);
    expect((error as CommerceError).code).toBe('refund_exceeds_refundable');
    expect((await t.store.orders.get(order.id)).refunded_total.amount).toBe(500);
  });
});
