import { engineInternals } from '@cartwright/core/internal';
import { afterEach, describe, expect, test } from 'vitest';
import { createTestEngine, type TestEngine } from './create-test-engine';
import { createScriptedProvider, type ScriptedProvider, webhookOf } from './scripted-provider.test-support';

/**
 * Payments the storefront confirms in the browser (decisions §22), at engine level: a checkout
 * whose provider answers `awaiting_payment` (Stripe without `payment_method_id`), settled by the
 * provider's webhook or by reconciliation, and cancelled past `payment_timeout_ms`
 * (`cancel_reason: "payment_expired"`) — with late money refunded — on a real SQLite, a fake
 * clock and a provider whose every answer is scripted.
 */

let t: TestEngine;
let acme: ScriptedProvider;

const TIMEOUT_MS = 30 * 60_000;

async function setup(config: { payment_timeout_ms?: number } = {}) {
  acme = createScriptedProvider('acme');
  acme.charge = 'await';
  t = await createTestEngine({ providers: [acme], config });
  return t;
}

afterEach(async () => {
  await t?.close();
});

const handle = (event: Parameters<typeof webhookOf>[0]) =>
  engineInternals(t.engine).payments.handleWebhook('acme', webhookOf(event));
const reconcile = () => t.engine.payments.reconcile({ olderThanMs: 0 });

/**
 * A checkout awaiting the customer: 2 units at 1500 with the 10 % code `SAVE` (usage counted),
 * stock 10, paid (to be) with `acme` without a payment method.
 */
async function awaitingCheckout() {
  const { variant } = await t.fixtures.product({ price: 1500, on_hand: 10 });
  const discount = await t.fixtures.discount({ code: `SAVE${Math.random().toString(36).slice(2, 6)}` });
  const cart = await t.fixtures.cart([{ variant_id: variant.id, quantity: 2 }], {
    discount_codes: [discount.code!],
  });
  const answer = await t.checkout(cart.id, { payment_provider: 'acme' });
  const payment = answer.payments[0]!;
  return { answer, payment, cart, discount, inventoryId: variant.inventory.id };
}

const succeeded = (payment: { id: string; provider_id: string | null }) => ({
  action: 'succeeded' as const,
  provider_id: payment.provider_id,
  payment_id: payment.id,
});

describe('checkout without a payment method: the order awaits the customer', () => {
  test('201 pending / awaiting_payment with `payment`; stock reserved, the discount use counted, the cart completed', async () => {
    await setup();
    const { answer, payment, cart, discount, inventoryId } = await awaitingCheckout();
    const charge = acme.charges[0]!;
    expect(answer).toMatchObject({
      status: 'pending',
      payment_status: 'awaiting_payment',
      currency: 'USD',
      total: { amount: 2700, currency: 'USD' },
      cancel_reason: null,
      confirmed_at: null,
      updated_at: answer.created_at,
      payment: { client_secret: `${charge.provider_id}_secret`, payment_intent_id: charge.provider_id },
    });
    expect(charge).toMatchObject({ amount: 2700, status: 'awaiting_payment' });
    expect(payment).toMatchObject({
      status: 'pending',
      provider_id: charge.provider_id,
      client_secret: `${charge.provider_id}_secret`,
      metadata: {},
    });
    expect((await t.store.inventory.get(inventoryId)).reserved).toBe(2);
    expect((await t.store.discounts.get(discount.id)).usage_count).toBe(1);
    expect((await t.store.carts.get(cart.id)).status).toBe('completed');
    // The admin view: no client secret, no internal bookkeeping in the payment's metadata.
    const admin = await t.store.orders.get(answer.id);
    expect(admin.payment_status).toBe('awaiting_payment');
    expect(admin.payments[0]).not.toHaveProperty('client_secret');
    expect(admin.payments[0]?.metadata).toEqual({});
    expect(admin).not.toHaveProperty('payment');
    expect(t.events.types()).toContain('order.created');
    expect(t.events.types()).not.toContain('order.confirmed');
    // The orders filter knows the new status.
    const listed = await t.store.orders.list({ payment_status: 'awaiting_payment' });
    expect(listed.data.map((o) => o.id)).toEqual([answer.id]);
  });

  test('the webhook settles it → paid, confirmed, confirmed_at; a failed card before that leaves it awaiting (the customer may retry)', async () => {
    await setup();
    const { answer, payment } = await awaitingCheckout();
    acme.setCharge(payment.provider_id!, 'failed');
    const declined = await handle({
      action: 'failed',
      provider_id: payment.provider_id,
      payment_id: payment.id,
    });
    expect(declined.outcome).toBe('unchanged');
    expect(await t.store.orders.get(answer.id)).toMatchObject({
      status: 'pending',
      payment_status: 'awaiting_payment',
    });

    t.clock.advance('5m');
    acme.setCharge(payment.provider_id!, 'succeeded');
    expect((await handle(succeeded(payment))).outcome).toBe('payment_completed');
    const paid = await t.store.orders.get(answer.id);
    expect(paid).toMatchObject({
      status: 'confirmed',
      payment_status: 'paid',
      confirmed_at: new Date(t.clock.now()).toISOString(),
      updated_at: new Date(t.clock.now()).toISOString(),
      cancel_reason: null,
    });
    expect(paid.payments[0]).toMatchObject({ status: 'completed' });
    expect(t.events.list('order.confirmed').map((e) => e.data.confirmed_at)).toEqual([paid.confirmed_at]);
    // Delivered again, or reconciled later: nothing changes.
    expect((await handle(succeeded(payment))).outcome).toBe('unchanged');
    t.clock.advance('1h');
    expect((await reconcile()).results).toEqual([]);
    expect(acme.refunds).toEqual([]);
  });

  test('reconcile leaves it alone (no provider call) until the deadline; past it, money the provider took is settled (a lost webhook)', async () => {
    await setup();
    const { answer, payment } = await awaitingCheckout();
    acme.setCharge(payment.provider_id!, 'succeeded');
    t.clock.advance(TIMEOUT_MS - 1000);
    const early = await reconcile();
    expect(early).toMatchObject({ checked: 1, results: [] });
    expect(acme.calls.filter((c) => c.startsWith('lookup:'))).toEqual([]);

    t.clock.advance('1s');
    const due = await reconcile();
    expect(due.results).toMatchObject([
      { payment_id: payment.id, outcome: 'payment_completed', order_id: answer.id },
    ]);
    expect(await t.store.orders.get(answer.id)).toMatchObject({
      status: 'confirmed',
      payment_status: 'paid',
    });
    expect(acme.calls.filter((c) => c.startsWith('cancel:'))).toEqual([]);
  });

  test('a provider still processing the money at the deadline: left for the next run', async () => {
    await setup();
    const { answer, payment } = await awaitingCheckout();
    acme.setCharge(payment.provider_id!, 'pending');
    t.clock.advance(TIMEOUT_MS);
    expect((await reconcile()).results.map((r) => r.outcome)).toEqual(['unchanged']);
    expect((await t.store.orders.get(answer.id)).status).toBe('pending');
    acme.setCharge(payment.provider_id!, 'succeeded');
    expect((await reconcile()).results.map((r) => r.outcome)).toEqual(['payment_completed']);
  });
});

describe('expiry: not paid within payment_timeout_ms', () => {
  test('cancelled with payment_expired: reservation released, discount use returned, intent cancelled; once, however many runs', async () => {
    await setup();
    const { answer, payment, discount, inventoryId } = await awaitingCheckout();
    t.events.clear();
    t.clock.advance(TIMEOUT_MS);
    // Two processes reconciling at the same moment: one expires the order, the other finds nothing to do.
    const [a, b] = await Promise.all([reconcile(), reconcile()]);
    const outcomes = [...a.results, ...b.results].map((r) => r.outcome).sort();
    expect(outcomes.filter((o) => o === 'payment_expired')).toHaveLength(1);
    expect(outcomes.every((o) => o === 'payment_expired' || o === 'unchanged')).toBe(true);

    const expired = await t.store.orders.get(answer.id);
    expect(expired).toMatchObject({
      status: 'cancelled',
      payment_status: 'unpaid',
      cancel_reason: 'payment_expired',
      cancelled_at: new Date(t.clock.now()).toISOString(),
      confirmed_at: null,
    });
    expect(expired.payments[0]).toMatchObject({ status: 'cancelled' });
    expect((await t.store.inventory.get(inventoryId)).reserved).toBe(0);
    expect((await t.store.discounts.get(discount.id)).usage_count).toBe(0);
    expect(acme.calls.filter((c) => c.startsWith('cancel:'))).toEqual([`cancel:${payment.provider_id}`]);
    expect(acme.charges[0]?.status).toBe('cancelled');
    expect(
      t.events.types().filter((type) => type.startsWith('order.') || type.startsWith('payment.')),
    ).toEqual(['payment.failed', 'order.cancelled']);
    expect(t.events.last('order.cancelled')?.data.cancel_reason).toBe('payment_expired');

    // Later runs: the payment is no longer pending, nothing is asked.
    expect((await reconcile()).results).toEqual([]);
    expect((await t.store.discounts.get(discount.id)).usage_count).toBe(0);
  });

  test('a code limited to one use is usable again once the order that used it expired', async () => {
    await setup();
    const { variant } = await t.fixtures.product({ price: 1000, on_hand: 5 });
    const once = await t.fixtures.discount({ code: 'ONCE', usage_limit: 1 });
    const first = await t.fixtures.cart([{ variant_id: variant.id }], { discount_codes: ['ONCE'] });
    const order = await t.checkout(first.id, { payment_provider: 'acme' });
    expect(order.discount_total.amount).toBe(100);
    t.clock.advance(TIMEOUT_MS);
    expect((await reconcile()).results.map((r) => r.outcome)).toEqual(['payment_expired']);
    expect((await t.store.discounts.get(once.id)).usage_count).toBe(0);
    const second = await t.fixtures.cart([{ variant_id: variant.id }], { discount_codes: ['ONCE'] });
    acme.charge = 'succeed';
    const paid = await t.checkout(second.id, { payment_provider: 'acme' });
    expect(paid).toMatchObject({ status: 'confirmed', discount_total: { amount: 100 } });
    expect((await t.store.discounts.get(once.id)).usage_count).toBe(1);
  });

  test('payment_timeout_ms is the engine config (5 minutes here), counted from the checkout', async () => {
    await setup({ payment_timeout_ms: 5 * 60_000 });
    const { answer } = await awaitingCheckout();
    t.clock.advance('4m');
    expect((await reconcile()).results).toEqual([]);
    t.clock.advance('1m');
    expect((await reconcile()).results.map((r) => r.outcome)).toEqual(['payment_expired']);
    expect((await t.store.orders.get(answer.id)).cancel_reason).toBe('payment_expired');
  });

  test('money that arrives after the expiry is refunded in full at once, once', async () => {
    await setup();
    const { answer, payment } = await awaitingCheckout();
    t.clock.advance(TIMEOUT_MS);
    await reconcile();
    // The void reached the provider; the customer paid all the same (a provider that lets it).
    acme.setCharge(payment.provider_id!, 'succeeded');
    expect((await handle(succeeded(payment))).outcome).toBe('late_payment_refunded');
    expect(acme.refunds).toMatchObject([
      { amount: 2700, idempotency_key: `${payment.id}_late_refund`, status: 'succeeded' },
    ]);
    expect((await handle(succeeded(payment))).outcome).toBe('unchanged');
    expect(acme.refunds).toHaveLength(1);
    const after = await t.store.orders.get(answer.id);
    expect(after).toMatchObject({
      status: 'cancelled',
      payment_status: 'unpaid',
      cancel_reason: 'payment_expired',
    });
  });
});

describe('settlement racing the expiry', () => {
  test('the webhook lands between the expiry’s provider check and its cancellation: the order stays paid; nothing voided or refunded', async () => {
    await setup();
    const { answer, payment, inventoryId } = await awaitingCheckout();
    t.clock.advance(TIMEOUT_MS);
    acme.afterLookup = async () => {
      acme.afterLookup = null;
      acme.setCharge(payment.provider_id!, 'succeeded');
      expect((await handle(succeeded(payment))).outcome).toBe('payment_completed');
    };
    expect((await reconcile()).results.map((r) => r.outcome)).toEqual(['unchanged']);
    expect(await t.store.orders.get(answer.id)).toMatchObject({
      status: 'confirmed',
      payment_status: 'paid',
      cancel_reason: null,
    });
    expect((await t.store.inventory.get(inventoryId)).reserved).toBe(2);
    expect(acme.calls.filter((c) => c.startsWith('cancel:') || c.startsWith('refund:'))).toEqual([]);
  });

  test('the customer pays just after the expiry’s provider check: the order is cancelled, the void fails, the money is refunded at once', async () => {
    await setup();
    const { answer, payment } = await awaitingCheckout();
    t.clock.advance(TIMEOUT_MS);
    acme.afterLookup = async () => {
      acme.afterLookup = null;
      acme.setCharge(payment.provider_id!, 'succeeded');
    };
    expect((await reconcile()).results.map((r) => r.outcome)).toEqual(['late_payment_refunded']);
    expect(await t.store.orders.get(answer.id)).toMatchObject({
      status: 'cancelled',
      cancel_reason: 'payment_expired',
    });
    expect(acme.refunds).toMatchObject([{ amount: 2700, idempotency_key: `${payment.id}_late_refund` }]);
    // The provider's webhook for that payment arrives afterwards: already refunded.
    expect((await handle(succeeded(payment))).outcome).toBe('unchanged');
    expect(acme.refunds).toHaveLength(1);
  });

  test('webhook and expiry at the same moment: either the order is paid, or it is cancelled and the money refunded — never both, never neither', async () => {
    for (let round = 0; round < 4; round++) {
      await setup();
      const { answer, payment } = await awaitingCheckout();
      t.clock.advance(TIMEOUT_MS);
      // The expiry's check still sees the payment waiting; the money arrives meanwhile.
      acme.afterLookup = async () => {
        acme.afterLookup = null;
        acme.setCharge(payment.provider_id!, 'succeeded');
      };
      const [hook] = await Promise.all([
        new Promise((resolve) => setTimeout(resolve, round)).then(() => handle(succeeded(payment))),
        reconcile(),
      ]);
      const order = await t.store.orders.get(answer.id);
      if (order.status === 'confirmed') {
        expect(order.payment_status).toBe('paid');
        expect(acme.refunds).toEqual([]);
      } else {
        expect(order).toMatchObject({ status: 'cancelled', cancel_reason: 'payment_expired' });
        expect(acme.refunds).toMatchObject([{ amount: 2700 }]);
      }
      expect(['payment_completed', 'late_payment_refunded', 'unchanged']).toContain(hook.outcome);
      if (round < 3) await t.close();
    }
  });
});

describe('confirmed_at', () => {
  test('set by payment in full at checkout, by the admin confirm, and by completing a manual payment; null while pending', async () => {
    acme = createScriptedProvider('acme');
    t = await createTestEngine({ providers: [acme] });
    const { variant } = await t.fixtures.product({ price: 1000, on_hand: 10 });
    const paid = await t.checkout((await t.fixtures.cart([{ variant_id: variant.id }])).id);
    expect(paid).toMatchObject({ status: 'confirmed', confirmed_at: new Date(t.clock.now()).toISOString() });
    // A Stripe-like checkout that charged at once still answers with `payment` (the client secret it gave).
    const charged = await t.checkout((await t.fixtures.cart([{ variant_id: variant.id }])).id, {
      payment_provider: 'acme',
    });
    expect(charged.payment).toEqual({
      client_secret: `${charged.payments[0]?.provider_id}_secret`,
      payment_intent_id: charged.payments[0]?.provider_id,
    });

    const manual = await t.checkout((await t.fixtures.cart([{ variant_id: variant.id }])).id, {
      payment_provider: 'manual',
    });
    expect(manual).toMatchObject({
      status: 'pending',
      payment_status: 'unpaid',
      confirmed_at: null,
      cancel_reason: null,
      currency: 'USD',
      payment: null,
    });
    t.clock.advance('1h');
    const confirmed = await t.store.orders.confirm(manual.id);
    expect(confirmed).toMatchObject({
      status: 'confirmed',
      confirmed_at: new Date(t.clock.now()).toISOString(),
    });

    const other = await t.checkout((await t.fixtures.cart([{ variant_id: variant.id }])).id, {
      payment_provider: 'manual',
    });
    t.clock.advance('1h');
    await t.store.orders.payments.complete(other.payments[0]!.id);
    expect(await t.store.orders.get(other.id)).toMatchObject({
      status: 'confirmed',
      confirmed_at: new Date(t.clock.now()).toISOString(),
    });
  });

  test('the admin cancel’s reason is the order’s cancel_reason', async () => {
    t = await createTestEngine({ payments: false });
    const { variant } = await t.fixtures.product({ price: 1000, on_hand: 10 });
    const order = await t.checkout((await t.fixtures.cart([{ variant_id: variant.id }])).id);
    const cancelled = await t.store.orders.cancel(order.id, { reason: 'customer changed their mind' });
    expect(cancelled).toMatchObject({ status: 'cancelled', cancel_reason: 'customer changed their mind' });
  });
});
