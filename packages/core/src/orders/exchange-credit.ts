import { EXCHANGE_CREDIT_PROVIDER } from '../payments/vocabulary';
import type { OrderAggregate, Repositories, Scope } from '../ports/storage';

/**
 * The exchange credit an order already gave away: the `exchange_credit` payments (completed, or
 * since refunded) of the exchange orders of its completed exchange returns. Not refundable on the
 * order any more (the money paid for another order): `POST …/refunds` and return completion
 * subtract it from what is refundable. No read while no unit of the order came back through a
 * completed return; else one list read, plus one order read per completed exchange.
 */
export async function creditIssued(
  tx: Pick<Repositories, 'returns' | 'orders'>,
  scope: Scope,
  order: Pick<OrderAggregate, 'id' | 'lines'>,
): Promise<number> {
  // A completed return counts its units as returned: without any, there is no exchange to read.
  if (!order.lines.some((line) => line.returned_quantity > 0)) return 0;
  const orderId = order.id;
  let total = 0;
  let starting_after: string | undefined;
  for (;;) {
    const page = await tx.returns.list(
      scope,
      { order_id: orderId, status: 'completed' },
      { limit: 100, sort: 'created_at', order: 'asc', starting_after },
    );
    for (const ret of page.data) {
      if (ret.return_type !== 'exchange' || ret.exchange_order_id === null) continue;
      const exchange = await tx.orders.get(scope, ret.exchange_order_id);
      for (const p of exchange?.payments ?? []) {
        if (p.provider !== EXCHANGE_CREDIT_PROVIDER || p.metadata.return_id !== ret.id) continue;
        if (p.status === 'completed' || p.status === 'refunded') total += p.amount;
      }
    }
    if (!page.has_more || page.next_cursor === null) return total;
    starting_after = page.next_cursor;
  }
}
