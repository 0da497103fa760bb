import { describe, expect, test } from 'vitest';
import type { PaymentRecord } from '../ports/storage';
import { CommerceError } from '../shared/errors';
import { readSnapshot } from './checkout-attempts';

/**
 * Attempts claimed before order lines recorded their reservation: `readSnapshot` derives each
 * line's `reserved_quantity` from the snapshot's exact `reserved` movements (the whole line for a
 * reserved variant, 0 for an untracked one), so reconciliation writes such orders like new ones.
 */
function attemptWith(snapshot: unknown): PaymentRecord {
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
    checkout_snapshot: snapshot as PaymentRecord['checkout_snapshot'],
    created_at: 1,
    updated_at: 1,
  };
}

const line = (variant_id: string, quantity: number, extra: Record<string, unknown> = {}) => ({
  id: `line_${variant_id}`,
  variant_id,
  quantity,
  ...extra,
});

describe('readSnapshot of an older snapshot', () => {
  test('lines without reserved_quantity get their quantity when their variant was reserved, else 0', () => {
    const snapshot = {
      version: 1,
      order: { id: 'ord_1', lines: [line('var_a', 2), line('var_b', 3), line('var_c', 1)] },
      reserved: [
        { variant_id: 'var_a', quantity: 2 },
        { variant_id: 'var_c', quantity: 1 },
      ],
      customer_key: 'a@example.com',
      payment: { amount: 4200 },
    };
    const read = readSnapshot(attemptWith(snapshot));
    expect(read.order.lines.map((l) => [l.variant_id, l.reserved_quantity])).toEqual([
      ['var_a', 2],
      ['var_b', 0],
      ['var_c', 1],
    ]);
    expect(read.order.id).toBe('ord_1');
    expect(read.reserved).toEqual(snapshot.reserved);
    // The stored value is not changed.
    expect(snapshot.order.lines[0]).not.toHaveProperty('reserved_quantity');
  });

  test('a snapshot whose lines all carry reserved_quantity is returned as stored', () => {
    const snapshot = {
      version: 1,
      order: { id: 'ord_1', region_id: null, lines: [line('var_a', 2, { reserved_quantity: 0 })] },
      reserved: [{ variant_id: 'var_a', quantity: 2 }],
    };
    expect(readSnapshot(attemptWith(snapshot))).toBe(snapshot);
  });

  test('a snapshot taken before orders had a region is priced in the store settings: region_id null', () => {
    const snapshot = {
      version: 1,
      order: { id: 'ord_1', currency: 'USD', lines: [line('var_a', 2, { reserved_quantity: 2 })] },
      reserved: [{ variant_id: 'var_a', quantity: 2 }],
    };
    const read = readSnapshot(attemptWith(snapshot));
    expect(read.order.region_id).toBeNull();
    expect(read.order.currency).toBe('USD');
    expect(read.order.lines).toEqual(snapshot.order.lines);
    // The stored value is not changed.
    expect(snapshot.order).not.toHaveProperty('region_id');
  });

  test('a snapshot of an order in a region keeps its region', () => {
    const snapshot = {
      version: 1,
      order: { id: 'ord_1', region_id: 'reg_eu', currency: 'EUR', lines: [] },
      reserved: [],
    };
    expect(readSnapshot(attemptWith(snapshot)).order.region_id).toBe('reg_eu');
  });

  test('no snapshot, or another version, is an internal_error naming the payment', () => {
    for (const stored of [null, { version: 2, order: { lines: [] }, reserved: [] }]) {
      let error: unknown = null;
      try {
        readSnapshot(attemptWith(stored));
      } catch (e) {
        error = e;
      }
      expect(CommerceError.is(error) && [error.code, error.message]).toEqual([
        'internal_error',
        "Payment 'pay_1' has no checkout snapshot",
      ]);
    }
  });
});
