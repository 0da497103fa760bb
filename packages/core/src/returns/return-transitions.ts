import { assertTransition, type StateMachine } from '../shared/state-machine';
import type { ReturnStatus } from '../vocabulary/returns';

/** Who moves a return: the merchant (secret key) or the signed-in customer. */
export interface ReturnMoveContext {
  actor: 'admin' | 'customer';
}

/**
 * Return status (decisions §18). Created `requested` (storefront) or `approved` (admin);
 * `requested → approved` (approve), `requested | received → rejected` (reject; after receipt the
 * inspection failed), `approved → received` (receive), `received → completed` (complete),
 * `requested → cancelled` (customer or admin), `approved → cancelled` (admin only: the guard).
 * `rejected`, `completed` and `cancelled` are final. Any other move → 409
 * `invalid_state_transition`.
 */
export const returnMachine: StateMachine<ReturnStatus, ReturnMoveContext> = {
  subject: 'return',
  states: ['requested', 'approved', 'rejected', 'received', 'completed', 'cancelled'],
  transitions: {
    requested: { to: ['approved', 'rejected', 'cancelled'] },
    approved: { to: ['received', 'cancelled'] },
    received: { to: ['rejected', 'completed'] },
    rejected: { to: [] },
    completed: { to: [] },
    cancelled: { to: [] },
  },
  guard: (from, to, context) =>
    from === 'approved' && to === 'cancelled' && context?.actor === 'customer'
      ? 'an approved return can be cancelled only by the merchant'
      : undefined,
};

/** The statuses of a return that still holds its units (they are not returnable again). */
export const OPEN_RETURN_STATUSES: readonly ReturnStatus[] = ['requested', 'approved', 'received'];

/** Whether a return in `status` holds its units (requested, approved or received). */
export function isOpenReturn(status: ReturnStatus): boolean {
  return OPEN_RETURN_STATUSES.includes(status);
}

/**
 * Asserts a move of a return. @throws 409 `invalid_state_transition` (`data: { from, to }`).
 *
 * @example assertReturnTransition('approved', 'received', 'admin') // ok
 * @example assertReturnTransition('approved', 'cancelled', 'customer') // throws
 */
export function assertReturnTransition(
  from: ReturnStatus,
  to: ReturnStatus,
  actor: ReturnMoveContext['actor'],
): void {
  assertTransition(returnMachine, from, to, { actor });
}
