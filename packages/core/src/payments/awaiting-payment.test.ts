import { describe, expect, test } from 'vitest';
import {
  AWAITING_PAYMENT_KEY,
  awaitingDeadline,
  isAwaitingPayment,
  providerFieldsOf,
} from './awaiting-payment';

const config = { payment_timeout_ms: 30 * 60_000 };

describe('providerFieldsOf: what a checkout payment keeps of the provider’s answer', () => {
  test('awaiting_payment → the client secret and the deadline, timeout after the checkout', () => {
    const fields = providerFieldsOf(
      { status: 'awaiting_payment', provider_id: 'pi_1', client_secret: 'pi_1_secret' },
      1_000,
      config,
      { note: 'kept' },
    );
    expect(fields).toEqual({
      client_secret: 'pi_1_secret',
      metadata: { note: 'kept', [AWAITING_PAYMENT_KEY]: { expires_at: 1_000 + 30 * 60_000 } },
    });
  });

  test('requires_action (3-D Secure) → the client secret only; other outcomes keep neither', () => {
    expect(
      providerFieldsOf({ status: 'requires_action', provider_id: 'pi_1', client_secret: 's' }, 0, config),
    ).toEqual({ client_secret: 's', metadata: {} });
    for (const status of ['succeeded', 'pending', 'failed', 'cancelled'] as const) {
      expect(providerFieldsOf({ status, provider_id: 'pi_1', client_secret: 's' }, 0, config)).toEqual({
        client_secret: null,
        metadata: {},
      });
    }
  });
});

describe('awaitingDeadline', () => {
  const marked = { [AWAITING_PAYMENT_KEY]: { expires_at: 5000 } };

  test('a pending payment with the marker → its deadline; it awaits the customer', () => {
    expect(awaitingDeadline({ status: 'pending', metadata: marked })).toBe(5000);
    expect(isAwaitingPayment({ status: 'pending', metadata: marked })).toBe(true);
  });

  test('settled, unmarked or malformed → null', () => {
    for (const status of ['completed', 'failed', 'cancelled', 'refunded'] as const) {
      expect(awaitingDeadline({ status, metadata: marked })).toBeNull();
    }
    expect(awaitingDeadline({ status: 'pending', metadata: {} })).toBeNull();
    for (const bad of [null, 'soon', [1], { expires_at: '5000' }]) {
      expect(awaitingDeadline({ status: 'pending', metadata: { [AWAITING_PAYMENT_KEY]: bad } })).toBeNull();
    }
  });
});
