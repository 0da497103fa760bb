import type { StateMachine } from '../shared/state-machine';
import type { PaymentRecordStatus } from './vocabulary';

/**
 * Payment record status (docs/contract.md#payments): `pending` → `completed` | `failed` | `cancelled`;
 * `completed` → `refunded` once refunds cover its whole amount.
 *
 * Decision: a partially refunded payment stays `completed` (Stripe keeps a charge `succeeded`
 * and shows `amount_refunded`); the order's `payment_status` carries `partially_refunded`.
 * `failed`, `cancelled` and `refunded` are terminal.
 */
export const paymentMachine: StateMachine<PaymentRecordStatus> = {
  subject: 'payment',
  states: ['pending', 'completed', 'failed', 'cancelled', 'refunded'],
  transitions: {
    pending: { to: ['completed', 'failed', 'cancelled'] },
    completed: { to: ['refunded'] },
    failed: { to: [] },
    cancelled: { to: [] },
    refunded: { to: [] },
  },
};

/**
 * The status of a completed payment after refunds against it: `refunded` once the completed
 * refunds reach its amount, `completed` before.
 *
 * @example paymentStatusAfterRefunds({ amount: 5000, refunded: 2000 }) // 'completed'
 * @example paymentStatusAfterRefunds({ amount: 5000, refunded: 5000 }) // 'refunded'
 */
export function paymentStatusAfterRefunds(payment: {
  amount: number;
  refunded: number;
}): Extract<PaymentRecordStatus, 'completed' | 'refunded'> {
  return payment.refunded > 0 && payment.refunded >= payment.amount ? 'refunded' : 'completed';
}
