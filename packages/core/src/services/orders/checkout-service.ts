import { CommerceError } from '../../errors';
import type { CartAggregate, PaymentRecord, Repositories, Scope } from '../../ports/storage';
import type { Checkout } from '../../schemas/carts';
import { assertCartActive, type CartActor, canActOnCart, cartNotFound } from '../carts/cart-access';
import { assertPurchasable, cartPriceableItems, loadAndPrice } from '../carts/cart-pricing';
import type { ServiceContext } from '../context';
import { emitInventoryCrossings } from '../inventory-events';
import { write } from '../unit-of-work';
import { addressFromInput } from '../wire/carts';
import { orderToWire, paymentToWire } from '../wire/orders';
import { customerKeyOf, recordDiscountUsage } from './discount-usage';
import { buildOrder } from './order-builder';
import { reserveLines } from './order-inventory';
import { requireStoreIn } from './order-loading';
import { settleOrder, statusEvent } from './order-progress';
import { attemptPayment, resolveProvider } from './payment-attempt';

/** Who is checking out: the key kind and the signed-in customer, if any (decisions §3). */
export type CheckoutCaller = CartActor;

/** Thrown inside the checkout transaction when the provider declines, so it rolls back. */
class PaymentDeclined extends Error {
  constructor(
    readonly payment: PaymentRecord,
    readonly reason: string,
  ) {
    super(reason);
  }
}

/**
 * Loads a cart for checkout, locked until the transaction ends, with the carts area's access rule
 * (decisions §3: a publishable key reaches a customer's cart only with that customer's token,
 * otherwise 404).
 */
async function loadCartForCheckout(
  tx: Repositories,
  scope: Scope,
  id: string,
  caller: CheckoutCaller,
): Promise<CartAggregate> {
  const cart = await tx.carts.get(scope, id, { forUpdate: true });
  if (!cart || !canActOnCart(cart, caller)) throw cartNotFound(id);
  assertCartActive(cart);
  return cart;
}

/**
 * Checkout (decisions §12): turns a cart into an order and takes payment, in ONE transaction.
 *
 * Order of checks: cart found (404) and `active` (409 `cart_not_active`), ≥ 1 item (422
 * `cart_empty`), a shipping address when any item is physical (422 `shipping_address_required`),
 * an e-mail (400 `parameter_missing`, param `email`: the body's, else the signed-in customer's,
 * else the cart's), the payment provider (400, see `resolveProvider`), every item purchasable
 * (422 `product_unavailable` / `insufficient_inventory`). Then, atomically: reserve inventory
 * (422 `insufficient_inventory`), count discount usage (422 `discount_usage_limit_reached`),
 * allocate the order number, ask the provider, write the order and its payment, mark the cart
 * `completed` (compare-and-set; a concurrent checkout that won → 409 `cart_not_active`).
 * Any error rolls everything back: no order, no reservation, no usage, no number.
 *
 * Decisions:
 * - The body's `shipping_address`, `billing_address` and `metadata` are written to the cart first
 *   (in the same transaction), and the order copies the cart's; `note` goes to the order.
 * - A code on the cart that pricing now refuses because its usage limit is reached → 422
 *   `discount_usage_limit_reached` rather than a silent, dearer order (the customer saw it
 *   apply). Codes refused for other reasons save nothing, as the cart already shows.
 * - A provider decline (`failed`) → 402 `payment_failed`; nothing is kept, and `payment.failed`
 *   is written in a small transaction of its own after the rollback.
 * - An order whose total is 0 takes no payment: it is paid, hence `confirmed`.
 * - The order belongs to the cart's customer (`customer_id`), whoever's token is sent.
 *
 * Events: `order.created`, `payment.created`, and when the provider took the money
 * `payment.completed` and `order.confirmed`; `inventory.low` / `inventory.out_of_stock` when a
 * reservation crosses a threshold.
 */
export function createCheckoutService(ctx: ServiceContext) {
  return {
    async checkout(scope: Scope, cartId: string, input: Checkout, caller: CheckoutCaller) {
      try {
        return await write(ctx, async (work) => {
          const { tx, now } = work;
          let cart = await loadCartForCheckout(tx, scope, cartId, caller);

          if (
            input.shipping_address !== undefined ||
            input.billing_address !== undefined ||
            input.metadata !== undefined
          ) {
            const updated = await tx.carts.update(scope, cart.id, {
              updated_at: now,
              ...(input.shipping_address !== undefined && {
                shipping_address: addressFromInput(input.shipping_address),
              }),
              ...(input.billing_address !== undefined && {
                billing_address: addressFromInput(input.billing_address),
              }),
              ...(input.metadata !== undefined && { metadata: input.metadata }),
            });
            if (updated) cart = { ...cart, ...updated, items: cart.items };
          }

          if (cart.items.length === 0) {
            throw new CommerceError('cart_empty', 'The cart has no items to check out');
          }

          const [store, customer] = await Promise.all([
            requireStoreIn(tx, scope),
            cart.customer_id !== null ? tx.customers.get(scope, cart.customer_id) : Promise.resolve(null),
          ]);
          const email = input.email ?? customer?.email ?? cart.email ?? null;
          const items = cartPriceableItems(cart);
          const priced = await loadAndPrice(tx, {
            scope,
            store,
            items,
            shipping_method_id: cart.shipping_method_id,
            discount_codes: cart.discount_codes,
            customer: { id: customer?.id ?? null, email, tags: customer?.tags ?? [] },
            now,
          });

          const physical = [...priced.variants.values()].some((entry) => entry.product.type === 'physical');
          if (physical && cart.shipping_address === null) {
            throw new CommerceError(
              'shipping_address_required',
              'A shipping address is required for physical items',
              {
                param: 'shipping_address',
              },
            );
          }
          if (email === null) {
            throw new CommerceError('parameter_missing', 'email is required to check out as a guest', {
              param: 'email',
            });
          }
          const provider = resolveProvider(ctx, input.payment_provider, input.payment_method_id);
          assertPurchasable(priced, items, { missing: 'product_unavailable' });
          const exhausted = priced.pricing.rejected_codes.find(
            (r) => r.reason === 'discount_usage_limit_reached',
          );
          if (exhausted) {
            throw new CommerceError(
              'discount_usage_limit_reached',
              `Discount '${exhausted.code ?? exhausted.discount_id}' has reached its usage limit`,
              { data: { discount_id: exhausted.discount_id, code: exhausted.code } },
            );
          }

          const orderId = ctx.ids.next('ord');
          const reservations = await reserveLines(work, scope, items);
          const draft = buildOrder(
            ctx,
            {
              id: orderId,
              number: 0,
              scope,
              store,
              status: 'pending',
              customer_id: cart.customer_id,
              email,
              shipping_address: cart.shipping_address,
              billing_address: cart.billing_address,
              note: input.note ?? null,
              metadata: cart.metadata,
              cart_id: cart.id,
              inventory_reserved: true,
              now,
            },
            priced,
            items,
          );
          await recordDiscountUsage(ctx, work, scope, {
            order_id: orderId,
            customer_key: customerKeyOf(cart.customer_id, email),
            discounts: draft.applied_discounts,
          });
          draft.number = await tx.orders.nextNumber(scope);

          if (draft.total > 0) {
            const attempt = await attemptPayment({
              scope,
              provider,
              payment_id: ctx.ids.next('pay'),
              order_id: orderId,
              cart_id: cart.id,
              amount: draft.total,
              currency: draft.currency,
              email,
              payment_method_id: input.payment_method_id,
              now,
            });
            if (attempt.declined) {
              throw new PaymentDeclined(
                attempt.payment,
                attempt.failure_message ?? 'The payment was declined',
              );
            }
            draft.payments.push(attempt.payment);
          }

          const { order, path } = settleOrder(draft, now);
          await tx.orders.insert(order);
          if (!(await tx.carts.transition(scope, cart.id, 'active', 'completed', now))) {
            throw new CommerceError('cart_not_active', 'This cart has already been checked out', {
              data: { status: 'completed' },
            });
          }

          const wire = orderToWire(order);
          work.emit(scope, 'order.created', wire);
          for (const payment of order.payments) {
            const paymentWire = paymentToWire(payment);
            work.emit(scope, 'payment.created', paymentWire);
            if (payment.status === 'completed') work.emit(scope, 'payment.completed', paymentWire);
          }
          for (const status of path) {
            const type = statusEvent(status);
            if (type) work.emit(scope, type, wire);
          }
          emitInventoryCrossings(work, scope, reservations);
          return wire;
        });
      } catch (error) {
        if (!(error instanceof PaymentDeclined)) throw error;
        const failed = { ...paymentToWire(error.payment), order_id: null, cart_id: cartId };
        await write(ctx, async (work) => work.emit(scope, 'payment.failed', failed));
        throw new CommerceError('payment_failed', error.reason, {
          data: { payment_provider: error.payment.provider },
        });
      }
    },
  };
}

export type CheckoutService = ReturnType<typeof createCheckoutService>;
