import type { OrderAggregate, OrderLineRecord } from '../ports/storage';
import { cancelledUnitsByLine } from '../refunds/refund-ledger';

/**
 * A line's units as fulfillment sees them (docs/contract.md#restock, #order-status, #fulfillment-status):
 *
 * - fulfillable = `quantity − cancelled`, where cancelled units are those restocking refunds took
 *   before they shipped (`cancelledUnitsByLine`). A refund without restock moves money only: its
 *   units stay fulfillable and still ship;
 * - unfulfilled = `fulfillable − fulfilled` (what a new fulfillment may take);
 * - the order is shipped when every fulfillable unit of every line is in a shipped or delivered
 *   fulfillment (`shipped_quantity ≥ fulfillable`).
 */
export interface LineUnits {
  /** Units the line must still ship in total (shipped ones included). */
  fulfillable_quantity: number;
  /** Units in non-cancelled fulfillments. */
  fulfilled_quantity: number;
  /** Units of those fulfillments that have shipped. */
  shipped_quantity: number;
}

/**
 * The fulfillable units of a line: `max(0, quantity − cancelled)`.
 *
 * @example fulfillableQuantity({ quantity: 3 }, 1) // 2
 */
export function fulfillableQuantity(line: Pick<OrderLineRecord, 'quantity'>, cancelled: number): number {
  return Math.max(0, line.quantity - cancelled);
}

/**
 * The units of a line a fulfillment may still take: `max(0, fulfillable − fulfilled)`.
 *
 * @example unfulfilledQuantity({ quantity: 3, fulfilled_quantity: 1 }, 0) // 2 (a refund without restock cancels nothing)
 * @example unfulfilledQuantity({ quantity: 3, fulfilled_quantity: 1 }, 1) // 1
 */
export function unfulfilledQuantity(
  line: Pick<OrderLineRecord, 'quantity' | 'fulfilled_quantity'>,
  cancelled: number,
): number {
  return Math.max(0, fulfillableQuantity(line, cancelled) - line.fulfilled_quantity);
}

/** Each line of an order with its fulfillable units (see {@link LineUnits}), in line order. */
export function lineUnits(
  order: Pick<OrderAggregate, 'lines' | 'refunds'>,
): Array<LineUnits & { id: string; quantity: number }> {
  const cancelled = cancelledUnitsByLine(order);
  return order.lines.map((line) => ({
    id: line.id,
    quantity: line.quantity,
    fulfillable_quantity: fulfillableQuantity(line, cancelled.get(line.id) ?? 0),
    fulfilled_quantity: line.fulfilled_quantity,
    shipped_quantity: line.shipped_quantity,
  }));
}

/**
 * Whether every fulfillable unit is in a fulfillment that has shipped or been delivered
 * (docs/contract.md#order-status): per line, `shipped_quantity ≥ fulfillable_quantity`. Units of
 * a fulfillment that is only created (`pending`) are fulfilled, not shipped.
 *
 * Decision: an order with no fulfillable unit left (every unit cancelled by restocking refunds
 * before it shipped) has shipped nothing: false, so it never completes by itself (the admin
 * cancels it, as it was before any refund).
 *
 * @example allUnitsShipped([{ fulfillable_quantity: 2, shipped_quantity: 2 }]) // true
 * @example allUnitsShipped([{ fulfillable_quantity: 0, shipped_quantity: 0 }]) // false
 */
export function allUnitsShipped(
  lines: ReadonlyArray<Pick<LineUnits, 'fulfillable_quantity' | 'shipped_quantity'>>,
): boolean {
  return (
    lines.some((line) => line.fulfillable_quantity > 0) &&
    lines.every((line) => line.shipped_quantity >= line.fulfillable_quantity)
  );
}
