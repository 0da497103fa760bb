/**
 * The engine's front door for one store and mode, `engine.forStore(scope)`: its type is derived
 * from the operation table (`./operations`), one method per operation — nothing here is written
 * by hand. Every method takes what the matching HTTP endpoint takes (path ids as leading
 * arguments, the request body or query as one object), validates it with the API's own schemas
 * (same defaults, same `parameter_*` errors, see docs/contract.md#errors) and returns the same
 * wire object. Errors are `CommerceError`s with the API's codes. The names below are the groups
 * of that API, for code that passes one around.
 */
import type { z } from 'zod';
import type { CartActor } from './carts/cart-access';
import type { StoreApi } from './operations/table';

export type { StoreApi };

/** What a method accepts: the request body or query of the matching endpoint, as written on the wire. */
export type In<S extends z.ZodType> = z.input<S>;

/** Who acts on carts and checkouts: the key kind, and the signed-in customer if any (docs/contract.md#customer-tokens). */
export type { CartActor };

/** Products, their variants and images (`/v1/admin/products…`, `/v1/storefront/products…`). */
export type ProductsApi = StoreApi['products'];
/** Shipping methods (`/v1/admin/shipping-methods…`, `/v1/storefront/shipping-methods`). */
export type ShippingMethodsApi = StoreApi['shippingMethods'];
/** Inventory, one item per variant (docs/contract.md#inventory). */
export type InventoryApi = StoreApi['inventory'];
/** Customers, customer tokens, accounts, and the signed-in customer's profile and addresses. */
export type CustomersApi = StoreApi['customers'];
/** Discount codes (docs/contract.md#discounts). */
export type DiscountsApi = StoreApi['discounts'];
/** Carts, as the API's actor (docs/contract.md#carts). */
export type CartsApi = StoreApi['carts'];
/** `POST /v1/storefront/carts/{id}/checkout` as the API's actor. */
export type CheckoutApi = StoreApi['checkout'];
/** Orders: the admin life cycle, payments, fulfillments, refunds, and the storefront reads. */
export type OrdersApi = StoreApi['orders'];
/** Store and organization settings (shared by both modes). */
export type StoreSettingsApi = StoreApi['settings'];
/** API keys of the scope's mode (docs/contract.md#keys). */
export type ApiKeysApi = StoreApi['apiKeys'];
/** Webhooks of the scope's mode, their deliveries, and the notifications list. */
export type WebhooksApi = StoreApi['webhooks'];
