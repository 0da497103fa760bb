import type { EngineServices as Engine } from '../engine-services';
import type { Scope } from '../ports/storage';
import {
  AdminDiscountListQuerySchema,
  AdminOrderCreateSchema,
  AdminOrderListQuerySchema,
  AdminOrderUpdateSchema,
  AdminPaymentCreateSchema,
  CartCreateSchema,
  CartDiscountApplySchema,
  CartItemAddSchema,
  CartItemUpdateSchema,
  CartMergeSchema,
  CartUpdateSchema,
  CheckoutSchema,
  DiscountCreateSchema,
  DiscountUpdateSchema,
  FulfillmentCreateSchema,
  FulfillmentShipSchema,
  FulfillmentUpdateSchema,
  ListQuerySchema,
  OrderCancelSchema,
  OrderLookupQuerySchema,
  RefundCreateSchema,
  StorefrontOrderListQuerySchema,
} from '../schemas';
import { body, type CartActor, type In, pageOf, query } from './inputs';

type DiscountCreateInput = Parameters<Engine['discounts']['create']>[1];

/** Discounts (admin), bound to one scope. */
export function discountsFacade(engine: Engine, scope: Scope) {
  const discounts = engine.discounts;
  return {
    /** `value` is minor units for `fixed`, a percentage (0 < v ≤ 100) for `percentage`. */
    create: async (input: In<typeof DiscountCreateSchema>) =>
      discounts.create(scope, body(DiscountCreateSchema, input) as DiscountCreateInput),
    list: async (q: In<typeof AdminDiscountListQuerySchema> = {}) =>
      discounts.list(scope, query(AdminDiscountListQuerySchema, q)),
    get: async (id: string) => discounts.get(scope, id),
    update: async (id: string, input: In<typeof DiscountUpdateSchema>) =>
      discounts.update(scope, id, body(DiscountUpdateSchema, input)),
    delete: async (id: string) => discounts.delete(scope, id),
  };
}

/** Carts, bound to one scope and one actor (the facade's key kind and signed-in customer). */
export function cartsFacade(engine: Engine, scope: Scope, actor: CartActor) {
  const carts = engine.carts;
  return {
    create: async (input: In<typeof CartCreateSchema> = {}) =>
      carts.create(scope, actor, body(CartCreateSchema, input)),
    get: async (id: string) => carts.get(scope, actor, id),
    getBySession: async (sessionId: string) => carts.getBySession(scope, actor, sessionId),
    update: async (id: string, input: In<typeof CartUpdateSchema>) =>
      carts.update(scope, actor, id, body(CartUpdateSchema, input)),
    /** The same variant again adds to its item's quantity (`quantity` defaults to 1). */
    addItem: async (id: string, input: In<typeof CartItemAddSchema>) =>
      carts.addItem(scope, actor, id, body(CartItemAddSchema, input)),
    updateItem: async (id: string, itemId: string, input: In<typeof CartItemUpdateSchema>) =>
      carts.updateItem(scope, actor, id, itemId, body(CartItemUpdateSchema, input)),
    removeItem: async (id: string, itemId: string) => carts.removeItem(scope, actor, id, itemId),
    applyDiscount: async (id: string, input: In<typeof CartDiscountApplySchema>) =>
      carts.applyDiscount(scope, actor, id, body(CartDiscountApplySchema, input).code),
    removeDiscount: async (id: string, code: string) => carts.removeDiscount(scope, actor, id, code),
    /**
     * The storefront's merge, with `customerId`'s token: without `source_cart_id`, merges the guest
     * cart `id` into the customer's cart; with it, merges that cart into the customer's cart `id`.
     */
    merge: async (id: string, customerId: string, input: In<typeof CartMergeSchema> = {}) =>
      carts.merge(
        scope,
        { key_type: actor.key_type, customer_id: customerId },
        id,
        body(CartMergeSchema, input),
      ),
  };
}

/**
 * `POST /v1/storefront/carts/{id}/checkout` as the facade's actor: the body exactly as over HTTP
 * (`email`, `payment_provider`, `payment_method_id`, addresses, `note`, `metadata`).
 */
export function checkoutFacade(engine: Engine, scope: Scope, actor: CartActor) {
  return (cartId: string, input: In<typeof CheckoutSchema> = {}) =>
    engine.checkout.checkout(scope, cartId, body(CheckoutSchema, input), actor);
}

/** Orders: admin life cycle, payments, fulfillments, refunds, and the storefront reads. */
export function ordersFacade(engine: Engine, scope: Scope) {
  const orders = engine.orders;
  return {
    create: async (input: In<typeof AdminOrderCreateSchema>) =>
      orders.create(scope, body(AdminOrderCreateSchema, input)),
    list: async (q: In<typeof AdminOrderListQuerySchema> = {}) =>
      orders.list(scope, query(AdminOrderListQuerySchema, q)),
    get: async (id: string) => orders.get(scope, id),
    update: async (id: string, input: In<typeof AdminOrderUpdateSchema>) =>
      orders.update(scope, id, body(AdminOrderUpdateSchema, input)),
    confirm: async (id: string) => orders.confirm(scope, id),
    process: async (id: string) => orders.process(scope, id),
    complete: async (id: string) => orders.complete(scope, id),
    cancel: async (id: string, input: In<typeof OrderCancelSchema> = {}) =>
      orders.cancel(scope, id, body(OrderCancelSchema, input)),
    listRefunds: async (orderId: string, q: In<typeof ListQuerySchema> = {}) =>
      orders.listRefunds(scope, orderId, pageOf(query(ListQuerySchema, q))),
    payments: {
      /** Records a completed payment taken outside the engine (`provider` is a free label). */
      create: async (orderId: string, input: In<typeof AdminPaymentCreateSchema>) =>
        orders.payments.create(scope, orderId, body(AdminPaymentCreateSchema, input)),
      complete: async (paymentId: string) => orders.payments.complete(scope, paymentId),
    },
    fulfillments: {
      create: async (orderId: string, input: In<typeof FulfillmentCreateSchema>) =>
        orders.fulfillments.create(scope, orderId, body(FulfillmentCreateSchema, input)),
      update: async (id: string, input: In<typeof FulfillmentUpdateSchema>) =>
        orders.fulfillments.update(scope, id, body(FulfillmentUpdateSchema, input)),
      ship: async (id: string, input: In<typeof FulfillmentShipSchema> = {}) =>
        orders.fulfillments.ship(scope, id, body(FulfillmentShipSchema, input)),
      deliver: async (id: string) => orders.fulfillments.deliver(scope, id),
    },
    refunds: {
      create: async (orderId: string, input: In<typeof RefundCreateSchema> = {}) =>
        orders.refunds.create(scope, orderId, body(RefundCreateSchema, input)),
    },
    listForCustomer: async (customerId: string, q: In<typeof StorefrontOrderListQuerySchema> = {}) =>
      orders.listForCustomer(scope, customerId, query(StorefrontOrderListQuerySchema, q)),
    getForCustomer: async (customerId: string, id: string) => orders.getForCustomer(scope, customerId, id),
    /** The guest lookup: `{ number, email }` must both match. */
    lookup: async (q: In<typeof OrderLookupQuerySchema>) => {
      const parsed = query(OrderLookupQuerySchema, q);
      return orders.lookup(scope, parsed.number, parsed.email);
    },
  };
}
