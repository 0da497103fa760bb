import { describe, expect, test } from 'vitest';
import type { PaymentProvider } from '../ports/payment-provider';
import { CommerceError } from '../shared/errors';
import { resolveProvider } from './payment-attempt';
import { createPaymentRegistry } from './payment-registry';

function provider(name: string, requiresPaymentMethod = false): PaymentProvider {
  return {
    name,
    requiresPaymentMethod,
    async createPayment() {
      return { status: 'succeeded', provider_id: `${name}_1` };
    },
    async refundPayment() {
      return { status: 'succeeded', provider_refund_id: null };
    },
  };
}

const manual = provider('manual');

/** The CommerceError `fn` throws (fails the test if it returns or throws something else). */
function thrown(fn: () => unknown): CommerceError {
  try {
    fn();
  } catch (error) {
    if (error instanceof CommerceError) return error;
    throw error;
  }
  throw new Error('expected a CommerceError');
}

describe('createPaymentRegistry (decisions §12)', () => {
  test('manual first, then the providers in order; a later one of the same name replaces it', () => {
    const gift = provider('gift_card');
    const ownManual = provider('manual');
    const registry = createPaymentRegistry(manual, [gift, provider('stripe'), ownManual]);
    expect([...registry.keys()]).toEqual(['manual', 'gift_card', 'stripe']);
    expect(registry.get('gift_card')).toBe(gift);
    expect(registry.get('manual')).toBe(ownManual);
    expect([...createPaymentRegistry(manual).keys()]).toEqual(['manual']);
  });

  test.each([['Gift'], ['gift-card'], ['gift card'], ['9lives'], ['_x'], [''], ['a'.repeat(65)]])(
    'the name %j is refused with a TypeError when the engine is created',
    (name) => {
      expect(() => createPaymentRegistry(manual, [provider(name)])).toThrow(TypeError);
      expect(() => createPaymentRegistry(manual, [provider(name)])).toThrow(/Invalid payment provider name/);
    },
  );

  test('a provider without a string name or without createPayment / refundPayment → TypeError', () => {
    const nameless = { ...provider('x'), name: undefined } as unknown as PaymentProvider;
    expect(() => createPaymentRegistry(manual, [nameless])).toThrow(TypeError);
    const noRefund = {
      name: 'half',
      requiresPaymentMethod: false,
      createPayment: provider('half').createPayment,
    };
    expect(() => createPaymentRegistry(manual, [noRefund as unknown as PaymentProvider])).toThrow(
      /must implement createPayment and refundPayment/,
    );
    expect([...createPaymentRegistry(manual, [provider('a'.repeat(64))]).keys()]).toHaveLength(2);
  });
});

describe('resolveProvider: the registered-name rule', () => {
  const ctx = { payments: createPaymentRegistry(manual, [provider('gift_card'), provider('cards', true)]) };

  test('a registered name resolves to its provider', () => {
    expect(resolveProvider(ctx, { payment_provider: 'gift_card' }).name).toBe('gift_card');
    expect(resolveProvider(ctx, { payment_provider: 'cards', payment_method_id: 'pm_1' }).name).toBe('cards');
  });

  test('an unregistered name → 400 parameter_invalid on the field that named it, listing the configured ones', () => {
    const error = thrown(() =>
      resolveProvider(ctx, { payment_provider: 'stripe', payment_method_id: 'pm_1' }),
    );
    expect([error.code, error.param]).toEqual(['parameter_invalid', 'payment_provider']);
    expect(error.message).toBe(
      "payment_provider 'stripe' is not configured (configured: manual, gift_card, cards)",
    );
    const older = thrown(() =>
      resolveProvider(ctx, { payment_provider: 'paypal', payment_method: 'paypal' }),
    );
    expect([older.code, older.param]).toEqual(['parameter_invalid', 'payment_method']);
  });

  test('a provider that requiresPaymentMethod without payment_method_id → 400 parameter_missing', () => {
    const error = thrown(() => resolveProvider(ctx, { payment_provider: 'cards' }));
    expect([error.code, error.param]).toEqual(['parameter_missing', 'payment_method_id']);
    expect(error.message).toBe('payment_method_id is required when payment_provider is cards');
  });
});
