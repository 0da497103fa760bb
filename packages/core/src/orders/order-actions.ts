import { CommerceError } from '../shared/errors';
import {
  assertTransition,
  checkTransition,
  statesLeadingTo,
  type TransitionCheck,
} from '../shared/state-machine';
import { type OrderTransitionContext, orderMachine } from './order-transitions';
import type { OrderStatus } from './vocabulary';

/** The admin actions that move an order (docs/contract.md#order-status). */
export type OrderAdminAction = 'finalize' | 'confirm' | 'process' | 'complete' | 'cancel';

/** One admin action as data: the request that triggers it, its target and the states it is allowed from. */
export interface OrderAdminActionSpec {
  readonly action: OrderAdminAction;
  /** The HTTP request that performs it (for black-box tests that iterate action × state). */
  readonly request: string;
  readonly to: OrderStatus;
  /** Every status the table allows the action from. */
  readonly from: readonly OrderStatus[];
  /** Statuses in `from` where the guard also applies, with the condition in words. */
  readonly conditional_from: Readonly<Partial<Record<OrderStatus, string>>>;
}

function spec(
  action: OrderAdminAction,
  request: string,
  to: OrderStatus,
  conditional_from: OrderAdminActionSpec['conditional_from'] = {},
): OrderAdminActionSpec {
  return { action, request, to, from: statesLeadingTo(orderMachine, to), conditional_from };
}

/**
 * Every admin order action with the states it is allowed from, derived from `orderMachine` so
 * the two cannot drift. Any other action × state answers 409 `invalid_state_transition`.
 *
 * - finalize (`PATCH /v1/admin/orders/{id}` with `status: "pending"`): from draft;
 * - confirm: from pending; process: from confirmed; complete: from processing;
 * - cancel: from draft, pending, confirmed, and processing while nothing has shipped.
 */
export const ORDER_ADMIN_ACTIONS: readonly OrderAdminActionSpec[] = [
  spec('finalize', 'PATCH /v1/admin/orders/{id} {"status":"pending"}', 'pending'),
  spec('confirm', 'POST /v1/admin/orders/{id}/confirm', 'confirmed'),
  spec('process', 'POST /v1/admin/orders/{id}/process', 'processing'),
  spec('complete', 'POST /v1/admin/orders/{id}/complete', 'completed'),
  spec('cancel', 'POST /v1/admin/orders/{id}/cancel', 'cancelled', {
    processing: 'only while nothing has shipped',
  }),
];

/** The spec of one admin action. */
export function orderAdminAction(action: OrderAdminAction): OrderAdminActionSpec {
  const found = ORDER_ADMIN_ACTIONS.find((a) => a.action === action);
  if (!found) throw new RangeError(`Unknown order action '${action}'`);
  return found;
}

/** Checks an admin action against the order machine; returns a reason instead of throwing. */
export function checkOrderAction(
  action: OrderAdminAction,
  status: OrderStatus,
  context?: OrderTransitionContext,
): TransitionCheck {
  return checkTransition(orderMachine, status, orderAdminAction(action).to, context);
}

/**
 * Asserts an admin action is allowed and returns the status it moves the order to.
 *
 * @throws CommerceError `invalid_state_transition` (409).
 */
export function assertOrderAction(
  action: OrderAdminAction,
  status: OrderStatus,
  context?: OrderTransitionContext,
): OrderStatus {
  const { to } = orderAdminAction(action);
  assertTransition(orderMachine, status, to, context);
  return to;
}

/**
 * Order statuses in which a fulfillment may be created. Decision: pending, confirmed and
 * processing — the statuses that hold inventory reservations. A pending (unpaid) order may be
 * fulfilled, as at Shopify; it stays pending until paid, then moves on automatically. Drafts
 * reserve nothing and completed/cancelled orders are closed.
 */
export const FULFILLABLE_ORDER_STATUSES: readonly OrderStatus[] = ['pending', 'confirmed', 'processing'];

/**
 * @throws CommerceError `invalid_state_transition` (409, `data: { status }`) when the order's
 * status does not allow creating a fulfillment.
 */
export function assertOrderFulfillable(status: OrderStatus): void {
  if (FULFILLABLE_ORDER_STATUSES.includes(status)) return;
  throw new CommerceError('invalid_state_transition', `Cannot fulfill an order that is ${status}`, {
    data: { status },
  });
}
