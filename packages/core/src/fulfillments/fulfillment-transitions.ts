import type { StateMachine } from '../shared/state-machine';
import type { FulfillmentRecordStatus } from '../vocabulary/orders';

/**
 * Fulfillment record status (docs/contract.md#fulfillments): `pending → shipped → delivered`, and
 * `pending → cancelled`.
 *
 * Decisions: a shipped fulfillment cannot be cancelled (its units have left `on_hand`; bringing
 * them back is a refund with `restock: true`), and a pending one cannot jump to `delivered`
 * (ship it first, so inventory moves exactly once). `delivered` and `cancelled` are terminal.
 */
export const fulfillmentMachine: StateMachine<FulfillmentRecordStatus> = {
  subject: 'fulfillment',
  states: ['pending', 'shipped', 'delivered', 'cancelled'],
  transitions: {
    pending: { to: ['shipped', 'cancelled'] },
    shipped: { to: ['delivered'] },
    delivered: { to: [] },
    cancelled: { to: [] },
  },
};
