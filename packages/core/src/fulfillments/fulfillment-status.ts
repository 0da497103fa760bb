import type { FulfillmentStatus } from '../vocabulary/orders';

/** What an order line contributes to the order's `fulfillment_status`. */
export interface FulfillmentStatusLine {
  /**
   * Units the line has to fulfil: ordered units minus those cancelled by restocking refunds
   * (docs/contract.md#restock; units refunded without restock still count).
   */
  fulfillable_quantity: number;
  /** Units in non-cancelled fulfillments, counted from the moment the fulfillment is created. */
  fulfilled_quantity: number;
  /**
   * Fulfilled units that came back through restocking refunds: the sum of the
   * `returned_quantity` of the line's restock movements (see `computeRefund`), which counts only
   * units beyond the line's unfulfilled ones.
   */
  returned_quantity: number;
}

/** Every value of an order's `fulfillment_status`. */
export const ORDER_FULFILLMENT_STATUSES = [
  'unfulfilled',
  'partially_fulfilled',
  'fulfilled',
  'returned',
] as const satisfies readonly FulfillmentStatus[];

/**
 * Derives an order's `fulfillment_status` (docs/contract.md#fulfillment-status), first rule that holds wins:
 *
 * 1. `returned` — at least one unit was fulfilled and every fulfilled unit came back
 *    (per line, `returned_quantity ≥ fulfilled_quantity`);
 * 2. `fulfilled` — some unit is fulfilled and every line's fulfilled units reach its fulfillable
 *    units;
 * 3. `partially_fulfilled` — some unit is fulfilled;
 * 4. `unfulfilled`.
 *
 * By fulfilled vs fulfillable quantity (docs/contract.md#fulfillment-status): units cancelled by
 * a restocking refund need no fulfillment; units refunded without restock still do.
 * Decision: an order whose every unit was cancelled by restocking refunds before any was
 * fulfilled stays `unfulfilled` (as Shopify shows it), and does not move on or complete by
 * itself: the admin cancels it (it holds no reservation by then).
 *
 * @example deriveFulfillmentStatus([{ fulfillable_quantity: 3, fulfilled_quantity: 1, returned_quantity: 0 }]) // 'partially_fulfilled'
 */
export function deriveFulfillmentStatus(lines: readonly FulfillmentStatusLine[]): FulfillmentStatus {
  const fulfilledUnits = lines.reduce((sum, line) => sum + line.fulfilled_quantity, 0);
  if (fulfilledUnits > 0 && lines.every((line) => line.returned_quantity >= line.fulfilled_quantity)) {
    return 'returned';
  }
  if (fulfilledUnits > 0 && lines.every((line) => line.fulfilled_quantity >= line.fulfillable_quantity)) {
    return 'fulfilled';
  }
  if (fulfilledUnits > 0) return 'partially_fulfilled';
  return 'unfulfilled';
}
