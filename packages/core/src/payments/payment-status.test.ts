import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { derivePaymentStatus, ORDER_PAYMENT_STATUSES } from './payment-status';

describe('derivePaymentStatus (decisions §13)', () => {
  it.each([
    [{ total: 5000, paid: 0, refunded: 0 }, 'unpaid'],
    [{ total: 5000, paid: 2000, refunded: 0 }, 'partially_paid'],
    [{ total: 5000, paid: 5000, refunded: 0 }, 'paid'],
    [{ total: 5000, paid: 6000, refunded: 0 }, 'paid'],
    [{ total: 5000, paid: 5000, refunded: 1000 }, 'partially_refunded'],
    [{ total: 5000, paid: 5000, refunded: 5000 }, 'refunded'],
    [{ total: 5000, paid: 2000, refunded: 2000 }, 'refunded'],
    [{ total: 5000, paid: 2000, refunded: 500 }, 'partially_refunded'],
    [{ total: 0, paid: 0, refunded: 0 }, 'paid'],
    [{ total: 5000, paid: 0, refunded: 0, awaiting: true }, 'awaiting_payment'],
    [{ total: 5000, paid: 0, refunded: 0, awaiting: false }, 'unpaid'],
    // Money beats the marker: once anything was paid, the amounts decide.
    [{ total: 5000, paid: 2000, refunded: 0, awaiting: true }, 'partially_paid'],
    [{ total: 5000, paid: 5000, refunded: 0, awaiting: true }, 'paid'],
    [{ total: 0, paid: 0, refunded: 0, awaiting: true }, 'paid'],
  ] as const)('%o → %s', (amounts, expected) => {
    expect(derivePaymentStatus(amounts)).toBe(expected);
  });

  it('is consistent with the amounts for any random total, payments and refunds', () => {
    fc.assert(
      fc.property(fc.nat(1_000_000), fc.nat(1_000_000), fc.nat(1_000_000), (total, paid, refundedRaw) => {
        const refunded = Math.min(refundedRaw, paid); // refunds never exceed what was paid
        const status = derivePaymentStatus({ total, paid, refunded });
        expect(ORDER_PAYMENT_STATUSES).toContain(status);
        switch (status) {
          case 'refunded':
            expect(refunded).toBeGreaterThan(0);
            expect(refunded).toBe(paid);
            break;
          case 'partially_refunded':
            expect(refunded).toBeGreaterThan(0);
            expect(refunded).toBeLessThan(paid);
            break;
          case 'paid':
            expect(refunded).toBe(0);
            expect(paid).toBeGreaterThanOrEqual(total);
            break;
          case 'partially_paid':
            expect(refunded).toBe(0);
            expect(paid).toBeGreaterThan(0);
            expect(paid).toBeLessThan(total);
            break;
          case 'unpaid':
            expect(paid).toBe(0);
            expect(total).toBeGreaterThan(0);
            break;
        }
      }),
    );
  });

  it('paying more never lowers the status before refunds (unpaid < partially_paid < paid)', () => {
    const rank = { unpaid: 0, partially_paid: 1, paid: 2 } as Record<string, number>;
    fc.assert(
      fc.property(fc.nat(100_000), fc.nat(100_000), fc.nat(100_000), (total, a, b) => {
        const low = derivePaymentStatus({ total, paid: Math.min(a, b), refunded: 0 });
        const high = derivePaymentStatus({ total, paid: Math.max(a, b), refunded: 0 });
        expect(rank[high]!).toBeGreaterThanOrEqual(rank[low]!);
      }),
    );
  });
});
