import { describe, expect, it } from 'vitest';
import { orderLine } from '../orders/order-fixtures';
import { heldReservations } from '../orders/order-inventory';
import { deriveProgress } from '../orders/order-progress';
import type { PaymentRecord, RefundRecord } from '../ports/storage';
import { restockMovementValues, unitsInFlight } from '../refunds/refund-ledger';
import {
  providerRefundDecision,
  refundFailureMessage,
  settledRefundParts,
} from './provider-refund-settlement';

function payment(id: string, amount: number, status: PaymentRecord['status'] = 'completed'): PaymentRecord {
  return {
    id,
    amount,
    status,
    provider: 'stripe',
    provider_id: `pi_${id}`,
    currency: 'USD',
    created_at: 1,
  } as PaymentRecord;
}

/** A refund of `amount` for 2 units of line_1, restocked: 2 units left `reserved`. */
function refund(
  id: string,
  amount: number,
  status: RefundRecord['status'],
  provider_calls: RefundRecord['provider_calls'] = null,
  restock_movements: RefundRecord['restock_movements'] = restockMovementValues([
    {
      order_line_id: 'line_1',
      from_reserved: 2,
      to_on_hand: 0,
      returned_quantity: 0,
      from_fulfillments: [],
    },
  ]),
): RefundRecord {
  return {
    id,
    store_id: 'store_1',
    mode: 'test',
    order_id: 'ord_1',
    amount,
    currency: 'USD',
    reason: null,
    restock: true,
    status,
    lines: [{ order_line_id: 'line_1', quantity: 2 }],
    provider_refund_id: `re_${id}`,
    metadata: {},
    restock_movements: provider_calls === null ? restock_movements : [],
    provider_calls,
    failure_message: null,
    created_at: 1,
    updated_at: 1,
  };
}

describe('providerRefundDecision: only a refund pending at its provider (applied, not in flight) settles', () => {
  const atProvider = refund('ref_1', 2000, 'pending');
  const inFlight = refund('ref_2', 2000, 'pending', [{ payment_id: 'pay_1', amount: 2000 }]);

  it('pending at the provider: succeeded → complete, failed → fail, pending → unchanged', () => {
    expect(providerRefundDecision(atProvider, 'succeeded')).toBe('complete');
    expect(providerRefundDecision(atProvider, 'failed')).toBe('fail');
    expect(providerRefundDecision(atProvider, 'pending')).toBe('unchanged');
  });

  it('in flight (its request or reconciliation settles it), completed or failed already → unchanged whatever is reported', () => {
    for (const r of [inFlight, refund('ref_3', 2000, 'completed'), refund('ref_4', 2000, 'failed')]) {
      expect(['succeeded', 'failed', 'pending'].map((s) => providerRefundDecision(r, s as 'failed'))).toEqual(
        ['unchanged', 'unchanged', 'unchanged'],
      );
    }
  });
});

describe('settledRefundParts', () => {
  const order = {
    payments: [payment('pay_1', 3000)],
    refunds: [refund('ref_0', 1000, 'completed'), refund('ref_1', 2000, 'pending')],
  };

  it('complete: 1000 completed + 2000 now completed cover payment 3000 → the refund completed, pay_1 marked refunded', () => {
    const parts = settledRefundParts(order, order.refunds[1]!, 'complete', null, 50);
    expect(parts.refund).toMatchObject({ id: 'ref_1', status: 'completed', updated_at: 50 });
    expect(parts.refund.restock_movements).toEqual(order.refunds[1]!.restock_movements);
    expect(parts.refund.failure_message).toBeNull();
    expect(parts.refunds.map((r) => r.status)).toEqual(['completed', 'completed']);
    expect(parts.marked.map((p) => p.id)).toEqual(['pay_1']);
  });

  it('complete of 2000 when only 1000 more was refunded before, on a 5000 payment → nothing marked (4000 of 5000)', () => {
    const bigger = { ...order, payments: [payment('pay_1', 5000)] };
    expect(settledRefundParts(bigger, order.refunds[1]!, 'complete', null, 50).marked).toEqual([]);
  });

  it('fail: the refund failed with the provider’s reason beside its restock movements; no payment marked', () => {
    const parts = settledRefundParts(order, order.refunds[1]!, 'fail', 'lost_or_stolen_card', 50);
    expect(parts.refund.status).toBe('failed');
    expect(parts.refund.failure_message).toBe('lost_or_stolen_card');
    expect(parts.refund.restock_movements).toEqual(order.refunds[1]!.restock_movements);
    expect(parts.refund.metadata).toEqual({});
    expect(parts.marked).toEqual([]);
    expect(refundFailureMessage(null)).toBe('The payment provider could not refund');
  });
});

describe('a refund failed after it was applied: its AMOUNT no longer counts, its UNITS still do', () => {
  // 3 mugs at 10.00, paid 3000; 2 refunded (2000, restocked) pending at Stripe, which then fails it.
  const line = orderLine({ refunded_quantity: 2, restocked_quantity: 2 });
  const before = refund('ref_1', 2000, 'pending');
  const { refunds } = settledRefundParts(
    { payments: [payment('pay_1', 3000)], refunds: [before] },
    before,
    'fail',
    'expired_or_canceled_card',
    50,
  );
  const order = { total: 3000, lines: [line], payments: [payment('pay_1', 3000)], refunds };

  it('money: refunded_total 0, payment_status paid; the refundable amount (paid − non-failed refunds) is 3000 again', () => {
    expect(deriveProgress(order)).toMatchObject({
      paid_total: 3000,
      refunded_total: 0,
      payment_status: 'paid',
    });
    const outstanding = refunds.filter((r) => r.status !== 'failed').reduce((sum, r) => sum + r.amount, 0);
    expect(3000 - outstanding).toBe(3000);
  });

  it('units: still in the line’s refunded_quantity (2 of 3 refundable no more), not in flight; its 2 units stay out of reserved', () => {
    expect(order.lines[0]!.quantity - order.lines[0]!.refunded_quantity).toBe(1);
    expect(unitsInFlight(order).size).toBe(0);
    // Cancelling the order would release only the 1 unit still held, not the 2 restocked ones again.
    expect(heldReservations(order)).toEqual([{ variant_id: 'var_1', quantity: 1 }]);
  });
});
