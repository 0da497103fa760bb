/**
 * The engine's front door for one store and mode: `engine.forStore(scope)`. Every method takes
 * what the matching HTTP endpoint takes (path ids as arguments, the request body or query as one
 * object), validates it with the API's own schemas (same defaults, same `parameter_*` errors, see
 * docs/contract.md#errors) and returns the same wire object as the endpoint. Errors are
 * `CommerceError`s with the API's codes.
 *
 * These interfaces are written by hand and are the contract; the implementation
 * (`facade/*.ts`) is checked against them by the compiler.
 */
import type { z } from 'zod';
import type { CartActor } from './carts/cart-access';
import type { Scope } from './ports/storage';
import type {
  AdminCustomerListQuerySchema,
  AdminDiscountListQuerySchema,
  AdminOrderCreateSchema,
  AdminOrderListQuerySchema,
  AdminOrderUpdateSchema,
  AdminPaymentCreateSchema,
  AdminProductListQuerySchema,
  AdminShippingMethodListQuerySchema,
  ApiKey,
  ApiKeyCreated,
  ApiKeyCreateSchema,
  ApiKeyList,
  ApiKeyRotated,
  Cart,
  CartCreateSchema,
  CartDiscountApplySchema,
  CartItemAddSchema,
  CartItemUpdateSchema,
  CartMergeSchema,
  CartUpdateSchema,
  CheckoutResult,
  CheckoutSchema,
  Customer,
  CustomerAddress,
  CustomerAddressCreateSchema,
  CustomerAddressList,
  CustomerAddressUpdateSchema,
  CustomerCreateSchema,
  CustomerList,
  CustomerPasswordChangeSchema,
  CustomerRegisterSchema,
  CustomerSession,
  CustomerSignInSchema,
  CustomerToken,
  CustomerTokenCreateSchema,
  CustomerUpdateSchema,
  DeletedResponse,
  Discount,
  DiscountCreateSchema,
  DiscountList,
  DiscountUpdateSchema,
  Fulfillment,
  FulfillmentCreateSchema,
  FulfillmentShipSchema,
  FulfillmentUpdateSchema,
  Image,
  ImageCreateSchema,
  InventoryAdjustSchema,
  InventoryItem,
  InventoryItemList,
  InventoryListQuerySchema,
  InventoryUpdateSchema,
  ListQuerySchema,
  NotificationList,
  Order,
  OrderCancelSchema,
  OrderList,
  OrderLookupQuerySchema,
  Organization,
  OrganizationUpdateSchema,
  PasswordResetConfirmSchema,
  PasswordResetRequestSchema,
  Payment,
  Product,
  ProductCreateSchema,
  ProductList,
  ProductUpdateSchema,
  Refund,
  RefundCreateSchema,
  RefundList,
  ShippingMethod,
  ShippingMethodCreateSchema,
  ShippingMethodList,
  ShippingMethodUpdateSchema,
  Store,
  StorefrontCustomerUpdateSchema,
  StorefrontOrderListQuerySchema,
  StorefrontProductListQuerySchema,
  StorefrontShippingMethodListQuerySchema,
  StoreUpdateSchema,
  Success,
  Variant,
  VariantCreateSchema,
  VariantList,
  VariantUpdateSchema,
  Webhook,
  WebhookCreateSchema,
  WebhookDeliveryList,
  WebhookList,
  WebhookTestResult,
  WebhookTestSchema,
  WebhookUpdateSchema,
} from './schemas';

/** What a method accepts: the request body or query of the matching endpoint, as written on the wire. */
export type In<S extends z.ZodType> = z.input<S>;

/** Who acts on carts and checkouts: the key kind, and the signed-in customer if any (docs/contract.md#customer-tokens). */
export type { CartActor };

// ------------------------------------------------------------------------------------- catalog

/** Products, their variants and images (`/v1/admin/products…`, `/v1/storefront/products…`). */
export interface ProductsApi {
  /** `POST /v1/admin/products`: a product with its options and variants (`variants: [{ price: 2500 }]`). */
  create(input: In<typeof ProductCreateSchema>): Promise<Product>;
  /** `GET /v1/admin/products`: newest first by default; filters by status, type, tag, name. */
  list(query?: In<typeof AdminProductListQuerySchema>): Promise<ProductList>;
  /** `GET /v1/admin/products/{id}`. */
  get(id: string): Promise<Product>;
  /** `PATCH /v1/admin/products/{id}`. */
  update(id: string, input: In<typeof ProductUpdateSchema>): Promise<Product>;
  /** `DELETE /v1/admin/products/{id}`: archived products with orders are kept for the orders. */
  delete(id: string): Promise<DeletedResponse>;
  /** `GET /v1/admin/products/{id}/variants`. */
  listVariants(productId: string, query?: In<typeof ListQuerySchema>): Promise<VariantList>;
  /** `POST /v1/admin/products/{id}/variants`. */
  createVariant(productId: string, input: In<typeof VariantCreateSchema>): Promise<Variant>;
  /** `PATCH /v1/admin/variants/{id}`. */
  updateVariant(variantId: string, input: In<typeof VariantUpdateSchema>): Promise<Variant>;
  /** `DELETE /v1/admin/variants/{id}`. */
  deleteVariant(variantId: string): Promise<DeletedResponse>;
  /** `POST /v1/admin/products/{id}/images`. */
  addImage(productId: string, input: In<typeof ImageCreateSchema>): Promise<Image>;
  /** `DELETE /v1/admin/products/{id}/images/{image_id}`. */
  deleteImage(productId: string, imageId: string): Promise<DeletedResponse>;
  /** `GET /v1/storefront/products`: active products only, without cost prices. */
  listStorefront(query?: In<typeof StorefrontProductListQuerySchema>): Promise<ProductList>;
  /** `GET /v1/storefront/products/{id}`: 404 unless active. */
  getStorefront(id: string): Promise<Product>;
  /** `GET /v1/storefront/products/by-slug/{slug}`: 404 unless active. */
  getStorefrontBySlug(slug: string): Promise<Product>;
}

/** Shipping methods (`/v1/admin/shipping-methods…`, `/v1/storefront/shipping-methods`). */
export interface ShippingMethodsApi {
  create(input: In<typeof ShippingMethodCreateSchema>): Promise<ShippingMethod>;
  list(query?: In<typeof AdminShippingMethodListQuerySchema>): Promise<ShippingMethodList>;
  get(id: string): Promise<ShippingMethod>;
  update(id: string, input: In<typeof ShippingMethodUpdateSchema>): Promise<ShippingMethod>;
  delete(id: string): Promise<DeletedResponse>;
  /** The active methods a shopper may choose. */
  listStorefront(query?: In<typeof StorefrontShippingMethodListQuerySchema>): Promise<ShippingMethodList>;
}

/** Inventory, one item per variant, with its `sku` and `levels` (docs/contract.md#inventory). */
export interface InventoryApi {
  /** `GET /v1/admin/inventory` (`low_stock: true` for records at or under their threshold). */
  list(query?: In<typeof InventoryListQuerySchema>): Promise<InventoryItemList>;
  get(id: string): Promise<InventoryItem>;
  /** Sets settings (`track_inventory`, `allow_backorder`, `safety_stock`, `metadata`) and an absolute `on_hand`. */
  update(id: string, input: In<typeof InventoryUpdateSchema>): Promise<InventoryItem>;
  /** `{ quantity }` is a signed delta, applied atomically. */
  adjust(id: string, input: In<typeof InventoryAdjustSchema>): Promise<InventoryItem>;
}

// ----------------------------------------------------------------------------------- customers

/**
 * Customers (admin), customer tokens, accounts (sign-up, sign-in, passwords:
 * docs/contract.md#customer-accounts), and the signed-in customer's profile and addresses with
 * the customer named explicitly.
 */
export interface CustomersApi {
  /** `POST /v1/admin/customers` (optionally with a `password`). */
  create(input: In<typeof CustomerCreateSchema>): Promise<Customer>;
  list(query?: In<typeof AdminCustomerListQuerySchema>): Promise<CustomerList>;
  get(id: string): Promise<Customer>;
  update(id: string, input: In<typeof CustomerUpdateSchema>): Promise<Customer>;
  /** Deletes the customer and revokes their tokens; their orders stay. */
  delete(id: string): Promise<DeletedResponse>;
  /** `POST /v1/admin/customers/{id}/token`: an `X-Customer-Token` (`{ expires_in }` seconds, default 86400). */
  issueToken(id: string, input?: In<typeof CustomerTokenCreateSchema>): Promise<CustomerToken>;
  /** Sign-up: creates the customer with a password and signs them in. */
  register(input: In<typeof CustomerRegisterSchema>): Promise<CustomerSession>;
  /** Sign-in with e-mail and password; `invalid_credentials` for an unknown e-mail or a wrong password alike. */
  signIn(input: In<typeof CustomerSignInSchema>): Promise<CustomerSession>;
  /** Sign-out: revokes this customer token. */
  signOut(token: string): Promise<Success>;
  /** Changes the password of the token's customer; every other token of theirs stops working. */
  changePassword(token: string, input: In<typeof CustomerPasswordChangeSchema>): Promise<Customer>;
  /** Always `{ success: true }`; the reset token reaches the host through `customer.password_reset_requested`. */
  requestPasswordReset(input: In<typeof PasswordResetRequestSchema>): Promise<Success>;
  /** Sets a new password with a reset token, revokes every earlier token, and signs the customer in. */
  resetPassword(input: In<typeof PasswordResetConfirmSchema>): Promise<CustomerSession>;
  /** `GET /v1/storefront/customers/me` for this customer. */
  getProfile(customerId: string): Promise<Customer>;
  /** `PATCH /v1/storefront/customers/me` for this customer (`status` is ignored). */
  updateProfile(customerId: string, input: In<typeof StorefrontCustomerUpdateSchema>): Promise<Customer>;
  listAddresses(customerId: string): Promise<CustomerAddressList>;
  createAddress(customerId: string, input: In<typeof CustomerAddressCreateSchema>): Promise<CustomerAddress>;
  updateAddress(
    customerId: string,
    addressId: string,
    input: In<typeof CustomerAddressUpdateSchema>,
  ): Promise<CustomerAddress>;
  deleteAddress(customerId: string, addressId: string): Promise<DeletedResponse>;
}

// ------------------------------------------------------------------------------------ commerce

/** Discount codes (docs/contract.md#discounts). */
export interface DiscountsApi {
  /** `value` is minor units for `fixed`, a percentage (0 < v ≤ 100) for `percentage`. */
  create(input: In<typeof DiscountCreateSchema>): Promise<Discount>;
  list(query?: In<typeof AdminDiscountListQuerySchema>): Promise<DiscountList>;
  get(id: string): Promise<Discount>;
  update(id: string, input: In<typeof DiscountUpdateSchema>): Promise<Discount>;
  delete(id: string): Promise<DeletedResponse>;
}

/** Carts, as the facade's actor (docs/contract.md#carts). */
export interface CartsApi {
  create(input?: In<typeof CartCreateSchema>): Promise<Cart>;
  get(id: string): Promise<Cart>;
  getBySession(sessionId: string): Promise<Cart>;
  update(id: string, input: In<typeof CartUpdateSchema>): Promise<Cart>;
  /** The same variant again adds to its item's quantity (`quantity` defaults to 1). */
  addItem(id: string, input: In<typeof CartItemAddSchema>): Promise<Cart>;
  updateItem(id: string, itemId: string, input: In<typeof CartItemUpdateSchema>): Promise<Cart>;
  removeItem(id: string, itemId: string): Promise<Cart>;
  applyDiscount(id: string, input: In<typeof CartDiscountApplySchema>): Promise<Cart>;
  removeDiscount(id: string, code: string): Promise<Cart>;
  /**
   * The storefront's merge, with `customerId`'s token: without `source_cart_id`, merges the guest
   * cart `id` into the customer's cart; with it, merges that cart into the customer's cart `id`.
   */
  merge(id: string, customerId: string, input?: In<typeof CartMergeSchema>): Promise<Cart>;
}

/**
 * `POST /v1/storefront/carts/{id}/checkout` as the facade's actor: the body exactly as over HTTP
 * (`email`, `payment_provider` — any registered provider —, `payment_method_id`, addresses, `note`, `metadata`).
 */
export type CheckoutApi = (cartId: string, input?: In<typeof CheckoutSchema>) => Promise<CheckoutResult>;

/** Orders: the admin life cycle, payments, fulfillments, refunds, and the storefront reads (docs/contract.md#orders). */
export interface OrdersApi {
  /** `POST /v1/admin/orders`: a draft or pending order made by the merchant. */
  create(input: In<typeof AdminOrderCreateSchema>): Promise<Order>;
  list(query?: In<typeof AdminOrderListQuerySchema>): Promise<OrderList>;
  get(id: string): Promise<Order>;
  update(id: string, input: In<typeof AdminOrderUpdateSchema>): Promise<Order>;
  confirm(id: string): Promise<Order>;
  process(id: string): Promise<Order>;
  complete(id: string): Promise<Order>;
  /** Cancels, releasing reservations (and refunding captured payments when asked). */
  cancel(id: string, input?: In<typeof OrderCancelSchema>): Promise<Order>;
  listRefunds(orderId: string, query?: In<typeof ListQuerySchema>): Promise<RefundList>;
  payments: {
    /** Records a completed payment taken outside the engine (`provider` is a free label). */
    create(orderId: string, input: In<typeof AdminPaymentCreateSchema>): Promise<Payment>;
    /** Completes a pending manual payment. */
    complete(paymentId: string): Promise<Payment>;
  };
  fulfillments: {
    create(orderId: string, input: In<typeof FulfillmentCreateSchema>): Promise<Fulfillment>;
    update(id: string, input: In<typeof FulfillmentUpdateSchema>): Promise<Fulfillment>;
    ship(id: string, input?: In<typeof FulfillmentShipSchema>): Promise<Fulfillment>;
    deliver(id: string): Promise<Fulfillment>;
  };
  refunds: {
    /** Refunds an amount or lines of a paid order, through its payment's provider. */
    create(orderId: string, input?: In<typeof RefundCreateSchema>): Promise<Refund>;
  };
  /** `GET /v1/storefront/orders` for this customer. */
  listForCustomer(customerId: string, query?: In<typeof StorefrontOrderListQuerySchema>): Promise<OrderList>;
  /** `GET /v1/storefront/orders/{id}` for this customer: 404 for another's order. */
  getForCustomer(customerId: string, id: string): Promise<Order>;
  /** The guest lookup: `{ number, email }` must both match. */
  lookup(query: In<typeof OrderLookupQuerySchema>): Promise<Order>;
}

// --------------------------------------------------------------------------------------- admin

/** Store and organization settings (shared by both modes). */
export interface StoreSettingsApi {
  get(): Promise<Store>;
  /** `currency`, `tax_rate` (a percentage: 20 means 20 %), `prices_include_tax`, … */
  update(input: In<typeof StoreUpdateSchema>): Promise<Store>;
  getOrganization(): Promise<Organization>;
  updateOrganization(input: In<typeof OrganizationUpdateSchema>): Promise<Organization>;
}

/** API keys of the scope's mode (docs/contract.md#keys). */
export interface ApiKeysApi {
  /** The secret is shown once, in this answer. */
  create(input: In<typeof ApiKeyCreateSchema>): Promise<ApiKeyCreated>;
  list(query?: In<typeof ListQuerySchema>): Promise<ApiKeyList>;
  get(id: string): Promise<ApiKey>;
  /** Revokes the key. */
  delete(id: string): Promise<DeletedResponse>;
  /** A new secret for the same key; the old one stops working at once. */
  rotate(id: string): Promise<ApiKeyRotated>;
}

/** Webhooks of the scope's mode, their deliveries, and the notifications list (docs/contract.md#webhooks). */
export interface WebhooksApi {
  create(input: In<typeof WebhookCreateSchema>): Promise<Webhook>;
  list(query?: In<typeof ListQuerySchema>): Promise<WebhookList>;
  get(id: string): Promise<Webhook>;
  update(id: string, input: In<typeof WebhookUpdateSchema>): Promise<Webhook>;
  delete(id: string): Promise<DeletedResponse>;
  listDeliveries(id: string, query?: In<typeof ListQuerySchema>): Promise<WebhookDeliveryList>;
  /** Sends a sample event to the webhook's URL now and reports the attempt. */
  test(id: string, input: In<typeof WebhookTestSchema>): Promise<WebhookTestResult>;
  listNotifications(query?: In<typeof ListQuerySchema>): Promise<NotificationList>;
}

/** Everything for one store and mode: `engine.forStore(scope, actor?)`. */
export interface StoreApi {
  readonly scope: Scope;
  /** Who acts on carts and checkouts: a secret key unless another actor was given. */
  readonly actor: CartActor;
  settings: StoreSettingsApi;
  products: ProductsApi;
  shippingMethods: ShippingMethodsApi;
  inventory: InventoryApi;
  customers: CustomersApi;
  discounts: DiscountsApi;
  carts: CartsApi;
  checkout: CheckoutApi;
  orders: OrdersApi;
  apiKeys: ApiKeysApi;
  webhooks: WebhooksApi;
}
