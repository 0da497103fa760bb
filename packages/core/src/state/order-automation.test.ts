import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import type { FulfillmentStatus, OrderStatus, PaymentStatus } from '../ports/storage/records';
import { ORDER_FULFILLMENT_STATUSES } from './fulfillment-status';
import {
  automaticOrderPath,
  orderStatusAfterFulfillment,
  orderStatusAfterPayment,
  settleOrderStatus,
} from './order-automation';
import { orderMachine } from './order-transitions';
import { ORDER_PAYMENT_STATUSES } from './payment-status';
import { canTransition } from './state-machine';

describe('orderStatusAfterPayment (decisions §13: payment in full moves pending → confirmed)', () => {
  it('pending + paid → confirmed', () => {
    expect(orderStatusAfterPayment('pending', 'paid')).toBe('confirmed');
  });

  it('pending + partially_paid stays pending', () => {
    expect(orderStatusAfterPayment('pending', 'partially_paid')).toBe('pending');
  });

  it('draft + paid stays draft (a draft is finalised by the admin)', () => {
    expect(orderStatusAfterPayment('draft', 'paid')).toBe('draft');
  });

  it('cancelled + paid stays cancelled', () => {
    expect(orderStatusAfterPayment('cancelled', 'paid', 'fulfilled')).toBe('cancelled');
  });

  it('processing, fully fulfilled, then paid in full → completed', () => {
    expect(orderStatusAfterPayment('processing', 'paid', 'fulfilled')).toBe('completed');
  });

  it('pending, fulfilled before payment, then paid → confirmed → processing → completed', () => {
    expect(
      automaticOrderPath('pending', { payment_status: 'paid', fulfillment_status: 'fulfilled' }),
    ).toEqual(['confirmed', 'processing', 'completed']);
  });
});

describe('orderStatusAfterFulfillment (first fulfillment: confirmed → processing; fulfilled and paid → completed)', () => {
  it('confirmed + first partial fulfillment → processing', () => {
    expect(orderStatusAfterFulfillment('confirmed', 'partially_fulfilled', 'paid')).toBe('processing');
  });

  it('confirmed + everything fulfilled at once + paid → completed (through processing)', () => {
    expect(orderStatusAfterFulfillment('confirmed', 'fulfilled', 'paid')).toBe('completed');
    expect(
      automaticOrderPath('confirmed', { payment_status: 'paid', fulfillment_status: 'fulfilled' }),
    ).toEqual(['processing', 'completed']);
  });

  it('fully fulfilled but only partially paid stays processing', () => {
    expect(orderStatusAfterFulfillment('confirmed', 'fulfilled', 'partially_paid')).toBe('processing');
    expect(orderStatusAfterFulfillment('processing', 'fulfilled', 'unpaid')).toBe('processing');
  });

  it('fully fulfilled but partially refunded stays processing (the admin completes it)', () => {
    expect(orderStatusAfterFulfillment('processing', 'fulfilled', 'partially_refunded')).toBe('processing');
  });

  it('a pending (unpaid) order stays pending when fulfilled', () => {
    expect(orderStatusAfterFulfillment('pending', 'partially_fulfilled', 'unpaid')).toBe('pending');
  });

  it('nothing moves when nothing changed: confirmed + unfulfilled', () => {
    expect(
      settleOrderStatus('confirmed', { payment_status: 'paid', fulfillment_status: 'unfulfilled' }),
    ).toBe('confirmed');
  });
});

describe('automatic moves, property', () => {
  it('every automatic step is a move of the order table, and the end state is settled', () => {
    const statuses = orderMachine.states;
    fc.assert(
      fc.property(
        fc.constantFrom(...statuses),
        fc.constantFrom(...ORDER_PAYMENT_STATUSES),
        fc.constantFrom(...ORDER_FULFILLMENT_STATUSES),
        (status: OrderStatus, payment_status: PaymentStatus, fulfillment_status: FulfillmentStatus) => {
          const progress = { payment_status, fulfillment_status };
          const path = automaticOrderPath(status, progress);
          let from = status;
          for (const to of path) {
            expect(canTransition(orderMachine, from, to, { has_shipped_units: true })).toBe(true);
            expect(to).not.toBe('cancelled');
            from = to;
          }
          expect(automaticOrderPath(from, progress)).toEqual([]);
          if (from === 'completed' && status !== 'completed') {
            expect(payment_status).toBe('paid');
            expect(fulfillment_status).toBe('fulfilled');
          }
        },
      ),
    );
  });
});
