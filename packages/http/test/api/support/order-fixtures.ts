import { expect } from 'vitest';
import type { ApiResponse, TestApi } from './harness';

/**
 * Fixtures for the order-area API tests. Everything is created through the admin and storefront
 * HTTP endpoints, as a client would, so the tests exercise the whole engine.
 */

export const ADDRESS = {
  name: 'Ada Lovelace',
  line1: '12 St James Square',
  city: 'London',
  postal_code: 'SW1Y 4JH',
  country: 'GB',
} as const;

let counter = 0;
/** A short unique suffix for names, SKUs and e-mails within one test run. */
export function unique(prefix = 'x'): string {
  counter += 1;
  return `${prefix}${Date.now().toString(36)}${counter}`;
}

/** Asserts a status, showing the body when it differs (much easier to debug than a bare number). */
export function expectStatus<T>(res: ApiResponse<T>, status: number): ApiResponse<T> {
  if (res.status !== status) {
    throw new Error(`expected HTTP ${status}, got ${res.status}: ${JSON.stringify(res.body)}`);
  }
  return res;
}

/** Asserts an error response: status, `error.code` and, when given, `error.param`. */
export function expectError(res: ApiResponse, status: number, code: string, param?: string): void {
  expect({ status: res.status, code: res.body?.error?.code }).toEqual({ status, code });
  if (param !== undefined) expect(res.body.error.param).toBe(param);
}

export interface ProductOptions {
  price?: number;
  on_hand?: number;
  track_inventory?: boolean;
  allow_backorder?: boolean;
  safety_stock?: number;
  type?: 'physical' | 'digital' | 'service' | 'bundle';
  status?: 'draft' | 'active' | 'archived';
  name?: string;
  tags?: string[];
}

export interface CreatedProduct {
  product_id: string;
  variant_id: string;
  inventory_id: string;
  sku: string;
  name: string;
  price: number;
}

/** Creates an active product with one variant (and its inventory) through `POST /v1/admin/products`. */
export async function createProduct(api: TestApi, options: ProductOptions = {}): Promise<CreatedProduct> {
  const name = options.name ?? unique('Product ');
  const sku = unique('SKU-');
  const price = options.price ?? 1000;
  const res = expectStatus(
    await api.post('/v1/admin/products', {
      name,
      type: options.type ?? 'physical',
      status: options.status ?? 'active',
      tags: options.tags ?? [],
      variants: [
        {
          sku,
          price,
          inventory: {
            track_inventory: options.track_inventory ?? true,
            allow_backorder: options.allow_backorder ?? false,
            safety_stock: options.safety_stock ?? 0,
            on_hand: options.on_hand ?? 100,
          },
        },
      ],
    }),
    200,
  );
  const variant = res.body.variants[0];
  return {
    product_id: res.body.id,
    variant_id: variant.id,
    inventory_id: variant.inventory.id,
    sku,
    name,
    price,
  };
}

/** The admin view of a variant's inventory. */
export async function inventoryOf(api: TestApi, inventoryId: string) {
  return expectStatus(await api.get(`/v1/admin/inventory/${inventoryId}`), 200).body as {
    on_hand: number;
    reserved: number;
    available: number;
  };
}

/** Creates a customer and a customer token for it. */
export async function createCustomer(api: TestApi, email = `${unique('c')}@example.com`) {
  const customer = expectStatus(
    await api.post('/v1/admin/customers', { email, first_name: 'Grace', last_name: 'Hopper' }),
    200,
  ).body;
  const token = expectStatus(await api.post(`/v1/admin/customers/${customer.id}/token`, {}), 200).body
    .token as string;
  return { id: customer.id as string, email, token };
}

/**
 * A fixed-amount code discount created through the admin API: `amount` off (default 500), with an
 * optional `usage_limit`. The code is unique per call (upper case, starting with `prefix`).
 */
export async function createCodeDiscount(
  api: TestApi,
  options: { amount?: number; usage_limit?: number; prefix?: string } = {},
): Promise<{ id: string; code: string }> {
  const code = unique(options.prefix ?? 'CODE').toUpperCase();
  const discount = expectStatus(
    await api.post('/v1/admin/discounts', {
      name: `${options.amount ?? 500} off`,
      code,
      type: 'code',
      value_type: 'fixed',
      value: options.amount ?? 500,
      ...(options.usage_limit !== undefined && { usage_limit: options.usage_limit }),
    }),
    200,
  ).body as { id: string };
  return { id: discount.id, code };
}

export interface CartLine {
  variant_id: string;
  quantity?: number;
}

/** Creates a storefront cart with items (publishable key; with a token it is the customer's). */
export async function createCart(
  api: TestApi,
  items: CartLine[],
  options: {
    customerToken?: string;
    shipping_address?: typeof ADDRESS | null;
    shipping_method_id?: string;
  } = {},
) {
  const cart = expectStatus(
    await api.storefront.post(
      '/v1/storefront/carts',
      {
        items: items.map((i) => ({ variant_id: i.variant_id, quantity: i.quantity ?? 1 })),
        ...(options.shipping_address !== null && { shipping_address: options.shipping_address ?? ADDRESS }),
      },
      options.customerToken ? { customerToken: options.customerToken } : {},
    ),
    200,
  ).body;
  if (options.shipping_method_id) {
    expectStatus(
      await api.storefront.patch(
        `/v1/storefront/carts/${cart.id}`,
        { shipping_method_id: options.shipping_method_id },
        options.customerToken ? { customerToken: options.customerToken } : {},
      ),
      200,
    );
  }
  return cart as { id: string; summary: { total: { amount: number } } };
}

/** Checks a cart out with the manual provider (publishable key). Returns the raw response. */
export function checkout(
  api: TestApi,
  cartId: string,
  body: Record<string, unknown> = { email: 'guest@example.com', payment_provider: 'manual' },
  options: { customerToken?: string; idempotencyKey?: string; key?: string } = {},
) {
  return api.request('POST', `/v1/storefront/carts/${cartId}/checkout`, {
    key: options.key ?? api.keys.publishable,
    body,
    ...(options.customerToken && { customerToken: options.customerToken }),
    ...(options.idempotencyKey && { idempotencyKey: options.idempotencyKey }),
  });
}

/** A guest cart of `items` checked out with the manual provider: the new (pending) order. */
export async function placeOrder(api: TestApi, items: CartLine[], email = 'guest@example.com') {
  const cart = await createCart(api, items);
  return expectStatus(await checkout(api, cart.id, { email, payment_provider: 'manual' }), 201).body;
}

/** Completes an order's pending payment (a manual checkout's), making it paid and confirmed. */
export async function payOrder(api: TestApi, order: { id: string; payments: Array<{ id: string }> }) {
  const paymentId = order.payments[0]?.id;
  if (!paymentId) throw new Error('order has no payment');
  expectStatus(await api.post(`/v1/admin/payments/${paymentId}/complete`), 200);
  return expectStatus(await api.get(`/v1/admin/orders/${order.id}`), 200).body;
}

/** The order as the admin API shows it now. */
export async function orderOf(api: TestApi, orderId: string) {
  return expectStatus(await api.get(`/v1/admin/orders/${orderId}`), 200).body;
}

/** A manual payment of `amount` (provider `cash`) on an order. */
export async function payCash(api: TestApi, orderId: string, amount: number): Promise<void> {
  expectStatus(await api.post(`/v1/admin/orders/${orderId}/payments`, { amount, provider: 'cash' }), 200);
}

type OrderWithLines = { id: string; lines: Array<{ id: string }> };

/** A fulfillment of `quantity` units of the order's first line, not shipped yet. */
export async function fulfill(api: TestApi, order: OrderWithLines, quantity: number) {
  return expectStatus(
    await api.post(`/v1/admin/orders/${order.id}/fulfillments`, {
      lines: [{ order_line_id: order.lines[0]!.id, quantity }],
    }),
    200,
  ).body;
}

/** Ships a fulfillment. */
export async function ship(api: TestApi, fulfillmentId: string): Promise<void> {
  expectStatus(await api.post(`/v1/admin/fulfillments/${fulfillmentId}/ship`), 200);
}

/** Refunds `quantity` units of the order's first line with restock. */
export async function refundRestock(api: TestApi, order: OrderWithLines, quantity: number): Promise<void> {
  expectStatus(
    await api.post(`/v1/admin/orders/${order.id}/refunds`, {
      lines: [{ order_line_id: order.lines[0]!.id, quantity }],
      restock: true,
    }),
    200,
  );
}

/** Creates an admin order (default draft) for `lines`. */
export async function adminOrder(api: TestApi, lines: CartLine[], body: Record<string, unknown> = {}) {
  return api.post('/v1/admin/orders', {
    email: 'admin-order@example.com',
    lines: lines.map((l) => ({ variant_id: l.variant_id, quantity: l.quantity ?? 1 })),
    shipping_address: ADDRESS,
    ...body,
  });
}

/**
 * Records the events the engine publishes after commit; `typesFor(id)` lists the types of those
 * about one resource (its `data.id`, or `data.order_id`), in order.
 */
export function recordEvents(api: TestApi) {
  const seen: Array<{ type: string; data: Record<string, unknown> }> = [];
  const off = api.engine.events.on('*', (event) => {
    seen.push({ type: event.type, data: event.data });
  });
  return {
    seen,
    typesFor(id: string) {
      return seen.filter((e) => e.data.id === id || e.data.order_id === id).map((e) => e.type);
    },
    stop: off,
  };
}

/** `{ 201: 5, 422: 35 }`-style tally of response statuses. */
export function tally(responses: readonly ApiResponse[]): Record<number, number> {
  const counts: Record<number, number> = {};
  for (const r of responses) counts[r.status] = (counts[r.status] ?? 0) + 1;
  return counts;
}
