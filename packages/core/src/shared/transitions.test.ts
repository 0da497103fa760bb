import { describe, expect, it } from 'vitest';
import { assertCartActive, cartMachine } from '../carts/cart-transitions';
import { fulfillmentMachine } from '../fulfillments/fulfillment-transitions';
import { orderMachine } from '../orders/order-transitions';
import { paymentMachine, paymentStatusAfterRefunds } from '../payments/payment-transitions';
import { refundMachine } from '../refunds/refund-transitions';
import { CommerceError } from './errors';
import {
  assertTransition,
  canTransition,
  checkTransition,
  isTerminalState,
  type StateMachine,
} from './state-machine';

/** Every allowed move of a machine as `from→to` strings, to compare with the decisions' lists. */
function moves<S extends string, C>(machine: StateMachine<S, C>): string[] {
  return machine.states.flatMap((from) => machine.transitions[from].to.map((to) => `${from}→${to}`)).sort();
}

describe('cart (decisions §12)', () => {
  it('active → completed | abandoned, nothing else', () => {
    expect(moves(cartMachine)).toEqual(['active→abandoned', 'active→completed']);
  });

  it('a completed cart cannot be re-activated or abandoned', () => {
    expect(canTransition(cartMachine, 'completed', 'active')).toBe(false);
    expect(canTransition(cartMachine, 'completed', 'abandoned')).toBe(false);
    expect(isTerminalState(cartMachine, 'abandoned')).toBe(true);
  });

  it('assertCartActive passes for active and throws cart_not_active (409) for completed and abandoned', () => {
    expect(() => assertCartActive('active')).not.toThrow();
    for (const status of ['completed', 'abandoned'] as const) {
      try {
        assertCartActive(status);
        expect.unreachable();
      } catch (error) {
        expect(CommerceError.is(error)).toBe(true);
        expect((error as CommerceError).code).toBe('cart_not_active');
        expect((error as CommerceError).type).toBe('conflict_error');
        expect((error as CommerceError).data).toEqual({ status });
      }
    }
  });
});

describe('order status (decisions §13)', () => {
  it('draft → pending → confirmed → processing → completed, cancelled from the four open states', () => {
    expect(moves(orderMachine)).toEqual(
      [
        'draft→pending',
        'pending→confirmed',
        'confirmed→processing',
        'processing→completed',
        'draft→cancelled',
        'pending→cancelled',
        'confirmed→cancelled',
        'processing→cancelled',
      ].sort(),
    );
    expect(isTerminalState(orderMachine, 'completed')).toBe(true);
    expect(isTerminalState(orderMachine, 'cancelled')).toBe(true);
  });

  it('processing → cancelled is allowed while nothing has shipped', () => {
    expect(checkTransition(orderMachine, 'processing', 'cancelled', { has_shipped_units: false })).toEqual({
      ok: true,
    });
  });

  it('processing → cancelled is refused once a unit has shipped, with the reason in the message', () => {
    expect(checkTransition(orderMachine, 'processing', 'cancelled', { has_shipped_units: true })).toEqual({
      ok: false,
      reason: 'units of this order have already shipped',
    });
    expect(() =>
      assertTransition(orderMachine, 'processing', 'cancelled', { has_shipped_units: true }),
    ).toThrow(/already shipped/);
  });

  it('processing → cancelled without context is refused (shipping unknown)', () => {
    expect(canTransition(orderMachine, 'processing', 'cancelled')).toBe(false);
  });

  it('the guard only concerns processing → cancelled: confirmed → cancelled ignores has_shipped_units', () => {
    expect(canTransition(orderMachine, 'confirmed', 'cancelled', { has_shipped_units: true })).toBe(true);
    expect(canTransition(orderMachine, 'processing', 'completed', { has_shipped_units: true })).toBe(true);
  });

  it('no shortcuts: pending → processing, confirmed → completed and draft → confirmed are refused', () => {
    expect(canTransition(orderMachine, 'pending', 'processing')).toBe(false);
    expect(canTransition(orderMachine, 'confirmed', 'completed')).toBe(false);
    expect(canTransition(orderMachine, 'draft', 'confirmed')).toBe(false);
  });
});

describe('payment record status (decisions §13)', () => {
  it('pending → completed | failed | cancelled; completed → refunded', () => {
    expect(moves(paymentMachine)).toEqual(
      ['pending→completed', 'pending→failed', 'pending→cancelled', 'completed→refunded'].sort(),
    );
  });

  it('a failed payment cannot be completed later', () => {
    expect(canTransition(paymentMachine, 'failed', 'completed')).toBe(false);
  });

  it('paymentStatusAfterRefunds: 2000 of 5000 refunded stays completed, 5000 of 5000 is refunded', () => {
    expect(paymentStatusAfterRefunds({ amount: 5000, refunded: 0 })).toBe('completed');
    expect(paymentStatusAfterRefunds({ amount: 5000, refunded: 2000 })).toBe('completed');
    expect(paymentStatusAfterRefunds({ amount: 5000, refunded: 4999 })).toBe('completed');
    expect(paymentStatusAfterRefunds({ amount: 5000, refunded: 5000 })).toBe('refunded');
  });

  it('paymentStatusAfterRefunds: a zero-amount payment with no refund stays completed', () => {
    expect(paymentStatusAfterRefunds({ amount: 0, refunded: 0 })).toBe('completed');
  });
});

describe('fulfillment record status (decisions §13)', () => {
  it('pending → shipped → delivered; pending → cancelled', () => {
    expect(moves(fulfillmentMachine)).toEqual(
      ['pending→shipped', 'shipped→delivered', 'pending→cancelled'].sort(),
    );
  });

  it('a shipped fulfillment cannot be cancelled, and pending cannot skip to delivered', () => {
    expect(canTransition(fulfillmentMachine, 'shipped', 'cancelled')).toBe(false);
    expect(canTransition(fulfillmentMachine, 'pending', 'delivered')).toBe(false);
  });
});

describe('refund record status (decisions §13)', () => {
  it('pending → completed | failed, both terminal', () => {
    expect(moves(refundMachine)).toEqual(['pending→completed', 'pending→failed']);
    expect(canTransition(refundMachine, 'failed', 'completed')).toBe(false);
  });
});
