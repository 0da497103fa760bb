import { expect, test } from 'vitest';
import type { TestApi } from './support/harness';
import { describeApi } from './support/harness';
import {
  createCart,
  createCodeDiscount,
  createCustomer,
  createProduct,
  expectError,
  expectStatus,
  inventoryOf,
  orderOf,
  payOrder,
} from './support/order-fixtures';

/**
 * What completing a return does with money and stock, over HTTP on every engine (decisions §18
 * `complete`; the worked examples of docs/returns-and-exchanges.md, "Money rules, worked", with
 * the same numbers; the store's tax rate 20 %): the refund of what the units were paid, capped at
 * what is still refundable; the exchange order and its `exchange_credit` payment, the surplus
 * refunded or the rest left to pay; a stock shortage that changes nothing; exchange credit no
 * longer refundable on the original order; units never restocked twice.
 */

type Api = TestApi;

async function taxed(a: Api, prices_include_tax: boolean): Promise<void> {
  expectStatus(await a.patch('/v1/admin/store', { tax_rate: 20, prices_include_tax }), 200);
}

/** A customer's order of `items`, paid (manual payment completed), every unit shipped. */
async function shippedOrder(
  a: Api,
  items: Array<{ variant_id: string; quantity: number }>,
  options: { shipping_method_id?: string; code?: string } = {},
) {
  const customer = await createCustomer(a);
  const cart = await createCart(a, items, {
    customerToken: customer.token,
    ...(options.shipping_method_id && { shipping_method_id: options.shipping_method_id }),
  });
  if (options.code) {
    expectStatus(
      await a.storefront.post(
        `/v1/storefront/carts/${cart.id}/discounts`,
        { code: options.code },
        { customerToken: customer.token },
      ),
      200,
    );
  }
  const placed = expectStatus(
    await a.request('POST', `/v1/storefront/carts/${cart.id}/checkout`, {
      key: a.keys.publishable,
      body: { payment_provider: 'manual' },
      customerToken: customer.token,
    }),
    201,
  ).body;
  const order = await payOrder(a, placed);
  const f = expectStatus(
    await a.post(`/v1/admin/orders/${order.id}/fulfillments`, {
      lines: order.lines.map((l: { id: string; quantity: number }) => ({
        order_line_id: l.id,
        quantity: l.quantity,
      })),
    }),
    200,
  ).body;
  expectStatus(await a.post(`/v1/admin/fulfillments/${f.id}/ship`), 200);
  return { order, customer };
}

/** Creates (approved), receives and completes a return; the completed Return. */
async function complete(a: Api, orderId: string, body: Record<string, unknown>) {
  const ret = expectStatus(await a.post(`/v1/admin/orders/${orderId}/returns`, body), 200).body;
  expectStatus(await a.post(`/v1/admin/returns/${ret.id}/receive`, {}), 200);
  return expectStatus(await a.post(`/v1/admin/returns/${ret.id}/complete`), 200).body;
}

interface WireRefund {
  id: string;
  amount: { amount: number };
  restock: boolean;
  reason: string;
}

const refundOf = (order: { refunds: WireRefund[] }, id: string | null): WireRefund => {
  const refund = order.refunds.find((r) => r.id === id);
  if (!refund) throw new Error(`no refund ${id}`);
  return refund;
};

describeApi('return completion: money rules, prices exclude tax (20 %)', (api) => {
  test('1. 2 × 25.00 + shipping 5.00 = 66.00 paid; 1 unopened unit back → 30.00 refunded (restock false), the unit back in stock', async () => {
    const a = api();
    await taxed(a, false);
    const p = await createProduct(a, { price: 2500, on_hand: 10 });
    const method = expectStatus(
      await a.post('/v1/admin/shipping-methods', { name: 'Post', price: 500 }),
      200,
    ).body;
    const { order } = await shippedOrder(a, [{ variant_id: p.variant_id, quantity: 2 }], {
      shipping_method_id: method.id,
    });
    expect(order.total.amount).toBe(6600);
    const done = await complete(a, order.id, {
      lines: [{ order_line_id: order.lines[0].id, quantity: 1, condition: 'unopened' }],
    });
    const after = await orderOf(a, order.id);
    const refund = refundOf(after, done.refund_id);
    expect([refund.amount.amount, refund.restock, refund.reason]).toEqual([3000, false, `return ${done.id}`]);
    expect(after.payment_status).toBe('partially_refunded');
    expect((await inventoryOf(a, p.inventory_id)).on_hand).toBe(9);
  });

  test('3. a discounted line (3.33 of a 5.00 code discount): 2 defective units → 21.33, the last one → 10.67; nothing restocked but the last', async () => {
    const a = api();
    await taxed(a, false);
    const first = await createProduct(a, { price: 1000, on_hand: 10 });
    const second = await createProduct(a, { price: 1500, on_hand: 10 });
    const { code } = await createCodeDiscount(a, { amount: 500 });
    const { order } = await shippedOrder(
      a,
      [
        { variant_id: first.variant_id, quantity: 3 },
        { variant_id: second.variant_id, quantity: 1 },
      ],
      { code },
    );
    const line = order.lines.find((l: { variant_id: string }) => l.variant_id === first.variant_id);
    expect([line.line_discount.amount, line.line_total.amount, line.tax_amount.amount]).toEqual([
      333, 2667, 533,
    ]);
    expect(order.total.amount).toBe(4800);
    const two = await complete(a, order.id, {
      lines: [{ order_line_id: line.id, quantity: 2, condition: 'defective' }],
    });
    const last = await complete(a, order.id, { lines: [{ order_line_id: line.id, quantity: 1 }] });
    const after = await orderOf(a, order.id);
    expect(refundOf(after, two.refund_id).amount.amount).toBe(2133);
    expect(refundOf(after, last.refund_id).amount.amount).toBe(1067);
    expect((await inventoryOf(a, first.inventory_id)).on_hand).toBe(8);
  });

  test('4. 60.00 paid, 40.00 refunded before; both units back → 20.00 (capped), the order refunded and returned', async () => {
    const a = api();
    await taxed(a, false);
    const p = await createProduct(a, { price: 2500, on_hand: 10 });
    const { order } = await shippedOrder(a, [{ variant_id: p.variant_id, quantity: 2 }]);
    expect(order.total.amount).toBe(6000);
    expectStatus(await a.post(`/v1/admin/orders/${order.id}/refunds`, { amount: 4000 }), 200);
    const done = await complete(a, order.id, {
      lines: [{ order_line_id: order.lines[0].id, quantity: 2, condition: 'opened' }],
    });
    const after = await orderOf(a, order.id);
    expect(refundOf(after, done.refund_id).amount.amount).toBe(2000);
    expect([after.refunded_total.amount, after.payment_status, after.fulfillment_status]).toEqual([
      6000,
      'refunded',
      'returned',
    ]);
    expect((await inventoryOf(a, p.inventory_id)).on_hand).toBe(10);
  });

  test('5. exchange, credit 30.00 above the 24.00 exchange order: exchange_credit payment, confirmed, 6.00 refunded; the credit is no longer refundable', async () => {
    const a = api();
    await taxed(a, false);
    const mug = await createProduct(a, { price: 2500, on_hand: 10 });
    const cup = await createProduct(a, { price: 2000, on_hand: 10 });
    const { order, customer } = await shippedOrder(a, [{ variant_id: mug.variant_id, quantity: 2 }]);
    const done = await complete(a, order.id, {
      return_type: 'exchange',
      lines: [
        {
          order_line_id: order.lines[0].id,
          quantity: 1,
          condition: 'unopened',
          exchange_variant_id: cup.variant_id,
        },
      ],
    });
    const exchange = await orderOf(a, done.exchange_order_id);
    expect([exchange.customer_id, exchange.email, exchange.metadata]).toEqual([
      customer.id,
      order.email,
      { return_id: done.id },
    ]);
    expect([
      exchange.subtotal.amount,
      exchange.discount_total.amount,
      exchange.shipping_total.amount,
    ]).toEqual([2000, 0, 0]);
    expect([exchange.tax_total.amount, exchange.total.amount]).toEqual([400, 2400]);
    expect(
      exchange.payments.map((p: { provider: string; amount: { amount: number }; status: string }) => [
        p.provider,
        p.amount.amount,
        p.status,
      ]),
    ).toEqual([['exchange_credit', 2400, 'completed']]);
    expect([exchange.status, exchange.payment_status]).toEqual(['confirmed', 'paid']);
    const after = await orderOf(a, order.id);
    expect(refundOf(after, done.refund_id).amount.amount).toBe(600);
    expect((await inventoryOf(a, mug.inventory_id)).on_hand).toBe(9);
    const cups = await inventoryOf(a, cup.inventory_id);
    expect([cups.on_hand, cups.reserved]).toEqual([10, 1]);

    // 60.00 paid − 6.00 refunded − 24.00 credit: 30.00 left.
    expectError(
      await a.post(`/v1/admin/orders/${order.id}/refunds`, { amount: 3001 }),
      422,
      'refund_exceeds_refundable',
      'amount',
    );
    // The exchanged unit is back in stock: it cannot be restocked again.
    expectError(
      await a.post(`/v1/admin/orders/${order.id}/refunds`, {
        lines: [{ order_line_id: order.lines[0].id, quantity: 2 }],
        amount: 100,
        restock: true,
      }),
      422,
      'quantity_exceeds_refundable',
      'lines[0][quantity]',
    );
    expectStatus(await a.post(`/v1/admin/orders/${order.id}/refunds`, { amount: 3000 }), 200);
  });

  test('6. exchange, credit 30.00 below the 36.00 exchange order: pending, partially paid; the merchant takes the rest', async () => {
    const a = api();
    await taxed(a, false);
    const mug = await createProduct(a, { price: 2500, on_hand: 10 });
    const jug = await createProduct(a, { price: 3000, on_hand: 10 });
    const { order } = await shippedOrder(a, [{ variant_id: mug.variant_id, quantity: 2 }]);
    const done = await complete(a, order.id, {
      return_type: 'exchange',
      lines: [{ order_line_id: order.lines[0].id, quantity: 1, exchange_variant_id: jug.variant_id }],
    });
    expect(done.refund_id).toBeNull();
    const exchange = await orderOf(a, done.exchange_order_id);
    expect(exchange.total.amount).toBe(3600);
    expect([exchange.status, exchange.payment_status, exchange.payments[0].amount.amount]).toEqual([
      'pending',
      'partially_paid',
      3000,
    ]);
    expectStatus(
      await a.post(`/v1/admin/orders/${exchange.id}/payments`, { amount: 600, provider: 'cash' }),
      200,
    );
    const paid = await orderOf(a, exchange.id);
    expect([paid.status, paid.payment_status]).toEqual(['confirmed', 'paid']);
  });

  test('an exchange short of stock at completion → 422 insufficient_inventory: nothing changes, the return stays received', async () => {
    const a = api();
    await taxed(a, false);
    const mug = await createProduct(a, { price: 2500, on_hand: 10 });
    const cup = await createProduct(a, { price: 2000, on_hand: 1 });
    const { order } = await shippedOrder(a, [{ variant_id: mug.variant_id, quantity: 2 }]);
    const ret = expectStatus(
      await a.post(`/v1/admin/orders/${order.id}/returns`, {
        return_type: 'exchange',
        lines: [{ order_line_id: order.lines[0].id, quantity: 1, exchange_variant_id: cup.variant_id }],
      }),
      200,
    ).body;
    expectStatus(await a.post(`/v1/admin/returns/${ret.id}/receive`, {}), 200);
    expectStatus(await a.post(`/v1/admin/inventory/${cup.inventory_id}/adjust`, { quantity: -1 }), 200);
    const before = [
      await orderOf(a, order.id),
      await inventoryOf(a, mug.inventory_id),
      await inventoryOf(a, cup.inventory_id),
    ];
    expectError(await a.post(`/v1/admin/returns/${ret.id}/complete`), 422, 'insufficient_inventory');
    expect(expectStatus(await a.get(`/v1/admin/returns/${ret.id}`), 200).body.status).toBe('received');
    expect([
      await orderOf(a, order.id),
      await inventoryOf(a, mug.inventory_id),
      await inventoryOf(a, cup.inventory_id),
    ]).toEqual(before);
  });

  test('exchange_credit is not a label the admin may record a payment under (400)', async () => {
    const a = api();
    const p = await createProduct(a, { price: 1000 });
    const { order } = await shippedOrder(a, [{ variant_id: p.variant_id, quantity: 1 }]);
    expectError(
      await a.post(`/v1/admin/orders/${order.id}/payments`, { amount: 100, provider: 'exchange_credit' }),
      400,
      'parameter_invalid',
      'provider',
    );
  });
});

describeApi('return completion: money rules, prices include tax (20 %)', (api) => {
  test('2. 3 × 10.00 (5.00 of it tax) = 30.00 paid; 2 damaged units back → 20.00 refunded, written off', async () => {
    const a = api();
    await taxed(a, true);
    const p = await createProduct(a, { price: 1000, on_hand: 10 });
    const { order } = await shippedOrder(a, [{ variant_id: p.variant_id, quantity: 3 }]);
    expect([order.total.amount, order.lines[0].tax_amount.amount]).toEqual([3000, 500]);
    const done = await complete(a, order.id, {
      reason: 'Broken in transit',
      lines: [{ order_line_id: order.lines[0].id, quantity: 2, condition: 'damaged' }],
    });
    const refund = refundOf(await orderOf(a, order.id), done.refund_id);
    expect([refund.amount.amount, refund.reason]).toEqual([2000, 'Broken in transit']);
    expect((await inventoryOf(a, p.inventory_id)).on_hand).toBe(7);
  });
});
