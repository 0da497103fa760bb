import { CommerceError } from '../shared/errors';
import type { RestockMovement } from './restock-split';

/** Units of one order line in a fulfillment (the fulfillment's `lines`). */
export interface FulfillmentLineUnits {
  order_line_id: string;
  quantity: number;
}

/** The part of a fulfillment a restocking refund may shrink. */
export interface ReducibleFulfillment {
  id: string;
  status: string;
  lines: readonly FulfillmentLineUnits[];
}

/** A pending fulfillment after a restocking refund took units out of it. */
export interface FulfillmentReduction {
  fulfillment_id: string;
  /** Its lines after the takes; a line that reached 0 is removed. */
  lines: FulfillmentLineUnits[];
  /** True when no line is left: the fulfillment becomes `cancelled` (pending → cancelled). */
  cancelled: boolean;
}

/**
 * Applies the `from_fulfillments` takes of restock movements (see `splitRestock`) to the
 * fulfillments they name, in the fulfillments' order: each take shrinks the movement's line in
 * that fulfillment, a line that reaches 0 is removed, and a fulfillment left without lines is
 * cancelled. Only fulfillments that change are returned. A take that names a fulfillment that is
 * missing or not `pending`, or more units than its line holds, is a bug of the caller (the split
 * was computed from other fulfillments): 500 `internal_error`, so the transaction rolls back.
 *
 * @example reduceFulfillments([{ id: 'ful_1', status: 'pending', lines: [{ order_line_id: 'l', quantity: 3 }] }],
 *   [{ order_line_id: 'l', from_reserved: 2, to_on_hand: 0, returned_quantity: 0,
 *      from_fulfillments: [{ fulfillment_id: 'ful_1', quantity: 2 }] }])
 * // [{ fulfillment_id: 'ful_1', lines: [{ order_line_id: 'l', quantity: 1 }], cancelled: false }]
 */
export function reduceFulfillments(
  fulfillments: readonly ReducibleFulfillment[],
  movements: readonly RestockMovement[],
): FulfillmentReduction[] {
  const takes = new Map<string, Map<string, number>>();
  for (const m of movements) {
    for (const take of m.from_fulfillments) {
      if (take.quantity <= 0) continue;
      const perLine = takes.get(take.fulfillment_id) ?? new Map<string, number>();
      perLine.set(m.order_line_id, (perLine.get(m.order_line_id) ?? 0) + take.quantity);
      takes.set(take.fulfillment_id, perLine);
    }
  }
  const reductions: FulfillmentReduction[] = [];
  for (const fulfillment of fulfillments) {
    const perLine = takes.get(fulfillment.id);
    if (perLine === undefined) continue;
    takes.delete(fulfillment.id);
    if (fulfillment.status !== 'pending') {
      throw new CommerceError(
        'internal_error',
        `Restock takes units out of fulfillment '${fulfillment.id}', which is ${fulfillment.status}`,
      );
    }
    const lines: FulfillmentLineUnits[] = [];
    for (const line of fulfillment.lines) {
      const take = perLine.get(line.order_line_id) ?? 0;
      perLine.delete(line.order_line_id);
      if (take > line.quantity) {
        throw new CommerceError(
          'internal_error',
          `Restock takes ${take} unit(s) of line '${line.order_line_id}' out of fulfillment '${fulfillment.id}', which holds ${line.quantity}`,
        );
      }
      if (line.quantity - take > 0)
        lines.push({ order_line_id: line.order_line_id, quantity: line.quantity - take });
    }
    const [stray] = perLine.keys();
    if (stray !== undefined) {
      throw new CommerceError(
        'internal_error',
        `Restock takes units of line '${stray}' out of fulfillment '${fulfillment.id}', which has none`,
      );
    }
    reductions.push({ fulfillment_id: fulfillment.id, lines, cancelled: lines.length === 0 });
  }
  const [missing] = takes.keys();
  if (missing !== undefined) {
    throw new CommerceError('internal_error', `Restock takes units out of unknown fulfillment '${missing}'`);
  }
  return reductions;
}

/** Units taken out of fulfillments per order line: what each line's `fulfilled_quantity` loses. */
export function unitsTakenByLine(movements: readonly RestockMovement[]): Map<string, number> {
  const taken = new Map<string, number>();
  for (const m of movements) {
    const units = m.from_fulfillments.reduce((sum, t) => sum + t.quantity, 0);
    if (units > 0) taken.set(m.order_line_id, (taken.get(m.order_line_id) ?? 0) + units);
  }
  return taken;
}
