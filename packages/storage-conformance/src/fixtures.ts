import { randomBytes } from 'node:crypto';
import type { Scope } from '@cartwright/core';
import type {
  ApiKeyRecord,
  CartAggregate,
  CartItemRecord,
  CustomerAddressRecord,
  CustomerRecord,
  CustomerTokenRecord,
  DiscountRecord,
  EventRecord,
  FulfillmentRecord,
  ImageRecord,
  InventoryRecord,
  JsonObject,
  OrderAggregate,
  OrderLineRecord,
  PasswordResetRecord,
  PaymentRecord,
  ProductAggregate,
  RefundRecord,
  ShippingMethodRecord,
  VariantWithInventory,
  WebhookDeliveryRecord,
  WebhookRecord,
} from '@cartwright/core/storage';
import { subscribedSince } from '@cartwright/core/storage-rules';

/**
 * Record builders for the suites. Ids are unique per call (`<prefix>_<counter><random>`, so they
 * sort by creation within one run); every builder takes overrides. A fresh scope per test keeps
 * tests independent on a shared database.
 */

let counter = 0;

export function newId(prefix: string): string {
  counter++;
  return `${prefix}_${counter.toString(36).padStart(6, '0')}${randomBytes(6).toString('hex')}`;
}

export function newScope(mode: Scope['mode'] = 'test'): Scope {
  return { store_id: newId('store'), mode };
}

/** The same store in the other mode. */
export function otherMode(scope: Scope): Scope {
  return { store_id: scope.store_id, mode: scope.mode === 'test' ? 'live' : 'test' };
}

/** Nested, unicode and numeric metadata that must round-trip exactly. */
export const RICH_METADATA: JsonObject = {
  plain: 'value',
  unicode: 'héllo wörld — 日本語 🚀 \u00e9\u0301',
  quote: 'he said "hi" \\ back',
  numbers: { int: 42, negative: -7, float: 1.0625, big: 9007199254740991, small: 1e-7, zero: 0 },
  flags: { yes: true, no: false, nothing: null },
  list: [1, 'two', { three: [3] }, [], {}],
  nested: { a: { b: { c: { d: 'deep' } } } },
  empty: '',
};

export interface ProductOptions {
  name?: string;
  slug?: string;
  status?: ProductAggregate['status'];
  type?: ProductAggregate['type'];
  tags?: string[];
  /** Category ids (decisions §17); the storage keeps them as given. */
  category_ids?: string[];
  created_at?: number;
  /** Variant prices; each variant gets one option value `V<i>` of option `Size` when > 1 variant. */
  prices?: number[];
  skus?: Array<string | null>;
  inactive?: number[];
  on_hand?: number;
  images?: number;
  metadata?: JsonObject;
  id?: string;
}

export function makeInventory(
  scope: Scope,
  variant: { id: string; product_id: string },
  overrides: Partial<InventoryRecord> = {},
): InventoryRecord {
  return {
    id: newId('inv'),
    store_id: scope.store_id,
    mode: scope.mode,
    variant_id: variant.id,
    product_id: variant.product_id,
    track_inventory: true,
    allow_backorder: false,
    safety_stock: 0,
    on_hand: 10,
    reserved: 0,
    metadata: {},
    created_at: 1_700_000_000_000,
    updated_at: 1_700_000_000_000,
    ...overrides,
  };
}

export function makeProduct(scope: Scope, options: ProductOptions = {}): ProductAggregate {
  const id = options.id ?? newId('prod');
  const at = options.created_at ?? 1_700_000_000_000;
  const name = options.name ?? `Product ${id}`;
  const prices = options.prices ?? [1999];
  const option =
    prices.length > 1
      ? {
          id: newId('opt'),
          product_id: id,
          name: 'Size',
          position: 0,
          values: prices.map((_, i) => ({ id: newId('optval'), option_id: '', value: `V${i}`, position: i })),
        }
      : undefined;
  if (option) for (const value of option.values) value.option_id = option.id;
  const variants: VariantWithInventory[] = prices.map((price, i) => {
    const variantId = newId('var');
    return {
      id: variantId,
      store_id: scope.store_id,
      mode: scope.mode,
      product_id: id,
      sku: options.skus ? (options.skus[i] ?? null) : `SKU-${variantId}`,
      barcode: null,
      price,
      compare_at_price: null,
      cost_price: 500,
      currency: 'USD',
      weight: 250.5,
      width: null,
      height: null,
      depth: null,
      is_active: !(options.inactive ?? []).includes(i),
      option_value_ids: option ? [option.values[i]!.id] : [],
      position: i,
      metadata: {},
      created_at: at,
      updated_at: at,
      inventory: makeInventory(
        scope,
        { id: variantId, product_id: id },
        { on_hand: options.on_hand ?? 10, created_at: at, updated_at: at },
      ),
    };
  });
  const images = Array.from({ length: options.images ?? 0 }, (_, i) => ({
    id: newId('img'),
    product_id: id,
    url: `https://cdn.example.com/${id}/${i}.jpg`,
    alt_text: i === 0 ? 'front' : null,
    position: i,
    width: 800,
    height: 600,
    variant_ids: [] as string[],
  }));
  return {
    id,
    store_id: scope.store_id,
    mode: scope.mode,
    name,
    slug: options.slug ?? `slug-${id}`,
    description: 'A thing',
    type: options.type ?? 'physical',
    status: options.status ?? 'active',
    tags: options.tags ?? [],
    category_ids: options.category_ids ?? [],
    attributes: { material: 'cotton', sizes: ['S', 'M'] },
    metadata: options.metadata ?? {},
    // The representative price (core's rule, docs/contract.md#representative-price): the storage stores what it is given.
    price: variants.reduce<number | null>(
      (min, v) => (v.is_active && (min === null || v.price < min) ? v.price : min),
      null,
    ),
    currency: 'USD',
    created_at: at,
    updated_at: at,
    options: option ? [option] : [],
    variants,
    images,
  };
}

/**
 * A new variant of `product` at `position`: a copy of its first variant with a fresh id, a unique
 * SKU, no option values and its own inventory (`inventory` overrides that inventory's fields).
 */
export function makeVariant(
  product: ProductAggregate,
  position: number,
  price: number,
  overrides: Partial<Omit<VariantWithInventory, 'inventory'>> & { inventory?: Partial<InventoryRecord> } = {},
): VariantWithInventory {
  const id = newId('var');
  const scope = { store_id: product.store_id, mode: product.mode };
  const { inventory, ...fields } = overrides;
  return {
    ...(product.variants[0] as VariantWithInventory),
    id,
    sku: `SKU-${id}`,
    price,
    position,
    option_value_ids: [],
    ...fields,
    inventory: makeInventory(scope, { id, product_id: product.id }, inventory),
  };
}

/** A new image of `product` at `position`, attached to `variantIds`. */
export function makeImage(
  product: ProductAggregate,
  position: number,
  variantIds: string[] = [],
  overrides: Partial<ImageRecord> = {},
): ImageRecord {
  return {
    id: newId('img'),
    product_id: product.id,
    url: `https://cdn.example.com/${product.id}/${position}.png`,
    alt_text: null,
    position,
    width: null,
    height: null,
    variant_ids: variantIds,
    ...overrides,
  };
}

export function makeShippingMethod(
  scope: Scope,
  overrides: Partial<ShippingMethodRecord> = {},
): ShippingMethodRecord {
  return {
    id: newId('ship'),
    store_id: scope.store_id,
    mode: scope.mode,
    name: 'Standard',
    description: null,
    price: 500,
    free_shipping_threshold: null,
    currency: 'USD',
    is_active: true,
    position: 0,
    metadata: {},
    created_at: 1_700_000_000_000,
    updated_at: 1_700_000_000_000,
    ...overrides,
  };
}

export function makeDiscount(scope: Scope, overrides: Partial<DiscountRecord> = {}): DiscountRecord {
  const id = newId('disc');
  return {
    id,
    store_id: scope.store_id,
    mode: scope.mode,
    name: 'Ten off',
    description: null,
    code: `CODE-${id}`,
    type: 'code',
    value_type: 'percentage',
    value: 12.5,
    target: 'order',
    usage_limit: null,
    usage_count: 0,
    per_customer_limit: null,
    minimum_amount: null,
    maximum_discount: null,
    currency: 'USD',
    starts_at: null,
    ends_at: null,
    is_active: true,
    conditions: [{ id: newId('cond'), type: 'product', operator: 'in', values: ['prod_x'] }],
    metadata: {},
    created_at: 1_700_000_000_000,
    updated_at: 1_700_000_000_000,
    ...overrides,
  };
}

export function makeCustomer(scope: Scope, overrides: Partial<CustomerRecord> = {}): CustomerRecord {
  const id = newId('cus');
  return {
    id,
    store_id: scope.store_id,
    mode: scope.mode,
    email: `${id}@example.com`,
    first_name: 'Ada',
    last_name: 'Lovelace',
    phone: null,
    external_id: null,
    status: 'active',
    tags: [],
    metadata: {},
    password_hash: null,
    created_at: 1_700_000_000_000,
    updated_at: 1_700_000_000_000,
    ...overrides,
  };
}

export function makeCustomerToken(
  scope: Scope,
  customer_id: string,
  overrides: Partial<CustomerTokenRecord> = {},
): CustomerTokenRecord {
  return {
    id: newId('ctok'),
    store_id: scope.store_id,
    mode: scope.mode,
    customer_id,
    token_hash: newId('hash'),
    expires_at: 1_700_086_400_000,
    created_at: 1_700_000_000_000,
    ...overrides,
  };
}

export function makePasswordReset(
  scope: Scope,
  customer_id: string,
  overrides: Partial<PasswordResetRecord> = {},
): PasswordResetRecord {
  return {
    id: newId('pwr'),
    store_id: scope.store_id,
    mode: scope.mode,
    customer_id,
    token_hash: newId('hash'),
    expires_at: 1_700_003_600_000,
    created_at: 1_700_000_000_000,
    ...overrides,
  };
}

export function makeAddress(
  scope: Scope,
  customer_id: string,
  overrides: Partial<CustomerAddressRecord> = {},
): CustomerAddressRecord {
  return {
    id: newId('addr'),
    store_id: scope.store_id,
    mode: scope.mode,
    customer_id,
    name: 'Ada Lovelace',
    first_name: null,
    last_name: null,
    company: null,
    label: null,
    receiver_name: null,
    line1: '1 Main St',
    line2: null,
    city: 'London',
    state: null,
    postal_code: 'N1',
    country: 'GB',
    phone: null,
    type: 'both',
    is_default: false,
    created_at: 1_700_000_000_000,
    updated_at: 1_700_000_000_000,
    ...overrides,
  };
}

export function makeCartItem(
  cart_id: string,
  variant_id: string,
  overrides: Partial<CartItemRecord> = {},
): CartItemRecord {
  return {
    id: newId('item'),
    cart_id,
    variant_id,
    quantity: 1,
    metadata: {},
    created_at: 1_700_000_000_000,
    updated_at: 1_700_000_000_000,
    ...overrides,
  };
}

export function makeCart(scope: Scope, overrides: Partial<CartAggregate> = {}): CartAggregate {
  const id = overrides.id ?? newId('cart');
  return {
    id,
    store_id: scope.store_id,
    mode: scope.mode,
    status: 'active',
    session_id: newId('sess'),
    customer_id: null,
    email: null,
    shipping_address: null,
    billing_address: null,
    shipping_method_id: null,
    discount_codes: [],
    currency: 'USD',
    region_id: null,
    metadata: {},
    created_at: 1_700_000_000_000,
    updated_at: 1_700_000_000_000,
    completed_at: null,
    locale: null,
    items: [],
    ...overrides,
  };
}

export function makeOrderLine(order_id: string, overrides: Partial<OrderLineRecord> = {}): OrderLineRecord {
  return {
    id: newId('line'),
    order_id,
    variant_id: newId('var'),
    product_id: newId('prod'),
    product_name: 'Shirt',
    variant_name: 'M / Blue',
    sku: 'SHIRT-M',
    option_values: { Size: 'M', Color: 'Blue' },
    image_url: null,
    quantity: 2,
    fulfilled_quantity: 0,
    shipped_quantity: 0,
    refunded_quantity: 0,
    restocked_quantity: 0,
    returned_quantity: 0,
    returning_quantity: 0,
    reserved_quantity: 0,
    unit_price: 1000,
    line_discount: 0,
    line_total: 2000,
    tax_amount: 178,
    position: 0,
    ...overrides,
  };
}

export function makePayment(
  scope: Scope,
  order_id: string | null,
  overrides: Partial<PaymentRecord> = {},
): PaymentRecord {
  return {
    id: newId('pay'),
    store_id: scope.store_id,
    mode: scope.mode,
    order_id,
    provider: 'manual',
    provider_id: null,
    amount: 2178,
    currency: 'USD',
    status: 'pending',
    idempotency_key: null,
    cart_id: null,
    client_secret: null,
    failure_reason: null,
    note: null,
    metadata: {},
    checkout_snapshot: null,
    created_at: 1_700_000_000_000,
    updated_at: 1_700_000_000_000,
    ...overrides,
  };
}

export function makeFulfillment(
  scope: Scope,
  order_id: string,
  overrides: Partial<FulfillmentRecord> = {},
): FulfillmentRecord {
  return {
    id: newId('ful'),
    store_id: scope.store_id,
    mode: scope.mode,
    order_id,
    status: 'pending',
    tracking_number: null,
    tracking_url: null,
    carrier: null,
    carrier_code: null,
    lines: [],
    metadata: {},
    created_at: 1_700_000_000_000,
    updated_at: 1_700_000_000_000,
    shipped_at: null,
    delivered_at: null,
    estimated_delivery: null,
    ...overrides,
  };
}

export function makeRefund(
  scope: Scope,
  order_id: string,
  overrides: Partial<RefundRecord> = {},
): RefundRecord {
  return {
    id: newId('ref'),
    store_id: scope.store_id,
    mode: scope.mode,
    order_id,
    amount: 500,
    currency: 'USD',
    reason: null,
    restock: false,
    status: 'pending',
    lines: [],
    provider_refund_id: null,
    metadata: {},
    restock_movements: [],
    provider_calls: null,
    failure_message: null,
    created_at: 1_700_000_000_000,
    updated_at: 1_700_000_000_000,
    ...overrides,
  };
}

export function makeOrder(
  scope: Scope,
  number: number,
  overrides: Partial<OrderAggregate> = {},
): OrderAggregate {
  const id = overrides.id ?? newId('ord');
  return {
    id,
    store_id: scope.store_id,
    mode: scope.mode,
    number,
    status: 'pending',
    payment_status: 'unpaid',
    fulfillment_status: 'unfulfilled',
    customer_id: null,
    email: 'Buyer@Example.com',
    shipping_address: { name: 'Ada', line1: '1 Main St', city: 'London', postal_code: 'N1', country: 'GB' },
    billing_address: null,
    currency: 'USD',
    region_id: null,
    subtotal: 2000,
    discount_total: 0,
    shipping_total: 0,
    tax_total: 178,
    total: 2178,
    paid_total: 0,
    refunded_total: 0,
    prices_include_tax: false,
    tax_rate: 8.875,
    shipping_method_id: null,
    shipping_method_name: null,
    shipping_discount: 0,
    shipping_tax: 0,
    applied_discounts: [],
    note: null,
    metadata: {},
    cart_id: null,
    inventory_reserved: true,
    cancel_reason: null,
    created_at: 1_700_000_000_000,
    updated_at: 1_700_000_000_000,
    confirmed_at: null,
    cancelled_at: null,
    completed_at: null,
    lines: [],
    payments: [],
    fulfillments: [],
    refunds: [],
    ...overrides,
  };
}

export function makeApiKey(scope: Scope, overrides: Partial<ApiKeyRecord> = {}): ApiKeyRecord {
  return {
    id: newId('key'),
    store_id: scope.store_id,
    mode: scope.mode,
    name: null,
    key_type: 'secret',
    key_hash: randomBytes(32).toString('hex'),
    key_prefix: 'sk_test_4fA2',
    last_used_at: null,
    expires_at: null,
    revoked_at: null,
    created_at: 1_700_000_000_000,
    ...overrides,
  };
}

export function makeWebhook(scope: Scope, overrides: Partial<WebhookRecord> = {}): WebhookRecord {
  return {
    id: newId('wh'),
    store_id: scope.store_id,
    mode: scope.mode,
    url: 'https://hooks.example.com/in',
    events: ['*'],
    events_since: {},
    secret: `whsec_${randomBytes(16).toString('hex')}`,
    previous_secret: null,
    previous_secret_expires_at: null,
    is_active: true,
    consecutive_failures: 0,
    metadata: {},
    created_at: 1_700_000_000_000,
    updated_at: 1_700_000_000_000,
    ...overrides,
  };
}

export function makeEvent(scope: Scope, overrides: Partial<EventRecord> = {}): EventRecord {
  return {
    id: newId('evt'),
    store_id: scope.store_id,
    mode: scope.mode,
    type: 'order.created',
    data: { id: 'ord_1', number: 1001, status: 'pending', total: { amount: 2178, currency: 'USD' } },
    created_at: 1_700_000_000_000,
    ...overrides,
  };
}

/**
 * The delivery factory `events.dispatch` takes: a delivery when the webhook subscribes to the
 * event's type (`subscribedSince`, core's rule), else null. The subscription TIME is core's rule
 * (`receivesEvent`, tested with the engine); the storage suites' events are far in the past.
 */
export function deliveryFor(now: number) {
  return (event: EventRecord, webhook: WebhookRecord): WebhookDeliveryRecord | null =>
    subscribedSince(webhook, event.type) === null
      ? null
      : {
          id: newId('whd'),
          store_id: event.store_id,
          mode: event.mode,
          webhook_id: webhook.id,
          event_id: event.id,
          event_type: event.type,
          payload: JSON.stringify({ id: event.id, type: event.type, data: event.data }),
          status: 'pending',
          attempt_count: 0,
          next_attempt_at: now,
          lease_until: null,
          leased_by: null,
          last_status_code: null,
          last_error: null,
          last_duration_ms: null,
          created_at: now,
          updated_at: now,
        };
}
