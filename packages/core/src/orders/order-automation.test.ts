import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { ORDER_FULFILLMENT_STATUSES } from '../fulfillments/fulfillment-status';
import { ORDER_PAYMENT_STATUSES } from '../payments/payment-status';
import type { PaymentStatus } from '../payments/vocabulary';
import { canTransition } from '../shared/state-machine';
import {
  automaticOrderPath,
  orderStatusAfterFulfillment,
  orderStatusAfterPayment,
  settleOrderStatus,
} from './order-automation';
import { orderMachine } from './order-transitions';
import type { FulfillmentStatus, OrderStatus } from './vocabulary';

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

  it('processing, fully shipped, then paid in full → completed', () => {
    expect(orderStatusAfterPayment('processing', 'paid', 'fulfilled', true)).toBe('completed');
  });

  it('processing, fully fulfilled but nothing shipped, then paid in full → stays processing', () => {
    expect(orderStatusAfterPayment('processing', 'paid', 'fulfilled')).toBe('processing');
  });

  it('pending, shipped before payment, then paid → confirmed → processing → completed', () => {
    expect(
      automaticOrderPath('pending', {
        payment_status: 'paid',
        fulfillment_status: 'fulfilled',
        shipped: true,
      }),
    ).toEqual(['confirmed', 'processing', 'completed']);
  });
});

describe('orderStatusAfterFulfillment (first fulfillment: confirmed → processing; shipped and paid → completed)', () => {
  it('confirmed + first partial fulfillment → processing', () => {
    expect(orderStatusAfterFulfillment('confirmed', 'partially_fulfilled', 'paid')).toBe('processing');
  });

  it('confirmed + everything fulfilled at once (created, pending) + paid → processing only', () => {
    expect(orderStatusAfterFulfillment('confirmed', 'fulfilled', 'paid')).toBe('processing');
    expect(
      automaticOrderPath('confirmed', {
        payment_status: 'paid',
        fulfillment_status: 'fulfilled',
        shipped: false,
      }),
    ).toEqual(['processing']);
  });

  it('confirmed + everything shipped + paid → completed (through processing)', () => {
    expect(orderStatusAfterFulfillment('confirmed', 'fulfilled', 'paid', true)).toBe('completed');
    expect(
      automaticOrderPath('confirmed', {
        payment_status: 'paid',
        fulfillment_status: 'fulfilled',
        shipped: true,
      }),
    ).toEqual(['processing', 'completed']);
  });

  it('fully shipped but only partially paid stays processing', () => {
    expect(orderStatusAfterFulfillment('confirmed', 'fulfilled', 'partially_paid', true)).toBe('processing');
    expect(orderStatusAfterFulfillment('processing', 'fulfilled', 'unpaid', true)).toBe('processing');
  });

  it('every unit not refunded shipped, paid in full then partially refunded → completed', () => {
    expect(orderStatusAfterFulfillment('processing', 'fulfilled', 'partially_refunded', true)).toBe(
      'completed',
    );
  });

  it('refunded in full counts as paid (decisions §13): every fulfillable unit shipped → completed', () => {
    expect(orderStatusAfterFulfillment('processing', 'fulfilled', 'refunded', true)).toBe('completed');
    expect(orderStatusAfterFulfillment('processing', 'fulfilled', 'refunded', false)).toBe('processing');
  });

  it('a pending (unpaid) order stays pending when fulfilled', () => {
    expect(orderStatusAfterFulfillment('pending', 'partially_fulfilled', 'unpaid')).toBe('pending');
  });

  it('nothing moves when nothing changed: confirmed + unfulfilled', () => {
    expect(
      settleOrderStatus('confirmed', {
        payment_status: 'paid',
        fulfillment_status: 'unfulfilled',
        shipped: false,
      }),
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
        fc.boolean(),
        (
          status: OrderStatus,
          payment_status: PaymentStatus,
          fulfillment_status: FulfillmentStatus,
          shipped: boolean,
        ) => {
          const progress = { payment_status, fulfillment_status, shipped };
          const path = automaticOrderPath(status, progress);
          let from = status;
          for (const to of path) {
            expect(canTransition(orderMachine, from, to, { has_shipped_units: true })).toBe(true);
            expect(to).not.toBe('cancelled');
            from = to;
          }
          expect(automaticOrderPath(from, progress)).toEqual([]);
          if (from === 'completed' && status !== 'completed') {
            expect(['paid', 'partially_refunded', 'refunded']).toContain(payment_status);
            expect(shipped).toBe(true);
          }
        },
      ),
    );
  });
});
