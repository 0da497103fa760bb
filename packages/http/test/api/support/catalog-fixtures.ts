import type { Cart } from '@cartwright/core';
import { expect } from 'vitest';
import type { TestApi } from './harness';

/**
 * Small fixtures for cart, discount and pricing API tests, created through the real admin HTTP
 * endpoints (products, shipping methods, customers, tokens, discounts). Every fixture gets unique
 * names, slugs and SKUs, so tests of one block share a database without clashing.
 */
let counter = 0;
const unique = (prefix: string) => `${prefix}-${Date.now().toString(36)}-${(counter++).toString(36)}`;

export interface VariantFixture {
  price: number;
  sku?: string;
  is_active?: boolean;
  inventory?: {
    track_inventory?: boolean;
    allow_backorder?: boolean;
    on_hand?: number;
    safety_stock?: number;
  };
}

export interface ProductFixture {
  product_id: string;
  variant_ids: string[];
  /** The first variant. */
  variant_id: string;
}

/** Creates an active product (by default) with one variant per entry of `variants`. */
export async function createProduct(
  api: TestApi,
  options: {
    variants?: VariantFixture[];
    price?: number;
    on_hand?: number;
    tags?: string[];
    status?: 'draft' | 'active' | 'archived';
    type?: 'physical' | 'digital' | 'service' | 'bundle';
    name?: string;
  } = {},
): Promise<ProductFixture> {
  const name = options.name ?? unique('Product');
  const variants = options.variants ?? [
    { price: options.price ?? 1000, inventory: { track_inventory: true, on_hand: options.on_hand ?? 100 } },
  ];
  const res = await api.post('/v1/admin/products', {
    name,
    slug: unique('product').toLowerCase(),
    status: options.status ?? 'active',
    type: options.type ?? 'physical',
    tags: options.tags ?? [],
    ...(variants.length > 1 && {
      options: [{ name: 'Size', values: variants.map((_, index) => `S${index}`) }],
    }),
    variants: variants.map((variant, index) => ({
      sku: variant.sku ?? unique('SKU'),
      price: variant.price,
      ...(variant.is_active !== undefined && { is_active: variant.is_active }),
      ...(variant.inventory !== undefined && { inventory: variant.inventory }),
      ...(variants.length > 1 && { options: { Size: `S${index}` } }),
    })),
  });
  expect(res.status, JSON.stringify(res.body)).toBe(200);
  const variant_ids = (res.body.variants as Array<{ id: string }>).map((variant) => variant.id);
  return { product_id: res.body.id, variant_ids, variant_id: variant_ids[0] as string };
}

/** Creates a shipping method; returns its id. */
export async function createShippingMethod(
  api: TestApi,
  options: { price: number; free_shipping_threshold?: number | null; is_active?: boolean },
): Promise<string> {
  const res = await api.post('/v1/admin/shipping-methods', {
    name: unique('Shipping'),
    price: options.price,
    ...(options.free_shipping_threshold !== undefined && {
      free_shipping_threshold: options.free_shipping_threshold,
    }),
    ...(options.is_active !== undefined && { is_active: options.is_active }),
  });
  expect(res.status, JSON.stringify(res.body)).toBe(200);
  return res.body.id;
}

/** Creates a customer and issues a token for them. */
export async function createCustomerWithToken(
  api: TestApi,
  options: { tags?: string[]; email?: string } = {},
): Promise<{ customer_id: string; token: string; email: string }> {
  const email = options.email ?? `${unique('buyer')}@example.com`.toLowerCase();
  const customer = await api.post('/v1/admin/customers', { email, tags: options.tags ?? [] });
  expect(customer.status, JSON.stringify(customer.body)).toBe(200);
  const token = await api.post(`/v1/admin/customers/${customer.body.id}/token`, {});
  expect(token.status, JSON.stringify(token.body)).toBe(200);
  return { customer_id: customer.body.id, token: token.body.token, email };
}

/** Creates a discount through the admin API (a unique code when `type` is `code` and none is given). */
export async function createDiscount(
  api: TestApi,
  body: Record<string, unknown>,
): Promise<{ id: string; code: string | null }> {
  const type = body.type ?? 'code';
  const res = await api.post('/v1/admin/discounts', {
    name: unique('Discount'),
    ...(type === 'code' && body.code === undefined && { code: unique('CODE').toUpperCase() }),
    ...body,
  });
  expect(res.status, JSON.stringify(res.body)).toBe(200);
  return { id: res.body.id, code: res.body.code };
}

/** Creates a guest cart (publishable key) with the given items; returns the response body. */
export async function createCart(
  api: TestApi,
  body: Record<string, unknown> = {},
  options: { customerToken?: string; key?: string } = {},
): Promise<Cart> {
  const res = await api.storefront.post('/v1/storefront/carts', body, options);
  expect(res.status, JSON.stringify(res.body)).toBe(200);
  return res.body;
}

/** Sets the store's tax settings (shared by both modes), through the admin API. */
export async function setTax(api: TestApi, tax_rate: number, prices_include_tax: boolean): Promise<void> {
  const res = await api.patch('/v1/admin/store', { tax_rate, prices_include_tax });
  expect(res.status, JSON.stringify(res.body)).toBe(200);
}

/** A Money object in the test store's currency (USD). */
export const usd = (amount: number) => ({ amount, currency: 'USD' });

/**
 * A code discount whose usage limit is already used up (usage_count = usage_limit = 1), written
 * straight to storage: usage is only counted by checkout, which these tests do not depend on.
 */
export async function insertUsedUpDiscount(api: TestApi): Promise<string> {
  const now = Date.now();
  const code = unique('USEDUP').toUpperCase();
  await api.engine.storage.transaction((tx) =>
    tx.discounts.insert({
      id: api.engine.context.ids.next('disc'),
      store_id: api.scope.store_id,
      mode: api.scope.mode,
      name: 'Used up',
      description: null,
      code,
      type: 'code',
      value_type: 'fixed',
      value: 100,
      target: 'order',
      usage_limit: 1,
      usage_count: 1,
      per_customer_limit: null,
      minimum_amount: null,
      maximum_discount: null,
      currency: 'USD',
      starts_at: null,
      ends_at: null,
      is_active: true,
      conditions: [],
      metadata: {},
      created_at: now,
      updated_at: now,
    }),
  );
  return code;
}

/** The cart's item at `index` (fails the test when there is none). */
export function itemAt(cart: Pick<Cart, 'items'>, index: number): Cart['items'][number] {
  const item = cart.items[index];
  if (!item) throw new Error(`cart has no item at ${index}`);
  return item;
}
