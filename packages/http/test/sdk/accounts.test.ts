import type { CustomerSession, Customer as OurCustomer } from '@cartwright/core';
import type { Customer, CustomerAuthResponse, HeadlessCommerce } from '@headless-commerce/sdk';
import { expect, expectTypeOf, test } from 'vitest';
import type { TestApi } from '../api/support/harness';
import { describeApi } from '../api/support/harness';
import { expectSdkError, isoDate, sdkClients, unique, usd } from './support';

/**
 * Customer accounts (docs/contract.md#customer-accounts) through the public client `@headless-commerce/sdk`
 * 0.2.0 against a real server, on both engines: the SDK's five account methods —
 * `customers.register`, `login`, `changePassword`, `requestPasswordReset`, `resetPassword` — over
 * register → sign in → change password → request a reset → reset → sign in again, and their failure
 * paths as the SDK reports them. The reset token reaches the test as it reaches an embedding host:
 * through an in-process listener of `customer.password_reset_requested`.
 * (`packages/http/test/sdk/accounts-serve.test.ts` runs the same methods against `pnpm start`.)
 *
 * Where the SDK's declarations and docs/contract.md#customer-accounts differ, docs/contract.md#customer-accounts wins and the server keeps it:
 * - `createStorefrontClient`'s type leaves the five account methods out (its `customers` is only
 *   `me`, `updateMe` and the addresses), though docs/contract.md#customer-accounts serves them with any key: a storefront calls
 *   them on `new HeadlessCommerce({ apiKey: 'pk_…' })`, as these tests do.
 * - `changePassword` is declared `Promise<void>`; docs/contract.md#passwords answers 200 with the Customer. The SDK hands
 *   back the parsed body, so the promise resolves to our Customer (a caller ignoring it loses nothing).
 * - `resetPassword` is declared `Promise<void>`; docs/contract.md#password-reset answers 200 `{ customer, token, expires_at }`
 *   (the customer is signed in). It resolves to that session: a storefront may use the token.
 * - `requestPasswordReset` is declared `Promise<void>`; docs/contract.md#password-reset answers `{ success: true }`.
 * - The SDK has no sign-out method: `POST /v1/storefront/customer-auth/logout` (docs/contract.md#password-reset) is reached with
 *   its low-level `request`.
 * - The SDK's `Customer` has no `has_password` (docs/contract.md#passwords adds it; extra fields do not break its type),
 *   and its `WebhookEventType` union lacks `customer.password_reset_requested` (its
 *   `CreateWebhookInput.events` is `string[]`, so a webhook can still name the event).
 * - The SDK types `Customer.addresses` as its `CustomerAddress` (id, type, is_default, …); ours are
 *   spec Addresses (the type check below leaves `addresses` out; a new account has none).
 */

const PASSWORD = 'correct horse battery';
const NEW_PASSWORD = 'tr0ub4dor & 3 staples';
const RESET_PASSWORD = 'a brand new passphrase';

const uniqueEmail = (name: string) => `${unique(name).toLowerCase()}@example.com`;

// Our session and Customer satisfy the SDK's declared types (addresses aside, see above).
expectTypeOf<Omit<CustomerSession, 'customer'> & { customer: Omit<OurCustomer, 'addresses'> }>().toExtend<
  Omit<CustomerAuthResponse, 'customer'> & { customer: Omit<Customer, 'addresses'> }
>();

/** Every field of the SDK's `Customer`, with the type it declares, and our `has_password`. */
function expectSdkCustomer(customer: Customer, email: string): void {
  expect(customer).toEqual({
    id: expect.stringMatching(/^cus_/),
    email,
    first_name: expect.toBeOneOf([null, expect.any(String)]),
    last_name: expect.toBeOneOf([null, expect.any(String)]),
    phone: expect.toBeOneOf([null, expect.any(String)]),
    external_id: null,
    status: 'active',
    total_orders: 0,
    total_spent: usd(0),
    tags: [],
    addresses: [],
    metadata: {},
    has_password: true,
    created_at: isoDate,
  });
}

/** A `CustomerAuthResponse` as the SDK declares it: `{ customer, token, expires_at }`, nothing else. */
function expectSession(session: CustomerAuthResponse, email: string): void {
  expect(Object.keys(session).sort()).toEqual(['customer', 'expires_at', 'token']);
  expect(session.token).toMatch(/^ct_[A-Za-z0-9_-]{22,}$/);
  expect(session.expires_at).toEqual(isoDate);
  expect(Date.parse(session.expires_at)).toBeGreaterThan(Date.now() + 86_400_000 - 120_000);
  expectSdkCustomer(session.customer, email);
}

/**
 * Calls `requestPasswordReset` through the SDK and answers the reset tokens handed to in-process
 * listeners of `customer.password_reset_requested` for that e-mail.
 */
async function requestReset(api: TestApi, client: HeadlessCommerce, email: string) {
  const seen: string[] = [];
  const off = api.engine.events.on('customer.password_reset_requested', (event) => {
    if (event.data.email === email) seen.push(event.data.token);
  });
  try {
    // Declared `Promise<void>`; docs/contract.md#customer-accounts's body is `{ success: true }`.
    expect(await client.customers.requestPasswordReset({ email })).toEqual({ success: true });
    // Listeners run after the commit; give a late one a moment.
    for (let i = 0; i < 40 && seen.length === 0; i++) await new Promise((r) => setTimeout(r, 5));
  } finally {
    off();
  }
  return seen;
}

/**
 * The SDK as a storefront uses it for accounts: the full client with the publishable key
 * (`withKey`), signed in as `token` when given (`setCustomerToken`).
 */
function shopperClients(api: TestApi) {
  const { withKey } = sdkClients(api);
  const as = (token: string | null = null): HeadlessCommerce => {
    const client = withKey(api.keys.publishable);
    client.setCustomerToken(token);
    return client;
  };
  return { storefront: as(), storefrontAs: (token: string) => as(token) };
}

describeApi(
  'sdk: customer accounts',
  (api) => {
    test('register → login → changePassword → requestPasswordReset → resetPassword → login, with the SDK’s five account methods', async () => {
      const { storefront, storefrontAs } = shopperClients(api());
      const email = uniqueEmail('sdk.');

      // 1. register: signed in at once.
      const registered: CustomerAuthResponse = await storefront.customers.register({
        email,
        password: PASSWORD,
        first_name: 'Ada',
        last_name: 'Lovelace',
      });
      expectSession(registered, email);
      expect(registered.customer).toMatchObject({ first_name: 'Ada', last_name: 'Lovelace', phone: null });
      const me: Customer = await storefrontAs(registered.token).customers.me();
      expect(me).toEqual(registered.customer);

      // 2. login: a second token for the same customer.
      const second = await storefront.customers.login({ email, password: PASSWORD });
      expectSession(second, email);
      expect(second.customer.id).toBe(registered.customer.id);
      expect(second.token).not.toBe(registered.token);

      // 3. changePassword with the first token: 200 Customer (declared void); the request's own
      //    token keeps working, every other token of the customer stops at once.
      const shopper = storefrontAs(registered.token);
      const changed = (await shopper.customers.changePassword({
        current_password: PASSWORD,
        new_password: NEW_PASSWORD,
      })) as unknown as Customer;
      expect(changed).toEqual(registered.customer);
      expect((await shopper.customers.me()).id).toBe(registered.customer.id);
      await expectSdkError(storefrontAs(second.token).customers.me(), 401, 'invalid_customer_token');
      await expectSdkError(
        storefront.customers.login({ email, password: PASSWORD }),
        401,
        'invalid_credentials',
      );
      const third = await storefront.customers.login({ email, password: NEW_PASSWORD });
      expectSession(third, email);

      // 4. requestPasswordReset: the token reaches in-process listeners only.
      const [resetToken, ...more] = await requestReset(api(), storefront, email);
      expect(more).toEqual([]);
      expect(resetToken).toMatch(/^prt_/);

      // 5. resetPassword: 200 { customer, token, expires_at } (declared void) — signed in with a
      //    new token, every earlier token revoked.
      const reset = (await storefront.customers.resetPassword({
        token: resetToken as string,
        new_password: RESET_PASSWORD,
      })) as unknown as CustomerAuthResponse;
      expectSession(reset, email);
      expect(reset.customer.id).toBe(registered.customer.id);
      for (const old of [registered.token, third.token])
        await expectSdkError(storefrontAs(old).customers.me(), 401, 'invalid_customer_token');
      expect((await storefrontAs(reset.token).customers.me()).id).toBe(registered.customer.id);

      // 6. login again with the reset password; the older passwords no longer work.
      const again = await storefront.customers.login({ email, password: RESET_PASSWORD });
      expectSession(again, email);
      for (const password of [PASSWORD, NEW_PASSWORD])
        await expectSdkError(storefront.customers.login({ email, password }), 401, 'invalid_credentials');
    });

    test('failure paths as the SDK reports them: 409 duplicate_email, 400 password, 401 unknown e-mail = wrong password, 422 wrong current password, 422 used reset token', async () => {
      const { storefront, storefrontAs } = shopperClients(api());
      const email = uniqueEmail('fail.');
      const { token } = await storefront.customers.register({ email, password: PASSWORD });

      await expectSdkError(
        storefront.customers.register({ email, password: NEW_PASSWORD }),
        409,
        'duplicate_email',
      );
      const short = await expectSdkError(
        storefront.customers.register({ email: uniqueEmail('short.'), password: 'short' }),
        400,
        'parameter_invalid',
      );
      // The SDK drops `param` (session-10 mismatch list); the message names the field.
      expect(short.message).toMatch(/password/i);

      const unknown = await expectSdkError(
        storefront.customers.login({ email: uniqueEmail('nobody.'), password: PASSWORD }),
        401,
        'invalid_credentials',
      );
      const wrong = await expectSdkError(
        storefront.customers.login({ email, password: NEW_PASSWORD }),
        401,
        'invalid_credentials',
      );
      expect(unknown.message).toBe(wrong.message);

      await expectSdkError(
        storefrontAs(token).customers.changePassword({
          current_password: 'not my password',
          new_password: NEW_PASSWORD,
        }),
        422,
        'invalid_credentials',
      );
      // No customer token at all.
      await expectSdkError(
        storefront.customers.changePassword({ current_password: PASSWORD, new_password: NEW_PASSWORD }),
        401,
        'customer_token_required',
      );

      // An unknown e-mail: the same answer, and no event.
      expect(await requestReset(api(), storefront, uniqueEmail('ghost.'))).toEqual([]);

      const [first] = await requestReset(api(), storefront, email);
      const [second] = await requestReset(api(), storefront, email);
      // A newer request voids the older token.
      await expectSdkError(
        storefront.customers.resetPassword({ token: first as string, new_password: RESET_PASSWORD }),
        422,
        'reset_token_invalid',
      );
      await storefront.customers.resetPassword({ token: second as string, new_password: RESET_PASSWORD });
      // Single use.
      await expectSdkError(
        storefront.customers.resetPassword({ token: second as string, new_password: NEW_PASSWORD }),
        422,
        'reset_token_invalid',
      );
      await expectSdkError(
        storefront.customers.resetPassword({
          token: 'prt_doesNotExist0000000000000',
          new_password: NEW_PASSWORD,
        }),
        422,
        'reset_token_invalid',
      );
    });

    test('sign-out has no SDK method: request("POST", "/storefront/customer-auth/logout") revokes that token only', async () => {
      const { storefront, storefrontAs } = shopperClients(api());
      const email = uniqueEmail('logout.');
      const first = await storefront.customers.register({ email, password: PASSWORD });
      const second = await storefront.customers.login({ email, password: PASSWORD });
      const client = storefrontAs(first.token);
      expect(await client.request('POST', '/storefront/customer-auth/logout')).toEqual({ success: true });
      await expectSdkError(client.customers.me(), 401, 'invalid_customer_token');
      expect((await storefrontAs(second.token).customers.me()).id).toBe(first.customer.id);
      // A client still holding the revoked token can sign in again (sign-in ignores X-Customer-Token).
      const back = await client.customers.login({ email, password: PASSWORD });
      client.setCustomerToken(back.token);
      expect((await client.customers.me()).id).toBe(first.customer.id);
    });
  },
  // Rate limits off (rate-limits.test.ts covers the sign-in limits); scrypt at N = 2^10, the least
  // the engine takes: the same code path at a fraction of the default cost.
  { rateLimits: false, passwordHashing: { ln: 10, r: 8, p: 1 } },
);
