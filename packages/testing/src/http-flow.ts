import { expect } from 'vitest';

/**
 * HTTP smoke checks for a mounted `/v1` API, shared by the framework examples' tests (and usable
 * by a host app's own): a whole storefront checkout over real HTTP, and the API's error format.
 * `@cartwright/testing/http` — needs vitest (it asserts with `expect`).
 */

/** The test keys registered on the engine behind `baseUrl`. */
export interface FlowKeys {
  secret: string;
  publishable: string;
}

/** A response as the tests read it. */
export interface Reply {
  status: number;
  // biome-ignore lint/suspicious/noExplicitAny: JSON bodies of many shapes, checked field by field.
  body: any;
}

/** Real HTTP with fetch: `key` is sent as the Bearer token (`null`: no Authorization header). */
export function client(baseUrl: string) {
  return async (method: string, path: string, key: string | null, body?: unknown): Promise<Reply> => {
    const headers: Record<string, string> = {};
    if (key !== null) headers.authorization = `Bearer ${key}`;
    if (body !== undefined) headers['content-type'] = 'application/json';
    const response = await fetch(baseUrl + path, {
      method,
      headers,
      ...(body !== undefined && { body: typeof body === 'string' ? body : JSON.stringify(body) }),
    });
    const text = await response.text();
    return { status: response.status, body: text === '' ? null : JSON.parse(text) };
  };
}

/**
 * The walk every example's test takes: read the store, create a product (secret key), put two of
 * it in a guest cart and check out (publishable key, manual payment), then mark the payment
 * received (secret key) and see the order confirmed.
 */
export async function storeToCheckout(baseUrl: string, keys: FlowKeys): Promise<void> {
  const { secret: SECRET_KEY, publishable: PUBLISHABLE_KEY } = keys;
  const call = client(baseUrl);

  const store = await call('GET', '/v1/admin/store', SECRET_KEY);
  expect(store.status).toBe(200);
  expect(store.body.currency).toBe('USD');

  const product = await call('POST', '/v1/admin/products', SECRET_KEY, {
    name: 'Tee',
    status: 'active',
    variants: [{ sku: 'TEE-M', price: 2500, inventory: { on_hand: 10 } }],
  });
  expect(product.status).toBe(200);
  const variantId: string = product.body.variants[0].id;

  const cart = await call('POST', '/v1/storefront/carts', PUBLISHABLE_KEY, {
    session_id: 'session-1',
    items: [{ variant_id: variantId, quantity: 2 }],
  });
  expect(cart.status).toBe(200);
  expect(cart.body.summary.total).toEqual({ amount: 5000, currency: 'USD' });

  const order = await call('POST', `/v1/storefront/carts/${cart.body.id}/checkout`, PUBLISHABLE_KEY, {
    email: 'ada@example.com',
    payment_provider: 'manual',
    shipping_address: {
      name: 'Ada Lovelace',
      line1: '1 Test Street',
      city: 'London',
      postal_code: 'EC1A 1BB',
      country: 'GB',
    },
  });
  expect(order.status).toBe(201);
  expect(order.body).toMatchObject({ number: 1001, status: 'pending', payment_status: 'unpaid' });
  expect(order.body.total).toEqual({ amount: 5000, currency: 'USD' });

  const payment = await call('POST', `/v1/admin/payments/${order.body.payments[0].id}/complete`, SECRET_KEY);
  expect(payment.status).toBe(200);
  const confirmed = await call('GET', `/v1/admin/orders/${order.body.id}`, SECRET_KEY);
  expect([confirmed.body.status, confirmed.body.payment_status]).toEqual(['confirmed', 'paid']);

  const stock = await call('GET', `/v1/admin/inventory/${product.body.variants[0].inventory.id}`, SECRET_KEY);
  expect([stock.body.on_hand, stock.body.reserved, stock.body.available]).toEqual([10, 2, 8]);
}

/** The API's own errors come through the mount unchanged (docs/contract.md#keys-and-modes, #errors). */
export async function errorsKeepTheirFormat(baseUrl: string, keys: FlowKeys): Promise<void> {
  const { secret: SECRET_KEY, publishable: PUBLISHABLE_KEY } = keys;
  const call = client(baseUrl);
  const cases: Array<[Reply, number, string]> = [
    [await call('GET', '/v1/admin/store', null), 401, 'unauthenticated'],
    [await call('GET', '/v1/admin/store', PUBLISHABLE_KEY), 403, 'forbidden'],
    [await call('GET', '/v1/admin/nothing-here', SECRET_KEY), 404, 'route_not_found'],
    [await call('POST', '/v1/admin/products', SECRET_KEY, '{"name": '), 400, 'invalid_json'],
    [await call('POST', '/v1/admin/products', SECRET_KEY, {}), 400, 'parameter_missing'],
  ];
  for (const [reply, status, code] of cases) {
    expect([reply.status, reply.body?.error?.code]).toEqual([status, code]);
    expect(reply.body.error.request_id).toMatch(/^req_/);
  }
}
