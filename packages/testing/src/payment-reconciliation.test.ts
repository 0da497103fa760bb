import { CommerceError, createEngine } from '@cartwright/core';
import { engineInternals } from '@cartwright/core/internal';
import { afterEach, describe, expect, test } from 'vitest';
import { createTestEngine, type TestEngine } from './create-test-engine';
import { createScriptedProvider, type ScriptedProvider, webhookOf } from './scripted-provider.test-support';

/**
 * Payment reconciliation, provider webhooks and refunds settled later, at engine level: core's
 * `reconcilePayments`, `syncOrderPayment`, `handlePaymentWebhook` and `reconcileRefunds` on a real
 * SQLite, driven by a provider whose every answer is scripted.
 */

let t: TestEngine;
let acme: ScriptedProvider;

async function setup(options: Parameters<typeof createScriptedProvider>[1] = {}) {
  acme = createScriptedProvider('acme', options);
  t = await createTestEngine({ providers: [acme] });
  return t;
}

afterEach(async () => {
  await t?.close();
});

async function errorOf(promise: Promise<unknown>): Promise<unknown> {
  return promise.then(
    () => null,
    (e: unknown) => e,
  );
}

async function expectCode(promise: Promise<unknown>, code: string) {
  const error = await errorOf(promise);
  expect(CommerceError.is(error), String(error)).toBe(true);
  expect((error as CommerceError).code).toBe(code);
  return error as CommerceError;
}

/** A cart of `quantity` units at `price`, with its inventory id. */
async function cartOf(price = 1500, quantity = 2) {
  const { variant } = await t.fixtures.product({ price, on_hand: 10 });
  const cart = await t.fixtures.cart([{ variant_id: variant.id, quantity }]);
  return { cart, variant, inventoryId: variant.inventory.id };
}

/** Reconciles everything recorded so far (the clock moves on: only older payments are examined). */
const reconcileNow = () => {
  t.clock.advance('1s');
  return t.engine.payments.reconcile({ olderThanMs: 0 });
};
const handle = (provider: string, input: ReturnType<typeof webhookOf>) =>
  engineInternals(t.engine).payments.handleWebhook(provider, input);

describe('reconcile: open checkout attempts', () => {
  test('charged but never answered: the attempt stays open (409 on retry); reconcile writes the one paid order', async () => {
    await setup();
    const { cart, inventoryId } = await cartOf(1500, 2);
    acme.charge = 'charge_then_throw';
    const error = await errorOf(t.checkout(cart.id, { payment_provider: 'acme' }));
    // The outcome is unknown (not a refusal): the provider's error surfaces, nothing is settled.
    expect(CommerceError.is(error)).toBe(false);
    expect((error as Error).message).toBe('socket hang up');
    expect(acme.charges).toHaveLength(1);
    expect((await t.store.inventory.get(inventoryId)).reserved).toBe(2);
    await expectCode(t.checkout(cart.id, { payment_provider: 'acme' }), 'cart_not_active');

    const report = await reconcileNow();
    expect(report.results).toHaveLength(1);
    expect(report.results[0]).toMatchObject({ provider: 'acme', outcome: 'order_created' });
    const order = await t.store.orders.get(report.results[0]!.order_id!);
    expect(order).toMatchObject({ status: 'confirmed', payment_status: 'paid', total: { amount: 3000 } });
    expect(order.payments[0]?.provider_id).toBe(acme.charges[0]?.provider_id);
    expect(acme.charges).toHaveLength(1);
    expect((await t.store.carts.get(cart.id)).status).toBe('completed');

    const again = await reconcileNow();
    expect(again.results).toEqual([]);
  });

  test('never reached and unknown to the provider: reconcile closes the attempt and releases the units', async () => {
    await setup();
    const { cart, inventoryId } = await cartOf(1000, 3);
    acme.charge = 'throw';
    await errorOf(t.checkout(cart.id, { payment_provider: 'acme' }));
    expect((await t.store.inventory.get(inventoryId)).reserved).toBe(3);

    const report = await reconcileNow();
    expect(report.results.map((r) => [r.outcome, r.order_id])).toEqual([['cancelled', null]]);
    expect((await t.store.inventory.get(inventoryId)).reserved).toBe(0);
    expect(acme.charges).toHaveLength(0);
    // The cart can be checked out again.
    acme.charge = 'succeed';
    const order = await t.checkout(cart.id, { payment_provider: 'acme' });
    expect(order.payment_status).toBe('paid');
  });

  test('a provider without lookupPayment is asked again with createPayment and the same key', async () => {
    await setup({ lookupPayment: false });
    const { cart } = await cartOf(700, 1);
    acme.charge = 'throw';
    await errorOf(t.checkout(cart.id, { payment_provider: 'acme' }));
    acme.charge = 'succeed';
    const report = await reconcileNow();
    expect(report.results.map((r) => r.outcome)).toEqual(['order_created']);
    const creates = acme.calls.filter((c) => c.startsWith('create:'));
    expect(creates).toHaveLength(2);
    expect(new Set(creates).size).toBe(1);
  });

  test('declined at the provider: the attempt is closed as declined and its units released', async () => {
    await setup();
    const { cart, inventoryId } = await cartOf(900, 1);
    acme.charge = 'charge_then_throw';
    await errorOf(t.checkout(cart.id, { payment_provider: 'acme' }));
    acme.setCharge(acme.charges[0]!.provider_id, 'failed');
    const report = await reconcileNow();
    expect(report.results.map((r) => [r.outcome, r.order_id])).toEqual([['declined', null]]);
    expect((await t.store.inventory.get(inventoryId)).reserved).toBe(0);
  });

  test('a lookup the provider refuses closes the attempt as declined; one that fails is an error retried next run', async () => {
    await setup();
    const first = await cartOf(500, 1);
    acme.charge = 'throw';
    await errorOf(t.checkout(first.cart.id, { payment_provider: 'acme' }));

    acme.lookup = 'throw';
    const failed = await reconcileNow();
    expect(failed.results).toHaveLength(1);
    expect(failed.results[0]).toMatchObject({ outcome: 'error', message: 'provider unreachable' });
    expect((await t.store.inventory.get(first.inventoryId)).reserved).toBe(1);

    acme.lookup = 'refuse';
    const refused = await reconcileNow();
    expect(refused.results.map((r) => r.outcome)).toEqual(['declined']);
    expect((await t.store.inventory.get(first.inventoryId)).reserved).toBe(0);
  });

  test('the order is refused by now (the discount ran out): the money is given back and the attempt closed', async () => {
    await setup();
    const { variant } = await t.fixtures.product({ price: 2000, on_hand: 10 });
    await t.fixtures.discount({ code: 'ONCE', usage_limit: 1 });
    const a = await t.fixtures.cart([{ variant_id: variant.id }], { discount_codes: ['ONCE'] });
    const b = await t.fixtures.cart([{ variant_id: variant.id }], { discount_codes: ['ONCE'] });
    acme.charge = 'charge_then_throw';
    await errorOf(t.checkout(a.id, { payment_provider: 'acme' }));
    const paid = await t.checkout(b.id);
    expect(paid.discount_total.amount).toBe(200);

    const report = await reconcileNow();
    expect(report.results.map((r) => [r.outcome, r.order_id])).toEqual([['refunded', null]]);
    expect(acme.refunds).toHaveLength(1);
    expect(acme.refunds[0]).toMatchObject({ amount: acme.charges[0]!.amount });
    expect(acme.refunds[0]?.idempotency_key).toMatch(/_giveback$/);
  });

  test('the order is refused by now and the charge awaits action: it is voided (cancelled)', async () => {
    await setup();
    const { variant } = await t.fixtures.product({ price: 2000, on_hand: 10 });
    await t.fixtures.discount({ code: 'ONCE', usage_limit: 1 });
    const a = await t.fixtures.cart([{ variant_id: variant.id }], { discount_codes: ['ONCE'] });
    const b = await t.fixtures.cart([{ variant_id: variant.id }], { discount_codes: ['ONCE'] });
    acme.charge = 'charge_then_throw';
    await errorOf(t.checkout(a.id, { payment_provider: 'acme' }));
    acme.setCharge(acme.charges[0]!.provider_id, 'requires_action');
    await t.checkout(b.id);

    const report = await reconcileNow();
    expect(report.results.map((r) => r.outcome)).toEqual(['cancelled']);
    expect(acme.refunds).toHaveLength(0);
    expect(acme.calls.filter((c) => c.startsWith('cancel:'))).toEqual([
      `cancel:${acme.charges[0]!.provider_id}`,
    ]);
  });

  test('olderThanMs leaves young attempts alone; limit caps the payments acted on; limit 0 acts on none', async () => {
    await setup();
    acme.charge = 'charge_then_throw';
    for (let i = 0; i < 3; i++) {
      const { cart } = await cartOf(100 + i, 1);
      await errorOf(t.checkout(cart.id, { payment_provider: 'acme' }));
    }
    expect((await t.engine.payments.reconcile({ olderThanMs: 60_000 })).results).toEqual([]);
    expect((await t.engine.payments.reconcile({ olderThanMs: 0, limit: 0 })).results).toEqual([]);
    t.clock.advance('11m');
    const capped = await t.engine.payments.reconcile({ limit: 2 });
    expect(capped.results.map((r) => r.outcome)).toEqual(['order_created', 'order_created']);
    const rest = await t.engine.payments.reconcile();
    expect(rest.results.map((r) => r.outcome)).toEqual(['order_created']);
  });

  test('a payment whose provider this engine does not register is skipped with a message', async () => {
    await setup();
    const { cart } = await cartOf(800, 1);
    acme.charge = 'throw';
    await errorOf(t.checkout(cart.id, { payment_provider: 'acme' }));
    const other = await createEngine({ storage: t.engine.storage, migrate: false, clock: t.clock });
    t.clock.advance('1s');
    const report = await other.payments.reconcile({ olderThanMs: 0 });
    expect(report.results).toHaveLength(1);
    expect(report.results[0]).toMatchObject({
      outcome: 'skipped',
      provider: 'acme',
      message: "payment provider 'acme' is not registered",
    });
  });

  test('unpaid manual orders wait for the admin: counted in checked, not acted on', async () => {
    await setup();
    const { cart } = await cartOf(800, 1);
    const order = await t.checkout(cart.id, { payment_provider: 'manual' });
    expect(order.payment_status).toBe('unpaid');
    const report = await reconcileNow();
    expect(report).toMatchObject({ checked: 1, results: [], refunds: [] });
  });
});

describe('reconcile and webhooks: pending payments of orders (3-D Secure)', () => {
  async function pendingOrder(price = 1200) {
    const { cart, inventoryId } = await cartOf(price, 1);
    acme.charge = 'requires_action';
    const order = await t.checkout(cart.id, { payment_provider: 'acme' });
    expect(order).toMatchObject({ status: 'pending', payment_status: 'unpaid' });
    const payment = order.payments[0]!;
    expect(payment).toMatchObject({ status: 'pending', provider_id: acme.charges.at(-1)?.provider_id });
    return { order, payment, inventoryId };
  }

  test('reconcile: unchanged while the customer has not acted, then payment_completed once the provider took the money', async () => {
    await setup();
    const { order, payment } = await pendingOrder();
    expect((await reconcileNow()).results.map((r) => r.outcome)).toEqual(['unchanged']);
    acme.setCharge(payment.provider_id!, 'succeeded');
    const report = await reconcileNow();
    expect(report.results).toMatchObject([{ outcome: 'payment_completed', order_id: order.id }]);
    expect(await t.store.orders.get(order.id)).toMatchObject({ status: 'confirmed', payment_status: 'paid' });
    expect(t.events.list('payment.completed').map((e) => e.data.id)).toContain(payment.id);
  });

  test('reconcile: a failed payment cancels the order and releases its units', async () => {
    await setup();
    const { order, payment, inventoryId } = await pendingOrder();
    expect((await t.store.inventory.get(inventoryId)).reserved).toBe(1);
    acme.setCharge(payment.provider_id!, 'failed');
    expect((await reconcileNow()).results.map((r) => r.outcome)).toEqual(['payment_failed']);
    const after = await t.store.orders.get(order.id);
    expect(after.status).toBe('cancelled');
    expect(after.payments[0]).toMatchObject({ status: 'failed' });
    expect((await t.store.inventory.get(inventoryId)).reserved).toBe(0);
  });

  test('an amount that differs from the payment on record changes nothing', async () => {
    await setup();
    const { order, payment } = await pendingOrder(1200);
    acme.setCharge(payment.provider_id!, 'succeeded', 1);
    expect((await reconcileNow()).results.map((r) => r.outcome)).toEqual(['unchanged']);
    expect((await t.store.orders.get(order.id)).payment_status).toBe('unpaid');
  });

  test('money taken after the order was cancelled is refunded once (late_payment_refunded), then left alone', async () => {
    await setup();
    const { order, payment } = await pendingOrder(1300);
    acme.setCharge(payment.provider_id!, 'failed');
    await reconcileNow();
    expect((await t.store.orders.get(order.id)).status).toBe('cancelled');
    // The provider later reports the money taken after all (a late 3-D Secure success).
    acme.setCharge(payment.provider_id!, 'succeeded');
    const outcome = await handle(
      'acme',
      webhookOf({ action: 'succeeded', provider_id: payment.provider_id, payment_id: payment.id }),
    );
    expect(outcome).toEqual({ received: true, outcome: 'late_payment_refunded' });
    expect(acme.refunds).toMatchObject([{ amount: 1300, idempotency_key: `${payment.id}_late_refund` }]);
    const again = await handle(
      'acme',
      webhookOf({ action: 'succeeded', provider_id: payment.provider_id, payment_id: payment.id }),
    );
    expect(again.outcome).toBe('unchanged');
    expect(acme.refunds).toHaveLength(1);
  });

  test('a late refund the provider refuses leaves the payment as it was (retried by the next delivery)', async () => {
    await setup();
    const { payment } = await pendingOrder(1300);
    acme.setCharge(payment.provider_id!, 'failed');
    await reconcileNow();
    acme.refund = 'fail';
    const event = webhookOf({
      action: 'succeeded',
      provider_id: payment.provider_id,
      payment_id: payment.id,
    });
    expect((await handle('acme', event)).outcome).toBe('unchanged');
    acme.refund = 'succeed';
    expect((await handle('acme', event)).outcome).toBe('late_payment_refunded');
  });

  test('webhooks: succeeded completes the payment; a repeat is unchanged', async () => {
    await setup();
    const { order, payment } = await pendingOrder();
    const event = webhookOf({
      action: 'succeeded',
      provider_id: payment.provider_id,
      payment_id: payment.id,
      amount: 1200,
      store_id: t.scope.store_id,
      mode: 'test',
    });
    expect(await handle('acme', event)).toEqual({ received: true, outcome: 'payment_completed' });
    expect((await t.store.orders.get(order.id)).payment_status).toBe('paid');
    expect(await handle('acme', event)).toEqual({ received: true, outcome: 'unchanged' });
  });

  test.each(['failed', 'canceled'] as const)(
    'webhooks: %s fails the payment and cancels the order',
    async (action) => {
      await setup();
      const { order, payment } = await pendingOrder();
      const ack = await handle(
        'acme',
        webhookOf({
          action,
          provider_id: payment.provider_id,
          payment_id: payment.id,
          failure_code: 'expired_card',
        }),
      );
      expect(ack.outcome).toBe('payment_failed');
      const after = await t.store.orders.get(order.id);
      expect(after.status).toBe('cancelled');
      expect(after.payments[0]?.status).toBe(action === 'failed' ? 'failed' : 'cancelled');
    },
  );

  test('webhooks that change nothing: requires_action, not_supported, no payment id, an unknown payment, another provider id, another amount', async () => {
    await setup();
    const { order, payment } = await pendingOrder(1200);
    const cases = [
      { action: 'requires_action' as const, provider_id: payment.provider_id, payment_id: payment.id },
      { action: 'not_supported' as const, provider_id: payment.provider_id, payment_id: payment.id },
      { action: 'succeeded' as const, provider_id: payment.provider_id, payment_id: null },
      { action: 'succeeded' as const, provider_id: payment.provider_id, payment_id: 'pay_unknown' },
      { action: 'succeeded' as const, provider_id: 'pi_someone_else', payment_id: payment.id },
      {
        action: 'succeeded' as const,
        provider_id: payment.provider_id,
        payment_id: payment.id,
        amount: 1199,
      },
    ];
    for (const event of cases) {
      expect(await handle('acme', webhookOf(event)), JSON.stringify(event)).toEqual({
        received: true,
        outcome: 'unchanged',
      });
    }
    expect((await t.store.orders.get(order.id)).payment_status).toBe('unpaid');
  });

  test('webhooks: a payment of another provider is unchanged; a provider without webhooks or unknown is not_found; a missing signature is refused', async () => {
    await setup();
    const { cart } = await cartOf(500, 1);
    const other = await t.checkout(cart.id, { payment_method_id: 'pm_card_authenticationRequired' });
    const otherPayment = other.payments[0]!;
    expect(
      (
        await handle(
          'acme',
          webhookOf({
            action: 'succeeded',
            provider_id: otherPayment.provider_id,
            payment_id: otherPayment.id,
          }),
        )
      ).outcome,
    ).toBe('unchanged');
    await expectCode(handle('fake_card', webhookOf({ action: 'succeeded' })), 'not_found');
    await expectCode(handle('nope', webhookOf({ action: 'succeeded' })), 'not_found');
    await expectCode(handle('acme', webhookOf({ action: 'succeeded' }, false)), 'parameter_missing');
  });
});

describe('refunds the provider settles later', () => {
  async function paidOrder(price = 1500, quantity = 2) {
    const { cart, inventoryId } = await cartOf(price, quantity);
    acme.charge = 'succeed';
    const order = await t.checkout(cart.id, { payment_provider: 'acme' });
    expect(order.payment_status).toBe('paid');
    return { order, inventoryId };
  }

  test('a pending refund settled by reconcile (lookupRefund): pending → still pending → completed', async () => {
    await setup();
    const { order } = await paidOrder();
    acme.refund = 'pending';
    const refund = await t.store.orders.refunds.create(order.id, { amount: 1000 });
    expect(refund.status).toBe('pending');

    const still = await reconcileNow();
    expect(still.refunds).toMatchObject([
      { refund_id: refund.id, order_id: order.id, outcome: 'refund_pending' },
    ]);

    acme.setRefund(acme.refunds[0]!.provider_refund_id, 'succeeded');
    const done = await reconcileNow();
    expect(done.refunds).toMatchObject([{ refund_id: refund.id, outcome: 'refund_completed' }]);
    const after = await t.store.orders.get(order.id);
    expect(after.refunds[0]?.status).toBe('completed');
    expect(after.refunded_total.amount).toBe(1000);
    expect((await reconcileNow()).refunds).toEqual([]);
  });

  test('a pending refund the provider fails: refund_failed, the money refundable again', async () => {
    await setup();
    const { order } = await paidOrder(1500, 2);
    acme.refund = 'pending';
    const refund = await t.store.orders.refunds.create(order.id, { amount: 3000 });
    acme.setRefund(acme.refunds[0]!.provider_refund_id, 'failed');
    expect((await reconcileNow()).refunds).toMatchObject([
      { refund_id: refund.id, outcome: 'refund_failed' },
    ]);
    const after = await t.store.orders.get(order.id);
    expect(after).toMatchObject({ refunded_total: { amount: 0 }, payment_status: 'paid' });
    acme.refund = 'succeed';
    expect((await t.store.orders.refunds.create(order.id, { amount: 3000 })).status).toBe('completed');
  });

  test('a pending refund the provider does not know: reported as an error', async () => {
    await setup();
    const { order } = await paidOrder();
    acme.refund = 'pending';
    await t.store.orders.refunds.create(order.id, { amount: 500 });
    acme.refunds.splice(0);
    const report = await reconcileNow();
    expect(report.refunds).toHaveLength(1);
    expect(report.refunds[0]).toMatchObject({ outcome: 'error' });
    expect(report.refunds[0]?.message).toMatch(/No payment provider of the order knows the refund/);
  });

  test('without lookupRefund a pending refund is left to the webhook; refund_updated settles it', async () => {
    await setup({ lookupRefund: false });
    const { order } = await paidOrder(1500, 2);
    acme.refund = 'pending';
    const refund = await t.store.orders.refunds.create(order.id, { amount: 3000 });
    expect((await reconcileNow()).refunds).toEqual([]);
    const providerRefundId = acme.refunds[0]!.provider_refund_id;

    const base = { action: 'refund_updated' as const, provider_id: null, payment_id: null };
    // Incomplete or mismatched deliveries change nothing.
    for (const event of [
      { ...base, refund_id: refund.id, order_id: order.id },
      { ...base, refund_id: refund.id, refund_status: 'succeeded' as const },
      { ...base, refund_id: 'ref_unknown', order_id: order.id, refund_status: 'succeeded' as const },
      { ...base, refund_id: refund.id, order_id: 'ord_unknown', refund_status: 'succeeded' as const },
      {
        ...base,
        refund_id: refund.id,
        order_id: order.id,
        provider_refund_id: 're_other',
        refund_status: 'succeeded' as const,
      },
    ]) {
      expect((await handle('acme', webhookOf(event))).outcome, JSON.stringify(event)).toBe('unchanged');
    }
    const event = webhookOf({
      ...base,
      refund_id: refund.id,
      order_id: order.id,
      provider_refund_id: providerRefundId,
      refund_status: 'succeeded',
    });
    expect(await handle('acme', event)).toEqual({ received: true, outcome: 'refund_completed' });
    expect(await t.store.orders.get(order.id)).toMatchObject({
      refunded_total: { amount: 3000 },
      payment_status: 'refunded',
    });
    expect((await handle('acme', event)).outcome).toBe('unchanged');
  });

  test('refund_updated failed: refund_failed', async () => {
    await setup();
    const { order } = await paidOrder(1000, 1);
    acme.refund = 'pending';
    const refund = await t.store.orders.refunds.create(order.id, { amount: 1000 });
    const ack = await handle(
      'acme',
      webhookOf({
        action: 'refund_updated',
        refund_id: refund.id,
        order_id: order.id,
        refund_status: 'failed',
        failure_message: 'Account closed',
        store_id: t.scope.store_id,
        mode: 'test',
      }),
    );
    expect(ack.outcome).toBe('refund_failed');
    const after = await t.store.orders.get(order.id);
    expect(after.refunds[0]).toMatchObject({ status: 'failed' });
  });

  test('a refund whose provider call was never answered stays in flight; reconcile asks again under the same key', async () => {
    await setup();
    const { order } = await paidOrder(1500, 2);
    acme.refund = 'throw';
    const error = await errorOf(t.store.orders.refunds.create(order.id, { amount: 1200 }));
    expect(error).toBeInstanceOf(Error);
    const inFlight = (await t.store.orders.get(order.id)).refunds;
    expect(inFlight).toMatchObject([{ status: 'pending' }]);

    const stillDown = await reconcileNow();
    expect(stillDown.refunds).toMatchObject([
      { refund_id: inFlight[0]!.id, outcome: 'error', message: 'timeout' },
    ]);
    expect((await t.store.orders.get(order.id)).refunds).toMatchObject([{ status: 'pending' }]);

    acme.refund = 'succeed';
    const report = await reconcileNow();
    expect(report.refunds).toMatchObject([{ refund_id: inFlight[0]!.id, outcome: 'refund_completed' }]);
    const keys = acme.calls.filter((c) => c.startsWith('refund:'));
    expect(new Set(keys).size).toBe(1);
    expect((await t.store.orders.get(order.id)).refunded_total.amount).toBe(1200);
  });

  test('a refund the provider refuses outright: 402-style payment_failed, nothing refunded', async () => {
    await setup();
    const { order } = await paidOrder(1500, 1);
    acme.refund = 'fail';
    const error = await expectCode(
      t.store.orders.refunds.create(order.id, { amount: 500 }),
      'payment_failed',
    );
    expect(error.message).toBe('Refunds are disabled');
    const after = await t.store.orders.get(order.id);
    expect(after.refunded_total.amount).toBe(0);
    expect(after.refunds.every((r) => r.status === 'failed')).toBe(true);
  });
});
