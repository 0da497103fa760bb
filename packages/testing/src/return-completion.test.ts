import { describe, expect, test } from 'vitest';
import { expectCode } from './commerce-error.test-support';
import { createTestEngine, type TestEngine, type TestEngineOptions } from './create-test-engine';

/**
 * Completing returns (decisions §18 `complete`), through the in-memory engine: the money rules
 * of docs/returns-and-exchanges.md ("Money rules, worked") with the same numbers, the exchange
 * order and its `exchange_credit` payment, and what completion may not do twice.
 */

type Order = Awaited<ReturnType<TestEngine['store']['orders']['get']>>;

/** Ships every unit of the order in one fulfillment. */
async function shipAll(t: TestEngine, order: Order): Promise<void> {
  const f = await t.store.orders.fulfillments.create(order.id, {
    lines: order.lines.map((l) => ({ order_line_id: l.id, quantity: l.quantity })),
  });
  await t.store.orders.fulfillments.ship(f.id);
}

/** Creates (admin: approved), receives and completes a return. */
async function returnAndComplete(
  t: TestEngine,
  orderId: string,
  input: Parameters<TestEngine['store']['returns']['create']>[1],
) {
  const created = await t.store.returns.create(orderId, input);
  await t.store.returns.receive(created.id, {});
  return t.store.returns.complete(created.id);
}

async function engineWith(store: NonNullable<TestEngineOptions['store']>) {
  return createTestEngine({ store });
}

const onHand = async (t: TestEngine, inventoryId: string) =>
  (await t.store.inventory.get(inventoryId)).on_hand;

describe('return completion: the worked money examples (tax 20 %)', () => {
  test('1. prices exclude tax: 2 × 25.00 + shipping 5.00, paid 66.00 by card; 1 unopened unit back → 30.00 refunded through the provider, the unit back in stock', async () => {
    const t = await engineWith({ tax_rate: 20 });
    try {
      const { variant } = await t.fixtures.product({ price: 2500, on_hand: 10 });
      const method = await t.fixtures.shippingMethod({ price: 500 });
      const cart = await t.fixtures.cart([{ variant_id: variant.id, quantity: 2 }], {
        shipping_method_id: method.id,
      });
      const order = await t.checkout(cart.id);
      expect(order.total.amount).toBe(6600); // 5000 + 1000 tax + 500 shipping + 100 its tax
      await shipAll(t, order);
      expect(await onHand(t, variant.inventory.id)).toBe(8);

      const done = await returnAndComplete(t, order.id, {
        lines: [{ order_line_id: order.lines[0]!.id, quantity: 1, condition: 'unopened' }],
      });
      expect(done.status).toBe('completed');
      const after = await t.store.orders.get(order.id);
      const refund = after.refunds.find((r) => r.id === done.refund_id)!;
      expect(refund.amount.amount).toBe(3000);
      expect(refund.status).toBe('completed');
      expect(refund.restock).toBe(false);
      expect(refund.reason).toBe(`return ${done.id}`);
      expect(refund.lines).toEqual([{ order_line_id: order.lines[0]!.id, quantity: 1 }]);
      expect(after.refunded_total.amount).toBe(3000);
      expect(after.payment_status).toBe('partially_refunded');
      expect(after.lines[0]!.refunded_quantity).toBe(1);
      expect(await onHand(t, variant.inventory.id)).toBe(9);
      expect(t.payments!.refunds.map((r) => r.amount)).toEqual([3000]);
    } finally {
      await t.close();
    }
  });

  test('2. prices include tax: 3 × 10.00 (5.00 of it tax), paid 30.00; 2 damaged units back → 20.00 refunded, written off', async () => {
    const t = await engineWith({ tax_rate: 20, prices_include_tax: true });
    try {
      const { variant } = await t.fixtures.product({ price: 1000, on_hand: 10 });
      const cart = await t.fixtures.cart([{ variant_id: variant.id, quantity: 3 }]);
      const order = await t.checkout(cart.id);
      expect(order.total.amount).toBe(3000);
      expect(order.lines[0]!.tax_amount.amount).toBe(500);
      await shipAll(t, order);

      const done = await returnAndComplete(t, order.id, {
        reason: 'Broken in transit',
        lines: [{ order_line_id: order.lines[0]!.id, quantity: 2, condition: 'damaged' }],
      });
      const after = await t.store.orders.get(order.id);
      const refund = after.refunds.find((r) => r.id === done.refund_id)!;
      expect(refund.amount.amount).toBe(2000);
      expect(refund.reason).toBe('Broken in transit');
      expect(await onHand(t, variant.inventory.id)).toBe(7); // written off: nothing comes back
    } finally {
      await t.close();
    }
  });

  test('3. a discounted line: 3 × 10.00 carrying 3.33 of a 5.00 discount (26.67 + 5.33 tax); 2 defective units → 21.33, the last unit later → 10.67', async () => {
    const t = await engineWith({ tax_rate: 20 });
    try {
      const a = (await t.fixtures.product({ price: 1000, on_hand: 10 })).variant;
      const b = (await t.fixtures.product({ price: 1500, on_hand: 10 })).variant;
      await t.fixtures.discount({ value_type: 'fixed', value: 500 });
      const cart = await t.fixtures.cart([
        { variant_id: a.id, quantity: 3 },
        { variant_id: b.id, quantity: 1 },
      ]);
      const order = await t.checkout(cart.id);
      const lineA = order.lines.find((l) => l.variant_id === a.id)!;
      expect([lineA.line_discount.amount, lineA.line_total.amount, lineA.tax_amount.amount]).toEqual([
        333, 2667, 533,
      ]);
      expect(order.total.amount).toBe(4800);
      await shipAll(t, order);

      const first = await returnAndComplete(t, order.id, {
        lines: [{ order_line_id: lineA.id, quantity: 2, condition: 'defective' }],
      });
      const last = await returnAndComplete(t, order.id, {
        lines: [{ order_line_id: lineA.id, quantity: 1 }],
      });
      const after = await t.store.orders.get(order.id);
      const amountOf = (id: string | null) => after.refunds.find((r) => r.id === id)!.amount.amount;
      expect(amountOf(first.refund_id)).toBe(2133);
      expect(amountOf(last.refund_id)).toBe(1067);
      expect(await onHand(t, a.inventory.id)).toBe(8); // 10 − 3 shipped + 1 (condition not stated)
    } finally {
      await t.close();
    }
  });

  test('4. a partial refund before the return: 2 × 25.00 + tax = 60.00 paid, 40.00 refunded as a goodwill gesture; both units back → 20.00 (capped)', async () => {
    const t = await engineWith({ tax_rate: 20 });
    try {
      const { variant } = await t.fixtures.product({ price: 2500, on_hand: 10 });
      const cart = await t.fixtures.cart([{ variant_id: variant.id, quantity: 2 }]);
      const order = await t.checkout(cart.id);
      expect(order.total.amount).toBe(6000);
      await shipAll(t, order);
      await t.store.orders.refunds.create(order.id, { amount: 4000, reason: 'goodwill' });

      const done = await returnAndComplete(t, order.id, {
        lines: [{ order_line_id: order.lines[0]!.id, quantity: 2, condition: 'unopened' }],
      });
      const after = await t.store.orders.get(order.id);
      expect(after.refunds.find((r) => r.id === done.refund_id)!.amount.amount).toBe(2000);
      expect(after.refunded_total.amount).toBe(6000);
      expect(after.payment_status).toBe('refunded');
      expect(after.fulfillment_status).toBe('returned');
      expect(await onHand(t, variant.inventory.id)).toBe(10);
    } finally {
      await t.close();
    }
  });

  test('nothing left to refund → no refund (refund_id null), the stock still comes back', async () => {
    const t = await engineWith({ tax_rate: 20 });
    try {
      const { variant } = await t.fixtures.product({ price: 2500, on_hand: 10 });
      const cart = await t.fixtures.cart([{ variant_id: variant.id, quantity: 1 }]);
      const order = await t.checkout(cart.id);
      await shipAll(t, order);
      await t.store.orders.refunds.create(order.id, { amount: 3000 });
      const done = await returnAndComplete(t, order.id, {
        lines: [{ order_line_id: order.lines[0]!.id, quantity: 1 }],
      });
      expect(done.refund_id).toBeNull();
      expect((await t.store.orders.get(order.id)).refunds).toHaveLength(1);
      expect(await onHand(t, variant.inventory.id)).toBe(10);
    } finally {
      await t.close();
    }
  });
});

describe('return completion: exchanges (tax 20 %, prices exclude tax)', () => {
  async function setup(exchangePrice: number, exchangeStock = 10) {
    const t = await engineWith({ tax_rate: 20 });
    const mug = (await t.fixtures.product({ price: 2500, on_hand: 10 })).variant;
    const other = (await t.fixtures.product({ price: exchangePrice, on_hand: exchangeStock })).variant;
    const customer = await t.fixtures.customer();
    const cart = await t.fixtures.cart([{ variant_id: mug.id, quantity: 2 }], { customer_id: customer.id });
    const order = await t.checkout(cart.id);
    expect(order.total.amount).toBe(6000);
    await shipAll(t, order);
    return { t, mug, other, order, customer };
  }

  test('5. credit 30.00 (one returned unit), exchange order 24.00 (20.00 + 4.00 tax): paid by exchange credit, confirmed; 6.00 refunded on the original order', async () => {
    const { t, mug, other, order, customer } = await setup(2000);
    try {
      t.events.clear();
      const done = await returnAndComplete(t, order.id, {
        return_type: 'exchange',
        lines: [
          {
            order_line_id: order.lines[0]!.id,
            quantity: 1,
            condition: 'unopened',
            exchange_variant_id: other.id,
          },
        ],
      });
      expect(done.exchange_order_id).not.toBeNull();
      const exchange = await t.store.orders.get(done.exchange_order_id!);
      expect(exchange.customer_id).toBe(customer.id);
      expect(exchange.email).toBe(order.email);
      expect(exchange.shipping_address).toEqual(order.shipping_address);
      expect(exchange.metadata).toEqual({ return_id: done.id });
      expect(exchange.lines.map((l) => [l.variant_id, l.quantity, l.unit_price.amount])).toEqual([
        [other.id, 1, 2000],
      ]);
      expect([
        exchange.subtotal.amount,
        exchange.discount_total.amount,
        exchange.shipping_total.amount,
      ]).toEqual([2000, 0, 0]);
      expect([exchange.tax_total.amount, exchange.total.amount]).toEqual([400, 2400]);
      expect(exchange.payments.map((p) => [p.provider, p.amount.amount, p.status])).toEqual([
        ['exchange_credit', 2400, 'completed'],
      ]);
      expect(exchange.payments[0]!.metadata).toEqual({ return_id: done.id, order_id: order.id });
      expect([exchange.status, exchange.payment_status]).toEqual(['confirmed', 'paid']);

      const original = await t.store.orders.get(order.id);
      const surplus = original.refunds.find((r) => r.id === done.refund_id)!;
      expect(surplus.amount.amount).toBe(600);
      expect(surplus.lines).toEqual([]);
      expect(original.refunded_total.amount).toBe(600);

      expect(await onHand(t, mug.inventory.id)).toBe(9); // 10 − 2 shipped + 1 back
      const level = await t.store.inventory.get(other.inventory.id);
      expect([level.on_hand, level.reserved]).toEqual([10, 1]);

      const types = t.events.types();
      for (const type of [
        'order.created',
        'payment.created',
        'payment.completed',
        'order.confirmed',
        'payment.refunded',
        'return.completed',
      ] as const) {
        expect(types).toContain(type);
      }

      // What the original order still refunds: 60.00 − 6.00 refunded − 24.00 given as credit.
      await expectCode(
        t.store.orders.refunds.create(order.id, { amount: 3001 }),
        'refund_exceeds_refundable',
      );
      const rest = await t.store.orders.refunds.create(order.id, { amount: 3000 });
      expect(rest.amount.amount).toBe(3000);
    } finally {
      await t.close();
    }
  });

  test('6. credit 30.00, exchange order 36.00: 30.00 paid by credit, the order stays pending and partially paid until the merchant takes the rest', async () => {
    const { t, other, order } = await setup(3000);
    try {
      const done = await returnAndComplete(t, order.id, {
        return_type: 'exchange',
        lines: [{ order_line_id: order.lines[0]!.id, quantity: 1, exchange_variant_id: other.id }],
      });
      expect(done.refund_id).toBeNull();
      const exchange = await t.store.orders.get(done.exchange_order_id!);
      expect(exchange.total.amount).toBe(3600);
      expect(exchange.payments.map((p) => [p.provider, p.amount.amount])).toEqual([
        ['exchange_credit', 3000],
      ]);
      expect([exchange.status, exchange.payment_status]).toEqual(['pending', 'partially_paid']);
      await t.store.orders.payments.create(exchange.id, { amount: 600, provider: 'cash' });
      const paid = await t.store.orders.get(exchange.id);
      expect([paid.status, paid.payment_status]).toEqual(['confirmed', 'paid']);
    } finally {
      await t.close();
    }
  });

  test('stock short at completion → 422 insufficient_inventory; nothing changes and the return stays received', async () => {
    const { t, mug, other, order } = await setup(2000, 1);
    try {
      const created = await t.store.returns.create(order.id, {
        return_type: 'exchange',
        lines: [{ order_line_id: order.lines[0]!.id, quantity: 1, exchange_variant_id: other.id }],
      });
      await t.store.returns.receive(created.id, {});
      await t.store.inventory.adjust(other.inventory.id, { quantity: -1 });
      const before = {
        order: await t.store.orders.get(order.id),
        orders: (await t.store.orders.list({})).total_count,
        mug: await t.store.inventory.get(mug.inventory.id),
        other: await t.store.inventory.get(other.inventory.id),
      };
      t.events.clear();
      await expectCode(t.store.returns.complete(created.id), 'insufficient_inventory');
      expect((await t.store.returns.get(created.id)).status).toBe('received');
      expect({
        order: await t.store.orders.get(order.id),
        orders: (await t.store.orders.list({})).total_count,
        mug: await t.store.inventory.get(mug.inventory.id),
        other: await t.store.inventory.get(other.inventory.id),
      }).toEqual(before);
      expect(t.events.types()).toEqual([]);
    } finally {
      await t.close();
    }
  });

  test('units already back in stock are never restocked again: not after an exchange, not while an open return holds them', async () => {
    const { t, mug, other, order } = await setup(2000);
    try {
      const line = order.lines[0]!;
      await returnAndComplete(t, order.id, {
        return_type: 'exchange',
        lines: [{ order_line_id: line.id, quantity: 1, exchange_variant_id: other.id }],
      });
      const open = await t.store.returns.create(order.id, {
        lines: [{ order_line_id: line.id, quantity: 1 }],
      });
      await expectCode(
        t.store.orders.refunds.create(order.id, {
          lines: [{ order_line_id: line.id, quantity: 1 }],
          amount: 100,
          restock: true,
        }),
        'quantity_exceeds_refundable',
        'lines[0][quantity]',
      );
      await t.store.returns.receive(open.id, {});
      await t.store.returns.complete(open.id);
      expect(await onHand(t, mug.inventory.id)).toBe(10); // both shipped units back, once each
    } finally {
      await t.close();
    }
  });

  test('the admin cannot record a payment under the exchange_credit label (400)', async () => {
    const { t, order } = await setup(2000);
    try {
      await expectCode(
        t.store.orders.payments.create(order.id, { amount: 100, provider: 'exchange_credit' }),
        'parameter_invalid',
        'provider',
      );
    } finally {
      await t.close();
    }
  });
});
