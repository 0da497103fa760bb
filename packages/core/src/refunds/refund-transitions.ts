import type { StateMachine } from '../shared/state-machine';
import type { RefundRecordStatus } from './vocabulary';

/**
 * Refund record status (docs/contract.md#refunds): `pending` → `completed` | `failed`; both are terminal.
 * A manual refund is recorded `completed` at once; a provider refund may wait in `pending`.
 */
export const refundMachine: StateMachine<RefundRecordStatus> = {
  subject: 'refund',
  states: ['pending', 'completed', 'failed'],
  transitions: {
    pending: { to: ['completed', 'failed'] },
    completed: { to: [] },
    failed: { to: [] },
  },
};
