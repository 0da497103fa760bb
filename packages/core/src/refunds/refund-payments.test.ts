import { describe, expect, test } from 'vitest';
import type { RefundPaymentInput } from '../ports/payment-provider';
import type { PaymentRecord, Scope } from '../ports/storage';
import { CommerceError } from '../shared/errors';
import {
  paymentsToMarkRefunded,
  refundedPerPayment,
  refundSlices,
  refundWithProviders,
} from './refund-payments';

const SCOPE: Scope = { store_id: 'store_1', mode: 'test' };
/** The refund fields `refundWithProviders` reads. */
const refundOf = (id: string, order_id: string) => ({ id, order_id, reason: null, ...SCOPE });

function payment(
  id: string,
  amount: number,
  created_at: number,
  overrides: Partial<PaymentRecord> = {},
): PaymentRecord {
  return {
    id,
    store_id: 'store_1',
    mode: 'test',
    order_id: 'ord_1',
    provider: 'manual',
    provider_id: null,
    amount,
    currency: 'USD',
    status: 'completed',
    idempotency_key: null,
    cart_id: null,
    client_secret: null,
    failure_reason: null,
    note: null,
    metadata: {},
    checkout_snapshot: null,
    created_at,
    updated_at: created_at,
    ...overrides,
  };
}

describe('refundedPerPayment', () => {
  test('refunds draw on payments oldest first: 3500 over [3000, 2000] → [3000, 500]', () => {
    expect(refundedPerPayment([{ amount: 3000 }, { amount: 2000 }], 3500)).toEqual([3000, 500]);
  });
  test('nothing refunded → zeros; more than paid → each capped at its amount', () => {
    expect(refundedPerPayment([{ amount: 3000 }, { amount: 2000 }], 0)).toEqual([0, 0]);
    expect(refundedPerPayment([{ amount: 3000 }, { amount: 2000 }], 9000)).toEqual([3000, 2000]);
  });
});

describe('refundSlices', () => {
  const a = payment('pay_a', 3000, 1);
  const b = payment('pay_b', 2000, 2);
  test('1000 after 2500 already refunded straddles both: 500 from the first, 500 from the second', () => {
    expect(refundSlices([b, a], 2500, 1000)).toEqual([
      { payment: a, amount: 500 },
      { payment: b, amount: 500 },
    ]);
  });
  test('pending, failed and cancelled payments took no money and are never refunded', () => {
    const pending = payment('pay_p', 5000, 0, { status: 'pending' });
    const failed = payment('pay_f', 5000, 0, { status: 'failed' });
    expect(refundSlices([pending, failed, a], 0, 1200)).toEqual([{ payment: a, amount: 1200 }]);
  });
});

describe('paymentsToMarkRefunded', () => {
  test('a payment becomes refunded once the refunds cover its whole amount, not before', () => {
    const a = payment('pay_a', 3000, 1);
    const b = payment('pay_b', 2000, 2);
    expect(paymentsToMarkRefunded([a, b], 2999).map((p) => p.id)).toEqual([]);
    expect(paymentsToMarkRefunded([a, b], 3000).map((p) => p.id)).toEqual(['pay_a']);
    expect(paymentsToMarkRefunded([a, b], 5000).map((p) => p.id)).toEqual(['pay_a', 'pay_b']);
    expect(paymentsToMarkRefunded([{ ...a, status: 'refunded' }, b], 5000).map((p) => p.id)).toEqual([
      'pay_b',
    ]);
  });
});

describe('refundWithProviders', () => {
  test('labels that are not providers (cash) are recorded without a call; a provider that fails → failed outcome', async () => {
    const calls: number[] = [];
    const references: Array<RefundPaymentInput['reference']> = [];
    const payments = new Map([
      [
        'card',
        {
          name: 'card',
          requiresPaymentMethod: true,
          async createPayment() {
            return { status: 'succeeded' as const, provider_id: 'pi_1' };
          },
          async refundPayment(input: RefundPaymentInput) {
            calls.push(input.amount);
            references.push(input.reference);
            return input.amount > 1000
              ? { status: 'failed' as const, provider_refund_id: null, failure_message: 'too much' }
              : { status: 'pending' as const, provider_refund_id: 're_1' };
          },
        },
      ],
    ]);
    const cash = payment('pay_cash', 500, 1, { provider: 'cash' });
    const card = payment('pay_card', 5000, 2, { provider: 'card' });
    await expect(
      refundWithProviders({ payments }, refundOf('ref_1', 'ord_1'), [
        { payment: cash, amount: 500 },
        { payment: card, amount: 700 },
      ]),
    ).resolves.toEqual({ status: 'pending', provider_refund_id: 're_1' });
    await expect(
      refundWithProviders({ payments }, refundOf('ref_2', 'ord_2'), [{ payment: card, amount: 1500 }]),
    ).resolves.toEqual({ status: 'failed', payment_id: 'pay_card', message: 'too much' });
    expect(calls).toEqual([700, 1500]);
    // Each call carries our ids for the provider's metadata (its webhook finds the refund by them).
    expect(references).toEqual([
      { refund_id: 'ref_1', order_id: 'ord_1', store_id: 'store_1', mode: 'test' },
      { refund_id: 'ref_2', order_id: 'ord_2', store_id: 'store_1', mode: 'test' },
    ]);
  });

  test('a thrown refusal is a failed outcome; an unreachable provider throws (outcome unknown)', async () => {
    let mode: 'refuse' | 'down' = 'refuse';
    const payments = new Map([
      [
        'card',
        {
          name: 'card',
          requiresPaymentMethod: true,
          async createPayment() {
            return { status: 'succeeded' as const, provider_id: 'pi_1' };
          },
          async refundPayment(): Promise<{ status: 'succeeded'; provider_refund_id: string }> {
            if (mode === 'refuse') throw new CommerceError('payment_failed', 'charge disputed');
            throw new CommerceError('payment_provider_unavailable', 'timeout');
          },
        },
      ],
    ]);
    const card = payment('pay_card', 5000, 2, { provider: 'card' });
    await expect(
      refundWithProviders({ payments }, refundOf('ref_3', 'ord_3'), [{ payment: card, amount: 100 }]),
    ).resolves.toEqual({ status: 'failed', payment_id: 'pay_card', message: 'charge disputed' });
    mode = 'down';
    await expect(
      refundWithProviders({ payments }, refundOf('ref_4', 'ord_4'), [{ payment: card, amount: 100 }]),
    ).rejects.toMatchObject({ code: 'payment_provider_unavailable' });
  });
});
