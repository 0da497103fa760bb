import { describe, expect, test } from 'vitest';
import { z } from 'zod';
import { inputErrorOf } from '../shared/schemas/test-helpers';
import * as schemas from './index';

const at = '2024-05-01T10:00:00.000Z';
const usd = (amount: number) => ({ amount, currency: 'USD' });
const address = {
  name: 'Ada',
  first_name: null,
  last_name: null,
  company: null,
  line1: '1 Main',
  line2: null,
  city: 'Austin',
  state: 'TX',
  postal_code: '78701',
  country: 'US',
  phone: null,
  label: null,
  receiver_name: null,
};
const optionValue = { id: 'optval_1', value: 'S', position: 0 };
const image = {
  id: 'img_1',
  url: 'https://cdn.example/a.png',
  alt_text: null,
  position: 0,
  width: null,
  height: null,
};

/** What the storefront shows: cost price and stock internals hidden as null (docs/contract.md#storefront-visibility). */
const storefrontInventory = {
  id: 'inv_1',
  variant_id: 'var_1',
  track_inventory: true,
  allow_backorder: false,
  safety_stock: null,
  on_hand: null,
  reserved: null,
  available: 4,
  metadata: {},
};
const variant = {
  id: 'var_1',
  product_id: 'prod_1',
  sku: 'TEE-S',
  barcode: null,
  price: usd(1999),
  compare_at_price: null,
  cost_price: null,
  weight: 180,
  width: 30.5,
  height: null,
  depth: 2,
  is_active: true,
  position: 0,
  stock: 4,
  option_values: [optionValue],
  images: [image],
  inventory: storefrontInventory,
  metadata: {},
  created_at: at,
  updated_at: at,
};
const product = {
  id: 'prod_1',
  name: 'Tee',
  slug: 'tee',
  description: null,
  type: 'physical',
  status: 'active',
  tags: ['summer'],
  category_ids: ['cat_1'],
  attributes: { material: 'cotton' },
  images: [image],
  options: [{ id: 'opt_1', name: 'Size', position: 0, values: [optionValue] }],
  variants: [variant],
  price: usd(1999),
  compare_at_price: null,
  metadata: {},
  created_at: at,
  updated_at: at,
};
const applied = {
  discount_id: 'disc_1',
  code: 'SAVE10',
  name: '10%',
  value_type: 'percentage',
  value: 10,
  saved: usd(200),
};
const cart = {
  id: 'cart_1',
  status: 'active',
  session_id: 'sess_1',
  customer_id: null,
  items: [
    {
      id: 'item_1',
      variant_id: 'var_1',
      product_id: 'prod_1',
      product_name: 'Tee',
      variant_name: 'S',
      sku: 'TEE-S',
      image_url: null,
      quantity: 1,
      unit_price: usd(1999),
      line_discount: usd(200),
      line_total: usd(1799),
      option_values: { Size: 'S' },
      metadata: {},
    },
  ],
  shipping_address: null,
  billing_address: address,
  shipping_method_id: null,
  discount_codes: ['SAVE10'],
  summary: {
    subtotal: usd(1999),
    discount_total: usd(200),
    shipping_total: usd(0),
    tax_total: usd(0),
    total: usd(1799),
    item_count: 1,
    total_quantity: 1,
  },
  applied_discounts: [applied],
  locale: 'ko',
  region_id: null,
  currency: 'USD',
  metadata: {},
  created_at: at,
  updated_at: at,
};
const order = {
  id: 'ord_1',
  number: 1001,
  status: 'pending',
  payment_status: 'unpaid',
  fulfillment_status: 'unfulfilled',
  customer_id: null,
  email: 'ada@example.com',
  shipping_address: address,
  billing_address: null,
  lines: [
    {
      id: 'line_1',
      variant_id: 'var_1',
      product_id: 'prod_1',
      product_name: 'Tee',
      variant_name: 'S',
      sku: null,
      image_url: null,
      quantity: 1,
      fulfilled_quantity: 0,
      refunded_quantity: 0,
      returnable_quantity: 0,
      unit_price: usd(1999),
      line_discount: usd(0),
      line_total: usd(1999),
      tax_amount: usd(0),
      option_values: { Size: 'S' },
    },
  ],
  subtotal: usd(1999),
  discount_total: usd(0),
  shipping_total: usd(500),
  tax_total: usd(0),
  total: usd(2499),
  refunded_total: usd(0),
  applied_discounts: [],
  shipping_method_name: 'Standard',
  note: null,
  payments: [
    {
      id: 'pay_1',
      order_id: 'ord_1',
      provider: 'manual',
      provider_id: null,
      amount: usd(2499),
      status: 'pending',
      note: null,
      metadata: {},
      created_at: at,
    },
  ],
  fulfillments: [
    {
      id: 'ful_1',
      order_id: 'ord_1',
      status: 'shipped',
      tracking_number: '1Z',
      tracking_url: null,
      carrier: 'UPS',
      carrier_code: null,
      lines: [{ order_line_id: 'line_1', quantity: 1 }],
      metadata: {},
      created_at: at,
      shipped_at: at,
      delivered_at: null,
      estimated_delivery: null,
    },
  ],
  refunds: [
    {
      id: 'ref_1',
      order_id: 'ord_1',
      amount: usd(100),
      reason: null,
      restock: false,
      status: 'completed',
      lines: [],
      created_at: at,
    },
  ],
  metadata: {},
  currency: 'USD',
  region_id: 'reg_eu',
  cancel_reason: null,
  created_at: at,
  updated_at: at,
  confirmed_at: null,
  cancelled_at: null,
  completed_at: null,
};
const customer = {
  id: 'cus_1',
  email: 'ada@example.com',
  first_name: 'Ada',
  last_name: null,
  phone: null,
  external_id: null,
  status: 'active',
  total_orders: 2,
  total_spent: usd(5000),
  tags: [],
  addresses: [address],
  metadata: {},
  has_password: false,
  created_at: at,
};
const customerAddress = { ...address, id: 'addr_1', type: 'both', is_default: true, created_at: at };
const discount = {
  id: 'disc_1',
  name: '10%',
  description: null,
  code: 'SAVE10',
  type: 'code',
  value_type: 'percentage',
  value: 10,
  target: 'order',
  usage_limit: null,
  usage_count: 3,
  per_customer_limit: 1,
  minimum_amount: null,
  maximum_discount: usd(5000),
  starts_at: null,
  ends_at: at,
  is_active: true,
  conditions: [{ id: 'cond_1', type: 'product', operator: 'in', values: ['prod_1'] }],
  metadata: {},
  created_at: at,
};
const webhook = {
  id: 'wh_1',
  url: 'https://hooks.example/x',
  events: ['*'],
  is_active: true,
  consecutive_failures: 0,
  metadata: {},
  secret: null,
  created_at: at,
  updated_at: at,
};
const apiKey = {
  id: 'key_1',
  name: null,
  key_prefix: 'sk_test_4fA2',
  key_type: 'secret',
  mode: 'test',
  last_used_at: null,
  expires_at: null,
  created_at: at,
};

const samples: Array<[string, z.ZodType, unknown]> = [
  ['Product', schemas.ProductSchema, product],
  ['Variant', schemas.VariantSchema, variant],
  ['Inventory', schemas.InventorySchema, storefrontInventory],
  [
    'InventoryItem',
    schemas.InventoryItemSchema,
    {
      id: 'inv_1',
      variant_id: 'var_1',
      sku: 'TEE-S',
      track_inventory: true,
      allow_backorder: false,
      safety_stock: 2,
      on_hand: 10,
      reserved: 3,
      available: 7,
      metadata: {},
      levels: [
        { id: 'ilvl_1', location_id: 'sloc_default', on_hand: 10, reserved: 3, available: 7, version: 4 },
      ],
    },
  ],
  ['Cart', schemas.CartSchema, cart],
  ['Order', schemas.OrderSchema, order],
  [
    'CheckoutResult',
    schemas.CheckoutResultSchema,
    { ...order, payment: { client_secret: 'pi_1_secret_x', payment_intent_id: 'pi_1' } },
  ],
  ['Customer', schemas.CustomerSchema, customer],
  ['CustomerAddress', schemas.CustomerAddressSchema, customerAddress],
  ['CustomerAddressList', schemas.CustomerAddressListSchema, { data: [customerAddress] }],
  ['CustomerToken', schemas.CustomerTokenSchema, { token: 'ct_x', customer_id: 'cus_1', expires_at: at }],
  ['Discount', schemas.DiscountSchema, discount],
  [
    'Store',
    schemas.StoreSchema,
    {
      id: 'store_1',
      organization_id: 'org_1',
      name: 'S',
      slug: 's',
      currency: 'USD',
      timezone: 'UTC',
      prices_include_tax: false,
      tax_rate: 8.875,
      return_window_days: null,
      metadata: {},
      created_at: at,
      updated_at: at,
    },
  ],
  [
    'Organization',
    schemas.OrganizationSchema,
    {
      id: 'org_1',
      name: 'Acme',
      plan: 'free',
      billing_email: null,
      metadata: {},
      created_at: at,
      updated_at: at,
    },
  ],
  [
    'ShippingMethod',
    schemas.ShippingMethodSchema,
    {
      id: 'ship_1',
      name: 'Standard',
      description: null,
      price: usd(500),
      free_shipping_threshold: null,
      is_active: true,
      position: 0,
      metadata: {},
      created_at: at,
      updated_at: at,
    },
  ],
  ['Webhook', schemas.WebhookSchema, webhook],
  [
    'WebhookDelivery',
    schemas.WebhookDeliverySchema,
    {
      id: 'whd_1',
      webhook_id: 'wh_1',
      event_id: 'evt_1',
      event_type: 'order.created',
      status: 'pending',
      attempt: 2,
      status_code: 500,
      duration_ms: 120,
      error: 'HTTP 500',
      next_retry_at: at,
      created_at: at,
      updated_at: at,
      attempts: [
        {
          attempt: 1,
          succeeded: false,
          status_code: 503,
          duration_ms: 80,
          error: 'HTTP 503',
          created_at: at,
        },
        {
          attempt: 2,
          succeeded: false,
          status_code: 500,
          duration_ms: 120,
          error: 'HTTP 500',
          created_at: at,
        },
      ],
    },
  ],
  [
    'Notification',
    schemas.NotificationSchema,
    {
      id: 'ntf_1',
      type: 'webhook.deactivated',
      message: 'Webhook deactivated',
      data: { webhook_id: 'wh_1' },
      created_at: at,
    },
  ],
  [
    'WebhookTestResult',
    schemas.WebhookTestResultSchema,
    { success: false, status_code: null, response_time_ms: 10000 },
  ],
  ['ApiKey', schemas.ApiKeySchema, apiKey],
  ['ApiKeyCreated', schemas.ApiKeyCreatedSchema, { ...apiKey, key: 'sk_test_secret' }],
  ['ApiKeyRotated', schemas.ApiKeyRotatedSchema, { id: 'key_1', key: 'sk_test_new' }],
  [
    'Event',
    schemas.EventPayloadSchema,
    {
      id: 'evt_1',
      type: 'order.created',
      created_at: at,
      data: { id: 'ord_1', number: 1001 },
      store_id: 'store_1',
    },
  ],
  ['DeletedResponse', schemas.DeletedResponseSchema, { id: 'prod_1', deleted: true }],
  [
    'Category',
    schemas.CategorySchema,
    {
      id: 'cat_1',
      name: 'Shoes',
      slug: 'shoes',
      description: null,
      parent_id: null,
      position: 0,
      children: [
        {
          id: 'cat_2',
          name: 'Boots',
          slug: 'boots',
          description: 'Leather',
          parent_id: 'cat_1',
          position: 1,
          children: [],
          metadata: {},
          created_at: at,
          updated_at: at,
        },
      ],
      metadata: { menu: true },
      created_at: at,
      updated_at: at,
    },
  ],
  [
    'OrderList',
    schemas.OrderListSchema,
    { data: [order], total_count: 1, has_more: false, next_cursor: null },
  ],
  [
    'ProductList',
    schemas.ProductListSchema,
    { data: [product], total_count: 30, has_more: true, next_cursor: 'prod_1' },
  ],
];

describe('response schemas', () => {
  test.each(samples)(
    '%s: a full sample validates and the schema is named for OpenAPI',
    (id, schema, sample) => {
      const result = schema.safeParse(sample);
      expect(result.error?.issues ?? []).toEqual([]);
      expect(z.globalRegistry.get(schema)?.id).toBe(id);
    },
  );

  test.each(samples.filter(([, , sample]) => !Array.isArray(sample) && typeof sample === 'object'))(
    '%s: every field is required (null, not missing, for absent values)',
    (_id, schema, sample) => {
      for (const key of Object.keys(sample as object)) {
        const { [key]: _removed, ...rest } = sample as Record<string, unknown>;
        expect({ key, ok: schema.safeParse(rest).success }).toEqual({ key, ok: false });
      }
    },
  );

  test('timestamps must be ISO date-times', () => {
    expect(schemas.CustomerSchema.safeParse({ ...customer, created_at: 1714557600000 }).success).toBe(false);
    expect(schemas.CustomerSchema.safeParse({ ...customer, created_at: 'yesterday' }).success).toBe(false);
  });

  test('money amounts must be integers', () => {
    expect(
      schemas.ProductSchema.safeParse({ ...product, price: { amount: 19.99, currency: 'USD' } }).success,
    ).toBe(false);
  });

  test('enums are closed: an unknown order status is refused', () => {
    expect(schemas.OrderSchema.safeParse({ ...order, status: 'shipped' }).success).toBe(false);
  });
});

describe('request body schemas', () => {
  const bodies: Array<[string, z.ZodType]> = [
    ['ProductCreate', schemas.ProductCreateSchema],
    ['ProductUpdate', schemas.ProductUpdateSchema],
    ['VariantCreate', schemas.VariantCreateSchema],
    ['VariantUpdate', schemas.VariantUpdateSchema],
    ['ImageCreate', schemas.ImageCreateSchema],
    ['InventoryUpdate', schemas.InventoryUpdateSchema],
    ['InventoryAdjust', schemas.InventoryAdjustSchema],
    ['CustomerCreate', schemas.CustomerCreateSchema],
    ['CustomerUpdate', schemas.CustomerUpdateSchema],
    ['StorefrontCustomerUpdate', schemas.StorefrontCustomerUpdateSchema],
    ['CustomerAddressCreate', schemas.CustomerAddressCreateSchema],
    ['CustomerAddressUpdate', schemas.CustomerAddressUpdateSchema],
    ['CustomerTokenCreate', schemas.CustomerTokenCreateSchema],
    ['CartCreate', schemas.CartCreateSchema],
    ['CartUpdate', schemas.CartUpdateSchema],
    ['CartItemAdd', schemas.CartItemAddSchema],
    ['CartItemUpdate', schemas.CartItemUpdateSchema],
    ['CartDiscountApply', schemas.CartDiscountApplySchema],
    ['Checkout', schemas.CheckoutSchema],
    ['AdminOrderCreate', schemas.AdminOrderCreateSchema],
    ['AdminOrderUpdate', schemas.AdminOrderUpdateSchema],
    ['OrderCancel', schemas.OrderCancelSchema],
    ['AdminPaymentCreate', schemas.AdminPaymentCreateSchema],
    ['FulfillmentCreate', schemas.FulfillmentCreateSchema],
    ['FulfillmentUpdate', schemas.FulfillmentUpdateSchema],
    ['RefundCreate', schemas.RefundCreateSchema],
    ['DiscountCreate', schemas.DiscountCreateSchema],
    ['DiscountUpdate', schemas.DiscountUpdateSchema],
    ['ShippingMethodCreate', schemas.ShippingMethodCreateSchema],
    ['ShippingMethodUpdate', schemas.ShippingMethodUpdateSchema],
    ['StoreUpdate', schemas.StoreUpdateSchema],
    ['OrganizationUpdate', schemas.OrganizationUpdateSchema],
    ['ApiKeyCreate', schemas.ApiKeyCreateSchema],
    ['WebhookCreate', schemas.WebhookCreateSchema],
    ['WebhookUpdate', schemas.WebhookUpdateSchema],
    ['WebhookTest', schemas.WebhookTestSchema],
    ['CartMerge', schemas.CartMergeSchema],
  ];

  test.each(bodies)(
    '%s is strict (an unknown field is listed as parameter_unknown) and named',
    (id, schema) => {
      const error = inputErrorOf(schema, { zz_unknown: 1 });
      expect(error.details).toContainEqual({
        param: 'zz_unknown',
        message: 'Received unknown parameter: zz_unknown',
      });
      expect(z.globalRegistry.get(schema)?.id).toBe(id);
    },
  );

  test('OpenAPI ids are unique across all exported schemas', () => {
    const exported: unknown[] = Object.values(schemas);
    const ids = exported
      .filter((value): value is z.ZodType => value instanceof z.ZodType)
      .map((schema) => z.globalRegistry.get(schema)?.id)
      .filter((id): id is string => id !== undefined);
    expect(ids.length).toBeGreaterThan(60);
    expect(new Set(ids).size).toBe(ids.length);
  });
});
