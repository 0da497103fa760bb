import { expect, test } from 'vitest';
import { checkout, createCart, createProduct, expectStatus } from './support/order-fixtures';
import { describeStripeApi, paidStripeOrder } from './support/stripe-fixtures';

/**
 * `engine.payments.reconcile({ limit })` acts on at most `limit` payments and `limit` refunds in
 * flight, and passes over — without counting them — the pending rows it has nothing to do for:
 * manual payments waiting for the admin, refunds still pending at Stripe. However many of those
 * there are, and however old, they never hide what reconciliation can settle behind them.
 */

describeStripeApi('reconciliation: limit counts only what it acts on', (ctx) => {
  test('3 refunds pending at Stripe, then 1 left in flight by a crash: reconcile with limit 1 settles the one in flight', async () => {
    const { api, plan } = ctx();
    const waiting: string[] = [];
    for (let i = 0; i < 3; i++) {
      const order = (await paidStripeOrder(api, 1200, 1)).order;
      plan.refund = 'pending';
      const refund = expectStatus(
        await api.post(`/v1/admin/orders/${order.id}/refunds`, { amount: 500 }),
        200,
      ).body;
      expect(refund.status).toBe('pending');
      waiting.push(order.id);
    }
    const order = (await paidStripeOrder(api, 1200, 1)).order;
    plan.refund = 'before';
    expect((await api.post(`/v1/admin/orders/${order.id}/refunds`, { amount: 400 })).status).toBe(500);
    const stuck = expectStatus(await api.get(`/v1/admin/orders/${order.id}`), 200).body.refunds[0];
    expect(stuck).toMatchObject({ status: 'pending' });

    const report = await api.engine.orders.payments.reconcile({ olderThanMs: 0, limit: 1 });
    expect(report.refunds).toMatchObject([
      { refund_id: stuck.id, order_id: order.id, outcome: 'refund_completed' },
    ]);
    const after = expectStatus(await api.get(`/v1/admin/orders/${order.id}`), 200).body;
    expect(after.refunds).toMatchObject([{ id: stuck.id, status: 'completed' }]);
    expect(after.refunded_total.amount).toBe(400);
    // The refunds pending at Stripe were passed over, untouched.
    for (const id of waiting) {
      const refunds = expectStatus(await api.get(`/v1/admin/orders/${id}/refunds`), 200).body;
      expect(refunds.data).toMatchObject([{ status: 'pending' }]);
    }
  });

  test('3 manual orders waiting for payment, then a Stripe checkout that died after the charge: limit 1 writes its order', async () => {
    const { api, fake, plan } = ctx();
    for (let i = 0; i < 3; i++) {
      const item = await createProduct(api, { price: 800, on_hand: 5 });
      const cart = await createCart(api, [{ variant_id: item.variant_id, quantity: 1 }]);
      const manual = expectStatus(
        await checkout(api, cart.id, { email: 'manual@example.com', payment_provider: 'manual' }),
        201,
      ).body;
      expect(manual.payments[0]).toMatchObject({ provider: 'manual', status: 'pending' });
    }
    const item = await createProduct(api, { price: 2100, on_hand: 5 });
    const cart = await createCart(api, [{ variant_id: item.variant_id, quantity: 1 }]);
    plan.crash = 'after';
    expect(
      (
        await checkout(api, cart.id, {
          email: 'crash@example.com',
          payment_provider: 'stripe',
          payment_method_id: 'pm_card_visa',
        })
      ).status,
    ).toBe(500);
    expect(fake.charges().filter((c) => c.metadata.cart_id === cart.id)).toHaveLength(1);

    const report = await api.engine.orders.payments.reconcile({ olderThanMs: 0, limit: 1 });
    expect(report.results).toMatchObject([{ provider: 'stripe', outcome: 'order_created' }]);
    expect(report.checked).toBe(4);
    const written = report.results[0]?.order_id;
    const order = expectStatus(await api.get(`/v1/admin/orders/${written}`), 200).body;
    expect(order).toMatchObject({ payment_status: 'paid', email: 'crash@example.com' });
  });
});
