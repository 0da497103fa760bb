import { expect, test } from 'vitest';
import type { TestApi } from './support/harness';
import {
  checkout,
  createCart,
  expectError,
  expectStatus,
  inventoryOf,
  recordEvents,
} from './support/order-fixtures';
import {
  deliverStripeEvent,
  describeStripeApi,
  type FakeStripe,
  getOrder,
  paidStripeOrder,
} from './support/stripe-fixtures';

/**
 * Refunds Stripe answers `pending` (payment methods that refund asynchronously; at the fake,
 * charges of `pm_card_pendingRefund`) are recorded `pending` with their effects applied, then
 * settled when Stripe finishes them: by its `refund.updated` / `refund.failed` webhook, or by
 * reconciliation asking Stripe (`lookupRefund`) when no webhook arrived.
 */

/** A paid Stripe order of `quantity` units at `price` (stock 10) whose refunds stay pending at Stripe. */
const paidOrder = (api: TestApi, price: number, quantity: number) =>
  paidStripeOrder(api, price, quantity, 'pm_card_pendingRefund');

/** The Stripe Refund made for our refund `refundId` (found by the metadata we sent). */
function stripeRefundOf(fake: FakeStripe, refundId: string) {
  const found = fake.refunds().filter((r) => r.metadata.refund_id === refundId);
  expect(found).toHaveLength(1);
  return found[0]!;
}

/** The last event of `type` the fake recorded about the Stripe Refund `stripeRefundId`. */
function eventAbout(fake: FakeStripe, type: string, stripeRefundId: string) {
  const event = fake
    .events()
    .filter((e) => e.type === type && e.data.object.id === stripeRefundId)
    .at(-1);
  if (!event) throw new Error(`no ${type} event for ${stripeRefundId}`);
  return event;
}

const deliver = deliverStripeEvent;

describeStripeApi('refunds pending at Stripe get settled', (ctx) => {
  test('refund.updated (succeeded): pending refund of 3000 → completed, refunded_total 3000, payment refunded; payment.refunded sent again; a repeat → unchanged', async () => {
    const { api, fake } = ctx();
    const events = recordEvents(api);
    try {
      const { order } = await paidOrder(api, 1500, 2);
      const total = order.total.amount;
      const refund = expectStatus(
        await api.post(`/v1/admin/orders/${order.id}/refunds`, { amount: total }),
        200,
      ).body;
      expect(refund).toMatchObject({ status: 'pending', amount: { amount: total } });
      let current = await getOrder(api, order.id);
      expect(current).toMatchObject({ refunded_total: { amount: 0 }, payment_status: 'paid' });
      expect(current.payments[0].status).toBe('completed');
      expect(current.refunds).toMatchObject([{ id: refund.id, status: 'pending' }]);

      // Our ids went to the Stripe Refund's metadata, named as the intent's.
      const atStripe = stripeRefundOf(fake, refund.id);
      expect(atStripe).toMatchObject({
        status: 'pending',
        amount: total,
        metadata: { refund_id: refund.id, order_id: order.id, store_id: api.scope.store_id, mode: 'test' },
      });

      fake.settleRefund(atStripe.id, 'succeeded');
      const updated = eventAbout(fake, 'refund.updated', atStripe.id);
      const ack = expectStatus(await deliver(api, fake, updated), 200).body;
      expect(ack).toEqual({ received: true, outcome: 'refund_completed' });

      current = await getOrder(api, order.id);
      expect(current.refunds).toMatchObject([{ id: refund.id, status: 'completed' }]);
      expect(current).toMatchObject({ refunded_total: { amount: total }, payment_status: 'refunded' });
      expect(current.payments[0].status).toBe('refunded');
      const refundedEvents = () =>
        events.seen.filter((e) => e.type === 'payment.refunded' && e.data.id === refund.id);
      expect(refundedEvents().map((e) => e.data.status)).toEqual(['pending', 'completed']);

      // At least once: the same delivery again changes nothing and sends nothing.
      expect(expectStatus(await deliver(api, fake, updated), 200).body).toEqual({
        received: true,
        outcome: 'unchanged',
      });
      expect(refundedEvents()).toHaveLength(2);
      expect((await getOrder(api, order.id)).refunded_total.amount).toBe(total);
    } finally {
      events.stop();
    }
  });

  test('refund.failed: the refund → failed, its money refundable again by amount, its units not (422), restocked inventory unchanged', async () => {
    const { api, fake } = ctx();
    const events = recordEvents(api);
    try {
      const { item, order } = await paidOrder(api, 1500, 2);
      const line = order.lines[0];
      const refund = expectStatus(
        await api.post(`/v1/admin/orders/${order.id}/refunds`, {
          lines: [{ order_line_id: line.id, quantity: 2 }],
          restock: true,
        }),
        200,
      ).body;
      expect(refund.status).toBe('pending');
      // Applied: the units are refunded and back in stock (they left reserved).
      const restocked = await inventoryOf(api, item.inventory_id);
      expect(restocked).toMatchObject({ on_hand: 10, reserved: 0, available: 10 });
      const before = await getOrder(api, order.id);
      expect(before.lines[0].refunded_quantity).toBe(2);

      const atStripe = stripeRefundOf(fake, refund.id);
      fake.settleRefund(atStripe.id, 'failed');
      const ack = expectStatus(await deliver(api, fake, eventAbout(fake, 'refund.failed', atStripe.id)), 200);
      expect(ack.body).toEqual({ received: true, outcome: 'refund_failed' });
      // refund.updated arrives too (any order): nothing more happens.
      expect(
        expectStatus(await deliver(api, fake, eventAbout(fake, 'refund.updated', atStripe.id)), 200).body,
      ).toEqual({ received: true, outcome: 'unchanged' });

      const after = await getOrder(api, order.id);
      expect(after.refunds).toMatchObject([{ id: refund.id, status: 'failed' }]);
      expect(after).toMatchObject({
        refunded_total: { amount: 0 },
        payment_status: 'paid',
        fulfillment_status: before.fulfillment_status,
      });
      expect(after.payments[0].status).toBe('completed');
      expect(after.lines[0].refunded_quantity).toBe(2);
      expect(await inventoryOf(api, item.inventory_id)).toEqual(restocked);
      expect(
        events.seen
          .filter((e) => e.type === 'payment.refunded' && e.data.id === refund.id)
          .map((e) => e.data.status),
      ).toEqual(['pending', 'failed']);

      // The units stay refunded; the money can be refunded again, by amount.
      expectError(
        await api.post(`/v1/admin/orders/${order.id}/refunds`, {
          lines: [{ order_line_id: line.id, quantity: 1 }],
        }),
        422,
        'quantity_exceeds_refundable',
      );
      const again = expectStatus(
        await api.post(`/v1/admin/orders/${order.id}/refunds`, { amount: refund.amount.amount }),
        200,
      ).body;
      expect(again).toMatchObject({ status: 'pending', amount: { amount: refund.amount.amount }, lines: [] });
      expect(await inventoryOf(api, item.inventory_id)).toEqual(restocked);
      // The failed refund's units left `reserved` for good: cancelling the order releases nothing
      // more — another order's 3 reserved units of the variant stay reserved.
      const other = await createCart(api, [{ variant_id: item.variant_id, quantity: 3 }]);
      expectStatus(
        await checkout(api, other.id, { email: 'other@example.com', payment_provider: 'manual' }),
        201,
      );
      expect(await inventoryOf(api, item.inventory_id)).toMatchObject({ on_hand: 10, reserved: 3 });
      expectStatus(await api.post(`/v1/admin/orders/${order.id}/cancel`), 200);
      expect(await inventoryOf(api, item.inventory_id)).toMatchObject({
        on_hand: 10,
        reserved: 3,
        available: 7,
      });
    } finally {
      events.stop();
    }
  });

  test('no webhook: reconcile asks Stripe — settled succeeded → refund_completed, failed → refund_failed, still pending → refund_pending and stays', async () => {
    const { api, fake } = ctx();
    const pendingRefund = async () => {
      const { order } = await paidOrder(api, 1000, 1);
      const refund = expectStatus(
        await api.post(`/v1/admin/orders/${order.id}/refunds`, { amount: order.total.amount }),
        200,
      ).body;
      return { order, refund, atStripe: stripeRefundOf(fake, refund.id) };
    };
    const done = await pendingRefund();
    const refused = await pendingRefund();
    const waiting = await pendingRefund();
    fake.settleRefund(done.atStripe.id, 'succeeded');
    fake.settleRefund(refused.atStripe.id, 'failed');

    const report = await api.engine.orders.payments.reconcile({ olderThanMs: 0 });
    const outcomeOf = (refundId: string) => report.refunds.filter((r) => r.refund_id === refundId);
    expect(outcomeOf(done.refund.id)).toMatchObject([
      { order_id: done.order.id, outcome: 'refund_completed' },
    ]);
    expect(outcomeOf(refused.refund.id)).toMatchObject([{ outcome: 'refund_failed' }]);
    expect(outcomeOf(waiting.refund.id)).toMatchObject([{ outcome: 'refund_pending' }]);

    const completed = await getOrder(api, done.order.id);
    expect(completed.refunds).toMatchObject([{ status: 'completed' }]);
    expect(completed).toMatchObject({
      refunded_total: { amount: done.order.total.amount },
      payment_status: 'refunded',
    });
    const failed = await getOrder(api, refused.order.id);
    expect(failed.refunds).toMatchObject([{ status: 'failed' }]);
    expect(failed).toMatchObject({ refunded_total: { amount: 0 }, payment_status: 'paid' });
    const still = await getOrder(api, waiting.order.id);
    expect(still.refunds).toMatchObject([{ status: 'pending' }]);
    expect(still).toMatchObject({ refunded_total: { amount: 0 }, payment_status: 'paid' });

    // Once Stripe finishes it, the next run settles the one that waited.
    fake.settleRefund(waiting.atStripe.id, 'succeeded');
    const next = await api.engine.orders.payments.reconcile({ olderThanMs: 0 });
    expect(next.refunds.filter((r) => r.refund_id === waiting.refund.id)).toMatchObject([
      { outcome: 'refund_completed' },
    ]);
    expect(next.refunds.filter((r) => r.refund_id === done.refund.id)).toEqual([]);
    expect((await getOrder(api, waiting.order.id)).refunds).toMatchObject([{ status: 'completed' }]);
  });

  test('a refund webhook with a bad signature → 400, the refund stays pending; a Stripe refund without our ids → unchanged', async () => {
    const { api, fake } = ctx();
    const { order, intent } = await paidOrder(api, 1200, 1);
    const refund = expectStatus(
      await api.post(`/v1/admin/orders/${order.id}/refunds`, { amount: 500 }),
      200,
    ).body;
    const atStripe = stripeRefundOf(fake, refund.id);
    fake.settleRefund(atStripe.id, 'succeeded');
    const updated = eventAbout(fake, 'refund.updated', atStripe.id);
    expectError(await deliver(api, fake, updated, 'whsec_wrong'), 400, 'parameter_invalid');
    expect((await getOrder(api, order.id)).refunds).toMatchObject([{ id: refund.id, status: 'pending' }]);

    // A refund made in the Stripe dashboard carries none of our ids: acknowledged, ignored.
    const stripe = await fetch(`${fake.url}/v1/refunds`, {
      method: 'POST',
      headers: {
        authorization: 'Bearer sk_test_cartwright',
        'content-type': 'application/x-www-form-urlencoded',
      },
      body: `payment_intent=${intent}&amount=100`,
    }).then((res) => res.json() as Promise<{ id: string }>);
    fake.settleRefund(stripe.id, 'succeeded');
    expect(
      expectStatus(await deliver(api, fake, eventAbout(fake, 'refund.updated', stripe.id)), 200).body,
    ).toEqual({
      received: true,
      outcome: 'unchanged',
    });
    // charge.refund.updated (a Refund too) settles ours.
    expect(
      expectStatus(
        await deliver(api, fake, fake.refundWebhookEvent('charge.refund.updated', atStripe.id)),
        200,
      ).body,
    ).toEqual({ received: true, outcome: 'refund_completed' });
    expect((await getOrder(api, order.id)).refunded_total.amount).toBe(500);
  });
});
