import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { createEngine } from '@cartwright/core';
import type { CustomerAuthResponse, HeadlessCommerce } from '@headless-commerce/sdk';
import { afterAll, beforeAll, expect, test } from 'vitest';
import { createNodeListener } from '../../src/adapters/node';
import { createApiHandler } from '../../src/api';
import { describeApi, type TestApi } from '../api/support/harness';
import { expectError } from '../api/support/order-fixtures';
import { expectSdkError, sdkClients, unique } from './support';

/**
 * The customer-account limits (docs/contract.md#rate-limits, #sign-in) with rate limits ON at
 * their defaults (10 failures a minute per address and per e-mail, 3 reset requests an hour per
 * e-mail), through the public client `@headless-commerce/sdk` 0.2.0 against a real server: a
 * storefront server that signs all its shoppers in from one address is never throttled by their
 * successes, an ordinary account life cycle never meets a 429, failures are still limited, and
 * guesses at one account never lock its owner out of the password reset. The SDK sends no headers
 * of our choosing, so its requests come from the loopback connection; guesses from elsewhere are
 * sent with the harness and `X-Forwarded-For` (the server trusts it here).
 */

const PASSWORD = 'correct horse battery';
const NEW_PASSWORD = 'tr0ub4dor & 3 staples';
const RESET_PASSWORD = 'a brand new passphrase';

const uniqueEmail = (name: string) => `${unique(name).toLowerCase()}@example.com`;

/** Defaults for the limits; scrypt at N = 2^10 (the least the engine takes) so 100 sign-ins stay quick. */
const ENGINE = { passwordHashing: { ln: 10, r: 8, p: 1 } };

/** Reset tokens the engine hands to in-process listeners for `email` while `run` runs. */
async function resetTokensDuring(
  api: TestApi,
  email: string,
  run: () => Promise<unknown>,
): Promise<string[]> {
  const seen: string[] = [];
  const off = api.engine.events.on('customer.password_reset_requested', (event) => {
    if (event.data.email === email) seen.push(event.data.token);
  });
  try {
    await run();
    for (let i = 0; i < 40 && seen.length === 0; i++) await new Promise((r) => setTimeout(r, 5));
  } finally {
    off();
  }
  return seen;
}

/** The full client with `key`, signed in as `token` when given. */
function client(api: TestApi, key: string, token: string | null = null): HeadlessCommerce {
  const c = sdkClients(api).withKey(key);
  c.setCustomerToken(token);
  return c;
}

describeApi(
  'sdk: customer-account limits count failures only (default limits)',
  (api) => {
    test('a storefront server signs 50 shoppers up and in from one address within a minute: all succeed', async () => {
      const server = client(api(), api().keys.secret);
      const started = Date.now();
      for (let i = 0; i < 50; i++) {
        const email = uniqueEmail(`bulk${i}.`);
        const registered = await server.customers.register({ email, password: PASSWORD });
        expect(registered.token).toMatch(/^ct_/);
        const signedIn = await server.customers.login({ email, password: PASSWORD });
        expect(signedIn.customer.id).toBe(registered.customer.id);
      }
      // 100 successes in one window of the 10-a-minute failure budget.
      expect(Date.now() - started).toBeLessThan(60_000);
    });

    test('sign-up → change password → sign-in → request reset → confirm reset → sign-in, three shoppers in turn from one address: no 429', async () => {
      for (const key of [api().keys.publishable, api().keys.secret, api().keys.publishable]) {
        const storefront = client(api(), key);
        const email = uniqueEmail('cycle.');
        const registered = await storefront.customers.register({ email, password: PASSWORD });
        await client(api(), key, registered.token).customers.changePassword({
          current_password: PASSWORD,
          new_password: NEW_PASSWORD,
        });
        expect((await storefront.customers.login({ email, password: NEW_PASSWORD })).customer.id).toBe(
          registered.customer.id,
        );
        const [token, ...more] = await resetTokensDuring(api(), email, () =>
          storefront.customers.requestPasswordReset({ email }),
        );
        expect(more).toEqual([]);
        const reset = (await storefront.customers.resetPassword({
          token: token as string,
          new_password: RESET_PASSWORD,
        })) as unknown as CustomerAuthResponse;
        expect(reset.customer.id).toBe(registered.customer.id);
        const again = await storefront.customers.login({ email, password: RESET_PASSWORD });
        expect(again.customer.id).toBe(registered.customer.id);
      }
    });

    test('guesses at one e-mail from many addresses: its sign-in is 429, yet its owner resets the password and is signed in', async () => {
      const storefront = client(api(), api().keys.publishable);
      const email = uniqueEmail('victim.');
      await storefront.customers.register({ email, password: PASSWORD });
      // Ten wrong passwords, each from another address: no address is spent, the e-mail is.
      for (let i = 0; i < 10; i++) {
        const res = await api().storefront.post(
          '/v1/storefront/customer-auth/login',
          { email, password: `guess ${i}` },
          { headers: { 'x-forwarded-for': `203.0.113.${i + 1}` } },
        );
        expectError(res, 401, 'invalid_credentials');
      }
      // The owner, from the storefront's own connection: sign-in is refused, even with the right password…
      await expectSdkError(storefront.customers.login({ email, password: PASSWORD }), 429, 'rate_limited');
      // …but the reset is theirs: requested (200, a token), confirmed (200, signed in).
      const [token] = await resetTokensDuring(api(), email, async () => {
        expect(await storefront.customers.requestPasswordReset({ email })).toEqual({ success: true });
      });
      expect(token).toMatch(/^prt_/);
      const reset = (await storefront.customers.resetPassword({
        token: token as string,
        new_password: RESET_PASSWORD,
      })) as unknown as CustomerAuthResponse;
      expect(reset.token).toMatch(/^ct_/);
      expect((await client(api(), api().keys.publishable, reset.token).customers.me()).email).toBe(email);
    });
  },
  ENGINE,
  { trustProxy: true },
);

describeApi(
  'sdk: failed sign-ins are still limited (default limits)',
  (api) => {
    test('ten wrong passwords from one address: the eleventh attempt is 429 rate_limited, the right password too', async () => {
      const storefront = client(api(), api().keys.publishable);
      const email = uniqueEmail('owner.');
      await storefront.customers.register({ email, password: PASSWORD });
      for (let i = 0; i < 10; i++) {
        await expectSdkError(
          storefront.customers.login({ email: uniqueEmail('guess.'), password: 'wrong password' }),
          401,
          'invalid_credentials',
        );
      }
      await expectSdkError(
        storefront.customers.login({ email: uniqueEmail('guess.'), password: 'wrong password' }),
        429,
        'rate_limited',
      );
      await expectSdkError(storefront.customers.login({ email, password: PASSWORD }), 429, 'rate_limited');
      // Signing up is not a password check: it still works from that address.
      const other = await storefront.customers.register({ email: uniqueEmail('new.'), password: PASSWORD });
      expect(other.token).toMatch(/^ct_/);
    });
  },
  ENGINE,
);

describeApi(
  'sdk: guesses from many addresses through two processes never lock the owner out (default limits)',
  (api) => {
    /**
     * "Process B": a second engine over the same database, with its own caches, limiter and HTTP
     * server (another process in miniature, as in api-key-revocation.test.ts); the budgets live in
     * the database, so both processes spend and see the same ones.
     */
    let engineB: Awaited<ReturnType<typeof createEngine>> | undefined;
    let closeB: (() => Promise<void>) | undefined;
    let baseB = '';
    beforeAll(async () => {
      engineB = await createEngine({ ...ENGINE, storage: api().engine.storage, migrate: false });
      const server = createServer(createNodeListener(createApiHandler(engineB, { trustProxy: true })));
      await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
      baseB = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
      closeB = () => new Promise<void>((resolve) => server.close(() => resolve()));
    });
    afterAll(async () => {
      await closeB?.();
    });

    /** A POST to process B with the publishable key, from `address` (X-Forwarded-For). */
    const onB = async (path: string, body: unknown, address: string, token?: string) => {
      const res = await fetch(baseB + path, {
        method: 'POST',
        headers: {
          authorization: `Bearer ${api().keys.publishable}`,
          'content-type': 'application/json',
          'x-forwarded-for': address,
          ...(token === undefined ? {} : { 'x-customer-token': token }),
        },
        body: JSON.stringify(body),
      });
      return {
        status: res.status,
        body: (await res.json()) as {
          success?: boolean;
          error: { code: string };
        },
        headers: res.headers,
      };
    };
    /** A wrong password for `email` from `address`, through process A (even i) or B (odd i). */
    const guess = async (email: string, i: number, address: string) => {
      if (i % 2 === 0) {
        return api().storefront.post(
          '/v1/storefront/customer-auth/login',
          { email, password: `guess ${i}` },
          { headers: { 'x-forwarded-for': address } },
        );
      }
      return onB('/v1/storefront/customer-auth/login', { email, password: `guess ${i}` }, address);
    };

    test('10 guesses from 10 addresses split over processes A and B: sign-in is 429 on both, yet the owner resets (requested on B, confirmed on A) and is signed in on both', async () => {
      const storefront = client(api(), api().keys.publishable);
      const email = uniqueEmail('victim2.');
      await storefront.customers.register({ email, password: PASSWORD });
      for (let i = 0; i < 10; i++) {
        const res = await guess(email, i, `198.51.100.${i + 1}`);
        expect(res.status, JSON.stringify(res.body)).toBe(401);
        expect(res.body.error.code).toBe('invalid_credentials');
      }
      // The e-mail's budget is spent in both processes: the right password from fresh addresses is 429.
      await expectSdkError(storefront.customers.login({ email, password: PASSWORD }), 429, 'rate_limited');
      const onBLogin = await onB(
        '/v1/storefront/customer-auth/login',
        { email, password: PASSWORD },
        '192.0.2.77',
      );
      expect(onBLogin.status).toBe(429);
      expect(onBLogin.body.error.code).toBe('rate_limited');

      // The reset request through B: 200, and B hands the token to its in-process listeners.
      const tokens: string[] = [];
      const off = (engineB as NonNullable<typeof engineB>).events.on(
        'customer.password_reset_requested',
        (event) => {
          if (event.data.email === email) tokens.push(event.data.token);
        },
      );
      try {
        const requested = await onB('/v1/storefront/customers/password-reset', { email }, '192.0.2.78');
        expect(requested.status, JSON.stringify(requested.body)).toBe(200);
        expect(requested.body).toEqual({ success: true });
        for (let i = 0; i < 40 && tokens.length === 0; i++) await new Promise((r) => setTimeout(r, 5));
      } finally {
        off();
      }
      expect(tokens).toHaveLength(1);

      // The guessing goes on, from ten more addresses through both processes, while the owner reads the mail.
      for (let i = 10; i < 20; i++) {
        const res = await guess(email, i, `198.51.100.${i + 1}`);
        expect(res.status).toBe(429);
      }

      // Confirmed through A: 200, signed in; the token works on A and on B.
      const reset = (await storefront.customers.resetPassword({
        token: tokens[0] as string,
        new_password: RESET_PASSWORD,
      })) as unknown as CustomerAuthResponse;
      expect(reset.token).toMatch(/^ct_/);
      expect((await client(api(), api().keys.publishable, reset.token).customers.me()).email).toBe(email);
      const me = await fetch(`${baseB}/v1/storefront/customers/me`, {
        headers: { authorization: `Bearer ${api().keys.publishable}`, 'x-customer-token': reset.token },
      });
      expect(me.status).toBe(200);
      expect(((await me.json()) as { email: string }).email).toBe(email);
    });
  },
  ENGINE,
  { trustProxy: true },
);
