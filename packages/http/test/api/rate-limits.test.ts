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

/** A 429 in the documented shape (docs/contract.md#errors, #rate-limits) with Retry-After and the RateLimit-* headers. */
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

/** The engine clock of the sign-in block: real time plus an offset the test advances. */
let signInOffsetMs = 0;
const signInClock = { now: () => Date.now() + signInOffsetMs };
let signInCounter = 0;
const someEmail = (name: string) => `${name}.${Date.now().toString(36)}.${++signInCounter}@example.com`;

describeApi(
  'rate limits: customer sign-in, per client address and per e-mail (decisions §15, §16)',
  (api) => {
    const from = (address: string, extra: Record<string, unknown> = {}) => ({
      headers: { 'x-forwarded-for': address },
      ...extra,
    });
    const login = (address: string, email: string, password: string, extra: Record<string, unknown> = {}) =>
      api().storefront.post('/v1/storefront/customer-auth/login', { email, password }, from(address, extra));

    it('register, sign-in and both reset routes share one per-address budget; the 4th attempt from an address is 429', async () => {
      const address = '203.0.113.50';
      const newcomer = someEmail('new');
      for (let i = 0; i < 3; i++) {
        const res = await login(address, someEmail('guess'), 'wrong password');
        expectError(res, 401, 'invalid_credentials');
        expect(limitsOf(res)).toMatchObject({ limit: 3, remaining: 2 - i });
      }
      expectRateLimited(await login(address, someEmail('guess'), 'wrong password'), 3);
      const routes: [string, unknown][] = [
        ['/v1/storefront/customer-auth/register', { email: newcomer, password: 'a good password' }],
        ['/v1/storefront/customers/password-reset', { email: someEmail('reset') }],
        [
          '/v1/storefront/customers/password-reset/confirm',
          { token: 'prt_guess', new_password: 'a good password' },
        ],
      ];
      for (const [path, body] of routes) {
        expectRateLimited(await api().storefront.post(path, body, from(address)), 3);
      }
      // Nothing was registered from the refused request; other routes and other addresses still answer.
      const registered = await api().get(`/v1/admin/customers?q=${encodeURIComponent(newcomer)}`);
      expect(registered.body.data).toEqual([]);
      expect((await api().storefront.get('/v1/storefront/products', from(address))).status).toBe(200);
      expectError(
        await login('203.0.113.51', someEmail('guess'), 'wrong password'),
        401,
        'invalid_credentials',
      );
    });

    it('sign-in and reset requests for one e-mail share its budget across addresses; a refusal is never stored under an Idempotency-Key', async () => {
      const victim = someEmail('victim');
      const registered = await api().storefront.post(
        '/v1/storefront/customer-auth/register',
        { email: victim, password: 'the right password' },
        from('198.51.100.1'),
      );
      expect(registered.status, JSON.stringify(registered.body)).toBe(200);
      // Three guesses from three addresses: each address has budget left, the e-mail does not.
      for (let i = 0; i < 3; i++) {
        const res = await login(`198.51.100.${10 + i}`, victim, `guess ${i}`);
        expectError(res, 401, 'invalid_credentials');
        // The headers show the tightest budget: the e-mail's.
        expect(limitsOf(res)).toMatchObject({ limit: 3, remaining: 2 - i });
      }
      expectRateLimited(await login('198.51.100.20', victim, 'guess 3'), 3);
      // Compared case-insensitively; the right password too is refused until the window ends.
      expectRateLimited(await login('198.51.100.21', victim.toUpperCase(), 'guess 4'), 3);
      const keyed = await login('198.51.100.22', victim, 'the right password', {
        idempotencyKey: 'signin-1',
      });
      expectRateLimited(keyed, 3);
      // A reset request for that e-mail counts in the same budget (docs/contract.md#sign-in: sign-in and reset).
      expectRateLimited(
        await api().storefront.post(
          '/v1/storefront/customers/password-reset',
          { email: victim },
          from('198.51.100.23'),
        ),
        3,
      );
      // Another e-mail from an address that was refused for the victim still gets its answer.
      expectError(await login('198.51.100.20', someEmail('other'), 'guess'), 401, 'invalid_credentials');

      signInOffsetMs += 3_600_000;
      try {
        // The same Idempotency-Key and body: the 429 was not stored, the request runs.
        const retried = await login('198.51.100.22', victim, 'the right password', {
          idempotencyKey: 'signin-1',
        });
        expect(retried.status, JSON.stringify(retried.body)).toBe(200);
        expect(retried.headers.get('idempotent-replayed')).toBeNull();
        expect(retried.body.token).toMatch(/^ct_/);
        expect(limitsOf(retried)).toMatchObject({ limit: 3, remaining: 2 });
      } finally {
        signInOffsetMs = 0;
      }
    });
  },
  {
    clock: signInClock,
    rateLimits: { sign_in: { limit: 3, window_seconds: 3600 } },
    passwordHashing: { ln: 10, r: 8, p: 1 },
  },
  { trustProxy: true },
);
