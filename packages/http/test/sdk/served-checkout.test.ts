import { signWithStripeLibrary } from '@cartwright/payments-stripe/fake-stripe';
import type { CheckoutResult, Order } from '@headless-commerce/sdk';
import { expect, test } from 'vitest';
import { describeStripeApi, type StripeTestContext, WEBHOOK_SECRET } from '../api/support/stripe-fixtures';
import { ADDRESS, createSellable, isoDate, sdkClients, unique, usd } from './support';

/**
 * Checkout through `@headless-commerce/sdk` 0.2.0 as a storefront that confirms the card in the
 * browser (decisions §22): `checkout.create(cart, { email, shipping_address, payment_method:
 * 'stripe' })` — no payment method id — answers 201 with the order `pending` /
 * `awaiting_payment` and `payment: { client_secret, payment_intent_id }`; Stripe.js confirms the
 * PaymentIntent (the fake's `confirmIntent`), and Stripe's signed `payment_intent.succeeded` at
 * `POST /v1/webhooks/stripe` settles it (→ `paid`, `confirmed`). Past the payment timeout
 * reconciliation cancels it (`payment_expired`). The order shows `currency`, `cancel_reason`,
 * `updated_at`, `confirmed_at` wherever it is shown. The engine runs against the local fake Stripe
 * with a clock the tests can move forward.
 */

const TIMEOUT_MS = 30 * 60_000;

type Context = StripeTestContext;

/** Delivers Stripe's event of `type` about the intent, signed by the `stripe` library's own test helper. */
function deliver(ctx: Context, type: string, intentId: string) {
  const payload = JSON.stringify(ctx.fake.webhookEvent(type, intentId));
  return ctx.api.request('POST', '/v1/webhooks/stripe', {
    key: null,
    rawBody: payload,
    headers: {
      'content-type': 'application/json',
      'stripe-signature': signWithStripeLibrary(payload, WEBHOOK_SECRET),
    },
  });
}

/** A guest cart of `quantity` units at 2500 (stock 5) built through the SDK, with a 10 % code when asked. */
async function guestCart(ctx: Context, options: { quantity?: number; code?: boolean } = {}) {
  const { admin, storefront } = sdkClients(ctx.api);
  const sellable = await createSellable(admin, { price: 2500, on_hand: 5 });
  const cart = await storefront.carts.create();
  await storefront.carts.addItem(cart.id, {
    variant_id: sellable.variant.id,
    quantity: options.quantity ?? 1,
  });
  let discountId: string | null = null;
  if (options.code) {
    const code = unique('TENOFF')
      .toUpperCase()
      .replace(/[^A-Z0-9]/g, '');
    const created = await ctx.api.post('/v1/admin/discounts', {
      name: 'Ten off',
      code,
      value_type: 'percentage',
      value: 10,
      usage_limit: 1,
    });
    expect(created.status).toBe(200);
    discountId = created.body.id;
    await storefront.carts.applyDiscount(cart.id, { code });
  }
  return { ...sellable, cart, discountId, email: `${unique('browser')}@example.com` };
}

/** The SDK's CheckoutResult with the Order's `payments`, which our answer carries too. */
type OurCheckoutResult = CheckoutResult & Pick<Order, 'payments'>;

/** Checks the cart out with Stripe and no payment method: the storefront will confirm in the browser. */
async function checkoutWithStripe(ctx: Context, cartId: string, email: string): Promise<OurCheckoutResult> {
  return (await sdkClients(ctx.api).storefront.checkout.create(cartId, {
    email,
    shipping_address: ADDRESS,
    payment_method: 'stripe',
  })) as OurCheckoutResult;
}

/** Units reserved on an inventory record (the flat field of ours; the SDK types the per-location levels). */
async function reservedOf(ctx: Context, inventoryId: string): Promise<number> {
  const res = await ctx.api.get(`/v1/admin/inventory/${inventoryId}`);
  expect(res.status).toBe(200);
  return res.body.reserved;
}

describeStripeApi(
  'sdk: checkout confirmed in the browser (decisions §22)',
  (ctx) => {
    test('checkout.create with payment_method stripe → 201 pending / awaiting_payment with payment.client_secret; Stripe.js confirms; the signed webhook → paid / confirmed', async () => {
      const c = ctx();
      const { admin, storefront } = sdkClients(c.api);
      const { cart, inventory_id, email } = await guestCart(c);

      const result = await checkoutWithStripe(c, cart.id, email);
      const intent = c.fake.intent(result.payment!.payment_intent_id);
      expect(result).toMatchObject({
        status: 'pending',
        payment_status: 'awaiting_payment',
        total: usd(2500),
        currency: 'USD',
        cancel_reason: null,
        created_at: isoDate,
        updated_at: isoDate,
        confirmed_at: null,
        payment: { client_secret: intent.client_secret, payment_intent_id: intent.id },
      });
      // An unconfirmed PaymentIntent for the server's total, our ids in its metadata; no money yet.
      expect(intent).toMatchObject({
        status: 'requires_payment_method',
        amount: 2500,
        currency: 'usd',
        payment_method: null,
        metadata: { order_id: result.id, payment_id: result.payments[0]?.id },
      });
      expect(c.fake.charges().filter((ch) => ch.payment_intent === intent.id)).toEqual([]);
      expect(await reservedOf(c, inventory_id)).toBe(1);
      expect((await storefront.carts.get(cart.id)).status).toBe('completed');
      // The admin sees the order awaiting payment, never the client secret.
      const awaiting: Order = await admin.orders.adminGet(result.id);
      expect(awaiting).toMatchObject({ status: 'pending', payment_status: 'awaiting_payment' });
      expect(JSON.stringify(awaiting)).not.toContain(intent.client_secret);

      // The customer confirms in the browser: a declined card first (Stripe tells us; the order
      // keeps waiting, the customer may try again), then a card that pays.
      c.fake.confirmIntent(intent.id, 'pm_card_chargeDeclined');
      const declined = await deliver(c, 'payment_intent.payment_failed', intent.id);
      expect(declined).toMatchObject({ status: 200, body: { received: true, outcome: 'unchanged' } });
      expect((await admin.orders.adminGet(result.id)).payment_status).toBe('awaiting_payment');
      c.fake.confirmIntent(intent.id, 'pm_card_visa');
      const settled = await deliver(c, 'payment_intent.succeeded', intent.id);
      expect(settled).toMatchObject({ status: 200, body: { received: true, outcome: 'payment_completed' } });

      const paid = await admin.orders.adminGet(result.id);
      expect(paid).toMatchObject({
        status: 'confirmed',
        payment_status: 'paid',
        confirmed_at: isoDate,
        cancel_reason: null,
        payments: [expect.objectContaining({ status: 'completed', provider_id: intent.id })],
      });
      expect(Date.parse((paid as unknown as { updated_at: string }).updated_at)).toBeGreaterThanOrEqual(
        Date.parse(result.updated_at),
      );
      expect(await reservedOf(c, inventory_id)).toBe(1);
      expect(c.fake.charges().filter((ch) => ch.payment_intent === intent.id)).toHaveLength(1);
      // Stripe delivers at least once: the same event again changes nothing.
      expect((await deliver(c, 'payment_intent.succeeded', intent.id)).body.outcome).toBe('unchanged');
    });

    test('not paid within the timeout: cancelled with cancel_reason payment_expired — stock released, discount use returned, PaymentIntent cancelled', async () => {
      const c = ctx();
      const { admin } = sdkClients(c.api);
      const { cart, inventory_id, email, discountId } = await guestCart(c, { quantity: 2, code: true });
      const result = await checkoutWithStripe(c, cart.id, email);
      expect(result).toMatchObject({ payment_status: 'awaiting_payment', total: usd(4500) });
      const intentId = result.payment!.payment_intent_id;
      expect(await reservedOf(c, inventory_id)).toBe(2);
      expect((await c.api.get(`/v1/admin/discounts/${discountId}`)).body.usage_count).toBe(1);

      // Before the deadline reconciliation leaves it alone (Stripe is not even asked); after it, the order ends.
      c.advance(TIMEOUT_MS - 60_000);
      const requestsBefore = c.fake.requests.length;
      expect((await c.api.engine.payments.reconcile({ olderThanMs: 0 })).results).toEqual([]);
      expect(c.fake.requests.length).toBe(requestsBefore);
      c.advance(61_000);
      // Two processes' schedules at the same moment: the order is cancelled once.
      const reports = await Promise.all([
        c.api.engine.payments.reconcile({ olderThanMs: 0 }),
        c.api.engine.payments.reconcile({ olderThanMs: 0 }),
      ]);
      const outcomes = reports.flatMap((r) => r.results.map((x) => x.outcome));
      expect(outcomes.filter((o) => o === 'payment_expired')).toHaveLength(1);
      expect(outcomes.filter((o) => o !== 'payment_expired')).toEqual(
        outcomes.length === 2 ? ['unchanged'] : [],
      );

      const expired = await admin.orders.adminGet(result.id);
      expect(expired).toMatchObject({
        status: 'cancelled',
        payment_status: 'unpaid',
        cancel_reason: 'payment_expired',
        cancelled_at: isoDate,
        confirmed_at: null,
        payments: [expect.objectContaining({ status: 'cancelled' })],
      });
      expect(await reservedOf(c, inventory_id)).toBe(0);
      expect((await c.api.get(`/v1/admin/discounts/${discountId}`)).body.usage_count).toBe(0);
      expect(c.fake.intent(intentId)).toMatchObject({ status: 'canceled' });
      expect(
        c.fake.requests
          .filter((r) => r.path === `/v1/payment_intents/${intentId}/cancel`)
          .map((r) => r.idempotency_key),
      ).toEqual([`${result.payments[0]?.id}_void`]);
      // Stripe's own cancellation event changes nothing more.
      expect((await deliver(c, 'payment_intent.canceled', intentId)).body.outcome).toBe('unchanged');
      expect((await c.api.engine.payments.reconcile({ olderThanMs: 0 })).results).toEqual([]);
    });

    test('money that arrives after the expiry (the void could not reach Stripe) is refunded in full at once', async () => {
      const c = ctx();
      const { admin } = sdkClients(c.api);
      const { cart, email } = await guestCart(c, { quantity: 2 });
      const result = await checkoutWithStripe(c, cart.id, email);
      const intentId = result.payment!.payment_intent_id;
      c.advance(TIMEOUT_MS + 1_000);
      c.plan.cancel = 'unavailable';
      const report = await c.api.engine.payments.reconcile({ olderThanMs: 0 });
      expect(report.results).toMatchObject([{ order_id: result.id, outcome: 'payment_expired' }]);
      expect(c.fake.intent(intentId).status).toBe('requires_payment_method');

      // The customer's browser still had the page open and pays.
      c.fake.confirmIntent(intentId, 'pm_card_visa');
      const ack = await deliver(c, 'payment_intent.succeeded', intentId);
      expect(ack).toMatchObject({ status: 200, body: { received: true, outcome: 'late_payment_refunded' } });
      expect(c.fake.refunds().filter((r) => r.payment_intent === intentId)).toMatchObject([
        { amount: 5000, status: 'succeeded' },
      ]);
      expect(await admin.orders.adminGet(result.id)).toMatchObject({
        status: 'cancelled',
        payment_status: 'unpaid',
        cancel_reason: 'payment_expired',
      });
      // Delivered again: refunded once.
      expect((await deliver(c, 'payment_intent.succeeded', intentId)).body.outcome).toBe('unchanged');
      expect(c.fake.refunds().filter((r) => r.payment_intent === intentId)).toHaveLength(1);
    });

    test('paid in the browser but the webhook was lost: at the deadline reconciliation asks Stripe and settles it (not cancelled)', async () => {
      const c = ctx();
      const { admin } = sdkClients(c.api);
      const { cart, email } = await guestCart(c);
      const result = await checkoutWithStripe(c, cart.id, email);
      c.fake.confirmIntent(result.payment!.payment_intent_id, 'pm_card_visa');
      c.advance(TIMEOUT_MS + 1_000);
      const report = await c.api.engine.payments.reconcile({ olderThanMs: 0 });
      expect(report.results).toMatchObject([{ order_id: result.id, outcome: 'payment_completed' }]);
      expect(await admin.orders.adminGet(result.id)).toMatchObject({
        status: 'confirmed',
        payment_status: 'paid',
        confirmed_at: isoDate,
      });
      expect(c.fake.refunds().filter((r) => r.payment_intent === result.payment!.payment_intent_id)).toEqual(
        [],
      );
    });

    test('manual checkout: the answer shows currency, cancel_reason, updated_at, confirmed_at and payment null; every order view shows the new fields', async () => {
      const c = ctx();
      const { admin, storefront, storefrontAs } = sdkClients(c.api);
      const { variant } = await createSellable(admin, { price: 1200, on_hand: 5 });
      const customer = await admin.customers.adminCreate({ email: `${unique('views')}@example.com` });
      const { token } = await admin.customers.adminCreateToken(customer.id);
      const mine = storefrontAs(token);
      const cart = await mine.carts.create();
      await mine.carts.addItem(cart.id, { variant_id: variant.id });
      const placed = await mine.checkout.create(cart.id, {
        email: customer.email,
        shipping_address: ADDRESS,
        payment_method: 'manual',
      });
      expect(placed).toMatchObject({
        status: 'pending',
        payment_status: 'unpaid',
        currency: 'USD',
        cancel_reason: null,
        updated_at: isoDate,
        confirmed_at: null,
        payment: null,
      });

      const fields = { currency: 'USD', cancel_reason: null, updated_at: isoDate, confirmed_at: null };
      expect(await admin.orders.adminGet(placed.id)).toMatchObject(fields);
      expect(
        (await admin.orders.adminList({ limit: 100 })).data.find((o) => o.id === placed.id),
      ).toMatchObject(fields);
      expect(await mine.orders.get(placed.id)).toMatchObject(fields);
      expect((await mine.orders.list()).data.find((o) => o.id === placed.id)).toMatchObject(fields);
      expect(await storefront.orders.lookup({ number: placed.number, email: customer.email })).toMatchObject(
        fields,
      );
      // `payment` belongs to the checkout answer only.
      expect(await mine.orders.get(placed.id)).not.toHaveProperty('payment');

      const confirmed = await admin.orders.adminConfirm(placed.id);
      expect(confirmed).toMatchObject({ status: 'confirmed', confirmed_at: isoDate });
      const cancelled = await admin.orders.adminCancel(placed.id, {
        reason: 'out of stock at the warehouse',
      });
      expect(cancelled).toMatchObject({
        status: 'cancelled',
        cancel_reason: 'out of stock at the warehouse',
        confirmed_at: (confirmed as unknown as { confirmed_at: string }).confirmed_at,
      });
    });
  },
  { payment_timeout_ms: TIMEOUT_MS },
);
