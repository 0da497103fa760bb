import type { PaymentProvider } from '@cartwright/core/providers';
import { expect, test } from 'vitest';
import { describeApi } from './support/harness';
import { checkout, createCart, createProduct, expectError, expectStatus } from './support/order-fixtures';

/**
 * Providers as a registry (docs/contract.md#checkout): checkout accepts exactly the providers the
 * engine registered — here `manual` and a gift card provider of our own, no Stripe — and the
 * served OpenAPI document lists them as the enum of `payment_provider`.
 */

/** A gift card provider in a few lines: the card code is the payment method; 5000 on each card. */
const balances = new Map<string, number>();
const giftCard: PaymentProvider = {
  name: 'gift_card',
  requiresPaymentMethod: true,
  async createPayment({ amount, payment_method_id = '', reference }) {
    const balance = balances.get(payment_method_id) ?? 5000;
    if (balance < amount) {
      return {
        status: 'failed',
        provider_id: null,
        failure_message: 'The gift card does not cover the total.',
      };
    }
    balances.set(payment_method_id, balance - amount);
    return { status: 'succeeded', provider_id: `gc_${reference.payment_id}` };
  },
  async refundPayment({ amount, idempotency_key }) {
    return { status: 'succeeded', provider_refund_id: `gcr_${idempotency_key}_${amount}` };
  },
};

describeApi(
  'payment providers as a registry',
  (api) => {
    test('a provider of our own: 201, order confirmed and paid, the payment recorded with gift_card', async () => {
      const a = api();
      const item = await createProduct(a, { price: 1800 });
      const cart = await createCart(a, [{ variant_id: item.variant_id }]);
      const order = expectStatus(
        await checkout(a, cart.id, {
          email: 'gift@example.com',
          payment_provider: 'gift_card',
          payment_method_id: `GC-${a.target}`,
        }),
        201,
      ).body;
      expect(order).toMatchObject({ status: 'confirmed', payment_status: 'paid' });
      expect(order.payments).toHaveLength(1);
      expect(order.payments[0]).toMatchObject({
        provider: 'gift_card',
        provider_id: expect.stringMatching(/^gc_pay_/),
        status: 'completed',
        amount: { amount: 1800 },
      });
      const stored = expectStatus(await a.get(`/v1/admin/orders/${order.id}`), 200).body;
      expect(stored.payments[0]).toMatchObject({ provider: 'gift_card', status: 'completed' });

      // The older field name picks it too; a card that does not cover the total is declined (402).
      const second = await createCart(a, [{ variant_id: item.variant_id, quantity: 3 }]);
      const declined = await checkout(a, second.id, {
        email: 'gift@example.com',
        payment_method: 'gift_card',
        payment_method_id: `GC-${a.target}`,
      });
      expectError(declined, 402, 'payment_failed');
      expect(declined.body.error.message).toBe('The gift card does not cover the total.');
    });

    test('an unregistered provider → 400 parameter_invalid on the field that named it, before the cart is read', async () => {
      const a = api();
      const item = await createProduct(a);
      const cart = await createCart(a, [{ variant_id: item.variant_id }]);
      const stripe = await checkout(a, cart.id, {
        email: 'a@example.com',
        payment_provider: 'stripe',
        payment_method_id: 'pm_card_visa',
      });
      expectError(stripe, 400, 'parameter_invalid', 'payment_provider');
      expect(stripe.body.error.message).toBe(
        "payment_provider 'stripe' is not configured (configured: manual, gift_card)",
      );
      expectError(
        await checkout(a, cart.id, { email: 'a@example.com', payment_method: 'paypal' }),
        400,
        'parameter_invalid',
        'payment_method',
      );
      // Not a provider name at all (the static schema): 400 as well.
      expectError(
        await checkout(a, cart.id, { email: 'a@example.com', payment_provider: 'Gift Card' }),
        400,
        'parameter_invalid',
        'payment_provider',
      );
      // The registered-name check is part of the input: it answers before the cart is looked up.
      expectError(
        await checkout(a, 'cart_doesnotexist', { email: 'a@example.com', payment_provider: 'paypal' }),
        400,
        'parameter_invalid',
        'payment_provider',
      );
      // A registered provider that needs a payment method, without one → 400 parameter_missing.
      expectError(
        await checkout(a, cart.id, { email: 'a@example.com', payment_provider: 'gift_card' }),
        400,
        'parameter_missing',
        'payment_method_id',
      );
      // The cart is untouched by all of that: manual still checks it out.
      expectStatus(await checkout(a, cart.id), 201);
    });

    test('the served OpenAPI document lists the registered providers as the enum of payment_provider', async () => {
      const a = api();
      const document = expectStatus(await a.request('GET', '/v1/openapi.json', { key: null }), 200).body;
      const properties = document.components.schemas.Checkout.properties;
      expect(properties.payment_provider).toMatchObject({ type: 'string', enum: ['manual', 'gift_card'] });
      expect(properties.payment_method).toMatchObject({ enum: ['manual', 'gift_card'], deprecated: true });
      expect(JSON.stringify(document)).not.toContain('x-cartwright-payment-providers');
      const page = await a.request<string>('GET', '/v1/docs', { key: null });
      expect(page.status).toBe(200);
      expect(page.body).toContain('gift_card');
      expect(a.engine.paymentProviders).toEqual(['manual', 'gift_card']);
    });
  },
  { payments: [giftCard] },
);
