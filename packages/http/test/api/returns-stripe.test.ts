import { expect, test } from 'vitest';
import type { TestApi } from './support/harness';
import { expectError, expectStatus, inventoryOf, unique } from './support/order-fixtures';
import { describeStripeApi, type FakeStripe, getOrder, paidStripeOrder } from './support/stripe-fixtures';

/**
 * A return's refund through Stripe (decisions §18: "through the order's payment provider like any
 * refund"): `complete` records the return completed, the stock back and the refund in flight in
 * one transaction, then asks Stripe outside it and settles the refund. An Idempotency-Key retry
 * answers as the first; a refusal is 402 with the return completed; a crash before Stripe was
 * asked leaves the refund in flight for reconciliation, which refunds exactly once.
 */

function refundsAt(fake: FakeStripe, intent: string) {
  return fake.refunds().filter((r) => r.payment_intent === intent);
}

/** A Stripe-paid order of `quantity` units at `price`, shipped, with a `received` return of every unit. */
async function receivedReturn(api: TestApi, price: number, quantity: number) {
  const { item, order, intent } = await paidStripeOrder(api, price, quantity);
  const line = order.lines[0];
  const f = expectStatus(
    await api.post(`/v1/admin/orders/${order.id}/fulfillments`, {
      lines: [{ order_line_id: line.id, quantity }],
    }),
    200,
  ).body;
  expectStatus(await api.post(`/v1/admin/fulfillments/${f.id}/ship`), 200);
  const ret = expectStatus(
    await api.post(`/v1/admin/orders/${order.id}/returns`, {
      reason: 'Changed my mind',
      lines: [{ order_line_id: line.id, quantity }],
    }),
    200,
  ).body;
  expectStatus(await api.post(`/v1/admin/returns/${ret.id}/receive`), 200);
  return { item, order, intent, ret };
}

describeStripeApi('returns refunded through Stripe (decisions §18)', (ctx) => {
  test('complete refunds at Stripe once; an Idempotency-Key retry answers as the first', async () => {
    const { api, fake } = ctx();
    const { item, order, intent, ret } = await receivedReturn(api, 1500, 2);
    const key = unique('complete-');
    const first = expectStatus(
      await api.request('POST', `/v1/admin/returns/${ret.id}/complete`, { idempotencyKey: key }),
      200,
    );
    expect(first.body).toMatchObject({ status: 'completed', refund_id: expect.stringMatching(/^ref_/) });
    const retry = expectStatus(
      await api.request('POST', `/v1/admin/returns/${ret.id}/complete`, { idempotencyKey: key }),
      200,
    );
    expect(retry.body).toEqual(first.body);
    expect(retry.headers.get('idempotent-replayed')).toBe('true');
    expect(refundsAt(fake, intent)).toHaveLength(1);
    expect(refundsAt(fake, intent)[0]).toMatchObject({ amount: 3000 });
    const after = await getOrder(api, order.id);
    expect(after.refunds).toEqual([
      expect.objectContaining({ id: first.body.refund_id, status: 'completed', restock: false }),
    ]);
    expect(after).toMatchObject({ payment_status: 'refunded', fulfillment_status: 'returned' });
    expect((await inventoryOf(api, item.inventory_id)).on_hand).toBe(10);
  });

  test('Stripe refuses the refund: 402 payment_failed; the return stays completed, its stock back, the refund failed', async () => {
    const { api, fake, plan } = ctx();
    const { item, order, intent, ret } = await receivedReturn(api, 1200, 1);
    plan.refund = 'refuse';
    const refused = await api.post(`/v1/admin/returns/${ret.id}/complete`);
    expectError(refused, 402, 'payment_failed');
    expect(refused.body.error.message).toContain('return was completed');
    const stored = expectStatus(await api.get(`/v1/admin/returns/${ret.id}`), 200).body;
    expect(stored.status).toBe('completed');
    const after = await getOrder(api, order.id);
    expect(after.refunds).toEqual([expect.objectContaining({ id: stored.refund_id, status: 'failed' })]);
    expect(after.refunded_total.amount).toBe(0);
    expect(refundsAt(fake, intent)).toEqual([]);
    expect((await inventoryOf(api, item.inventory_id)).on_hand).toBe(10);
    expectError(await api.post(`/v1/admin/returns/${ret.id}/complete`), 409, 'invalid_state_transition');
  });

  test('killed before Stripe was asked: the return is completed and its refund in flight; reconcile refunds exactly once', async () => {
    const { api, fake, plan } = ctx();
    const { order, intent, ret } = await receivedReturn(api, 1000, 1);
    plan.refund = 'before';
    const crashed = await api.post(`/v1/admin/returns/${ret.id}/complete`);
    expect(crashed.status).toBe(500);
    const stored = expectStatus(await api.get(`/v1/admin/returns/${ret.id}`), 200).body;
    expect(stored.status).toBe('completed');
    const during = await getOrder(api, order.id);
    expect(during.refunds).toEqual([expect.objectContaining({ id: stored.refund_id, status: 'pending' })]);
    expect(refundsAt(fake, intent)).toEqual([]);

    await api.engine.orders.payments.reconcile({ olderThanMs: 0 });
    await api.engine.orders.payments.reconcile({ olderThanMs: 0 });
    expect(refundsAt(fake, intent)).toHaveLength(1);
    const after = await getOrder(api, order.id);
    expect(after.refunds).toEqual([expect.objectContaining({ id: stored.refund_id, status: 'completed' })]);
    expect(after).toMatchObject({ payment_status: 'refunded', fulfillment_status: 'returned' });
  });
});
