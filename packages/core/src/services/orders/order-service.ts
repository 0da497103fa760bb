import type { ServiceContext } from '../context';

/** Placeholder: filled in by its area's implementation. */
export function createOrderService(_ctx: ServiceContext) {
  return {};
}

export type OrderService = ReturnType<typeof createOrderService>;
