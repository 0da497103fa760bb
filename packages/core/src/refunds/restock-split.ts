/** What a restocking refund needs to know about one line. */
export interface RestockLineInput {
  /** Ordered units. */
  quantity: number;
  /** Units refunded before this refund (restocked or not). */
  refunded_quantity: number;
  /** Units in non-cancelled fulfillments. */
  fulfilled_quantity: number;
  /**
   * Units of those fulfillments that have shipped (left `on_hand`). Defaults to
   * `fulfilled_quantity`, i.e. every fulfillment is taken as shipped.
   */
  shipped_quantity?: number | undefined;
}

/** Where one line's restocked units go, and how many of them count as returned. */
export interface RestockMovement {
  order_line_id: string;
  /** Units that had not shipped: they leave `reserved`. */
  from_reserved: number;
  /** Units that had shipped: they go back to `on_hand`. */
  to_on_hand: number;
  /**
   * Units of this refund beyond the line's unfulfilled ones: fulfilled units that came back.
   * Summed per line, this is the `returned_quantity` of `deriveFulfillmentStatus`.
   */
  returned_quantity: number;
}

/**
 * Splits `units` refunded with `restock: true` (decisions §10): the line's unfulfilled units are
 * taken first and leave `reserved`; then fulfilled units go back to `on_hand`. Earlier refunds
 * are assumed to have taken unfulfilled units first too (whether they restocked or not), so the
 * unfulfilled units still open are `max(0, quantity − fulfilled − refunded)`.
 *
 * Decisions beyond §10:
 * - Inventory location follows shipping, not fulfillment: units of a fulfillment that has not
 *   shipped are still reserved, so they leave `reserved` too (`shipped_quantity`); only shipped
 *   units go back to `on_hand`. `returned_quantity` follows fulfillment, as §13's `returned`.
 * - When the order no longer holds reservations (`inventory_reserved: false`, e.g. cancelled:
 *   its reservations were released already), unshipped units need no movement:
 *   `from_reserved` is 0.
 *
 * @example splitRestock('line_1', { quantity: 3, refunded_quantity: 0, fulfilled_quantity: 2 }, 2, true)
 * // { order_line_id: 'line_1', from_reserved: 1, to_on_hand: 1, returned_quantity: 1 }
 */
export function splitRestock(
  order_line_id: string,
  line: RestockLineInput,
  units: number,
  inventory_reserved: boolean,
): RestockMovement {
  const shipped = line.shipped_quantity ?? line.fulfilled_quantity;
  const openUnfulfilled = Math.max(0, line.quantity - line.fulfilled_quantity - line.refunded_quantity);
  const openUnshipped = Math.max(0, line.quantity - shipped - line.refunded_quantity);
  const unshippedUnits = Math.min(units, openUnshipped);
  return {
    order_line_id,
    from_reserved: inventory_reserved ? unshippedUnits : 0,
    to_on_hand: units - unshippedUnits,
    returned_quantity: units - Math.min(units, openUnfulfilled),
  };
}
