import { expect, test } from 'vitest';
import type { TestApi } from './support/harness';
import { createProduct, expectError, expectStatus, inventoryOf } from './support/order-fixtures';
import { describeStripeApi, type FakeStripe, getOrder, paidStripeOrder } from './support/stripe-fixtures';

const paidOrder = (api: TestApi, price: number, quantity: number) => paidStripeOrder(api, price, quantity);

function refundsAt(fake: FakeStripe, intent: string) {
  return fake.refunds().filter((r) => r.payment_intent === intent);
}

describeStripeApi('refunds: provider calls outside the transaction, reconciliation', (ctx) => {
  test('while Stripe handles a refund, other writes go through, the refund shows pending and its units and amount are taken', async () => {
    const { api, fake, plan } = ctx();
    const { item, order, intent } = await paidOrder(api, 1500, 2);
    const line = order.lines[0];
    let release: () => void = () => {};
    let inFlight: () => void = () => {};
    const reached = new Promise<void>((resolve) => {
      inFlight = resolve;
    });
    plan.beforeRefund = () => {
      inFlight();
      return new Promise<void>((resolve) => {
        release = resolve;
      });
    };
    const refunding = api.post(`/v1/admin/orders/${order.id}/refunds`, {
      lines: [{ order_line_id: line.id, quantity: 2 }],
      restock: true,
    });
    await reached;
    plan.beforeRefund = null;
    try {
      // No transaction is open: another writer (on SQLite, the single writer lock) goes through.
      await createProduct(api, { price: 100 });
      const during = await getOrder(api, order.id);
      expect(during.refunds).toMatchObject([{ status: 'pending', amount: { amount: during.total.amount } }]);
      expect(during).toMatchObject({ refunded_total: { amount: 0 }, payment_status: 'paid' });
      expect(during.lines[0].refunded_quantity).toBe(0);
      // Taken already: neither a unit nor a cent more can be refunded meanwhile.
      expectError(
        await api.post(`/v1/admin/orders/${order.id}/refunds`, {
          lines: [{ order_line_id: line.id, quantity: 1 }],
        }),
        422,
        'quantity_exceeds_refundable',
      );
      expectError(
        await api.post(`/v1/admin/orders/${order.id}/refunds`, { amount: 1 }),
        422,
        'refund_exceeds_refundable',
      );
    } finally {
      release();
    }
    const refund = expectStatus(await refunding, 200).body;
    expect(refund).toMatchObject({ status: 'completed', amount: { amount: order.total.amount } });
    const after = await getOrder(api, order.id);
    expect(after).toMatchObject({
      payment_status: 'refunded',
      refunded_total: { amount: order.total.amount },
    });
    expect(after.lines[0]).toMatchObject({ refunded_quantity: 2 });
    expect(await inventoryOf(api, item.inventory_id)).toMatchObject({ reserved: 0, on_hand: 10 });
    expect(refundsAt(fake, intent)).toHaveLength(1);
  });

  test('Stripe refuses: 402 payment_failed, the refund is recorded failed and nothing else moves', async () => {
    const { api, fake, plan } = ctx();
    const { item, order, intent } = await paidOrder(api, 2000, 1);
    plan.refund = 'refuse';
    const res = await api.post(`/v1/admin/orders/${order.id}/refunds`, {
      lines: [{ order_line_id: order.lines[0].id, quantity: 1 }],
      restock: true,
    });
    expectError(res, 402, 'payment_failed');
    const after = await getOrder(api, order.id);
    expect(after.refunds).toMatchObject([{ status: 'failed' }]);
    expect(after).toMatchObject({ payment_status: 'paid', refunded_total: { amount: 0 } });
    expect(after.lines[0].refunded_quantity).toBe(0);
    expect(after.payments[0].status).toBe('completed');
    expect(await inventoryOf(api, item.inventory_id)).toMatchObject({ reserved: 1, on_hand: 10 });
    expect(refundsAt(fake, intent)).toHaveLength(0);
    // A failed refund takes nothing: the same refund succeeds now.
    expectStatus(
      await api.post(`/v1/admin/orders/${order.id}/refunds`, {
        lines: [{ order_line_id: order.lines[0].id, quantity: 1 }],
        restock: true,
      }),
      200,
    );
    expect(refundsAt(fake, intent)).toHaveLength(1);
  });

  test.each([
    ['before the refund call', 'before'],
    ['after Stripe refunded', 'after'],
  ] as const)(
    'killed %s: the refund stays pending and taken; reconcile makes exactly one Stripe refund and applies it',
    async (_label, fault) => {
      const { api, fake, plan } = ctx();
      const { item, order, intent } = await paidOrder(api, 1200, 3);
      const line = order.lines[0];
      plan.refund = fault;
      const res = await api.post(`/v1/admin/orders/${order.id}/refunds`, {
        lines: [{ order_line_id: line.id, quantity: 2 }],
        restock: true,
      });
      expect(res.status).toBe(500);
      expect(refundsAt(fake, intent)).toHaveLength(fault === 'after' ? 1 : 0);
      const stuck = await getOrder(api, order.id);
      expect(stuck.refunds).toMatchObject([{ status: 'pending' }]);
      expect(stuck.lines[0].refunded_quantity).toBe(0);
      expectError(
        await api.post(`/v1/admin/orders/${order.id}/refunds`, {
          lines: [{ order_line_id: line.id, quantity: 2 }],
        }),
        422,
        'quantity_exceeds_refundable',
      );

      const report = await api.engine.orders.payments.reconcile({ olderThanMs: 0 });
      const mine = report.refunds.filter((r) => r.order_id === order.id);
      expect(mine).toMatchObject([{ refund_id: stuck.refunds[0].id, outcome: 'refund_completed' }]);
      const refunds = refundsAt(fake, intent);
      expect(refunds).toHaveLength(1);
      const refunded = stuck.refunds[0].amount.amount;
      expect(refunds[0]?.amount).toBe(refunded);
      const after = await getOrder(api, order.id);
      expect(after.refunds).toMatchObject([{ status: 'completed' }]);
      expect(after).toMatchObject({
        payment_status: 'partially_refunded',
        refunded_total: { amount: refunded },
      });
      expect(after.lines[0]).toMatchObject({ refunded_quantity: 2 });
      expect(await inventoryOf(api, item.inventory_id)).toMatchObject({ reserved: 1, on_hand: 10 });

      // Reconciling again changes nothing.
      const again = await api.engine.orders.payments.reconcile({ olderThanMs: 0 });
      expect(again.refunds.filter((r) => r.order_id === order.id)).toEqual([]);
      expect(refundsAt(fake, intent)).toHaveLength(1);
    },
  );
});
