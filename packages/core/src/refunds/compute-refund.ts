import { orderLinePicker } from '../fulfillments/order-line-refs';
import { CommerceError } from '../shared/errors';
import { linePaidAmount, lineRefundAmount } from './line-refund-amount';
import { type RestockLineInput, type RestockMovement, splitRestock } from './restock-split';

/** An order line as a refund sees it (minor units; quantities in units). */
export interface RefundableLine extends RestockLineInput {
  id: string;
  /** Units refunded before this refund, restocked or not. */
  refunded_quantity: number;
  /** Discounted line total, before tax. */
  line_total: number;
  tax_amount: number;
  /**
   * Units a refund with `restock: true` may take (decisions §18): open unfulfilled units, units of
   * pending fulfillments, and shipped units still with the customer — not those already back in
   * stock (restocking refunds, completed returns) nor those an open return holds. Unlimited when
   * absent.
   */
  restockable?: number | undefined;
}

/** One line of a refund: which order line, how many units. */
export interface RefundLineRequest {
  order_line_id: string;
  quantity: number;
}

/** The refund request body's money-relevant fields (`reason` and metadata are the caller's). */
export interface RefundRequest {
  lines?: readonly RefundLineRequest[] | undefined;
  /** Minor units; overrides the default computed from `lines`. */
  amount?: number | undefined;
  restock?: boolean | undefined;
}

/** Everything {@link computeRefund} needs; the caller loads it inside the refund's transaction. */
export interface ComputeRefundInput {
  lines: readonly RefundableLine[];
  prices_include_tax: boolean;
  /** Sum of the order's completed payments. */
  paid: number;
  /**
   * Sum of the order's refunds that count against what is refundable. Pass completed AND pending
   * refunds, so that a refund waiting at the provider cannot be refunded twice.
   */
  refunded_total: number;
  request: RefundRequest;
  /** Whether the order still holds its reservations (false once cancelled). Default true. */
  inventory_reserved?: boolean | undefined;
}

/** The refund to record: its amount, its lines, and the inventory movements to apply. */
export interface RefundComputation {
  /** Minor units. May be 0 only when it defaults from lines that cost nothing. */
  amount: number;
  lines: RefundLineRequest[];
  /** One per refunded line when `restock` is true (apply each with `restock()`); else empty. */
  restock_movements: RestockMovement[];
}

function positiveInteger(value: number): boolean {
  return Number.isSafeInteger(value) && value > 0;
}

/**
 * Computes a refund (docs/contract.md#refunds, #restock):
 *
 * - Neither `lines` (non-empty) nor `amount` → 400 `parameter_missing` (param `amount`).
 * - `amount`, when given, must be a positive integer → else 400 `parameter_invalid` (`amount`).
 * - Each line: unknown `order_line_id`, or the same line twice → 400 `parameter_invalid`
 *   (`lines[i][order_line_id]`); a quantity below 1 → 400 `parameter_invalid`
 *   (`lines[i][quantity]`); more than `quantity − refunded_quantity` → 422
 *   `quantity_exceeds_refundable` (`lines[i][quantity]`, `data: { order_line_id, requested,
 *   refundable }`); with `restock: true`, more than the line's `restockable` units (when given) → the
 *   same 422 (units already back in stock, or held by an open return, cannot be restocked again).
 * - The amount defaults to what the customer paid for those units ({@link lineRefundAmount}:
 *   per-unit apportioning whose partial refunds sum exactly to the line's paid amount); an
 *   explicit `amount` overrides it (with or without lines).
 * - The amount may not exceed `paid − refunded_total` → 422 `refund_exceeds_refundable`
 *   (param `amount`, `data: { requested, refundable }`).
 * - With `restock: true`, each line's units are split by {@link splitRestock} (a line's
 *   `cancelled_quantity` says which units earlier restocking refunds cancelled, its
 *   `pending_fulfillments` which unshipped units can be taken out of fulfillments); an amount-only
 *   refund, or one without restock, moves no unit.
 *
 * Decision: a default amount of 0 (lines that cost nothing, e.g. fully discounted) is accepted,
 * so free units can still be returned and restocked; the caller skips the provider call then.
 *
 * @example
 * // 2 of 3 units of a 3000 + 600 tax line, prices exclude tax: round(2 × 3600 / 3) = 2400
 * computeRefund({ lines: [line], prices_include_tax: false, paid: 3600, refunded_total: 0,
 *   request: { lines: [{ order_line_id: line.id, quantity: 2 }] } }).amount // 2400
 */
export function computeRefund(input: ComputeRefundInput): RefundComputation {
  const { request } = input;
  const requestedLines = request.lines ?? [];
  const explicitAmount = request.amount;

  if (requestedLines.length === 0 && explicitAmount === undefined) {
    throw new CommerceError('parameter_missing', 'A refund needs lines, an amount, or both', {
      param: 'amount',
    });
  }
  if (explicitAmount !== undefined && !positiveInteger(explicitAmount)) {
    throw new CommerceError('parameter_invalid', 'amount must be a positive integer in minor units', {
      param: 'amount',
    });
  }

  const pick = orderLinePicker(input.lines);
  const lines: RefundLineRequest[] = [];
  const restock_movements: RestockMovement[] = [];
  let defaultAmount = 0;

  requestedLines.forEach((requested, i) => {
    const line = pick(requested.order_line_id, i);
    if (!positiveInteger(requested.quantity)) {
      throw new CommerceError('parameter_invalid', 'quantity must be at least 1', {
        param: `lines[${i}][quantity]`,
      });
    }
    const refundable = Math.max(0, line.quantity - line.refunded_quantity);
    if (requested.quantity > refundable) {
      throw new CommerceError(
        'quantity_exceeds_refundable',
        `Only ${refundable} unit(s) of order line '${line.id}' can be refunded; ${requested.quantity} requested`,
        {
          param: `lines[${i}][quantity]`,
          data: { order_line_id: line.id, requested: requested.quantity, refundable },
        },
      );
    }
    if (request.restock === true && line.restockable !== undefined && requested.quantity > line.restockable) {
      const restockable = Math.max(0, line.restockable);
      throw new CommerceError(
        'quantity_exceeds_refundable',
        `Only ${restockable} unit(s) of order line '${line.id}' can be refunded with restock; the others are back in stock or held by an open return (refund them with restock: false)`,
        {
          param: `lines[${i}][quantity]`,
          data: { order_line_id: line.id, requested: requested.quantity, refundable: restockable },
        },
      );
    }
    defaultAmount += lineRefundAmount({
      paid_amount: linePaidAmount(line, input.prices_include_tax),
      quantity: line.quantity,
      refunded_quantity: line.refunded_quantity,
      units: requested.quantity,
    });
    lines.push({ order_line_id: line.id, quantity: requested.quantity });
    if (request.restock === true) {
      restock_movements.push(
        splitRestock(line.id, line, requested.quantity, input.inventory_reserved ?? true),
      );
    }
  });

  const amount = explicitAmount ?? defaultAmount;
  const refundable = Math.max(0, input.paid - input.refunded_total);
  if (amount > refundable) {
    throw new CommerceError(
      'refund_exceeds_refundable',
      `The refund of ${amount} exceeds the ${refundable} that can still be refunded`,
      { param: 'amount', data: { requested: amount, refundable } },
    );
  }
  return { amount, lines, restock_movements };
}
