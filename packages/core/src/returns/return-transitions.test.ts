import { describe, expect, it } from 'vitest';
import { CommerceError } from '../shared/errors';
import { canTransition } from '../shared/state-machine';
import { RETURN_STATUSES, type ReturnStatus } from '../vocabulary/returns';
import { assertReturnTransition, isOpenReturn, returnMachine } from './return-transitions';

/** Decisions §18, as a list: every allowed move and who may make it. */
const ALLOWED: ReadonlyArray<[ReturnStatus, ReturnStatus, ReadonlyArray<'admin' | 'customer'>]> = [
  ['requested', 'approved', ['admin']],
  ['requested', 'rejected', ['admin']],
  ['requested', 'cancelled', ['admin', 'customer']],
  ['approved', 'received', ['admin']],
  ['approved', 'cancelled', ['admin']],
  ['received', 'rejected', ['admin']],
  ['received', 'completed', ['admin']],
];

describe('return state machine (decisions §18)', () => {
  it('allows exactly the listed moves; every other pair is refused', () => {
    for (const from of RETURN_STATUSES) {
      for (const to of RETURN_STATUSES) {
        const listed = ALLOWED.find(([f, t]) => f === from && t === to);
        expect(canTransition(returnMachine, from, to, { actor: 'admin' }), `${from} → ${to}`).toBe(
          listed !== undefined,
        );
      }
    }
  });

  it('approved → cancelled is the merchant’s alone; the customer may cancel only a requested return', () => {
    expect(canTransition(returnMachine, 'approved', 'cancelled', { actor: 'customer' })).toBe(false);
    expect(canTransition(returnMachine, 'requested', 'cancelled', { actor: 'customer' })).toBe(true);
  });

  it('rejected, completed and cancelled are final', () => {
    for (const final of ['rejected', 'completed', 'cancelled'] as const) {
      expect(returnMachine.transitions[final].to).toEqual([]);
    }
  });

  it('a refused move throws 409 invalid_state_transition naming both states', () => {
    let caught: unknown;
    try {
      assertReturnTransition('completed', 'completed', 'admin');
    } catch (error) {
      caught = error;
    }
    expect(CommerceError.is(caught)).toBe(true);
    const error = caught as CommerceError;
    expect(error.code).toBe('invalid_state_transition');
    expect(error.message).toContain("'completed'");
    expect(() => assertReturnTransition('approved', 'cancelled', 'customer')).toThrow(/merchant/);
    expect(() => assertReturnTransition('approved', 'received', 'admin')).not.toThrow();
  });

  it('requested, approved and received hold their units; the final states do not', () => {
    expect(RETURN_STATUSES.filter(isOpenReturn)).toEqual(['requested', 'approved', 'received']);
  });
});
