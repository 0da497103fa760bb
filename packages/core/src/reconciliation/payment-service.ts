import { createOrderPayments } from '../orders/order-payments';
import type { PaymentWebhookInput } from '../ports/payment-provider';
import type { ServiceContext } from '../shared/context';
import { type ReconcileOptions, reconcilePayments } from './payment-reconciliation';
import { handlePaymentWebhook } from './payment-webhooks';
import { type ReconcilerOptions, startReconcileSchedule } from './reconcile-schedule';

export type {
  ReconcileOptions,
  ReconcileOutcome,
  ReconcileReport,
  ReconcileResult,
} from './payment-reconciliation';
export type { PaymentWebhookAck } from './payment-webhooks';
export type { ReconcilerOptions } from './reconcile-schedule';
export type { RefundReconcileOutcome, RefundReconcileResult } from './refund-reconciliation';

/**
 * Payments (docs/contract.md#payments, #checkout): what the admin records or completes, the providers'
 * webhooks, and reconciliation.
 *
 * - `create(scope, orderId, input)`, `complete(scope, paymentId)` — see `orders/order-payments.ts`;
 * - `handleWebhook(provider, { raw_body, headers })` — `POST /v1/webhooks/{provider}`, see
 *   `payment-webhooks.ts`;
 * - `reconcile({ olderThanMs, limit })` — settles payments left pending by a crash or a lost
 *   webhook, see `payment-reconciliation.ts` (the CLI's `cartwright reconcile`);
 * - `startReconciler(options)` — the same on a schedule, until `stop()` (see `reconcile-schedule.ts`;
 *   `cartwright serve` and `worker` start it by default).
 */
export function createPaymentService(ctx: ServiceContext) {
  return {
    ...createOrderPayments(ctx),
    handleWebhook: (provider: string, input: PaymentWebhookInput) =>
      handlePaymentWebhook(ctx, provider, input),
    reconcile: (options: ReconcileOptions = {}) => reconcilePayments(ctx, options),
    startReconciler: (options: ReconcilerOptions = {}) =>
      startReconcileSchedule((run) => reconcilePayments(ctx, run), options),
  };
}

export type PaymentService = ReturnType<typeof createPaymentService>;
