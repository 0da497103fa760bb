import type { StateMachine } from '../shared/state-machine';
import type { OrderStatus } from './vocabulary';

/** What the order guard needs to know about the order beyond its status. */
export interface OrderTransitionContext {
  /** True when any unit of the order left the warehouse (a fulfillment is `shipped` or `delivered`). */
  has_shipped_units: boolean;
}

/**
 * Order status (docs/contract.md#order-status): `draft → pending → confirmed → processing → completed`;
 * `cancelled` from draft, pending or confirmed, and from processing only while nothing has
 * shipped. `completed` and `cancelled` are terminal; every other move is refused (409
 * `invalid_state_transition`). There are no shortcuts: `confirmed → completed` passes through
 * `processing` (see `order-automation.ts`).
 *
 * Decision: cancelling a `processing` order without a context is refused — the caller must say
 * whether units have shipped; an unknown answer never cancels a shipped order.
 */
export const orderMachine: StateMachine<OrderStatus, OrderTransitionContext> = {
  subject: 'order',
  states: ['draft', 'pending', 'confirmed', 'processing', 'completed', 'cancelled'],
  transitions: {
    draft: { to: ['pending', 'cancelled'] },
    pending: { to: ['confirmed', 'cancelled'] },
    confirmed: { to: ['processing', 'cancelled'] },
    processing: { to: ['completed', 'cancelled'] },
    completed: { to: [] },
    cancelled: { to: [] },
  },
  guard: (from, to, context) => {
    if (from !== 'processing' || to !== 'cancelled') return undefined;
    if (context === undefined) return 'whether units have shipped is unknown';
    return context.has_shipped_units ? 'units of this order have already shipped' : undefined;
  },
};
