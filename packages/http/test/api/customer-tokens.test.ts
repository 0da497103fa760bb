import { webCrypto } from '@cartwright/core/providers';
import { expect, test } from 'vitest';
import { describeApi, type TestApi } from './support/harness';

/**
 * Customer tokens over real HTTP (docs/contract.md#customer-tokens): issuance (`expires_in` default 86400, at most
 * 2592000, the spec's `/admin/customers/{id}/token` alias), storage as a hash, scoping to store +
 * mode, and every way a token is refused on the CT endpoints. Time is an engine clock the tests
 * move, so expiry is tested without waiting.
 */

/** The engine's clock: real time plus an offset the tests advance. */
let offsetMs = 0;
const clock = { now: () => Date.now() + offsetMs };

let counter = 0;
const uniqueEmail = () => `token.${Date.now().toString(36)}.${++counter}@example.com`;

async function createCustomer(api: TestApi, key?: string): Promise<{ id: string; email: string }> {
  const r = await api.post('/v1/admin/customers', { email: uniqueEmail() }, key ? { key } : {});
  expect(r.status, JSON.stringify(r.body)).toBe(200);
  return r.body;
}

const me = (api: TestApi, token: string, key?: string) =>
  api.storefront.get('/v1/storefront/customers/me', { customerToken: token, ...(key && { key }) });

describeApi(
  'customer tokens',
  (api) => {
    test('POST /v1/admin/customers/{id}/token without a body → ct_ token valid for 86400 s', async () => {
      const customer = await createCustomer(api());
      const before = clock.now();
      const r = await api().post(`/v1/admin/customers/${customer.id}/token`);
      const after = clock.now();
      expect(r.status).toBe(200);
      expect(r.body).toEqual({
        token: expect.stringMatching(/^ct_[A-Za-z0-9_-]+$/),
        customer_id: customer.id,
        expires_at: expect.any(String),
      });
      const expiresAt = Date.parse(r.body.expires_at);
      expect(expiresAt).toBeGreaterThanOrEqual(before + 86_400_000);
      expect(expiresAt).toBeLessThanOrEqual(after + 86_400_000);
      // ≥ 128 bits of randomness: at least 22 base64url characters after the prefix.
      expect(r.body.token.length - 3).toBeGreaterThanOrEqual(22);

      const profile = await me(api(), r.body.token);
      expect(profile.status).toBe(200);
      expect(profile.body.id).toBe(customer.id);
    });

    test('an empty JSON body {} also takes the default lifetime', async () => {
      const customer = await createCustomer(api());
      const r = await api().post(`/v1/admin/customers/${customer.id}/token`, {});
      expect(r.status).toBe(200);
      const lifetime = Date.parse(r.body.expires_at) - clock.now();
      expect(lifetime).toBeGreaterThan(86_400_000 - 60_000);
      expect(lifetime).toBeLessThanOrEqual(86_400_000);
    });

    test('expires_in sets the lifetime; 2592000 is the maximum', async () => {
      const customer = await createCustomer(api());
      const short = await api().post(`/v1/admin/customers/${customer.id}/token`, { expires_in: 120 });
      expect(short.status).toBe(200);
      const shortLife = Date.parse(short.body.expires_at) - clock.now();
      expect(shortLife).toBeGreaterThan(60_000);
      expect(shortLife).toBeLessThanOrEqual(120_000);

      const max = await api().post(`/v1/admin/customers/${customer.id}/token`, { expires_in: 2_592_000 });
      expect(max.status).toBe(200);
      expect(Date.parse(max.body.expires_at) - clock.now()).toBeGreaterThan(2_592_000_000 - 60_000);
    });

    test('expires_in out of range or not an integer → 400 parameter_invalid on expires_in', async () => {
      const customer = await createCustomer(api());
      for (const expires_in of [0, -5, 2_592_001, 1.5, '60']) {
        const r = await api().post(`/v1/admin/customers/${customer.id}/token`, { expires_in });
        expect(r.status, String(expires_in)).toBe(400);
        expect(r.body.error).toMatchObject({
          type: 'invalid_request_error',
          code: 'parameter_invalid',
          param: 'expires_in',
        });
      }
      const unknown = await api().post(`/v1/admin/customers/${customer.id}/token`, { scope: 'all' });
      expect(unknown.status).toBe(400);
      expect(unknown.body.error).toMatchObject({ code: 'parameter_unknown', param: 'scope' });
    });

    test('the spec path /admin/customers/{id}/token is served as an alias', async () => {
      const customer = await createCustomer(api());
      const r = await api().post(`/admin/customers/${customer.id}/token`, { expires_in: 600 });
      expect(r.status).toBe(200);
      expect(r.body.customer_id).toBe(customer.id);
      expect((await me(api(), r.body.token)).status).toBe(200);
      const forbidden = await api().storefront.post(`/admin/customers/${customer.id}/token`);
      expect(forbidden.status).toBe(403);
      expect(forbidden.body.error.code).toBe('forbidden');
    });

    test('unknown customer → 404 not_found; publishable key → 403 forbidden', async () => {
      const missing = await api().post('/v1/admin/customers/cus_nobody/token');
      expect(missing.status).toBe(404);
      expect(missing.body.error.code).toBe('not_found');
      const customer = await createCustomer(api());
      const pub = await api().storefront.post(`/v1/admin/customers/${customer.id}/token`);
      expect(pub.status).toBe(403);
      expect(pub.body.error).toMatchObject({ type: 'permission_error', code: 'forbidden' });
    });

    test('tokens are stored as their SHA-256 hash, never in clear, and differ on every issue', async () => {
      const customer = await createCustomer(api());
      const first = (await api().post(`/v1/admin/customers/${customer.id}/token`)).body.token as string;
      const second = (await api().post(`/v1/admin/customers/${customer.id}/token`)).body.token as string;
      expect(first).not.toBe(second);
      const record = await api().engine.storage.read(async (tx) =>
        tx.customerTokens.findByHash(api().scope, await webCrypto.sha256Hex(first)),
      );
      expect(record).toMatchObject({
        customer_id: customer.id,
        token_hash: await webCrypto.sha256Hex(first),
      });
      expect(JSON.stringify(record)).not.toContain(first);
      const byClearText = await api().engine.storage.read((tx) =>
        tx.customerTokens.findByHash(api().scope, first),
      );
      expect(byClearText).toBeNull();
      // Both tokens work: issuing a new one does not revoke the earlier ones.
      expect((await me(api(), first)).status).toBe(200);
      expect((await me(api(), second)).status).toBe(200);
    });

    test('missing token → 401 customer_token_required; blank header too', async () => {
      const r = await api().storefront.get('/v1/storefront/customers/me');
      expect(r.status).toBe(401);
      expect(r.body.error).toMatchObject({ type: 'authentication_error', code: 'customer_token_required' });
      const blank = await api().storefront.get('/v1/storefront/customers/me', {
        headers: { 'x-customer-token': '   ' },
      });
      expect(blank.status).toBe(401);
      expect(blank.body.error.code).toBe('customer_token_required');
    });

    test('garbage and unknown tokens → 401 invalid_customer_token', async () => {
      for (const token of [
        'garbage',
        'ct_',
        `ct_${'A'.repeat(43)}`,
        'sk_test_harnessSecretKey0000000000000001',
      ]) {
        const r = await me(api(), token);
        expect(r.status, token).toBe(401);
        expect(r.body.error).toMatchObject({ type: 'authentication_error', code: 'invalid_customer_token' });
      }
    });

    test('an expired token → 401 invalid_customer_token (engine clock moved past expires_at)', async () => {
      const customer = await createCustomer(api());
      const issued = await api().post(`/v1/admin/customers/${customer.id}/token`, { expires_in: 60 });
      expect((await me(api(), issued.body.token)).status).toBe(200);
      offsetMs += 59_000;
      expect((await me(api(), issued.body.token)).status).toBe(200);
      offsetMs += 2_000;
      try {
        const r = await me(api(), issued.body.token);
        expect(r.status).toBe(401);
        expect(r.body.error.code).toBe('invalid_customer_token');
        // A fresh token for the same customer works at the new time.
        const fresh = await api().post(`/v1/admin/customers/${customer.id}/token`, { expires_in: 60 });
        expect((await me(api(), fresh.body.token)).status).toBe(200);
      } finally {
        offsetMs = 0;
      }
    });

    test("a disabled customer's token → 403 customer_disabled; re-activated → works again", async () => {
      const customer = await createCustomer(api());
      const token = (await api().post(`/v1/admin/customers/${customer.id}/token`)).body.token as string;
      await api().patch(`/v1/admin/customers/${customer.id}`, { status: 'disabled' });
      for (const r of [
        await me(api(), token),
        await api().storefront.get('/v1/storefront/customers/me/addresses', { customerToken: token }),
        await api().storefront.patch(
          '/v1/storefront/customers/me',
          { first_name: 'X' },
          { customerToken: token },
        ),
      ]) {
        expect(r.status).toBe(403);
        expect(r.body.error).toMatchObject({ type: 'permission_error', code: 'customer_disabled' });
      }
      await api().patch(`/v1/admin/customers/${customer.id}`, { status: 'active' });
      expect((await me(api(), token)).status).toBe(200);
    });

    test('a token issued for a disabled customer is refused with 403 until the customer is active', async () => {
      const r = await api().post('/v1/admin/customers', { email: uniqueEmail(), status: 'disabled' });
      const issued = await api().post(`/v1/admin/customers/${r.body.id}/token`);
      expect(issued.status).toBe(200);
      expect((await me(api(), issued.body.token)).body.error.code).toBe('customer_disabled');
    });

    test('deleting the customer makes its tokens stop working → 401 invalid_customer_token', async () => {
      const customer = await createCustomer(api());
      const token = (await api().post(`/v1/admin/customers/${customer.id}/token`)).body.token as string;
      expect((await me(api(), token)).status).toBe(200);
      expect((await api().delete(`/v1/admin/customers/${customer.id}`)).status).toBe(200);
      const r = await me(api(), token);
      expect(r.status).toBe(401);
      expect(r.body.error.code).toBe('invalid_customer_token');
    });

    test('tokens are scoped to the mode: a live token is invalid with a test key and vice versa', async () => {
      const live = await createCustomer(api(), api().keys.liveSecret);
      const liveToken = (
        await api().post(`/v1/admin/customers/${live.id}/token`, undefined, { key: api().keys.liveSecret })
      ).body.token as string;
      expect((await me(api(), liveToken, api().keys.livePublishable)).status).toBe(200);
      const cross = await me(api(), liveToken);
      expect(cross.status).toBe(401);
      expect(cross.body.error.code).toBe('invalid_customer_token');

      const test = await createCustomer(api());
      const testToken = (await api().post(`/v1/admin/customers/${test.id}/token`)).body.token as string;
      const reverse = await me(api(), testToken, api().keys.livePublishable);
      expect(reverse.status).toBe(401);
      expect(reverse.body.error.code).toBe('invalid_customer_token');
    });

    test('the API key is checked before the token: no key → 401 unauthenticated', async () => {
      const customer = await createCustomer(api());
      const token = (await api().post(`/v1/admin/customers/${customer.id}/token`)).body.token as string;
      const r = await api().request('GET', '/v1/storefront/customers/me', {
        key: null,
        customerToken: token,
      });
      expect(r.status).toBe(401);
      expect(r.body.error.code).toBe('unauthenticated');
    });
  },
  { clock },
);
