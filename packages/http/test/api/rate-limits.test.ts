import { DEFAULT_RATE_LIMITS } from '@cartwright/core';
import { expect, it } from 'vitest';
import { type ApiResponse, describeApi, type TestApi } from './support/harness';
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

    it('X-Forwarded-For spellings of one address share one budget: port, leading zeros, brackets, expanded or IPv4-mapped', async () => {
      const products = (address: string) => api().storefront.get('/v1/storefront/products', from(address));
      // 203.0.113.30: with a port, then with leading zeros; every other spelling is then refused.
      expect((await products('203.0.113.30:5678')).status).toBe(200);
      expect((await products('203.000.113.030')).status).toBe(200);
      for (const spelling of [
        '203.0.113.30',
        '::ffff:203.0.113.30',
        '[::FFFF:203.0.113.30]:443',
        '::ffff:cb00:711e',
      ])
        expectRateLimited(await products(spelling), 2);
      // 2001:db8:7:30::1 (counted by its /64): bracketed with a port, then expanded with zeros.
      expect((await products('[2001:db8:7:30::1]:8443')).status).toBe(200);
      expect((await products('2001:0DB8:0007:0030:0000:0000:0000:0001')).status).toBe(200);
      expectRateLimited(await products('2001:db8:7:30::1'), 2);
      expectRateLimited(await products('[2001:db8:7:30:0::1]'), 2);
      // Another address is untouched.
      expect((await products('203.0.113.31:5678')).status).toBe(200);
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

/** The engine clock of the customer-account blocks: real time plus an offset the test advances. */
let signInOffsetMs = 0;
const signInClock = { now: () => Date.now() + signInOffsetMs };
let signInCounter = 0;
const someEmail = (name: string) => `${name}.${Date.now().toString(36)}.${++signInCounter}@example.com`;

const REGISTER = '/v1/storefront/customer-auth/register';
const LOGIN = '/v1/storefront/customer-auth/login';
const PASSWORD_CHANGE = '/v1/storefront/customers/me/password';
const RESET = '/v1/storefront/customers/password-reset';
const RESET_CONFIRM = '/v1/storefront/customers/password-reset/confirm';
const RIGHT = 'the right password';

/** The engine options of the customer-account blocks: 3 failures an hour, cheap hashing, the movable clock. */
const ACCOUNT_LIMITS = {
  clock: signInClock,
  rateLimits: { sign_in: { limit: 3, window_seconds: 3600 } },
  passwordHashing: { ln: 10, r: 8, p: 1 },
};

/** Runs `fn` with the engine clock an hour and a bit later (the next window of every account limit). */
async function anHourLater<T>(fn: () => Promise<T>): Promise<T> {
  signInOffsetMs += 3_700_000;
  try {
    return await fn();
  } finally {
    signInOffsetMs = 0;
  }
}

/** Requests sent from `address` (X-Forwarded-For, the harness trusts it), with the publishable key unless told. */
function accountCalls(api: () => TestApi) {
  const from = (address: string, extra: Record<string, unknown> = {}) => ({
    key: api().keys.publishable,
    headers: { 'x-forwarded-for': address },
    ...extra,
  });
  const post = (path: string, body: unknown, address: string, extra: Record<string, unknown> = {}) =>
    api().post(path, body, from(address, extra));
  const login = (address: string, email: string, password: string, extra: Record<string, unknown> = {}) =>
    post(LOGIN, { email, password }, address, extra);
  const register = async (address: string, email = someEmail('shopper')) => {
    const res = await post(REGISTER, { email, password: RIGHT }, address);
    expect(res.status, JSON.stringify(res.body)).toBe(200);
    return { email, token: res.body.token as string };
  };
  /** A reset request from `address`: always 200; answers the tokens the engine handed to in-process listeners. */
  const requestReset = async (address: string, email: string, extra: Record<string, unknown> = {}) => {
    const tokens: string[] = [];
    const off = api().engine.events.on('customer.password_reset_requested', (event) => {
      if (event.data.email.toLowerCase() === email.toLowerCase()) tokens.push(event.data.token);
    });
    try {
      const res = await post(RESET, { email }, address, extra);
      expect(res.status, JSON.stringify(res.body)).toBe(200);
      expect(res.body).toEqual({ success: true });
      for (let i = 0; i < 20 && tokens.length === 0; i++) await new Promise((r) => setTimeout(r, 5));
    } finally {
      off();
    }
    return tokens;
  };
  return { from, post, login, register, requestReset };
}

describeApi(
  'rate limits: customer accounts count failed attempts only, per address and per e-mail (docs/contract.md#rate-limits)',
  (api) => {
    const { post, login, register, requestReset } = accountCalls(api);

    it('successes never count: one address registers and signs in many shoppers past the failure budget', async () => {
      const address = '203.0.113.49';
      for (let i = 0; i < 5; i++) {
        const { email } = await register(address);
        const res = await login(address, email, RIGHT);
        expect(res.status, JSON.stringify(res.body)).toBe(200);
        // Successes show the key's budget, not the failure budget.
        expect(limitsOf(res).limit).toBe(DEFAULT_RATE_LIMITS.publishable_key.limit);
      }
    });

    it('failures from one address: the 4th attempt is 429 before the password is checked; registering and reset requests still work there', async () => {
      const address = '203.0.113.50';
      const { email } = await register('203.0.113.52');
      for (let i = 0; i < 3; i++) {
        const res = await login(address, someEmail('guess'), 'wrong password');
        expectError(res, 401, 'invalid_credentials');
        expect(limitsOf(res)).toMatchObject({ limit: 3, remaining: 2 - i });
      }
      // The right password too: the address's failure budget is spent until the window ends.
      expectRateLimited(await login(address, email, RIGHT), 3);
      // An invalid reset token is a failure of the address: refused there as well.
      expectRateLimited(
        await post(
          RESET_CONFIRM,
          { token: 'prt_guessguessguessguess', new_password: 'a good password' },
          address,
        ),
        3,
      );
      // Signing up and requesting a reset are not password checks: they still answer.
      await register(address);
      expect(await requestReset(address, email)).toHaveLength(1);
      // Other routes and other addresses still answer.
      expect(
        (await api().storefront.get('/v1/storefront/products', { headers: { 'x-forwarded-for': address } }))
          .status,
      ).toBe(200);
      expect((await login('203.0.113.51', email, RIGHT)).status).toBe(200);
      // The next window starts afresh.
      await anHourLater(async () => expect((await login(address, email, RIGHT)).status).toBe(200));
    });

    it('failures for one e-mail across addresses: 429 for its sign-in, yet its owner resets the password and is signed in', async () => {
      const victim = someEmail('victim');
      await register('198.51.100.1', victim);
      // Three guesses from three addresses: each address has budget left, the e-mail does not.
      for (let i = 0; i < 3; i++) {
        const res = await login(`198.51.100.${10 + i}`, victim, `guess ${i}`);
        expectError(res, 401, 'invalid_credentials');
        // The headers show the tightest budget: the e-mail's.
        expect(limitsOf(res)).toMatchObject({ limit: 3, remaining: 2 - i });
      }
      expectRateLimited(await login('198.51.100.20', victim, 'guess 3'), 3);
      // Compared case-insensitively; the right password too is refused until the window ends.
      expectRateLimited(await login('198.51.100.21', victim.toUpperCase(), RIGHT), 3);
      const keyed = await login('198.51.100.22', victim, RIGHT, { idempotencyKey: 'signin-1' });
      expectRateLimited(keyed, 3);
      // Another e-mail from an address that was refused for the victim still gets its answer.
      expectError(await login('198.51.100.20', someEmail('other'), 'guess'), 401, 'invalid_credentials');

      // The owner's way back is never blocked by the e-mail's failures: the reset request creates
      // a token, and its confirmation signs the owner in.
      const [token] = await requestReset('198.51.100.30', victim);
      expect(token).toMatch(/^prt_/);
      const confirmed = await post(
        RESET_CONFIRM,
        { token, new_password: 'a brand new passphrase' },
        '198.51.100.30',
      );
      expect(confirmed.status, JSON.stringify(confirmed.body)).toBe(200);
      expect(confirmed.body.token).toMatch(/^ct_/);
      expect(
        (await api().storefront.get('/v1/storefront/customers/me', { customerToken: confirmed.body.token }))
          .body.email,
      ).toBe(victim);

      await anHourLater(async () => {
        // The same Idempotency-Key and body: the 429 was not stored, the request runs (the password
        // changed meanwhile, so it is an ordinary 401, counted again).
        const retried = await login('198.51.100.22', victim, RIGHT, { idempotencyKey: 'signin-1' });
        expectError(retried, 401, 'invalid_credentials');
        expect(retried.headers.get('idempotent-replayed')).toBeNull();
        expect(limitsOf(retried)).toMatchObject({ limit: 3, remaining: 2 });
        expect((await login('198.51.100.23', victim, 'a brand new passphrase')).status).toBe(200);
      });
    });

    it('a wrong current password is a failure of the address and of the e-mail; the right one then waits for the window', async () => {
      const { email, token } = await register('192.0.2.1');
      const change = (address: string, current_password: string) =>
        post(PASSWORD_CHANGE, { current_password, new_password: 'another good one' }, address, {
          customerToken: token,
        });
      for (let i = 0; i < 3; i++) {
        const res = await change(`192.0.2.${10 + i}`, `wrong ${i}`);
        expectError(res, 422, 'invalid_credentials');
        expect(limitsOf(res)).toMatchObject({ limit: 3, remaining: 2 - i });
      }
      expectRateLimited(await change('192.0.2.20', RIGHT), 3);
      // The e-mail's budget is spent: sign-in with it is refused from anywhere too.
      expectRateLimited(await login('192.0.2.21', email, RIGHT), 3);
      await anHourLater(async () => expect((await change('192.0.2.20', RIGHT)).status).toBe(200));
    });

    it('reset requests: at most 3 an hour per e-mail create a token and an event; beyond that 200 and nothing is sent', async () => {
      const { email } = await register('192.0.2.50');
      for (let i = 0; i < 3; i++) expect(await requestReset(`192.0.2.${60 + i}`, email)).toHaveLength(1);
      expect(await requestReset('192.0.2.70', email)).toEqual([]);
      expect(await requestReset('192.0.2.71', email.toUpperCase())).toEqual([]);
      // Unknown e-mails answer alike; another e-mail has its own budget.
      expect(await requestReset('192.0.2.70', someEmail('nobody'))).toEqual([]);
      const other = await register('192.0.2.50');
      expect(await requestReset('192.0.2.70', other.email)).toHaveLength(1);
      await anHourLater(async () => expect(await requestReset('192.0.2.72', email)).toHaveLength(1));
    });
  },
  ACCOUNT_LIMITS,
  { trustProxy: true },
);

describeApi(
  'rate limits: Commerce-Buyer-Ip names the shopper of a secret-key request (docs/contract.md#rate-limits)',
  (api) => {
    const { login } = accountCalls(api);
    /**
     * A failed sign-in from `connection` (a storefront server, or a browser) naming `buyer` in
     * Commerce-Buyer-Ip, with the secret key unless told.
     */
    const guess = (connection: string, buyer: string | undefined, key = api().keys.secret) =>
      login(connection, someEmail('guess'), 'wrong', {
        key,
        headers: {
          'x-forwarded-for': connection,
          ...(buyer === undefined ? {} : { 'commerce-buyer-ip': buyer }),
        },
      });
    const SERVER = '198.51.100.200';

    it('failures count per named address: two shoppers behind one server have separate budgets, and the server its own', async () => {
      for (let i = 0; i < 3; i++)
        expectError(await guess(SERVER, '203.0.113.100'), 401, 'invalid_credentials');
      expectRateLimited(await guess(SERVER, '203.0.113.100'), 3);
      // The same address however it is written (canonical form: no leading zeros, IPv4-mapped as IPv4).
      expectRateLimited(await guess(SERVER, '203.000.113.100'), 3);
      expectRateLimited(await guess(SERVER, '::ffff:203.0.113.100'), 3);
      expectRateLimited(await guess(SERVER, '::FFFF:cb00:7164'), 3);
      // Another shopper behind the same server, and the server's own address, still get answers.
      expectError(await guess(SERVER, '2001:db8::100'), 401, 'invalid_credentials');
      expectError(await guess(SERVER, undefined), 401, 'invalid_credentials');
      // A shopper whose own browser connects from the spent address is refused too: one address, one budget.
      expectRateLimited(await guess('203.0.113.100', undefined, api().keys.publishable), 3);
    });

    it('anything but one IP address is 400 parameter_invalid (param Commerce-Buyer-Ip) and counts nothing', async () => {
      const connection = '198.51.100.210';
      for (const value of [
        'not-an-ip',
        '203.0.113.7:443',
        '203.0.113.7, 198.51.100.1',
        '',
        '[2001:db8::1]',
        '203.0.113.256',
      ]) {
        expectError(await guess(connection, value), 400, 'parameter_invalid', 'Commerce-Buyer-Ip');
      }
      // Six refusals, none counted against the connection.
      for (let i = 0; i < 3; i++) expectError(await guess(connection, undefined), 401, 'invalid_credentials');
    });

    it('with a publishable key the header is ignored: the connection address counts', async () => {
      const browser = '198.51.100.201';
      const pk = api().keys.publishable;
      // An invalid value is no error with a publishable key.
      expectError(await guess(browser, 'not-an-ip', pk), 401, 'invalid_credentials');
      // A named address spent by a server's requests does not refuse the browser…
      for (let i = 0; i < 3; i++)
        expectError(await guess(SERVER, '203.0.113.120'), 401, 'invalid_credentials');
      expectError(await guess(browser, '203.0.113.120', pk), 401, 'invalid_credentials');
      // …and naming a fresh address does not escape the browser's own budget (its 3rd failure, then 429).
      expectError(await guess(browser, '203.0.113.121', pk), 401, 'invalid_credentials');
      expectRateLimited(await guess(browser, '203.0.113.122', pk), 3);
    });
  },
  ACCOUNT_LIMITS,
  { trustProxy: true },
);
