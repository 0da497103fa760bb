import type { ReturnRecord } from '../ports/storage';
import { iso, isoOrNull } from '../shared/wire-format';
import type { Return } from './schemas';

/** The Return resource (decisions §18): lines in their order, always present. Pure. */
export function returnToWire(ret: ReturnRecord): Return {
  return {
    id: ret.id,
    order_id: ret.order_id,
    store_id: ret.store_id,
    customer_id: ret.customer_id,
    status: ret.status,
    return_type: ret.return_type,
    reason: ret.reason,
    reason_category: ret.reason_category,
    refund_id: ret.refund_id,
    exchange_order_id: ret.exchange_order_id,
    admin_notes: ret.admin_notes,
    customer_notes: ret.customer_notes,
    metadata: ret.metadata,
    lines: [...ret.lines]
      .sort((a, b) => a.position - b.position)
      .map((line) => ({
        id: line.id,
        order_line_id: line.order_line_id,
        quantity: line.quantity,
        reason: line.reason,
        condition: line.condition,
        exchange_variant_id: line.exchange_variant_id,
        product_name: line.product_name,
      })),
    created_at: iso(ret.created_at),
    updated_at: iso(ret.updated_at),
    approved_at: isoOrNull(ret.approved_at),
    received_at: isoOrNull(ret.received_at),
    completed_at: isoOrNull(ret.completed_at),
    rejected_at: isoOrNull(ret.rejected_at),
    cancelled_at: isoOrNull(ret.cancelled_at),
  };
}
