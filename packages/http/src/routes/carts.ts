import {
  CartCreateSchema,
  CartDiscountApplySchema,
  CartItemAddSchema,
  CartItemUpdateSchema,
  CartMergeSchema,
  CartSchema,
  CartUpdateSchema,
  IdPathSchema,
  IdSchema,
} from '@cartwright/core/schemas';
import { z } from 'zod';
import type { AuthContext, CustomerContext } from '../engine-port';
import type { AnyRoute } from '../route';
import { defineApiRoute } from './define-api-route';
import { scopeOf } from './scope';

const SessionPathSchema = z.object({ session_id: z.string().min(1) });
const ItemPathSchema = z.object({ id: IdSchema, item_id: IdSchema });
const CodePathSchema = z.object({ id: IdSchema, code: z.string().min(1) });

const tags = ['Carts'] as const;

/** The cart actor of a request: the key kind and the token's customer, if any (docs/contract.md#cart-ownership). */
function actorOf(auth: AuthContext, customer: CustomerContext | null) {
  return { key_type: auth.key_type, customer_id: customer?.customer_id ?? null };
}

const ACCESS =
  'A cart that has a `customer_id` can be used with a publishable key only together with that ' +
  "customer's `X-Customer-Token` (404 otherwise); a secret key may act on any cart.";

/** Storefront carts (docs/contract.md#cart-ownership, #carts): publishable or secret key, optional customer token. */
export const cartsRoutes: AnyRoute[] = [
  defineApiRoute({
    method: 'POST',
    path: '/v1/storefront/carts',
    auth: 'any',
    customerToken: 'optional',
    body: CartCreateSchema,
    response: CartSchema,
    summary: 'Create a cart',
    description:
      "With a customer token the cart belongs to that customer. Setting `customer_id` with a publishable key requires that customer's token (403 `forbidden`).",
    tags,
    operationId: 'createCart',
    errors: ['forbidden', 'not_found', 'insufficient_inventory', 'product_unavailable'],
    handler: (ctx) => ctx.engine.carts.create(scopeOf(ctx.auth), actorOf(ctx.auth, ctx.customer), ctx.body),
  }),
  defineApiRoute({
    method: 'GET',
    path: '/v1/storefront/carts/by-session/:session_id',
    auth: 'any',
    customerToken: 'optional',
    params: SessionPathSchema,
    response: CartSchema,
    summary: "Retrieve a session's active cart",
    description: `The newest active cart of the guest session, else 404. ${ACCESS}`,
    tags,
    operationId: 'getCartBySession',
    errors: ['not_found'],
    handler: (ctx) =>
      ctx.engine.carts.getBySession(
        scopeOf(ctx.auth),
        actorOf(ctx.auth, ctx.customer),
        ctx.params.session_id,
      ),
  }),
  defineApiRoute({
    method: 'GET',
    path: '/v1/storefront/carts/:id',
    auth: 'any',
    customerToken: 'optional',
    params: IdPathSchema,
    response: CartSchema,
    summary: 'Retrieve a cart',
    description: `Priced fresh on every request. ${ACCESS}`,
    tags,
    operationId: 'getCart',
    errors: ['not_found'],
    handler: (ctx) => ctx.engine.carts.get(scopeOf(ctx.auth), actorOf(ctx.auth, ctx.customer), ctx.params.id),
  }),
  defineApiRoute({
    method: 'PATCH',
    path: '/v1/storefront/carts/:id',
    auth: 'any',
    customerToken: 'optional',
    params: IdPathSchema,
    body: CartUpdateSchema,
    response: CartSchema,
    summary: 'Update a cart',
    description: `Customer, addresses and shipping method (\`null\` clears), metadata. ${ACCESS}`,
    tags,
    operationId: 'updateCart',
    errors: ['not_found', 'forbidden', 'cart_not_active', 'shipping_method_unavailable'],
    handler: (ctx) =>
      ctx.engine.carts.update(scopeOf(ctx.auth), actorOf(ctx.auth, ctx.customer), ctx.params.id, ctx.body),
  }),
  defineApiRoute({
    method: 'POST',
    path: '/v1/storefront/carts/:id/items',
    auth: 'any',
    customerToken: 'optional',
    params: IdPathSchema,
    body: CartItemAddSchema,
    response: CartSchema,
    summary: 'Add an item to a cart',
    description:
      "The same variant again adds to its item's quantity. Stock is checked against the cart's whole quantity of the variant; nothing is reserved.",
    tags,
    operationId: 'addCartItem',
    errors: ['not_found', 'cart_not_active', 'insufficient_inventory', 'product_unavailable'],
    handler: (ctx) =>
      ctx.engine.carts.addItem(scopeOf(ctx.auth), actorOf(ctx.auth, ctx.customer), ctx.params.id, ctx.body),
  }),
  defineApiRoute({
    method: 'PATCH',
    path: '/v1/storefront/carts/:id/items/:item_id',
    auth: 'any',
    customerToken: 'optional',
    params: ItemPathSchema,
    body: CartItemUpdateSchema,
    response: CartSchema,
    summary: "Change a cart item's quantity",
    tags,
    operationId: 'updateCartItem',
    errors: ['not_found', 'cart_not_active', 'insufficient_inventory', 'product_unavailable'],
    handler: (ctx) =>
      ctx.engine.carts.updateItem(
        scopeOf(ctx.auth),
        actorOf(ctx.auth, ctx.customer),
        ctx.params.id,
        ctx.params.item_id,
        ctx.body,
      ),
  }),
  defineApiRoute({
    method: 'DELETE',
    path: '/v1/storefront/carts/:id/items/:item_id',
    auth: 'any',
    customerToken: 'optional',
    params: ItemPathSchema,
    response: CartSchema,
    summary: 'Remove an item from a cart',
    description: 'Returns the updated cart.',
    tags,
    operationId: 'removeCartItem',
    errors: ['not_found', 'cart_not_active'],
    handler: (ctx) =>
      ctx.engine.carts.removeItem(
        scopeOf(ctx.auth),
        actorOf(ctx.auth, ctx.customer),
        ctx.params.id,
        ctx.params.item_id,
      ),
  }),
  defineApiRoute({
    method: 'POST',
    path: '/v1/storefront/carts/:id/discounts',
    auth: 'any',
    customerToken: 'optional',
    params: IdPathSchema,
    body: CartDiscountApplySchema,
    response: CartSchema,
    summary: 'Apply a discount code to a cart',
    tags,
    operationId: 'applyCartDiscount',
    errors: [
      'not_found',
      'cart_not_active',
      'discount_not_found',
      'discount_expired',
      'discount_not_applicable',
      'discount_usage_limit_reached',
    ],
    handler: (ctx) =>
      ctx.engine.carts.applyDiscount(
        scopeOf(ctx.auth),
        actorOf(ctx.auth, ctx.customer),
        ctx.params.id,
        ctx.body.code,
      ),
  }),
  defineApiRoute({
    method: 'DELETE',
    path: '/v1/storefront/carts/:id/discounts/:code',
    auth: 'any',
    customerToken: 'optional',
    params: CodePathSchema,
    response: CartSchema,
    summary: 'Remove a discount code from a cart',
    description: 'Codes compare case-insensitively. Returns the updated cart.',
    tags,
    operationId: 'removeCartDiscount',
    errors: ['not_found', 'cart_not_active'],
    handler: (ctx) =>
      ctx.engine.carts.removeDiscount(
        scopeOf(ctx.auth),
        actorOf(ctx.auth, ctx.customer),
        ctx.params.id,
        ctx.params.code,
      ),
  }),
  defineApiRoute({
    method: 'POST',
    path: '/v1/storefront/carts/:id/merge',
    auth: 'any',
    customerToken: 'required',
    params: IdPathSchema,
    body: CartMergeSchema,
    response: CartSchema,
    summary: "Merge a guest cart into the signed-in customer's cart",
    description:
      "Without a body (or with `{}`), `{id}` is the guest cart: if the customer has another active cart, the guest cart's items (quantities summed, capped by availability) and valid codes go into it, the guest cart becomes `abandoned`, and the customer's cart is returned; otherwise the guest cart is given to the customer (another customer's cart: 403 `forbidden` with a secret key, 404 with a publishable key).\n\n" +
      "With `{ source_cart_id }`, `{id}` is the target, an active cart of the signed-in customer, and the source (a guest cart or another of the customer's carts) is merged into it the same way and becomes `abandoned`; the target is returned. A target that is not the customer's, or a source that is unknown or another customer's → 404 `not_found`; the source equal to `{id}` → 400 `parameter_invalid`; either cart not active → 409 `cart_not_active`.",
    tags,
    operationId: 'mergeCart',
    errors: ['not_found', 'forbidden', 'cart_not_active'],
    handler: (ctx) =>
      ctx.engine.carts.merge(
        scopeOf(ctx.auth),
        { key_type: ctx.auth.key_type, customer_id: ctx.customer.customer_id },
        ctx.params.id,
        ctx.body,
      ),
  }),
];
