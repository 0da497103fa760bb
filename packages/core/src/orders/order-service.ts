import type { ServiceContext } from '../shared/context';
import { createOrderFulfillments } from './order-fulfillments';
import { createOrderLifecycle } from './order-lifecycle';
import { createOrderQueries } from './order-queries';
import { createOrderRefunds } from './order-refunds';

/**
 * Orders (docs/contract.md#orders, #inventory, #pricing, #checkout, #order-status): reads for the admin and the storefront, the admin life cycle,
 * fulfillments and refunds. Each use case is one transaction; methods return wire objects (spec
 * "Order", "Fulfillment", "Refund").
 *
 * - `list`, `get`, `listRefunds`, `listForCustomer`, `getForCustomer`, `lookup` — see `order-queries.ts`;
 * - `create`, `update`, `confirm`, `process`, `complete`, `cancel` — see `order-lifecycle.ts`;
 * - `fulfillments.create`, `.update`, `.ship`, `.deliver` — see `order-fulfillments.ts`;
 * - `refunds.create` — see `order-refunds.ts`.
 *
 * `payments` (`create`, `complete`, `handleWebhook`, `reconcile`: reconciliation/payment-service.ts)
 * joins them in the engine's composition (engine-services.ts): the provider's webhooks and the
 * reconciler are orchestration, a layer above orders (.dependency-cruiser.cjs).
 */
export function createOrderService(ctx: ServiceContext) {
  return {
    ...createOrderQueries(ctx),
    ...createOrderLifecycle(ctx),
    fulfillments: createOrderFulfillments(ctx),
    refunds: createOrderRefunds(ctx),
  };
}

export type OrderService = ReturnType<typeof createOrderService>;
