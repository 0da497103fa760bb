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
  /**
   * Units cancelled by restocking refunds before this one (they had not shipped): the line's
   * fulfillable units are `quantity − cancelled_quantity` (docs/contract.md#restock). Refunds without
   * restock cancel nothing.
   */
  cancelled_quantity: number;
  /** Units in non-cancelled fulfillments (pending or shipped). */
  fulfilled_quantity: number;
  /**
   * The line's units in fulfillments that have not shipped (`pending`), in any order. Defaults
   * to none. They must account for every fulfilled unit that has not shipped.
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
   * units, then the units of `from_fulfillments`). These units are cancelled (they will not ship);
   * 0 once the order released its reservations, or for a line that reserved nothing.
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
   * Units taken out of pending fulfillments, newest fulfillment first (cancelled units; part of
   * `from_reserved` while the order holds its reservations):
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
 * Splits `units` refunded with `restock: true` (docs/contract.md#restock, Shopify's `cancel` then
 * `return`). A line's units are taken in this order:
 *
 * 1. open unfulfilled units, `max(0, fulfillable − fulfilled)` with `fulfillable = quantity −
 *    cancelled_quantity` (refunds without restock took none: their units still ship);
 * 2. units in the line's pending fulfillments, newest fulfillment first: they are taken out of
 *    those fulfillments (`from_fulfillments`), so shipping one later moves only what is left in it;
 * 3. shipped units: they go back to `on_hand` and count as returned.
 *
 * Units of 1 and 2 are cancelled (they will not ship; not returned: they never left). While the
 * order holds its reservations (`inventory_reserved`) they leave `reserved` (`from_reserved`);
 * once it released them (cancelled, completed) they need no movement (`from_reserved` 0).
 *
 * @example splitRestock('line_1', { quantity: 3, cancelled_quantity: 0, fulfilled_quantity: 3,
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
  const fulfillable = Math.max(0, line.quantity - line.cancelled_quantity);
  const openUnfulfilled = Math.max(0, fulfillable - line.fulfilled_quantity);
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
    from_reserved: inventory_reserved ? units - left : 0,
    to_on_hand: left,
    returned_quantity: left,
    from_fulfillments,
  };
}
