import { CommerceError } from '../shared/errors';
import type { StateMachine } from '../shared/state-machine';
import type { CartStatus } from './vocabulary';

/**
 * Cart status (docs/contract.md#carts): `active` → `completed` (checked out) or `abandoned` (merged away,
 * or expired by the host). Both outcomes are terminal: a cart is never re-opened.
 */
export const cartMachine: StateMachine<CartStatus> = {
  subject: 'cart',
  states: ['active', 'completed', 'abandoned'],
  transitions: {
    active: { to: ['completed', 'abandoned'] },
    completed: { to: [] },
    abandoned: { to: [] },
  },
};

/**
 * Any change to a cart (items, addresses, discount codes, checkout, merge) requires it to be
 * `active`.
 *
 * @throws CommerceError `cart_not_active` (409) with `data: { status }`.
 */
export function assertCartActive(status: CartStatus): void {
  if (status === 'active') return;
  throw new CommerceError('cart_not_active', `This cart is ${status} and can no longer be changed`, {
    data: { status },
  });
}
