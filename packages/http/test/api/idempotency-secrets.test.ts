import { KyselyStorage } from '@cartwright/storage-kysely';
import { expect, test } from 'vitest';
import { type ApiResponse, describeApi, type TestApi } from './support/harness';
import { createCustomer, expectStatus, unique } from './support/order-fixtures';

/**
 * Secrets at rest in idempotent replays (docs/contract.md#idempotency, decisions §15): a keyed request
 * whose response holds a new credential (API key, webhook secret, customer token) answers it once;
 * the stored replay holds it masked (its first 12 characters + `****`), so the row holds no secret,
 * and a replay answers the same status and shape without ever returning a credential (one
 * revoked since included).
 */

const MASKED = /^[A-Za-z_]+_[A-Za-z0-9_+/=-]*\*\*\*\*$/;

/** The stored response body of an idempotency key, read through the storage. */
async function storedBody(api: TestApi, key: string): Promise<string> {
  const storage = api.engine.storage;
  if (!(storage instanceof KyselyStorage)) throw new Error('this test reads a Kysely storage');
  const rows = await storage.db
    .selectFrom('idempotency_keys')
    .select('response_body')
    .where('key', '=', key)
    .execute();
  expect(rows).toHaveLength(1);
  return String(rows[0]?.response_body);
}

/** The request once, its replay, and the stored row: the secret at `field` is masked in both. */
async function expectMasked(api: TestApi, send: (key: string) => Promise<ApiResponse>, field: string) {
  const key = unique('idem-secret-');
  const first = await send(key);
  expect(first.status, JSON.stringify(first.body)).toBeLessThan(300);
  const secret = first.body[field] as string;
  expect(secret.length).toBeGreaterThan(20);
  const row = await storedBody(api, key);
  expect(row).not.toContain(secret);
  expect(row).not.toContain(secret.slice(12));
  const replay = await send(key);
  expect(replay.headers.get('idempotent-replayed')).toBe('true');
  expect(replay.status).toBe(first.status);
  expect(Object.keys(replay.body).sort()).toEqual(Object.keys(first.body).sort());
  expect(replay.body[field]).toBe(`${secret.slice(0, 12)}****`);
  expect(replay.body[field]).toMatch(MASKED);
  expect(JSON.stringify(replay.body)).not.toContain(secret);
  // Everything else is the first response as it was.
  expect({ ...replay.body, [field]: null }).toEqual({ ...first.body, [field]: null });
  return { first, replay };
}

describeApi('idempotency: no secret in a stored replay', (api) => {
  test('a new API key (sk_): stored and replayed masked as its key_prefix + ****', async () => {
    const { first, replay } = await expectMasked(
      api(),
      (key) =>
        api().post(
          '/v1/admin/api-keys',
          { name: 'ci', key_type: 'secret', mode: 'test' },
          { idempotencyKey: key },
        ),
      'key',
    );
    expect(first.body.key).toMatch(/^sk_test_/);
    expect(replay.body.key).toBe(`${first.body.key_prefix}****`);
    // The masked value is no key.
    expect((await api().get('/v1/admin/store', { key: replay.body.key })).status).toBe(401);
  });

  test('a new publishable key (pk_) and a webhook secret (whsec_)', async () => {
    await expectMasked(
      api(),
      (key) =>
        api().post(
          '/v1/admin/api-keys',
          { name: 'pos', key_type: 'publishable', mode: 'test' },
          { idempotencyKey: key },
        ),
      'key',
    );
    const { first } = await expectMasked(
      api(),
      (key) =>
        api().post(
          '/v1/admin/webhooks',
          { url: 'https://hooks.example.com/a', events: ['*'] },
          { idempotencyKey: key },
        ),
      'secret',
    );
    expect(first.body.secret).toMatch(/^whsec_/);
  });

  test('an issued customer token (ct_) and a registration token', async () => {
    const customer = await createCustomer(api());
    await expectMasked(
      api(),
      (key) => api().post(`/v1/admin/customers/${customer.id}/token`, {}, { idempotencyKey: key }),
      'token',
    );
    const email = `${unique('reg')}@example.com`;
    await expectMasked(
      api(),
      (key) =>
        api().storefront.post(
          '/v1/storefront/customer-auth/register',
          { email, password: 'correct horse battery' },
          { idempotencyKey: key },
        ),
      'token',
    );
  });

  test('replaying a sign-in after a password change never returns the old, revoked token', async () => {
    const email = `${unique('login')}@example.com`;
    const password = 'correct horse battery';
    expectStatus(
      await api().storefront.post('/v1/storefront/customer-auth/register', { email, password }),
      200,
    );
    const key = unique('idem-login-');
    const signIn = () =>
      api().storefront.post(
        '/v1/storefront/customer-auth/login',
        { email, password },
        { idempotencyKey: key },
      );
    const first = expectStatus(await signIn(), 200);
    const old = first.body.token as string;
    // A password change from another session revokes every other token, the signed-in one included.
    const other = expectStatus(
      await api().storefront.post('/v1/storefront/customer-auth/login', { email, password }),
      200,
    );
    expectStatus(
      await api().storefront.post(
        '/v1/storefront/customers/me/password',
        { current_password: password, new_password: 'tr0ub4dor & 3 staples' },
        { customerToken: other.body.token },
      ),
      200,
    );
    expect((await api().storefront.get('/v1/storefront/customers/me', { customerToken: old })).status).toBe(
      401,
    );
    const replay = await signIn();
    expect(replay.status).toBe(200);
    expect(replay.headers.get('idempotent-replayed')).toBe('true');
    expect(replay.body.token).toBe(`${old.slice(0, 12)}****`);
    expect(JSON.stringify(replay.body)).not.toContain(old);
    expect(replay.body.customer.id).toBe(first.body.customer.id);
    expect(await storedBody(api(), key)).not.toContain(old);
  });
});
