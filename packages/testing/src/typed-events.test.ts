import { EVENT_TYPES, type Order } from '@cartwright/core';
import { EVENT_DATA_SCHEMAS } from '@cartwright/core/internal';
import { afterEach, describe, expect, expectTypeOf, test } from 'vitest';
import { createTestEngine, type TestEngine } from './create-test-engine';

const open: TestEngine[] = [];
afterEach(async () => {
  for (const t of open.splice(0)) await t.close();
});

/**
 * Every kind of change, on a real engine (SQLite in memory): product create/update/delete,
 * customer create/update and password reset, a paid checkout (order, payment, low stock), a
 * declined one, fulfillment create/ship/deliver, returns, a refund, a cancelled order, categories,
 * collections, a member's invitation, and stock run out.
 */
async function everyKindOfEvent(t: TestEngine) {
  const customer = await t.fixtures.customer();
  await t.store.customers.update(customer.id, { first_name: 'Ada' });
  await t.store.customers.requestPasswordReset({ email: customer.email });

  const { product, variant } = await t.fixtures.product({ price: 1000, on_hand: 4, safety_stock: 2 });
  await t.store.products.update(product.id, { description: 'Now with a description' });
  const cart = await t.fixtures.cart([{ variant_id: variant.id, quantity: 2 }], { customer_id: customer.id });
  const order = await t.checkout(cart.id);

  const declined = await t.fixtures.cart([{ variant_id: variant.id, quantity: 1 }]);
  await t.checkout(declined.id, { payment_method_id: 'pm_card_chargeDeclined' }).catch(() => undefined);

  const line = order.lines[0];
  if (!line) throw new Error('the order has no line');
  const fulfillment = await t.store.orders.fulfillments.create(order.id, {
    lines: [{ order_line_id: line.id, quantity: 2 }],
  });
  await t.store.orders.fulfillments.ship(fulfillment.id, { tracking_number: '1Z' });
  await t.store.orders.fulfillments.deliver(fulfillment.id);
  // Returns (decisions §18): requested → rejected; approved → cancelled; approved → received → completed.
  const requested = await t.store.returns.createForCustomer(customer.id, order.id, {
    lines: [{ order_line_id: line.id, quantity: 1 }],
  });
  await t.store.returns.reject(requested.id, {});
  const approved = await t.store.returns.create(order.id, {
    lines: [{ order_line_id: line.id, quantity: 1 }],
  });
  await t.store.returns.cancel(approved.id);
  const returned = await t.store.returns.create(order.id, {
    lines: [{ order_line_id: line.id, quantity: 1 }],
  });
  await t.store.returns.receive(returned.id, {});
  await t.store.returns.complete(returned.id);
  await t.store.orders.refunds.create(order.id, { amount: 500 });

  const unpaid = await t.fixtures.cart([{ variant_id: variant.id, quantity: 1 }]);
  const pending = await t.checkout(unpaid.id, { payment_provider: 'manual' });
  await t.store.orders.cancel(pending.id);

  // Catalog organisation (decisions §17) and a member's invitation (§23).
  const category = await t.store.categories.create({ name: 'Shirts' });
  await t.store.categories.update(category.id, { position: 1 });
  await t.store.categories.delete(category.id);
  const collection = await t.store.collections.create({ name: 'Picks', product_ids: [product.id] });
  await t.store.collections.update(collection.id, { name: 'Staff picks' });
  await t.store.collections.delete(collection.id);
  await t.store.members.create({ email: 'staff@example.com', role: 'member' });

  // 4 − 2 shipped + 1 returned = 3 on hand: run it out.
  await t.store.inventory.adjust(variant.inventory.id, { quantity: -3 });
  await t.store.products.delete(product.id);
  return order;
}

describe('typed events on a real engine', () => {
  test('every event type is published, each carrying its data as EVENT_DATA_SCHEMAS says', async () => {
    const t = await createTestEngine();
    open.push(t);
    await everyKindOfEvent(t);

    expect(new Set(t.events.types())).toEqual(new Set(EVENT_TYPES));
    for (const event of t.events.list()) {
      const check = EVENT_DATA_SCHEMAS[event.type].safeParse(event.data);
      expect(check.error?.message, `${event.type} ${event.id}`).toBeUndefined();
    }
    // The declined checkout's payment: no order, the cart it paid for.
    const failed = t.events.last('payment.failed');
    expect(failed?.data).toMatchObject({ status: 'failed', order_id: null });
    expect(failed?.data).toHaveProperty('cart_id');
  });

  test("on('order.created', e => e.data.total) gets the order as checkout returned it", async () => {
    const t = await createTestEngine();
    open.push(t);
    const totals: Array<Order['total']> = [];
    const off = t.engine.events.on('order.created', (e) => {
      expectTypeOf(e.data).toEqualTypeOf<Order>();
      totals.push(e.data.total);
    });
    const { variant } = await t.fixtures.product({ price: 1250 });
    const order = await t.checkout((await t.fixtures.cart([{ variant_id: variant.id, quantity: 2 }])).id);
    off();
    expect(totals).toEqual([order.total]);
    expect(totals[0]?.amount).toBe(2500 + order.shipping_total.amount + order.tax_total.amount);
  });

  test('the event recorder lists events by type with their data typed', async () => {
    const t = await createTestEngine();
    open.push(t);
    const { variant } = await t.fixtures.product({ price: 800, on_hand: 3, safety_stock: 1 });
    await t.checkout((await t.fixtures.cart([{ variant_id: variant.id, quantity: 2 }])).id);

    const low = t.events.list('inventory.low');
    expectTypeOf(low[0]?.data.available).toEqualTypeOf<number | undefined>();
    expect(low.map((e) => e.data.available)).toEqual([1]);
    expect(t.events.last('order.created')?.data.lines[0]?.quantity).toBe(2);
    // @ts-expect-error not an event type
    t.events.list('order.creatd');
  });
});
