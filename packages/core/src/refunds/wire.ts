import type { RefundRecord } from '../ports/storage';
import { iso, money } from '../shared/wire-format';
import type { Refund } from './schemas';

/** A refund with its lines (its internal restock record is not shown). */
export function refundToWire(refund: RefundRecord): Refund {
  return {
    id: refund.id,
    order_id: refund.order_id,
    amount: money(refund.amount, refund.currency),
    reason: refund.reason,
    restock: refund.restock,
    status: refund.status,
    lines: refund.lines.map((l) => ({ order_line_id: l.order_line_id, quantity: l.quantity })),
    created_at: iso(refund.created_at),
  };
}
