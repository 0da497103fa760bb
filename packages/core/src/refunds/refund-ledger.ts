import type { Json, JsonObject, OrderAggregate, RefundRecord } from '../ports/storage';
import type { RestockMovement } from '.';

/**
 * Where a refund's restocked units went, kept on the refund record (in its internal `metadata`,
 * which the Refund resource does not show) because the order line columns cannot tell it:
 * `restocked_quantity` says how many units came back, not whether they had been fulfilled
 * (`returned`, docs/contract.md#fulfillment-status) nor whether they left `reserved` or went to `on_hand` (docs/contract.md#restock).
 *
 * Decision: this is the audit trail of the refund's inventory movements, written once when the
 * refund is recorded. A `returned_quantity` / `released_quantity` pair of order-line columns
 * would serve as well; the storage port has none today.
 */
const KEY = 'restock_movements';

/**
 * The metadata to store on a refund for its restock movements (empty object when none). A
 * movement's `from_fulfillments` (units taken out of pending fulfillments) is written only when
 * it took some, so movements without it read the same as those recorded before it existed.
 */
export function restockMetadata(movements: readonly RestockMovement[]): JsonObject {
  if (movements.length === 0) return {};
  return {
    [KEY]: movements.map((m) => ({
      order_line_id: m.order_line_id,
      from_reserved: m.from_reserved,
      to_on_hand: m.to_on_hand,
      returned_quantity: m.returned_quantity,
      ...(m.from_fulfillments.length > 0 && {
        from_fulfillments: m.from_fulfillments.map((t) => ({
          fulfillment_id: t.fulfillment_id,
          quantity: t.quantity,
        })),
      }),
    })),
  };
}

function isObject(value: Json | undefined): value is { [k: string]: Json } {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

/** One recorded movement, or null when the value is not one. */
function parseMovement(value: Json): RestockMovement | null {
  if (
    !isObject(value) ||
    typeof value.order_line_id !== 'string' ||
    typeof value.from_reserved !== 'number' ||
    typeof value.to_on_hand !== 'number' ||
    typeof value.returned_quantity !== 'number'
  ) {
    return null;
  }
  const takes = Array.isArray(value.from_fulfillments) ? value.from_fulfillments : [];
  return {
    order_line_id: value.order_line_id,
    from_reserved: value.from_reserved,
    to_on_hand: value.to_on_hand,
    returned_quantity: value.returned_quantity,
    from_fulfillments: takes.flatMap((t) =>
      isObject(t) && typeof t.fulfillment_id === 'string' && typeof t.quantity === 'number'
        ? [{ fulfillment_id: t.fulfillment_id, quantity: t.quantity }]
        : [],
    ),
  };
}

/**
 * The restock movements recorded on a refund. Movements recorded before `from_fulfillments`
 * existed read with an empty one (they took nothing out of fulfillments).
 */
export function restockMovementsOf(refund: Pick<RefundRecord, 'metadata'>): RestockMovement[] {
  const raw = refund.metadata[KEY];
  return Array.isArray(raw) ? raw.flatMap((v) => parseMovement(v) ?? []) : [];
}

/** Per order line, what its refunds' restocks did: units released from `reserved`, units returned. */
export interface LineRestockTotals {
  from_reserved: number;
  returned_quantity: number;
}

/** The money refunds took: the sum of the `completed` ones (an order's `refunded_total`). */
export function completedRefundTotal(refunds: readonly Pick<RefundRecord, 'status' | 'amount'>[]): number {
  let total = 0;
  for (const refund of refunds) if (refund.status === 'completed') total += refund.amount;
  return total;
}

/**
 * Sums the restock movements of an order's refunds per line, over every refund that recorded
 * some. A refund that failed before its effects were applied (refused by its provider while in
 * flight) recorded none; one that failed at the provider AFTER being applied as `pending` keeps
 * its movements, because its units stay refunded and restocked (see
 * provider-refund-settlement.ts) — they still left `reserved` or came back to `on_hand`.
 */
export function restockTotalsByLine(order: Pick<OrderAggregate, 'refunds'>): Map<string, LineRestockTotals> {
  const totals = new Map<string, LineRestockTotals>();
  for (const refund of order.refunds) {
    for (const m of restockMovementsOf(refund)) {
      const t = totals.get(m.order_line_id) ?? { from_reserved: 0, returned_quantity: 0 };
      t.from_reserved += m.from_reserved;
      t.returned_quantity += m.returned_quantity;
      totals.set(m.order_line_id, t);
    }
  }
  return totals;
}

/** One provider call of a refund: which payment gives back how much (minor units). */
export interface RefundProviderCall {
  payment_id: string;
  amount: number;
}

/**
 * The internal metadata key of a refund whose provider calls are in flight: recorded `pending`
 * BEFORE the providers are asked (outside any transaction), settled after they answered
 * (`settleRefund`), or by reconciliation when the process died in between. The calls are kept
 * so that a retry asks for exactly the same slices under the same idempotency keys.
 */
const IN_FLIGHT_KEY = 'provider_calls';

/** The metadata of a refund recorded before its provider calls. */
export function inFlightMetadata(calls: readonly RefundProviderCall[]): JsonObject {
  return { [IN_FLIGHT_KEY]: calls.map((c) => ({ payment_id: c.payment_id, amount: c.amount })) };
}

/**
 * The provider calls of a refund still waiting for its providers' answer, or null when the
 * refund is settled (completed, failed, or pending at the provider with its effects applied).
 */
export function providerCallsInFlight(
  refund: Pick<RefundRecord, 'status' | 'metadata'>,
): RefundProviderCall[] | null {
  if (refund.status !== 'pending') return null;
  const raw = refund.metadata[IN_FLIGHT_KEY];
  if (!Array.isArray(raw)) return null;
  const calls: RefundProviderCall[] = [];
  for (const value of raw) {
    if (
      typeof value === 'object' &&
      value !== null &&
      !Array.isArray(value) &&
      typeof value.payment_id === 'string' &&
      typeof value.amount === 'number'
    ) {
      calls.push({ payment_id: value.payment_id, amount: value.amount });
    }
  }
  return calls;
}

/**
 * Units per order line of the refunds still waiting for their providers: not yet in the lines'
 * `refunded_quantity`, but no longer refundable (a concurrent refund must not take them too).
 */
export function unitsInFlight(order: Pick<OrderAggregate, 'refunds'>): Map<string, number> {
  const units = new Map<string, number>();
  for (const refund of order.refunds) {
    if (providerCallsInFlight(refund) === null) continue;
    for (const line of refund.lines) {
      units.set(line.order_line_id, (units.get(line.order_line_id) ?? 0) + line.quantity);
    }
  }
  return units;
}
