import { fulfillmentMachine } from '../fulfillments/fulfillment-transitions';
import { orderLinePicker } from '../fulfillments/order-line-refs';
import type { FulfillmentCreate, FulfillmentShip, FulfillmentUpdate } from '../fulfillments/schemas';
import { fulfillmentToWire } from '../fulfillments/wire';
import { emitInventoryCrossings } from '../inventory/inventory-events';
import { shipInventory } from '../inventory/inventory-writes';
import type { FulfillmentRecord, Scope } from '../ports/storage';
import { cancelledUnitsByLine } from '../refunds/refund-ledger';
import type { ServiceContext } from '../shared/context';
import { CommerceError } from '../shared/errors';
import { assertTransition } from '../shared/state-machine';
import { type Work, write } from '../shared/unit-of-work';
import { unfulfilledQuantity } from './line-units';
import { assertOrderFulfillable } from './order-actions';
import { shipMovements } from './order-inventory';
import { requireOrder } from './order-loading';
import { saveOrderProgress } from './order-progress';
import type { FulfillmentRecordStatus } from './vocabulary';

async function requireFulfillment(work: Work, scope: Scope, id: string): Promise<FulfillmentRecord> {
  const fulfillment = await work.tx.orders.getFulfillment(scope, id);
  if (!fulfillment) throw new CommerceError('not_found', `No such fulfillment: '${id}'`);
  return fulfillment;
}

/**
 * Fulfillments (docs/contract.md#fulfillments, #inventory): created `pending` (their units count as fulfilled from
 * then on), shipped (inventory leaves: `on_hand −= q`, `reserved −= q`), delivered. Moves follow
 * `fulfillmentMachine` (409 `invalid_state_transition` otherwise). Events `fulfillment.created`,
 * `fulfillment.shipped`, `fulfillment.delivered` carry the Fulfillment.
 */
export function createOrderFulfillments(ctx: ServiceContext) {
  /** Moves a fulfillment along its machine with a compare-and-set on the status it was read in. */
  async function advance(
    work: Work,
    scope: Scope,
    current: FulfillmentRecord,
    to: Extract<FulfillmentRecordStatus, 'shipped' | 'delivered'>,
    tracking: FulfillmentShip = {},
  ): Promise<FulfillmentRecord> {
    assertTransition(fulfillmentMachine, current.status, to);
    const updated = await work.tx.orders.updateFulfillment(
      scope,
      current.id,
      {
        status: to,
        updated_at: work.now,
        ...(to === 'shipped' ? { shipped_at: work.now } : { delivered_at: work.now }),
        ...(tracking.tracking_number !== undefined && { tracking_number: tracking.tracking_number }),
        ...(tracking.tracking_url !== undefined && { tracking_url: tracking.tracking_url }),
        ...(tracking.carrier !== undefined && { carrier: tracking.carrier }),
      },
      { expect_status: current.status },
    );
    if (!updated) {
      throw new CommerceError('invalid_state_transition', `The fulfillment is no longer ${current.status}`, {
        data: { from: current.status, to },
      });
    }
    return updated;
  }

  return {
    /**
     * `POST /v1/admin/orders/{id}/fulfillments`. The order must be pending, confirmed or
     * processing (409 otherwise). Each line must name a line of the order once (400
     * `parameter_invalid`, `lines[i][order_line_id]`) and ask for at most its unfulfilled units,
     * `fulfillable − fulfilled` (`unfulfilledQuantity`: units refunded without restock still
     * ship; units cancelled by a restocking refund do not) — else 422
     * `fulfillment_exceeds_unfulfilled`, `lines[i][quantity]`, `data: { order_line_id,
     * requested, unfulfilled }`. The first fulfillment of a confirmed order moves it to
     * `processing`; a created fulfillment never completes an order (its units have not shipped).
     */
    async create(scope: Scope, orderId: string, input: FulfillmentCreate) {
      return write(ctx, scope, async (work) => {
        const { tx, now } = work;
        const order = await requireOrder(tx, scope, orderId, { forUpdate: true });
        assertOrderFulfillable(order.status);
        const pick = orderLinePicker(order.lines);
        const cancelled = cancelledUnitsByLine(order);
        input.lines.forEach((requested, i) => {
          const line = pick(requested.order_line_id, i);
          const unfulfilled = unfulfilledQuantity(line, cancelled.get(line.id) ?? 0);
          if (requested.quantity > unfulfilled) {
            throw new CommerceError(
              'fulfillment_exceeds_unfulfilled',
              `Only ${unfulfilled} unit(s) of order line '${line.id}' are unfulfilled; ${requested.quantity} requested`,
              {
                param: `lines[${i}][quantity]`,
                data: { order_line_id: line.id, requested: requested.quantity, unfulfilled },
              },
            );
          }
        });

        const fulfillment: FulfillmentRecord = {
          id: ctx.ids.next('ful'),
          store_id: scope.store_id,
          mode: scope.mode,
          order_id: order.id,
          status: 'pending',
          tracking_number: input.tracking_number ?? null,
          tracking_url: input.tracking_url ?? null,
          carrier: input.carrier ?? null,
          carrier_code: null,
          lines: input.lines.map((l) => ({ order_line_id: l.order_line_id, quantity: l.quantity })),
          metadata: input.metadata,
          created_at: now,
          updated_at: now,
          shipped_at: null,
          delivered_at: null,
          estimated_delivery: null,
        };
        await tx.orders.insertFulfillment(fulfillment);
        const added = new Map(input.lines.map((l) => [l.order_line_id, l.quantity]));
        const lines = order.lines.map((line) => {
          const q = added.get(line.id);
          return q === undefined ? line : { ...line, fulfilled_quantity: line.fulfilled_quantity + q };
        });
        await tx.orders.updateLines(
          scope,
          order.id,
          lines
            .filter((l) => added.has(l.id))
            .map((l) => ({ id: l.id, fulfilled_quantity: l.fulfilled_quantity })),
        );
        const wire = fulfillmentToWire(fulfillment);
        work.emit(scope, 'fulfillment.created', wire);
        await saveOrderProgress(work, scope, order, {
          ...order,
          lines,
          fulfillments: [...order.fulfillments, fulfillment],
        });
        return wire;
      });
    },

    /**
     * `PATCH /v1/admin/fulfillments/{id}`: tracking number, URL, carrier, `carrier_code`,
     * `estimated_delivery` (`null` clears), metadata (replaced).
     */
    async update(scope: Scope, id: string, input: FulfillmentUpdate) {
      return write(ctx, scope, async (work) => {
        await requireFulfillment(work, scope, id);
        const updated = await work.tx.orders.updateFulfillment(scope, id, {
          updated_at: work.now,
          ...(input.tracking_number !== undefined && { tracking_number: input.tracking_number }),
          ...(input.tracking_url !== undefined && { tracking_url: input.tracking_url }),
          ...(input.carrier !== undefined && { carrier: input.carrier }),
          ...(input.carrier_code !== undefined && { carrier_code: input.carrier_code }),
          ...(input.estimated_delivery !== undefined && { estimated_delivery: input.estimated_delivery }),
          ...(input.metadata !== undefined && { metadata: input.metadata }),
        });
        if (!updated) throw new CommerceError('not_found', `No such fulfillment: '${id}'`);
        return fulfillmentToWire(updated);
      });
    },

    /**
     * `POST /v1/admin/fulfillments/{id}/ship`: pending → shipped, `shipped_at` set; its units leave
     * stock (`on_hand −= q`, `reserved −= q` for the units the order reserved, whatever the
     * variant's tracking is now; units it never reserved leave `on_hand` only of a tracked
     * variant: `shipMovements`) and count as shipped on their lines. `tracking_number`,
     * `tracking_url` and `carrier` given here are written with the move. When the order is paid
     * and every fulfillable unit has now shipped, it completes (`order.completed`,
     * docs/contract.md#order-status). Event `fulfillment.shipped` (and inventory threshold events).
     */
    async ship(scope: Scope, id: string, tracking: FulfillmentShip = {}) {
      return write(ctx, scope, async (work) => {
        const { tx } = work;
        const found = await requireFulfillment(work, scope, id);
        const order = await requireOrder(tx, scope, found.order_id, { forUpdate: true });
        const current = order.fulfillments.find((f) => f.id === id) ?? found;
        const shipped = await advance(work, scope, current, 'shipped', tracking);
        const units = new Map(shipped.lines.map((l) => [l.order_line_id, l.quantity]));
        const movements = shipMovements(order, units);
        const lines = order.lines.map((line) => {
          const q = units.get(line.id);
          return q === undefined ? line : { ...line, shipped_quantity: line.shipped_quantity + q };
        });
        await tx.orders.updateLines(
          scope,
          order.id,
          lines
            .filter((line) => units.has(line.id))
            .map((line) => ({ id: line.id, shipped_quantity: line.shipped_quantity })),
        );
        const changes = movements.length > 0 ? await shipInventory(tx, scope, movements, work.now) : [];
        work.emit(scope, 'fulfillment.shipped', fulfillmentToWire(shipped));
        // Every fulfillable unit shipped, and paid: the order completes (docs/contract.md#order-status).
        await saveOrderProgress(work, scope, order, {
          ...order,
          lines,
          fulfillments: order.fulfillments.map((f) => (f.id === shipped.id ? shipped : f)),
        });
        emitInventoryCrossings(work, scope, changes);
        return fulfillmentToWire(shipped);
      });
    },

    /** `POST /v1/admin/fulfillments/{id}/deliver`: shipped → delivered, `delivered_at` set. Event `fulfillment.delivered`. */
    async deliver(scope: Scope, id: string) {
      return write(ctx, scope, async (work) => {
        const current = await requireFulfillment(work, scope, id);
        const delivered = await advance(work, scope, current, 'delivered');
        const wire = fulfillmentToWire(delivered);
        work.emit(scope, 'fulfillment.delivered', wire);
        return wire;
      });
    },
  };
}
