import fc from 'fast-check';
import { describe, expect, test } from 'vitest';
import { isRefusal, paymentStatusOf } from '../payments/payment-attempt';
import { paymentToWire } from '../payments/wire';
import type { PaymentRecord } from '../ports/storage';
import { CommerceError } from '../shared/errors';
import {
  ATTEMPT_LEASE_MS,
  type CheckoutSnapshot,
  checkoutAttemptKey,
  findLastAttempt,
  isOpenAttempt,
  isStaleAttempt,
  readSnapshot,
  snapshotValue,
} from './checkout-attempts';

function attempt(overrides: Partial<PaymentRecord> = {}): PaymentRecord {
  return {
    id: 'pay_1',
    store_id: 'store_1',
    mode: 'test',
    order_id: null,
    provider: 'stripe',
    provider_id: null,
    amount: 4200,
    currency: 'USD',
    status: 'pending',
    idempotency_key: 'checkout_cart_1_1',
    cart_id: 'cart_1',
    client_secret: null,
    failure_reason: null,
    note: null,
    metadata: {},
    checkout_snapshot: null,
    created_at: 1,
    updated_at: 1,
    ...overrides,
  };
}

describe('findLastAttempt', () => {
  test('no attempt: n = 0 after one probe', async () => {
    const probes: number[] = [];
    const found = await findLastAttempt(async (n) => {
      probes.push(n);
      return null;
    });
    expect(found).toEqual({ n: 0, attempt: null });
    expect(probes).toEqual([1]);
  });

  test('attempts 1..5: probes 1, 2, 4, 8, then bisects to 5', async () => {
    const probes: number[] = [];
    const found = await findLastAttempt(async (n) => {
      probes.push(n);
      return n <= 5 ? `a${n}` : null;
    });
    expect(found).toEqual({ n: 5, attempt: 'a5' });
    expect(probes).toEqual([1, 2, 4, 8, 6, 5]);
  });

  test('finds k for any contiguous run 1..k in at most 2·log2(k) + 2 probes', async () => {
    await fc.assert(
      fc.asyncProperty(fc.integer({ min: 0, max: 5000 }), async (k) => {
        let probes = 0;
        const found = await findLastAttempt(async (n) => {
          probes += 1;
          return n >= 1 && n <= k ? n : null;
        });
        expect(found).toEqual({ n: k, attempt: k === 0 ? null : k });
        expect(probes).toBeLessThanOrEqual(2 * Math.log2(Math.max(k, 1)) + 2);
      }),
    );
  });
});

describe('checkout attempt records', () => {
  test('keys name the cart and the attempt number', () => {
    expect(checkoutAttemptKey('cart_abc', 3)).toBe('checkout_cart_abc_3');
  });

  test('open = pending, no order, from a cart', () => {
    expect(isOpenAttempt(attempt())).toBe(true);
    expect(isOpenAttempt(attempt({ order_id: 'ord_1' }))).toBe(false);
    expect(isOpenAttempt(attempt({ status: 'failed' }))).toBe(false);
    expect(isOpenAttempt(attempt({ cart_id: null }))).toBe(false);
  });

  test('the snapshot round-trips through checkout_snapshot and never reaches the wire', () => {
    const snapshot = {
      version: 1,
      order: { id: 'ord_1', total: 4200, region_id: null },
      reserved: [{ variant_id: 'var_1', quantity: 2 }],
      customer_key: 'a@example.com',
      payment: {
        amount: 4200,
        currency: 'USD',
        idempotency_key: 'checkout_cart_1_1',
        payment_method_id: 'pm_card_visa',
        reference: {
          payment_id: 'pay_1',
          cart_id: 'cart_1',
          order_id: 'ord_1',
          store_id: 'store_1',
          mode: 'test',
        },
        email: 'a@example.com',
      },
    } as unknown as CheckoutSnapshot;
    const record = attempt({ metadata: { gift: true }, checkout_snapshot: snapshotValue(snapshot) });
    expect(readSnapshot(record)).toEqual(snapshot);
    expect(paymentToWire(record).metadata).toEqual({ gift: true });
    expect(JSON.stringify(paymentToWire(record))).not.toContain('pm_card_visa');
    expect(() => readSnapshot(attempt())).toThrow(CommerceError);
  });
});

describe('provider outcomes', () => {
  test('statuses: succeeded → completed; pending and requires_action → pending; failed, cancelled kept', () => {
    expect(paymentStatusOf({ status: 'succeeded', provider_id: 'pi_1' })).toBe('completed');
    expect(paymentStatusOf({ status: 'requires_action', provider_id: 'pi_1' })).toBe('pending');
    expect(paymentStatusOf({ status: 'pending', provider_id: null })).toBe('pending');
    expect(paymentStatusOf({ status: 'failed', provider_id: 'pi_1' })).toBe('failed');
    expect(paymentStatusOf({ status: 'cancelled', provider_id: 'pi_1' })).toBe('cancelled');
  });

  test('refusals are CommerceErrors other than payment_provider_unavailable and internal_error', () => {
    expect(isRefusal(new CommerceError('parameter_invalid', 'bad card'))).toBe(true);
    expect(isRefusal(new CommerceError('discount_usage_limit_reached', 'gone'))).toBe(true);
    expect(isRefusal(new CommerceError('payment_provider_unavailable', 'down'))).toBe(false);
    expect(isRefusal(new CommerceError('internal_error', 'bug'))).toBe(false);
    expect(isRefusal(new Error('crash'))).toBe(false);
  });
});

describe('isStaleAttempt', () => {
  test('an open attempt is stale from ATTEMPT_LEASE_MS (65 s) after its claim, never before', () => {
    const open = attempt({ created_at: 1_000_000 });
    expect(ATTEMPT_LEASE_MS).toBe(65_000);
    expect(isStaleAttempt(open, 1_000_000)).toBe(false);
    expect(isStaleAttempt(open, 1_000_000 + ATTEMPT_LEASE_MS - 1)).toBe(false);
    expect(isStaleAttempt(open, 1_000_000 + ATTEMPT_LEASE_MS)).toBe(true);
  });

  test('a settled attempt (an order, or no longer pending) is never stale', () => {
    const late = 1_000_000 + 10 * ATTEMPT_LEASE_MS;
    expect(isStaleAttempt(attempt({ created_at: 1_000_000, order_id: 'ord_1' }), late)).toBe(false);
    expect(isStaleAttempt(attempt({ created_at: 1_000_000, status: 'failed' }), late)).toBe(false);
  });
});
