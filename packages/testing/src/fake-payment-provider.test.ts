import type { CreatePaymentInput } from '@cartwright/core/providers';
import { describe, expect, test } from 'vitest';
import { createFakePaymentProvider, FAKE_CARD_PROVIDER_NAME } from './fake-payment-provider';

function payment(overrides: Partial<CreatePaymentInput> = {}): CreatePaymentInput {
  return {
    amount: 4200,
    currency: 'USD',
    idempotency_key: 'checkout_cart_1',
    payment_method_id: 'pm_card_visa',
    reference: {
      payment_id: 'pay_1',
      cart_id: 'cart_1',
      order_id: 'ord_1',
      store_id: 'store_1',
      mode: 'test',
    },
    ...overrides,
  };
}

describe('createFakePaymentProvider', () => {
  test("is named 'fake_card' unless told otherwise ('stripe' to stand in for it) and needs a payment method", () => {
    const fake = createFakePaymentProvider();
    expect([fake.name, fake.requiresPaymentMethod]).toEqual(['fake_card', true]);
    expect(FAKE_CARD_PROVIDER_NAME).toBe('fake_card');
    expect(createFakePaymentProvider({ name: 'stripe' }).name).toBe('stripe');
  });

  test.each([
    ['pm_card_visa', 'succeeded'],
    ['pm_card_mastercard', 'succeeded'],
    ['pm_card_chargeDeclined', 'failed'],
    ['pm_card_chargeDeclinedInsufficientFunds', 'failed'],
    ['pm_card_chargeDeclinedSomethingNew', 'failed'],
    ['pm_card_authenticationRequired', 'requires_action'],
    ['pm_anything_else', 'succeeded'],
  ])('%s → %s', async (pm, status) => {
    const fake = createFakePaymentProvider();
    const result = await fake.createPayment(payment({ payment_method_id: pm }));
    expect(result.status).toBe(status);
    expect(result.provider_id).toBe('pi_test_000001');
  });

  test('a decline carries card_declined and a message; requires_action a client_secret', async () => {
    const fake = createFakePaymentProvider();
    const declined = await fake.createPayment(payment({ payment_method_id: 'pm_card_chargeDeclined' }));
    expect([declined.failure_code, declined.failure_message]).toEqual([
      'card_declined',
      'Your card was declined.',
    ]);
    const action = await fake.createPayment(
      payment({ idempotency_key: 'k2', payment_method_id: 'pm_card_threeDSecure2Required' }),
    );
    expect(action.client_secret).toBe('pi_test_000002_secret_test');
  });

  test('the same idempotency key returns the first result and records one charge', async () => {
    const fake = createFakePaymentProvider();
    const first = await fake.createPayment(payment());
    const again = await fake.createPayment(
      payment({ amount: 1, payment_method_id: 'pm_card_chargeDeclined' }),
    );
    expect(again).toEqual(first);
    expect(fake.charges).toHaveLength(1);
    expect(fake.charges[0]).toMatchObject({ amount: 4200, currency: 'USD', status: 'succeeded' });
    expect(await fake.lookupPayment?.({ idempotency_key: 'checkout_cart_1' })).toEqual(first);
    expect(await fake.lookupPayment?.({ idempotency_key: 'unknown' })).toBeNull();
  });

  test('outcomes, defaultOutcome and setOutcome change the table', async () => {
    const fake = createFakePaymentProvider({
      outcomes: { pm_card_visa: 'decline' },
      defaultOutcome: 'requires_action',
    });
    expect((await fake.createPayment(payment())).status).toBe('failed');
    expect(
      (await fake.createPayment(payment({ idempotency_key: 'b', payment_method_id: 'pm_x' }))).status,
    ).toBe('requires_action');
    fake.setOutcome('pm_x', 'succeed');
    expect(
      (await fake.createPayment(payment({ idempotency_key: 'c', payment_method_id: 'pm_x' }))).status,
    ).toBe('succeeded');
  });

  test('refunds succeed once per idempotency key with sequential ids', async () => {
    const fake = createFakePaymentProvider();
    const input = { provider_id: 'pi_test_000001', amount: 500, currency: 'USD', idempotency_key: 'r1' };
    expect(await fake.refundPayment(input)).toEqual({
      status: 'succeeded',
      provider_refund_id: 're_test_000001',
    });
    expect(await fake.refundPayment(input)).toEqual({
      status: 'succeeded',
      provider_refund_id: 're_test_000001',
    });
    await fake.refundPayment({ ...input, idempotency_key: 'r2', amount: 200 });
    expect(fake.refunds.map((r) => [r.provider_refund_id, r.amount])).toEqual([
      ['re_test_000001', 500],
      ['re_test_000002', 200],
    ]);
  });

  test('resolveAction finishes a 3-D Secure payment; lookupPayment then reports it', async () => {
    const fake = createFakePaymentProvider();
    const pending = await fake.createPayment(
      payment({ payment_method_id: 'pm_card_authenticationRequired' }),
    );
    expect(pending.status).toBe('requires_action');
    expect(fake.resolveAction('pi_test_000001', 'succeed').status).toBe('succeeded');
    expect(
      (await fake.lookupPayment?.({ provider_id: 'pi_test_000001', idempotency_key: 'x' }))?.status,
    ).toBe('succeeded');
    expect(() => fake.resolveAction('pi_test_000001', 'decline')).toThrow(/waiting for action/);
    expect(() => fake.resolveAction('pi_unknown', 'decline')).toThrow(/waiting for action/);
  });

  test('lookupPayment of a payment never received replays it from original, once (as Stripe does)', async () => {
    const fake = createFakePaymentProvider();
    const original = payment({ idempotency_key: 'checkout_cart_9_1' });
    const first = await fake.lookupPayment?.({ idempotency_key: 'checkout_cart_9_1', original });
    const again = await fake.lookupPayment?.({ idempotency_key: 'checkout_cart_9_1', original });
    expect(first?.status).toBe('succeeded');
    expect(again).toEqual(first);
    expect(fake.charges).toHaveLength(1);
  });
});
