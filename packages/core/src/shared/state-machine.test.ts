import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { cartMachine } from '../carts/cart-transitions';
import { fulfillmentMachine } from '../fulfillments/fulfillment-transitions';
import { orderMachine } from '../orders/order-transitions';
import { paymentMachine } from '../payments/payment-transitions';
import { refundMachine } from '../refunds/refund-transitions';
import { CommerceError } from './errors';
import {
  assertTransition,
  canTransition,
  checkTransition,
  isKnownState,
  isTerminalState,
  nextStates,
  type StateMachine,
  statesLeadingTo,
} from './state-machine';

// Every machine under test, typed loosely so one property can walk them all.
type AnyMachine = StateMachine<string, { has_shipped_units: boolean }>;
const MACHINES = [
  cartMachine,
  orderMachine,
  paymentMachine,
  fulfillmentMachine,
  refundMachine,
] as unknown as AnyMachine[];

function thrown(fn: () => unknown): unknown {
  try {
    fn();
  } catch (error) {
    return error;
  }
  throw new Error('expected a throw');
}

describe('state machine tables', () => {
  it.each(MACHINES.map((m) => [m.subject, m] as const))(
    '%s: the table lists exactly its states',
    (_, machine) => {
      expect(Object.keys(machine.transitions).sort()).toEqual([...machine.states].sort());
      for (const state of machine.states) {
        for (const to of machine.transitions[state]!.to) expect(machine.states).toContain(to);
      }
    },
  );

  it('a random walk through allowed moves never reaches an unlisted state', () => {
    fc.assert(
      fc.property(
        fc.constantFrom(...MACHINES),
        fc.array(fc.tuple(fc.nat(), fc.boolean()), { maxLength: 20 }),
        (machine, picks) => {
          let state = machine.states[0]!;
          for (const [pick, shipped] of picks) {
            const context = { has_shipped_units: shipped };
            const options = nextStates(machine, state).filter((to) =>
              canTransition(machine, state, to, context),
            );
            if (options.length === 0) {
              expect(isTerminalState(machine, state)).toBe(true);
              break;
            }
            const to = options[pick % options.length]!;
            assertTransition(machine, state, to, context);
            state = to;
            expect(machine.states).toContain(state);
          }
        },
      ),
    );
  });

  it('every move outside the table throws invalid_state_transition', () => {
    fc.assert(
      fc.property(
        fc.constantFrom(...MACHINES),
        fc.nat(),
        fc.nat(),
        fc.boolean(),
        (machine, i, j, shipped) => {
          const from = machine.states[i % machine.states.length]!;
          const to = machine.states[j % machine.states.length]!;
          const context = { has_shipped_units: shipped };
          if (machine.transitions[from]!.to.includes(to)) return;
          expect(checkTransition(machine, from, to, context).ok).toBe(false);
          const error = thrown(() => assertTransition(machine, from, to, context));
          expect(CommerceError.is(error)).toBe(true);
          expect((error as CommerceError).code).toBe('invalid_state_transition');
          expect((error as CommerceError).data).toEqual({ from, to });
        },
      ),
    );
  });

  it('unknown states are refused with a reason, never looked up blindly', () => {
    const machine = cartMachine as unknown as StateMachine<string>;
    expect(isKnownState(machine, 'toString')).toBe(false);
    expect(checkTransition(machine, 'bogus', 'active')).toEqual({
      ok: false,
      reason: "'bogus' is not a cart state",
    });
    expect(checkTransition(machine, 'active', 'bogus')).toEqual({
      ok: false,
      reason: "'bogus' is not a cart state",
    });
    expect(nextStates(machine, 'bogus')).toEqual([]);
  });

  it("the error message names the subject, both states and the reason: cart 'completed' → 'active'", () => {
    const error = thrown(() => assertTransition(cartMachine, 'completed', 'active')) as CommerceError;
    expect(error.message).toBe("Cannot move cart from 'completed' to 'active': 'completed' is terminal");
    expect(error.type).toBe('conflict_error');
  });

  it("a listed-but-wrong target explains where the state can go: refund 'pending' → 'pending'", () => {
    expect(checkTransition(refundMachine, 'pending', 'pending')).toEqual({
      ok: false,
      reason: "'pending' can only move to 'completed', 'failed'",
    });
  });

  it('statesLeadingTo lists the sources of a target: payment refunded ← completed', () => {
    expect(statesLeadingTo(paymentMachine, 'refunded')).toEqual(['completed']);
    expect(statesLeadingTo(paymentMachine, 'pending')).toEqual([]);
  });
});
