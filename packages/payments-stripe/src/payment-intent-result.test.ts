import { describe, expect, test } from 'vitest';
import { type PaymentIntentLike, paymentIntentToResult } from './payment-intent-result';

const intent = (overrides: Partial<PaymentIntentLike>): PaymentIntentLike => ({
  id: 'pi_1',
  status: 'succeeded',
  amount: 5000,
  amount_received: 0,
  client_secret: 'pi_1_secret_x',
  last_payment_error: null,
  ...overrides,
});

describe('paymentIntentToResult', () => {
  test('succeeded reports the amount received (3000 of 5000 after a partial capture)', () => {
    expect(paymentIntentToResult(intent({ amount_received: 3000 }))).toEqual({
      status: 'succeeded',
      provider_id: 'pi_1',
      amount: 3000,
      client_secret: 'pi_1_secret_x',
    });
  });

  test.each([
    ['processing', 'pending'],
    ['requires_confirmation', 'pending'],
    ['requires_capture', 'pending'],
    ['canceled', 'cancelled'],
    ['requires_action', 'requires_action'],
  ] as const)('%s → %s', (status, expected) => {
    expect(paymentIntentToResult(intent({ status })).status).toBe(expected);
  });

  test('every outcome but failed carries the client_secret (checkout gives it to the storefront)', () => {
    for (const status of ['requires_action', 'processing', 'succeeded', 'canceled'] as const) {
      expect(paymentIntentToResult(intent({ status })).client_secret).toBe('pi_1_secret_x');
    }
    const failed = intent({
      status: 'requires_payment_method',
      last_payment_error: { code: 'card_declined', decline_code: 'generic_decline', message: 'Declined.' },
    });
    expect(paymentIntentToResult(failed)).not.toHaveProperty('client_secret');
  });

  test('requires_payment_method without an error (created without a payment method) → awaiting_payment', () => {
    expect(paymentIntentToResult(intent({ status: 'requires_payment_method' }))).toEqual({
      status: 'awaiting_payment',
      provider_id: 'pi_1',
      amount: 5000,
      client_secret: 'pi_1_secret_x',
    });
  });

  test('requires_payment_method with a generic decline → failed, card_declined', () => {
    const declined = intent({
      status: 'requires_payment_method',
      last_payment_error: {
        code: 'card_declined',
        decline_code: 'generic_decline',
        message: 'Your card was declined.',
      },
    });
    expect(paymentIntentToResult(declined)).toMatchObject({
      status: 'failed',
      failure_code: 'card_declined',
      failure_message: 'Your card was declined.',
    });
  });
});
