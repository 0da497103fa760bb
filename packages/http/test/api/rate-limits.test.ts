import { DEFAULT_RATE_LIMITS } from '@cartwright/core';
import { expect, it } from 'vitest';
import { type ApiResponse, describeApi } from './support/harness';
import { expectError } from './support/order-fixtures';

/** The RateLimit-* headers of a response, as numbers. */
function limitsOf(res: ApiResponse): { limit: number; remaining: number; reset: number } {
  return {
    limit: Number(res.headers.get('ratelimit-limit')),
    remaining: Number(res.headers.get('ratelimit-remaining')),
    reset: Number(res.headers.get('ratelimit-reset')),
  };
}

/** A 429 in the documented shape (decisions §4, §15) with Retry-After and the RateLimit-* headers. */
function expectRateLimited(res: ApiResponse, limit: number): void {
  expectError(res, 429, 'rate_limited');
  expect(res.body.error.type).toBe('rate_limit_error');
  expect(res.body.error.message).toMatch(/Too many requests/);
  expect(Number(res.headers.get('retry-after'))).toBeGreaterThanOrEqual(1);
  expect(limitsOf(res)).toMatchObject({ limit, remaining: 0 });
  expect(res.headers.get('request-id')).toMatch(/^req_/);
}

describeApi('rate limits: the defaults', (api) => {
  it('every authenticated response carries the caller budget: per secret key, per publishable key and address', async () => {
    const first = await api().get('/v1/admin/products');
    expect(first.status).toBe(200);
    // A token bucket: one request takes one token; it refills at limit / window (1 per ms here).
    const secretLimit = DEFAULT_RATE_LIMITS.secret_key.limit;
    expect(limitsOf(first)).toMatchObject({ limit: secretLimit, remaining: secretLimit - 1 });
    expect(limitsOf(first).reset).toBeLessThanOrEqual(1);
    const storefront = await api().storefront.get('/v1/storefront/products');
    const publishableLimit = DEFAULT_RATE_LIMITS.publishable_key.limit;
    expect(limitsOf(storefront)).toMatchObject({ limit: publishableLimit, remaining: publishableLimit - 1 });
    expect(storefront.headers.get('x-content-type-options')).toBe('nosniff');
    // Errors after authentication carry them too.
    const missing = await api().get('/v1/admin/products/prod_missing');
    expect(missing.status).toBe(404);
    expect(limitsOf(missing).limit).toBe(DEFAULT_RATE_LIMITS.secret_key.limit);
  });

  it('a failed authentication is counted against the address: 401 with the failed_auth budget', async () => {
    const res = await api().get('/v1/admin/products', { key: 'sk_test_wrongwrongwrongwrong' });
    expectError(res, 401, 'invalid_api_key');
    expect(limitsOf(res).limit).toBe(DEFAULT_RATE_LIMITS.failed_auth.limit);
  });
});

describeApi(
  'rate limits: a secret key over its budget',
  (api) => {
    it('the 4th request in the window is refused with 429 and changes nothing', async () => {
      const before = await api().get('/v1/admin/products?limit=1');
      expect(before.status).toBe(200);
      for (let i = 0; i < 2; i++) {
        expect(
          (await api().post('/v1/admin/products', { name: `Tee ${i}`, variants: [{ price: 100 }] })).status,
        ).toBe(200);
      }
      const refused = await api().post('/v1/admin/products', { name: 'Refused', variants: [{ price: 100 }] });
      expectRateLimited(refused, 3);
      // Refused before anything ran: no "Refused" product exists, and the other keys still answer.
      const products = await api().engine.forStore(api().scope).products.list({ limit: 100 });
      expect(products.data.map((p) => p.name).sort()).toEqual(['Tee 0', 'Tee 1']);
      expect((await api().storefront.get('/v1/storefront/products')).status).toBe(200);
    });
  },
  { rateLimits: { secret_key: { limit: 3, window_seconds: 3600 } } },
);

describeApi(
  'rate limits: a publishable key is counted per client address',
  (api) => {
    const from = (address: string) => ({ headers: { 'x-forwarded-for': address } });
    it('one address over its budget does not spend another address’s', async () => {
      for (let i = 0; i < 2; i++) {
        expect((await api().storefront.get('/v1/storefront/products', from('203.0.113.10'))).status).toBe(
          200,
        );
      }
      expectRateLimited(await api().storefront.get('/v1/storefront/products', from('203.0.113.10')), 2);
      // A POST is refused before its body is read or its effect happens.
      expectRateLimited(await api().storefront.post('/v1/storefront/carts', {}, from('203.0.113.10')), 2);
      const other = await api().storefront.get('/v1/storefront/products', from('203.0.113.11'));
      expect(other.status).toBe(200);
      expect(limitsOf(other)).toMatchObject({ limit: 2, remaining: 1 });
      // The secret key has its own budget (off here).
      const admin = await api().get('/v1/admin/carts?limit=1');
      expect(admin.headers.get('ratelimit-limit')).toBeNull();
    });

    it('X-Forwarded-For counts only with trustProxy: the address is the right-most hop the proxy added', async () => {
      // One trusted proxy: the client is the last address, whatever the client wrote before it.
      const spoofed = { headers: { 'x-forwarded-for': '198.51.100.1, 203.0.113.20' } };
      const spoofed2 = { headers: { 'x-forwarded-for': '198.51.100.2, 203.0.113.20' } };
      expect((await api().storefront.get('/v1/storefront/products', spoofed)).status).toBe(200);
      expect((await api().storefront.get('/v1/storefront/products', spoofed2)).status).toBe(200);
      expectRateLimited(await api().storefront.get('/v1/storefront/products', spoofed), 2);
    });
  },
  { rateLimits: { publishable_key: { limit: 2, window_seconds: 3600 }, secret_key: false } },
  { trustProxy: 1 },
);

describeApi(
  'rate limits: failed authentication per address, shared in the database',
  (api) => {
    const from = (address: string, key: string | null) => ({ key, headers: { 'x-forwarded-for': address } });
    it('the 4th failure from one address is 429; another address still gets 401; a valid key still works', async () => {
      const address = '203.0.113.30';
      expectError(
        await api().get('/v1/admin/products', from(address, 'sk_test_guess000000000001')),
        401,
        'invalid_api_key',
      );
      expectError(await api().get('/v1/admin/products', from(address, null)), 401, 'unauthenticated');
      expectError(
        await api().storefront.get('/v1/storefront/customers/me', {
          ...from(address, api().keys.publishable),
          customerToken: 'cust_tok_nope',
        }),
        401,
        'invalid_customer_token',
      );
      expectRateLimited(await api().get('/v1/admin/products', from(address, 'sk_test_guess000000000002')), 3);
      expectError(
        await api().get('/v1/admin/products', from('203.0.113.31', 'sk_test_guess000000000003')),
        401,
        'invalid_api_key',
      );
      expect((await api().get('/v1/admin/products', from(address, api().keys.secret))).status).toBe(200);
    });
  },
  { rateLimits: { failed_auth: { limit: 3, window_seconds: 3600 } } },
  { trustProxy: true },
);

describeApi(
  'rate limits: the guest order look-up has a stricter per-address limit',
  (api) => {
    it('the 3rd look-up from one address in the window is 429, found or not', async () => {
      const from = { headers: { 'x-forwarded-for': '203.0.113.40' } };
      const path = '/v1/storefront/orders/lookup?number=1001&email=nobody%40example.com';
      expectError(await api().storefront.get(path, from), 404, 'not_found');
      const second = await api().storefront.get(path, from);
      expectError(second, 404, 'not_found');
      expect(limitsOf(second)).toMatchObject({ limit: 2, remaining: 0 });
      expectRateLimited(await api().storefront.get(path, from), 2);
      // Other storefront routes from that address are not affected.
      expect((await api().storefront.get('/v1/storefront/products', from)).status).toBe(200);
      expectError(
        await api().storefront.get(path, { headers: { 'x-forwarded-for': '203.0.113.41' } }),
        404,
        'not_found',
      );
    });
  },
  { rateLimits: { order_lookup: { limit: 2, window_seconds: 3600 } } },
  { trustProxy: true },
);
