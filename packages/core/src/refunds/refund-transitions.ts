import type { RefundRecordStatus } from '../ports/storage/records';
import type { StateMachine } from './state-machine';

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
