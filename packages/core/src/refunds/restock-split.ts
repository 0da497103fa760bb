/** A line's units in one fulfillment that has not shipped (status `pending`). */
export interface PendingFulfillmentUnits {
  fulfillment_id: string;
  /** Units of this line in that fulfillment. */
  quantity: number;
  /** When the fulfillment was created (ms): the newest is taken first, its id breaking ties. */
  created_at: number;
}

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
   * `fulfilled_quantity`, i.e. every fulfillment is taken as shipped. Only read when the order no
   * longer holds reservations.
   */
  shipped_quantity?: number | undefined;
  /**
   * The line's units in fulfillments that have not shipped (`pending`), in any order. Defaults
   * to none. While the order holds reservations they must account for every fulfilled unit that
   * has not shipped (`fulfilled − shipped`).
   */
  pending_fulfillments?: readonly PendingFulfillmentUnits[] | undefined;
}

/** Units of one line taken out of one pending fulfillment by a restocking refund. */
export interface FulfillmentTake {
  fulfillment_id: string;
  quantity: number;
}

/** Where one line's restocked units go, and how many of them count as returned. */
export interface RestockMovement {
  order_line_id: string;
  /**
   * Units that had not shipped and were still reserved: they leave `reserved` (open unfulfilled
   * units, then the units of `from_fulfillments`).
   */
  from_reserved: number;
  /** Units that had shipped: they go back to `on_hand`. */
  to_on_hand: number;
  /**
   * Shipped units that came back (units taken out of pending fulfillments never left, so they
   * are not returned). Summed per line, this is the `returned_quantity` of
   * `deriveFulfillmentStatus`.
   */
  returned_quantity: number;
  /**
   * Units taken out of pending fulfillments, newest fulfillment first (part of `from_reserved`):
   * each fulfillment's line shrinks by its take and the order line's `fulfilled_quantity` drops
   * by their sum. Empty when none (and in movements recorded before this field existed).
   */
  from_fulfillments: FulfillmentTake[];
}

/** Newest first: `created_at` descending, then id descending (ids are time-sortable). */
function newestFirst(a: PendingFulfillmentUnits, b: PendingFulfillmentUnits): number {
  if (a.created_at !== b.created_at) return b.created_at - a.created_at;
  if (a.fulfillment_id === b.fulfillment_id) return 0;
  return a.fulfillment_id < b.fulfillment_id ? 1 : -1;
}

/**
 * Splits `units` refunded with `restock: true` (docs/contract.md#restock, Shopify's behaviour). While the
 * order holds its reservations (`inventory_reserved`) a line's units are taken in this order:
 *
 * 1. open unfulfilled units, `max(0, quantity − fulfilled − refunded)` (earlier refunds are
 *    assumed to have taken unfulfilled units first too, restocked or not): they leave `reserved`;
 * 2. units in the line's pending fulfillments, newest fulfillment first: they leave `reserved`
 *    AND are taken out of those fulfillments (`from_fulfillments`), so shipping one later moves
 *    only what is left in it. They never shipped, so they are not returned;
 * 3. shipped units: they go back to `on_hand` and count as returned.
 *
 * When the order no longer holds reservations (`inventory_reserved: false`, e.g. cancelled: its
 * reservations were released and its pending fulfillments cancelled already), unshipped units
 * need no movement (`from_reserved` 0) and only shipped units go back to `on_hand`; units beyond
 * the unfulfilled ones count as returned. No fulfillment is touched then.
 *
 * @example splitRestock('line_1', { quantity: 3, refunded_quantity: 0, fulfilled_quantity: 3,
 *   pending_fulfillments: [{ fulfillment_id: 'ful_1', quantity: 3, created_at: 1 }] }, 2, true)
 * // { order_line_id: 'line_1', from_reserved: 2, to_on_hand: 0, returned_quantity: 0,
 * //   from_fulfillments: [{ fulfillment_id: 'ful_1', quantity: 2 }] }
 */
export function splitRestock(
  order_line_id: string,
  line: RestockLineInput,
  units: number,
  inventory_reserved: boolean,
): RestockMovement {
  const openUnfulfilled = Math.max(0, line.quantity - line.fulfilled_quantity - line.refunded_quantity);
  if (!inventory_reserved) {
    const shipped = line.shipped_quantity ?? line.fulfilled_quantity;
    const openUnshipped = Math.max(0, line.quantity - shipped - line.refunded_quantity);
    return {
      order_line_id,
      from_reserved: 0,
      to_on_hand: units - Math.min(units, openUnshipped),
      returned_quantity: units - Math.min(units, openUnfulfilled),
      from_fulfillments: [],
    };
  }
  const fromOpen = Math.min(units, openUnfulfilled);
  let left = units - fromOpen;
  const from_fulfillments: FulfillmentTake[] = [];
  for (const pending of [...(line.pending_fulfillments ?? [])].sort(newestFirst)) {
    if (left === 0) break;
    const take = Math.min(left, Math.max(0, pending.quantity));
    if (take === 0) continue;
    from_fulfillments.push({ fulfillment_id: pending.fulfillment_id, quantity: take });
    left -= take;
  }
  return {
    order_line_id,
    from_reserved: units - left,
    to_on_hand: left,
    returned_quantity: left,
    from_fulfillments,
  };
}
