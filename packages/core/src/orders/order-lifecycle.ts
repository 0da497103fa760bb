import {
  assertPurchasable,
  assertShippingMethod,
  loadAndPrice,
  type PriceableItem,
  type PricedCart,
  requireShippingMethod,
} from '../carts/cart-pricing';
import { addressFromInput } from '../carts/wire';
import { customerKeyOf, recordDiscountUsage } from '../discounts/discount-usage';
import { emitInventoryCrossings } from '../inventory/inventory-events';
import type { CustomerRecord, InventoryChange, OrderAggregate, PaymentRecord, Scope } from '../ports/storage';
import { assertRegionUsable } from '../regions/region-pricing-context';
import type { ServiceContext } from '../shared/context';
import { CommerceError } from '../shared/errors';
import { write } from '../shared/unit-of-work';
import { assertOrderAction, type OrderAdminAction } from './order-actions';
import { buildOrder } from './order-builder';
import { cancelOrderParts } from './order-cancellation';
import { reserveLines, withReservedQuantities } from './order-inventory';
import { requireOrder, requireStoreIn } from './order-loading';
import { saveOrderProgress, settleOrder, statusEvent } from './order-progress';
import type { AdminOrderCreate, AdminOrderUpdate, OrderCancel } from './schemas';
import { orderToWire } from './wire';

const lineParam = (index: number, field: 'variant_id' | 'quantity') => `lines[${index}][${field}]`;

/**
 * A draft reserves nothing, so only whether each variant may be sold is checked, not its stock:
 * the same rules as `assertPurchasable` with inventory treated as untracked.
 */
function assertSellable(priced: PricedCart, items: readonly PriceableItem[]): void {
  const untracked = new Map(
    [...priced.variants].map(([id, entry]) => [
      id,
      { ...entry, inventory: { ...entry.inventory, track_inventory: false } },
    ]),
  );
  assertPurchasable({ variants: untracked, unpriced: priced.unpriced }, items, { param: lineParam });
}

/**
 * After an order's cancellation committed: asks the providers to void the payments it cancelled
 * that were still waiting at them (a 3-D Secure PaymentIntent the customer has not completed),
 * under the key `<payment id>_void`, so the customer can no longer pay for a cancelled order.
 * Best effort, outside any transaction: if a provider cannot be reached, or the customer paid
 * just before, the money that arrives later is refunded in full by the payment webhook
 * (`late_payment_refunded`, payment-sync.ts) — nothing is kept for a cancelled order either way.
 */
async function voidAtProviders(ctx: ServiceContext, payments: readonly PaymentRecord[]): Promise<void> {
  for (const payment of payments) {
    const provider = ctx.payments.get(payment.provider);
    if (!provider?.cancelPayment || payment.provider_id === null) continue;
    try {
      await provider.cancelPayment({
        provider_id: payment.provider_id,
        idempotency_key: `${payment.id}_void`,
      });
    } catch {
      // Left to the webhook: a payment that completes for a cancelled order is refunded.
    }
  }
}

/** Whether any unit of the order has left the warehouse (a fulfillment shipped or delivered). */
function hasShippedUnits(order: OrderAggregate): boolean {
  return order.fulfillments.some((f) => f.status === 'shipped' || f.status === 'delivered');
}

/**
 * The admin order life cycle (docs/contract.md#order-status): creation as `draft` or `pending`, PATCH (addresses,
 * note, metadata, and `status: "pending"` to finalise a draft), and the moves `confirm`,
 * `process`, `complete`, `cancel`. Every use case locks the order row (`forUpdate`) and writes the
 * status with a compare-and-set, so concurrent admin actions on one order serialise; any move
 * the state machine refuses is 409 `invalid_state_transition`. After a move, the automatic moves
 * of `settleOrder` apply as after any other change (e.g. confirming an order that was already
 * fulfilled moves it on to `processing`).
 */
export function createOrderLifecycle(ctx: ServiceContext) {
  async function move(
    scope: Scope,
    id: string,
    action: Exclude<OrderAdminAction, 'finalize'>,
    reason?: string | null,
  ) {
    const moved = await write(
      ctx,
      scope,
      async (work) => {
        const { tx, now } = work;
        const order = await requireOrder(tx, scope, id, { forUpdate: true });
        const to = assertOrderAction(action, order.status, { has_shipped_units: hasShippedUnits(order) });
        let changed: OrderAggregate = { ...order, status: to };
        if (to === 'completed') changed.completed_at = now;
        if (to === 'confirmed') changed.confirmed_at = now;
        if (to === 'cancelled') changed = await cancelOrderParts(work, scope, changed, reason ?? null);
        const event = statusEvent(to);
        const saved = await saveOrderProgress(work, scope, order, changed, event ? [event] : []);
        // The payments this cancellation moved from pending (cancelOrderParts), to void at their providers.
        const cancelled = to === 'cancelled' ? order.payments.filter((p) => p.status === 'pending') : [];
        return { wire: orderToWire(saved), cancelled };
      },
      { answer: (result) => result.wire },
    ); // the request's answer, stored with the move (Idempotency-Key)
    await voidAtProviders(ctx, moved.cancelled);
    return moved.wire;
  }

  return {
    /**
     * `POST /v1/admin/orders` (201). Prices come from the catalog through the same pricing as
     * carts (automatic discounts included), never from the request. `customer_id` must name a
     * customer of the scope (404, param `customer_id`); without `email` the customer's is used.
     * A `shipping_method_id` must be active (422 `shipping_method_unavailable`).
     * - `draft` (default): reserves nothing and counts no discount use; variants must still be
     *   sellable (404 / 422 `product_unavailable`, param `lines[i][variant_id]`).
     * - `pending`: checked and reserved like a checkout (422 `insufficient_inventory`, param
     *   `lines[i][quantity]`), discount uses counted (422 `discount_usage_limit_reached`).
     * Both take the next order number. Event: `order.created`.
     * - `region_id` (decisions §19): priced in the region (unknown → 404, inactive → 422
     *   `region_unavailable`, a variant without a price there → 422 `product_unavailable`, a
     *   shipping method whose price has no rate → 422 `shipping_method_unavailable`); the order
     *   snapshots the region, its currency and tax settings.
     */
    async create(scope: Scope, input: AdminOrderCreate) {
      return write(ctx, scope, async (work) => {
        const { tx, now } = work;
        const [store, customer] = await Promise.all([
          requireStoreIn(tx, scope),
          input.customer_id !== undefined
            ? tx.customers.get(scope, input.customer_id)
            : Promise.resolve(null),
        ]);
        if (input.customer_id !== undefined && !customer) {
          throw new CommerceError('not_found', `No such customer: '${input.customer_id}'`, {
            param: 'customer_id',
          });
        }
        const email = input.email ?? (customer as CustomerRecord | null)?.email;
        if (email === undefined)
          throw new CommerceError('parameter_missing', 'email is required', { param: 'email' });
        if (input.shipping_method_id !== undefined)
          await requireShippingMethod(tx, scope, input.shipping_method_id);

        const items: PriceableItem[] = input.lines.map((line, index) => ({
          key: String(index),
          variant_id: line.variant_id,
          quantity: line.quantity,
        }));
        const priced = await loadAndPrice(tx, {
          scope,
          store,
          items,
          shipping_method_id: input.shipping_method_id ?? null,
          discount_codes: [],
          customer: { id: customer?.id ?? null, email, tags: customer?.tags ?? [] },
          now,
          region_id: input.region_id ?? null,
        });
        if (input.region_id !== undefined) {
          // Decisions §19: unknown → 404, inactive → 422 `region_unavailable`.
          assertRegionUsable(priced.region?.region ?? null, input.region_id);
          if (input.shipping_method_id !== undefined && priced.shipping_method === null) {
            // Its price cannot be converted into the region's currency (no rate).
            assertShippingMethod(null, input.shipping_method_id);
          }
        }
        const pending = input.status === 'pending';
        if (pending) assertPurchasable(priced, items, { param: lineParam });
        else assertSellable(priced, items);

        const id = ctx.ids.next('ord');
        const draft = buildOrder(
          ctx,
          {
            id,
            number: 0,
            scope,
            store,
            status: input.status,
            customer_id: customer?.id ?? null,
            email,
            shipping_address: addressFromInput(input.shipping_address ?? null),
            billing_address: addressFromInput(input.billing_address ?? null),
            note: input.note ?? null,
            metadata: input.metadata,
            cart_id: null,
            inventory_reserved: pending,
            now,
          },
          priced,
          items,
        );
        let reservations: InventoryChange[] = [];
        if (pending) {
          reservations = await reserveLines(
            work,
            scope,
            items,
            (i) => lineParam(i, 'quantity'),
            [...priced.variants.values()].map((entry) => entry.inventory),
          );
          draft.lines = withReservedQuantities(draft.lines, reservations);
          await recordDiscountUsage(ctx, work, scope, {
            order_id: id,
            customer_key: customerKeyOf(draft.customer_id, email),
            discounts: draft.applied_discounts,
          });
        }
        draft.number = await tx.orders.nextNumber(scope);
        const { order, path } = settleOrder(draft, now);
        await tx.orders.insert(order);
        const wire = orderToWire(order);
        work.emit(scope, 'order.created', wire);
        for (const status of path) {
          const type = statusEvent(status);
          if (type) work.emit(scope, type, wire);
        }
        emitInventoryCrossings(work, scope, reservations);
        return wire;
      });
    },

    /**
     * `PATCH /v1/admin/orders/{id}`: addresses (`null` clears), note, metadata (replaced whole), in
     * any status. `status: "pending"` finalises a draft (409 `invalid_state_transition` from any
     * other status, and for any other `status` value): its inventory is reserved (422 `insufficient_inventory` when short) and its
     * discounts' uses are counted; prices stay those the draft was created with.
     */
    async update(scope: Scope, id: string, input: AdminOrderUpdate) {
      return write(ctx, scope, async (work) => {
        const { tx, now } = work;
        const order = await requireOrder(tx, scope, id, { forUpdate: true });
        if (input.status !== undefined && input.status !== 'pending') {
          throw new CommerceError(
            'invalid_state_transition',
            `PATCH only moves a draft to 'pending'; an order that is ${order.status} moves to '${input.status}' through the confirm, process, complete and cancel endpoints, where that move is allowed`,
            { param: 'status', data: { status: order.status } },
          );
        }
        const finalize = input.status === 'pending';
        let reservations: InventoryChange[] = [];
        let lines = order.lines;
        if (finalize) {
          assertOrderAction('finalize', order.status);
          reservations = await reserveLines(work, scope, order.lines);
          // The draft's lines were written reserving nothing: record what this reserved.
          lines = withReservedQuantities(order.lines, reservations);
          await tx.orders.updateLines(
            scope,
            order.id,
            lines.map((line) => ({ id: line.id, reserved_quantity: line.reserved_quantity })),
          );
          await recordDiscountUsage(ctx, work, scope, {
            order_id: order.id,
            customer_key: customerKeyOf(order.customer_id, order.email),
            discounts: order.applied_discounts,
          });
        }
        const updated = await tx.orders.update(
          scope,
          order.id,
          {
            updated_at: now,
            ...(input.shipping_address !== undefined && {
              shipping_address: addressFromInput(input.shipping_address),
            }),
            ...(input.billing_address !== undefined && {
              billing_address: addressFromInput(input.billing_address),
            }),
            ...(input.note !== undefined && { note: input.note }),
            ...(input.metadata !== undefined && { metadata: input.metadata }),
            ...(finalize && { status: 'pending' as const, inventory_reserved: true }),
          },
          { expect_status: order.status },
        );
        if (!updated) throw new CommerceError('not_found', `No such order: '${id}'`);
        let result: OrderAggregate = { ...order, ...updated, lines };
        if (finalize) result = await saveOrderProgress(work, scope, result, result);
        emitInventoryCrossings(work, scope, reservations);
        return orderToWire(result);
      });
    },

    /** `POST …/confirm`: pending → confirmed (even unpaid: the merchant's call). Event `order.confirmed`. */
    confirm: (scope: Scope, id: string) => move(scope, id, 'confirm'),

    /** `POST …/process`: confirmed → processing. */
    process: (scope: Scope, id: string) => move(scope, id, 'process'),

    /** `POST …/complete`: processing → completed, sets `completed_at`. Event `order.completed`. */
    complete: (scope: Scope, id: string) => move(scope, id, 'complete'),

    /**
     * `POST …/cancel` (`{ reason? }`): from draft, pending, confirmed, and processing while nothing
     * has shipped. Releases reservations of unshipped units, cancels pending fulfillments and
     * payments, sets `cancelled_at`. Event `order.cancelled`. Discount uses stay counted (the order
     * used the discount).
     */
    cancel: (scope: Scope, id: string, input: OrderCancel = {}) =>
      move(scope, id, 'cancel', input.reason ?? null),
  };
}
