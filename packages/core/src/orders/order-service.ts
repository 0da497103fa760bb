import { createPaymentService } from '../payments/payment-service';
import { createOrderRefunds } from '../refunds/order-refunds';
import type { ServiceContext } from '../shared/context';
import { createOrderFulfillments } from './order-fulfillments';
import { createOrderLifecycle } from './order-lifecycle';
import { createOrderQueries } from './order-queries';

/**
 * Orders (docs/contract.md#orders, #inventory, #pricing, #checkout, #order-status): reads for the admin and the storefront, the admin life cycle,
 * payments, fulfillments and refunds. Each use case is one transaction; methods return wire
 * objects (spec "Order", "Payment", "Fulfillment", "Refund").
 *
 * - `list`, `get`, `listRefunds`, `listForCustomer`, `getForCustomer`, `lookup` — see `order-queries.ts`;
 * - `create`, `update`, `confirm`, `process`, `complete`, `cancel` — see `order-lifecycle.ts`;
 * - `payments.create`, `.complete`, `.handleWebhook`, `.reconcile` — see `payment-service.ts`;
 * - `fulfillments.create`, `.update`, `.ship`, `.deliver` — see `order-fulfillments.ts`;
 * - `refunds.create` — see `order-refunds.ts`.
 */
export function createOrderService(ctx: ServiceContext) {
  return {
    ...createOrderQueries(ctx),
    ...createOrderLifecycle(ctx),
    payments: createPaymentService(ctx),
    fulfillments: createOrderFulfillments(ctx),
    refunds: createOrderRefunds(ctx),
  };
}

export type OrderService = ReturnType<typeof createOrderService>;
