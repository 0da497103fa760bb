import { describe, expect, test } from 'vitest';
import type { OrderAggregate, OrderLineRecord, PaymentRecord, RefundRecord } from '../ports/storage';
import { restockMovementValues } from '../refunds/refund-ledger';
import { orderLine } from './order-fixtures';
import { heldReservations } from './order-inventory';
import { deriveProgress, settleOrder } from './order-progress';

function line(id: string, overrides: Partial<OrderLineRecord> = {}): OrderLineRecord {
  return orderLine({ id, variant_id: `var_${id}`, ...overrides });
}

function pay(amount: number, status: PaymentRecord['status']): PaymentRecord {
  return { amount, status, metadata: {} } as PaymentRecord;
}

function refund(
  amount: number,
  status: RefundRecord['status'],
  restock_movements: RefundRecord['restock_movements'] = [],
  lines: RefundRecord['lines'] = [],
): RefundRecord {
  return {
    amount,
    status,
    restock: restock_movements.length > 0,
    lines,
    restock_movements,
    provider_calls: null,
  } as RefundRecord;
}

function order(overrides: Partial<OrderAggregate>): OrderAggregate {
  return {
    status: 'pending',
    total: 3000,
    lines: [line('l1')],
    payments: [],
    refunds: [],
    fulfillments: [],
    completed_at: null,
    ...overrides,
  } as OrderAggregate;
}

describe('deriveProgress', () => {
  test('paid counts completed and refunded payments; refunded counts completed refunds only', () => {
    const progress = deriveProgress(
      order({
        payments: [pay(2000, 'completed'), pay(1000, 'refunded'), pay(500, 'pending'), pay(700, 'failed')],
        refunds: [refund(1000, 'completed'), refund(400, 'pending'), refund(300, 'failed')],
      }),
    );
    expect(progress).toMatchObject({
      paid_total: 3000,
      refunded_total: 1000,
      payment_status: 'partially_refunded',
    });
  });

  test('returned: every fulfilled unit came back through restocking refunds (from the refunds’ ledger)', () => {
    const lines = [line('l1', { fulfilled_quantity: 2, shipped_quantity: 2, refunded_quantity: 3 })];
    const restocked = refund(
      3000,
      'completed',
      restockMovementValues([
        { order_line_id: 'l1', from_reserved: 1, to_on_hand: 2, returned_quantity: 2, from_fulfillments: [] },
      ]),
      [{ order_line_id: 'l1', quantity: 3 }],
    );
    expect(deriveProgress(order({ lines, refunds: [restocked] })).fulfillment_status).toBe('returned');
    // The same units refunded without restock were not returned.
    expect(deriveProgress(order({ lines, refunds: [refund(3000, 'completed')] })).fulfillment_status).toBe(
      'partially_fulfilled',
    );
  });

  test('units taken out of a pending fulfillment are cancelled, not returned: 3 ordered, fulfilled 3 → 1 after restocking 2 → fulfilled (1 fulfillable)', () => {
    const lines = [line('l1', { fulfilled_quantity: 1, refunded_quantity: 2, restocked_quantity: 2 })];
    const restocked = refund(
      2000,
      'completed',
      restockMovementValues([
        {
          order_line_id: 'l1',
          from_reserved: 2,
          to_on_hand: 0,
          returned_quantity: 0,
          from_fulfillments: [{ fulfillment_id: 'ful_1', quantity: 2 }],
        },
      ]),
      [{ order_line_id: 'l1', quantity: 2 }],
    );
    expect(deriveProgress(order({ lines, refunds: [restocked] }))).toMatchObject({
      fulfillment_status: 'fulfilled',
      shipped: false,
    });
  });

  test('units refunded without restock still count: 3 ordered, 1 refunded without restock, 2 fulfilled → partially_fulfilled', () => {
    const lines = [line('l1', { fulfilled_quantity: 2, shipped_quantity: 2, refunded_quantity: 1 })];
    expect(deriveProgress(order({ lines, refunds: [refund(1000, 'completed')] }))).toMatchObject({
      fulfillment_status: 'partially_fulfilled',
      shipped: false,
    });
  });
});

describe('settleOrder', () => {
  test('pending, shipped, then paid in full: pending → confirmed → processing → completed, completed_at set', () => {
    const { order: settled, path } = settleOrder(
      order({
        lines: [line('l1', { fulfilled_quantity: 3, shipped_quantity: 3 })],
        payments: [pay(3000, 'completed')],
      }),
      42,
    );
    expect(path).toEqual(['confirmed', 'processing', 'completed']);
    expect(settled).toMatchObject({ status: 'completed', completed_at: 42, payment_status: 'paid' });
  });

  test('paid and fully fulfilled but not shipped: → processing only, completed_at stays null (decisions §13)', () => {
    const { order: settled, path } = settleOrder(
      order({ lines: [line('l1', { fulfilled_quantity: 3 })], payments: [pay(3000, 'completed')] }),
      42,
    );
    expect(path).toEqual(['confirmed', 'processing']);
    expect(settled).toMatchObject({ status: 'processing', completed_at: null });
  });

  test('units cancelled by a restocking refund need not ship: 3 ordered, 1 restocked before shipping, 2 shipped, paid → completed', () => {
    const restocked = refund(
      1000,
      'completed',
      restockMovementValues([
        { order_line_id: 'l1', from_reserved: 1, to_on_hand: 0, returned_quantity: 0, from_fulfillments: [] },
      ]),
      [{ order_line_id: 'l1', quantity: 1 }],
    );
    const { order: settled } = settleOrder(
      order({
        status: 'processing',
        lines: [line('l1', { fulfilled_quantity: 2, shipped_quantity: 2, refunded_quantity: 1 })],
        payments: [pay(3000, 'completed')],
        refunds: [restocked],
      }),
      7,
    );
    expect(settled).toMatchObject({ status: 'completed', completed_at: 7, fulfillment_status: 'fulfilled' });
  });

  test('units refunded without restock still ship: 3 ordered, 1 refunded without restock, 2 shipped → stays processing (issue 35)', () => {
    const { order: settled, path } = settleOrder(
      order({
        status: 'processing',
        lines: [line('l1', { fulfilled_quantity: 2, shipped_quantity: 2, refunded_quantity: 1 })],
        payments: [pay(3000, 'completed')],
        refunds: [refund(1000, 'completed')],
      }),
      7,
    );
    expect(path).toEqual([]);
    expect(settled).toMatchObject({ status: 'processing', completed_at: null });
  });

  test('refunded in full counts as paid: every unit refunded without restock, all 3 shipped → completed', () => {
    const { order: settled } = settleOrder(
      order({
        status: 'processing',
        lines: [line('l1', { fulfilled_quantity: 3, shipped_quantity: 3, refunded_quantity: 3 })],
        payments: [pay(3000, 'refunded')],
        refunds: [refund(3000, 'completed')],
      }),
      7,
    );
    expect(settled).toMatchObject({ status: 'completed', payment_status: 'refunded' });
  });

  test('every unit cancelled by restocking refunds before any shipped: unfulfilled, and the order does not move (the admin cancels it)', () => {
    const restocked = refund(
      3000,
      'completed',
      restockMovementValues([
        { order_line_id: 'l1', from_reserved: 3, to_on_hand: 0, returned_quantity: 0, from_fulfillments: [] },
      ]),
      [{ order_line_id: 'l1', quantity: 3 }],
    );
    for (const status of ['confirmed', 'processing'] as const) {
      const { order: settled, path } = settleOrder(
        order({
          status,
          lines: [line('l1', { refunded_quantity: 3, restocked_quantity: 3 })],
          payments: [pay(3000, 'refunded')],
          refunds: [restocked],
        }),
        7,
      );
      expect(path).toEqual([]);
      expect(settled).toMatchObject({
        status,
        payment_status: 'refunded',
        fulfillment_status: 'unfulfilled',
      });
    }
  });

  test('drafts and cancelled orders never move by themselves', () => {
    const paid = { payments: [pay(3000, 'completed')] };
    expect(settleOrder(order({ ...paid, status: 'draft' }), 1).path).toEqual([]);
    expect(settleOrder(order({ ...paid, status: 'cancelled' }), 1).path).toEqual([]);
  });
});

describe('heldReservations', () => {
  test('3 ordered, 1 shipped, 1 released by a restocking refund → 1 still reserved', () => {
    const held = heldReservations({
      lines: [line('l1', { shipped_quantity: 1 })],
      refunds: [
        refund(
          1000,
          'completed',
          restockMovementValues([
            {
              order_line_id: 'l1',
              from_reserved: 1,
              to_on_hand: 0,
              returned_quantity: 0,
              from_fulfillments: [],
            },
          ]),
          [{ order_line_id: 'l1', quantity: 1 }],
        ),
      ],
    });
    expect(held).toEqual([{ variant_id: 'var_l1', quantity: 1 }]);
  });

  test('3 ordered in a pending fulfillment, 2 restocked out of it → 1 still reserved (the unit left to ship)', () => {
    const held = heldReservations({
      lines: [line('l1', { fulfilled_quantity: 1, refunded_quantity: 2 })],
      refunds: [
        refund(
          2000,
          'completed',
          restockMovementValues([
            {
              order_line_id: 'l1',
              from_reserved: 2,
              to_on_hand: 0,
              returned_quantity: 0,
              from_fulfillments: [{ fulfillment_id: 'ful_1', quantity: 2 }],
            },
          ]),
          [{ order_line_id: 'l1', quantity: 2 }],
        ),
      ],
    });
    expect(held).toEqual([{ variant_id: 'var_l1', quantity: 1 }]);
  });

  test('lines of one variant are summed; fully shipped lines hold nothing', () => {
    const held = heldReservations({
      lines: [
        line('a', { variant_id: 'var_x', quantity: 2 }),
        line('b', { variant_id: 'var_x', quantity: 1 }),
        line('c', { quantity: 2, shipped_quantity: 2 }),
      ],
      refunds: [],
    });
    expect(held).toEqual([{ variant_id: 'var_x', quantity: 3 }]);
  });
});
