import type { Engine } from '@cartwright/core';

/**
 * A small piece of "your app" built on the engine: loyalty points. It subscribes to
 * `order.confirmed` (published in process after the order's transaction commits) and awards one
 * point per full 100 minor units of the order total to the order's customer. Guests earn nothing.
 */
export function createLoyalty(engine: Engine) {
  const points = new Map<string, number>();
  const stop = engine.events.on('order.confirmed', (event) => {
    const order = event.data as { customer_id: string | null; total: { amount: number } };
    if (order.customer_id === null) return;
    points.set(
      order.customer_id,
      (points.get(order.customer_id) ?? 0) + Math.floor(order.total.amount / 100),
    );
  });
  return {
    pointsOf: (customerId: string) => points.get(customerId) ?? 0,
    stop,
  };
}
