import { returnableByLine } from '../orders/returnable-units';
import type { OrderAggregate } from '../ports/storage';
import { CommerceError } from '../shared/errors';

/** One day in milliseconds. */
const DAY_MS = 86_400_000;

/**
 * A return may be opened only on an order that is neither `draft` nor `cancelled` (decisions
 * §18), checked before its lines. @throws 409 `invalid_state_transition`.
 */
export function assertOrderReturnable(order: Pick<OrderAggregate, 'id' | 'status'>): void {
  if (order.status === 'draft' || order.status === 'cancelled') {
    throw new CommerceError(
      'invalid_state_transition',
      `Order '${order.id}' is ${order.status}: a ${order.status} order cannot be returned`,
      { data: { status: order.status } },
    );
  }
}

/**
 * Per order line, when its latest shipment left: the newest `shipped_at` of the `shipped` or
 * `delivered` fulfillments that hold units of it. A line never shipped is absent.
 */
export function latestShipmentByLine(order: Pick<OrderAggregate, 'fulfillments'>): Map<string, number> {
  const latest = new Map<string, number>();
  for (const f of order.fulfillments) {
    if ((f.status !== 'shipped' && f.status !== 'delivered') || f.shipped_at === null) continue;
    for (const l of f.lines) {
      if (l.quantity <= 0) continue;
      const seen = latest.get(l.order_line_id);
      if (seen === undefined || f.shipped_at > seen) latest.set(l.order_line_id, f.shipped_at);
    }
  }
  return latest;
}

/**
 * Whether a shipment at `shippedAt` is still within a return window of `days` days at `now`:
 * `now − shippedAt ≤ days × 24 h` (a window of 0 days allows nothing after the shipment's
 * moment).
 *
 * @example withinReturnWindow(0, 14, 14 * 86_400_000) // true
 * @example withinReturnWindow(0, 14, 14 * 86_400_000 + 1) // false
 */
export function withinReturnWindow(shippedAt: number, days: number, now: number): boolean {
  return now - shippedAt <= days * DAY_MS;
}

/** The lines of a create request, as the rules need them. */
export interface ReturnLineRequest {
  order_line_id: string;
  quantity: number;
}

/** Where the request comes from: the storefront is held to the store's window, the admin never. */
export interface ReturnWindow {
  /** The store's `return_window_days` (null: no window). */
  days: number | null;
  now: number;
}

/**
 * Checks a return's lines against the order (decisions §18), in request order, the first fault
 * wins:
 * - an order line the order does not have → 404 `not_found` (`lines[i][order_line_id]`);
 * - with a `window` (the storefront), a line whose latest shipment is older than the window →
 *   422 `return_window_expired` (`lines[i][order_line_id]`);
 * - more units than the line's returnable units (`returnableByLine`: shipped − returned or
 *   restocked − held by open returns) → 422 `quantity_exceeds_returnable`
 *   (`lines[i][quantity]`; the message names the returnable count, `data.returnable` carries it).
 * Pure.
 */
export function assertLinesReturnable(
  order: Pick<OrderAggregate, 'lines' | 'refunds' | 'fulfillments'>,
  lines: readonly ReturnLineRequest[],
  window: ReturnWindow | null,
): void {
  const known = new Set(order.lines.map((line) => line.id));
  const returnable = returnableByLine(order);
  const shipped = window !== null && window.days !== null ? latestShipmentByLine(order) : null;
  lines.forEach((line, index) => {
    if (!known.has(line.order_line_id)) {
      throw new CommerceError('not_found', `No such order line: '${line.order_line_id}'`, {
        param: `lines[${index}][order_line_id]`,
      });
    }
    const at = shipped?.get(line.order_line_id);
    if (
      window !== null &&
      window.days !== null &&
      at !== undefined &&
      !withinReturnWindow(at, window.days, window.now)
    ) {
      throw new CommerceError(
        'return_window_expired',
        `Order line '${line.order_line_id}' shipped more than ${window.days} days ago: the return window has closed`,
        {
          param: `lines[${index}][order_line_id]`,
          data: { order_line_id: line.order_line_id, return_window_days: window.days },
        },
      );
    }
    const max = returnable.get(line.order_line_id) ?? 0;
    if (line.quantity > max) {
      throw new CommerceError(
        'quantity_exceeds_returnable',
        `Order line '${line.order_line_id}' has ${max} returnable unit${max === 1 ? '' : 's'}; ${line.quantity} requested`,
        {
          param: `lines[${index}][quantity]`,
          data: { order_line_id: line.order_line_id, returnable: max, requested: line.quantity },
        },
      );
    }
  });
}
