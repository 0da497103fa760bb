import type { OrderAggregate, OrderLineRecord } from '../ports/storage';
import { restockTotalsByLine } from '../refunds/refund-ledger';

/** What a line's returnable units depend on (decisions §18). */
export interface ReturnableLineInput {
  /** Units in `shipped` / `delivered` fulfillments. */
  shipped_quantity: number;
  /** Shipped units that came back through restocking refunds (their restock movements). */
  restock_returned_quantity: number;
  /** Units that came back through completed returns. */
  returned_quantity: number;
  /** Units held by the order's open returns (`requested`, `approved`, `received`). */
  returning_quantity: number;
}

/**
 * The units of an order line a new return may take (decisions §18): units in shipped or
 * delivered fulfillments, minus units already returned (completed returns) or refunded with
 * restock (shipped units they brought back), minus units in this order's open returns. Never
 * below 0 (a restocking refund of units an open return holds leaves nothing to return).
 *
 * @example returnableQuantity({ shipped_quantity: 3, restock_returned_quantity: 1, returned_quantity: 0, returning_quantity: 1 }) // 1
 */
export function returnableQuantity(line: ReturnableLineInput): number {
  return Math.max(
    0,
    line.shipped_quantity - line.restock_returned_quantity - line.returned_quantity - line.returning_quantity,
  );
}

/**
 * Per line of the order (by id), its returnable units ({@link returnableQuantity}), from the order as
 * loaded: the lines' counters and the refunds' restock movements — no extra query.
 */
export function returnableByLine(order: Pick<OrderAggregate, 'lines' | 'refunds'>): Map<string, number> {
  const restocked = restockTotalsByLine(order);
  const result = new Map<string, number>();
  for (const line of order.lines)
    result.set(line.id, returnableOf(line, restocked.get(line.id)?.returned_quantity ?? 0));
  return result;
}

function returnableOf(
  line: Pick<OrderLineRecord, 'shipped_quantity' | 'returned_quantity' | 'returning_quantity'>,
  restockReturned: number,
): number {
  return returnableQuantity({
    shipped_quantity: line.shipped_quantity,
    restock_returned_quantity: restockReturned,
    returned_quantity: line.returned_quantity,
    returning_quantity: line.returning_quantity,
  });
}
