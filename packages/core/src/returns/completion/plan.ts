import type { InventoryRestock } from '../../inventory/inventory-plan';
import type { OrderAggregate, OrderLineRecord } from '../../ports/storage';
import { computeRefund, type RefundLineRequest } from '../../refunds/compute-refund';
import { unitsInFlight } from '../../refunds/refund-ledger';
import { CommerceError } from '../../shared/errors';

/** A returned unit's condition (decisions §18); null = not stated (restocked like `unopened`). */
export type CompletionCondition = 'unopened' | 'opened' | 'damaged' | 'defective' | null;

/** One line of the return being completed, as the plan needs it. */
export interface CompletionReturnLine {
  /** `retl_…` */
  id: string;
  order_line_id: string;
  quantity: number;
  condition: CompletionCondition;
  exchange_variant_id: string | null;
}

/** The return being completed, as the plan needs it. */
export interface CompletionReturn {
  /** `ret_…` */
  id: string;
  return_type: 'refund' | 'exchange';
  reason: string | null;
  lines: readonly CompletionReturnLine[];
}

/** The order of the return, as loaded (locked) in the completing transaction. */
export type CompletionOrder = Pick<
  OrderAggregate,
  'id' | 'lines' | 'payments' | 'refunds' | 'prices_include_tax'
>;

/** Everything {@link planReturnCompletion} reads. */
export interface CompletionInput {
  order: CompletionOrder;
  ret: CompletionReturn;
  /**
   * Exchange credit that earlier completed exchanges of this order already took from it (the
   * `exchange_credit` payments of their exchange orders). Money moved to another order is no
   * longer refundable here. Default 0.
   */
  credit_issued?: number | undefined;
}

/** Per order line: returned units and where they go. */
export interface CompletionLineUnits {
  order_line_id: string;
  variant_id: string;
  /** Units back in `on_hand` (condition null, `unopened`, `opened`). */
  restocked: number;
  /** Units written off (`damaged`, `defective`): counted as returned, never back in stock. */
  written_off: number;
}

/** The refund to record on the order (a §13 refund of the returned units, `restock: false`). */
export interface PlannedRefund {
  /** Minor units, > 0 (a capped amount of 0 makes no refund). */
  amount: number;
  /** Units the refund covers (they join the lines' `refunded_quantity`); empty for an exchange surplus. */
  lines: RefundLineRequest[];
  restock: false;
  /** The return's reason, or `"return ret_…"`. */
  reason: string;
}

/** A replacement line of an exchange: variant × units (same variants summed, first-seen order). */
export interface ExchangeLine {
  variant_id: string;
  quantity: number;
}

/** What completing a return does (pure; applied by `applyReturnCompletion`). */
export interface CompletionPlan {
  /** Per order line the return names, in the return's order (one entry per order line). */
  units: CompletionLineUnits[];
  /** Inventory movements: per variant, restocked units to `on_hand` (`restockInventory`). */
  restock: InventoryRestock[];
  /** What the returned units were paid (§13 default refund of them), before any cap. */
  value: number;
  /** `paid − refunded − pending refunds − credit issued` before this return. */
  refundable: number;
  /** `refund` returns: the refund, or null when the capped amount is 0. Exchanges: null (see `settleExchange`). */
  refund: PlannedRefund | null;
  /** `exchange` returns: the credit (= `min(value, refundable)`) and the replacement lines; else null. */
  exchange: { credit: number; lines: ExchangeLine[] } | null;
}

const RESTOCKED: ReadonlySet<CompletionCondition> = new Set([null, 'unopened', 'opened']);

/** Units of `line` still carrying money (not refunded, nor taken by a refund in flight). */
function moneyUnits(line: OrderLineRecord, inFlight: number): number {
  return Math.max(0, line.quantity - line.refunded_quantity - inFlight);
}

/** The sum of completed (and already refunded) payments: what the order took. */
export function paidOf(order: Pick<OrderAggregate, 'payments'>): number {
  let paid = 0;
  for (const p of order.payments) if (p.status === 'completed' || p.status === 'refunded') paid += p.amount;
  return paid;
}

/** Refunds that count against what is refundable: completed and pending (not failed). */
export function outstandingRefunds(order: Pick<OrderAggregate, 'refunds'>): number {
  let sum = 0;
  for (const r of order.refunds) if (r.status !== 'failed') sum += r.amount;
  return sum;
}

/** The refund reason of a return: its own reason, else `"return ret_…"`. */
export function returnRefundReason(ret: Pick<CompletionReturn, 'id' | 'reason'>): string {
  return ret.reason !== null && ret.reason.trim() !== '' ? ret.reason : `return ${ret.id}`;
}

/**
 * Plans the completion of a return (decisions §18 `complete`), purely:
 *
 * - **Stock**: units whose condition is null, `unopened` or `opened` go back to `on_hand`
 *   (`restock`, summed per variant); `damaged` and `defective` units are written off (no
 *   movement: they left `on_hand` when they shipped). All count as returned.
 * - **Value**: what the returned units were paid — a §13 default refund of them
 *   (`computeRefund` / `lineRefundAmount`: discounted line total, plus tax when prices exclude
 *   it, apportioned per unit so that partial refunds of a line sum exactly to it). Units of a
 *   line already refunded (or in a refund in flight) carry no money any more: a line contributes
 *   at most `quantity − refunded_quantity − in flight` units.
 * - **Refundable**: `paid − (completed + pending refunds) − credit_issued`, never below 0.
 * - `refund`: amount = `min(value, refundable)`; 0 → no refund; `restock: false` (the return
 *   moved the stock); reason = the return's or `"return ret_…"`; lines = the money-carrying units.
 * - `exchange`: credit = `min(value, refundable)`; the replacement lines are the return lines'
 *   `exchange_variant_id` × quantity. How the credit pays the exchange order, and the surplus
 *   refunded, is {@link settleExchange}'s.
 *
 * Integers only (minor units; `lineRefundAmount` works in BigInt). Throws `internal_error` when
 * the return names a line the order does not have, or an exchange line has no variant (the
 * return's own validation makes both impossible).
 */
export function planReturnCompletion(input: CompletionInput): CompletionPlan {
  const { order, ret } = input;
  const byId = new Map(order.lines.map((line) => [line.id, line]));
  const inFlight = unitsInFlight(order);

  const units = new Map<string, CompletionLineUnits>();
  const refundUnits = new Map<string, number>();
  for (const rl of ret.lines) {
    const line = byId.get(rl.order_line_id);
    if (!line) {
      throw new CommerceError(
        'internal_error',
        `Return '${ret.id}' names order line '${rl.order_line_id}', which order '${order.id}' does not have`,
      );
    }
    const entry = units.get(line.id) ?? {
      order_line_id: line.id,
      variant_id: line.variant_id,
      restocked: 0,
      written_off: 0,
    };
    if (RESTOCKED.has(rl.condition)) entry.restocked += rl.quantity;
    else entry.written_off += rl.quantity;
    units.set(line.id, entry);
    refundUnits.set(line.id, (refundUnits.get(line.id) ?? 0) + rl.quantity);
  }

  const refundLines: RefundLineRequest[] = [];
  for (const [id, returned] of refundUnits) {
    const line = byId.get(id) as OrderLineRecord;
    const quantity = Math.min(returned, moneyUnits(line, inFlight.get(id) ?? 0));
    if (quantity > 0) refundLines.push({ order_line_id: id, quantity });
  }
  // The §13 default of those units: computeRefund's rule, with the cap applied below instead of refused.
  const value =
    refundLines.length === 0
      ? 0
      : computeRefund({
          lines: order.lines.map((line) => ({
            ...line,
            refunded_quantity: line.refunded_quantity + (inFlight.get(line.id) ?? 0),
            cancelled_quantity: 0,
          })),
          prices_include_tax: order.prices_include_tax,
          paid: Number.MAX_SAFE_INTEGER,
          refunded_total: 0,
          request: { lines: refundLines, restock: false },
        }).amount;
  const refundable = Math.max(0, paidOf(order) - outstandingRefunds(order) - (input.credit_issued ?? 0));
  const capped = Math.min(value, refundable);

  const restockByVariant = new Map<string, InventoryRestock>();
  for (const u of units.values()) {
    if (u.restocked === 0) continue;
    const r = restockByVariant.get(u.variant_id) ?? {
      variant_id: u.variant_id,
      from_reserved: 0,
      to_on_hand: 0,
    };
    r.to_on_hand += u.restocked;
    restockByVariant.set(u.variant_id, r);
  }

  let refund: PlannedRefund | null = null;
  let exchange: CompletionPlan['exchange'] = null;
  if (ret.return_type === 'refund') {
    if (capped > 0) {
      refund = { amount: capped, lines: refundLines, restock: false, reason: returnRefundReason(ret) };
    }
  } else {
    const lines = new Map<string, ExchangeLine>();
    for (const rl of ret.lines) {
      if (rl.exchange_variant_id === null) {
        throw new CommerceError(
          'internal_error',
          `Exchange return line '${rl.id}' has no exchange_variant_id`,
        );
      }
      const l = lines.get(rl.exchange_variant_id) ?? { variant_id: rl.exchange_variant_id, quantity: 0 };
      l.quantity += rl.quantity;
      lines.set(rl.exchange_variant_id, l);
    }
    exchange = { credit: capped, lines: [...lines.values()] };
  }

  return {
    units: [...units.values()],
    restock: [...restockByVariant.values()],
    value,
    refundable,
    refund,
    exchange,
  };
}

/** How an exchange's credit settles against the exchange order's total. */
export interface ExchangeSettlement {
  /** The `exchange_credit` payment on the exchange order: `min(credit, total)`; 0 → none. */
  payment: number;
  /** Credit above the total, refunded on the original order (the return's `refund_id`); 0 → none. */
  surplus: number;
  /** What the customer still owes on the exchange order (it stays `partially_paid`): `total − payment`. */
  due: number;
}

/**
 * Settles an exchange credit against the exchange order's total (decisions §18): a payment of
 * `min(credit, total)` (in full → the order is `confirmed`), the credit above the total refunded
 * on the original order, the rest owed on the exchange order (the merchant completes it).
 *
 * @example settleExchange(5000, 4000) // { payment: 4000, surplus: 1000, due: 0 }
 * @example settleExchange(3000, 4000) // { payment: 3000, surplus: 0, due: 1000 }
 */
export function settleExchange(credit: number, total: number): ExchangeSettlement {
  const payment = Math.min(credit, total);
  return { payment, surplus: credit - payment, due: total - payment };
}

/** The refund of an exchange's surplus credit on the original order (amount-only, `restock: false`). */
export function surplusRefund(
  ret: Pick<CompletionReturn, 'id' | 'reason'>,
  surplus: number,
): PlannedRefund | null {
  return surplus > 0 ? { amount: surplus, lines: [], restock: false, reason: returnRefundReason(ret) } : null;
}
