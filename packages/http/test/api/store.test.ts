import { expect, test } from 'vitest';
import { describeApi } from './support/harness';

describeApi('store, organization and API keys', (api) => {
  test('GET /v1/admin/store shows the store settings; a publishable key gets 403 forbidden', async () => {
    const res = await api().get('/v1/admin/store');
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({
      id: api().scope.store_id,
      currency: 'USD',
      prices_include_tax: false,
      tax_rate: 0,
    });
    const forbidden = await api().storefront.get('/v1/admin/store');
    expect(forbidden.status).toBe(403);
    expect(forbidden.body.error).toMatchObject({ type: 'permission_error', code: 'forbidden' });
  });

  test('PATCH /v1/admin/store sets tax (8.875 round-trips exactly) and is shared by both modes', async () => {
    const res = await api().patch('/v1/admin/store', {
      name: 'Corner Shop',
      tax_rate: 8.875,
      prices_include_tax: true,
      timezone: 'Europe/Paris',
    });
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({
      name: 'Corner Shop',
      tax_rate: 8.875,
      prices_include_tax: true,
      timezone: 'Europe/Paris',
    });
    const live = await api().get('/v1/admin/store', { key: api().keys.liveSecret });
    expect(live.body).toMatchObject({ name: 'Corner Shop', tax_rate: 8.875 });
    await api().patch('/v1/admin/store', { tax_rate: 0, prices_include_tax: false });
  });

  test('PATCH /v1/admin/store refuses bad values with 400 and the field as param', async () => {
    const cases: Array<[unknown, string, string]> = [
      [{ tax_rate: 101 }, 'parameter_invalid', 'tax_rate'],
      [{ timezone: 'Mars/Olympus' }, 'parameter_invalid', 'timezone'],
      [{ currency: 'dollars' }, 'parameter_invalid', 'currency'],
      [{ nickname: 'x' }, 'parameter_unknown', 'nickname'],
    ];
    for (const [body, code, param] of cases) {
      const res = await api().patch('/v1/admin/store', body);
      expect(res.status, JSON.stringify(body)).toBe(400);
      expect(res.body.error).toMatchObject({ code, param });
    }
  });

  test('the currency can change while the store is empty, and is locked (409) once a product exists', async () => {
    const changed = await api().patch('/v1/admin/store', { currency: 'eur' });
    expect(changed.status).toBe(200);
    expect(changed.body.currency).toBe('EUR');
    await api().patch('/v1/admin/store', { currency: 'USD' });
    const product = await api().post('/v1/admin/products', {
      name: 'Lock',
      variants: [{ sku: 'LOCK-1', price: 100 }],
    });
    expect(product.status).toBe(200);
    const locked = await api().patch('/v1/admin/store', { currency: 'GBP' });
    expect(locked.status).toBe(409);
    expect(locked.body.error).toMatchObject({ code: 'currency_locked', param: 'currency' });
    const same = await api().patch('/v1/admin/store', { currency: 'USD' });
    expect(same.status).toBe(200);
  });

  test('organization: GET and PATCH name, billing_email, metadata (replaced as a whole)', async () => {
    const org = await api().get('/v1/admin/organization');
    expect(org.status).toBe(200);
    expect(org.body).toMatchObject({ plan: 'free', billing_email: null });
    const updated = await api().patch('/v1/admin/organization', {
      name: 'Acme Ltd',
      billing_email: 'billing@acme.test',
      metadata: { vat: 'GB1', tier: 2 },
    });
    expect(updated.body).toMatchObject({
      name: 'Acme Ltd',
      billing_email: 'billing@acme.test',
      metadata: { vat: 'GB1', tier: 2 },
    });
    const replaced = await api().patch('/v1/admin/organization', { metadata: { tier: 3 } });
    expect(replaced.body.metadata).toEqual({ tier: 3 });
    const bad = await api().patch('/v1/admin/organization', { billing_email: 'not-an-email' });
    expect(bad.status).toBe(400);
    expect(bad.body.error.param).toBe('billing_email');
  });

  test('API keys: create shows the key once, it works at once, lists show only the prefix, delete revokes', async () => {
    const created = await api().post('/v1/admin/api-keys', {
      name: 'pos',
      key_type: 'publishable',
      mode: 'test',
    });
    expect(created.status).toBe(200);
    expect(created.body.key).toMatch(/^pk_test_/);
    expect(created.body.key_prefix).toBe(created.body.key.slice(0, 12));
    const works = await api().get('/v1/storefront/products', { key: created.body.key });
    expect(works.status).toBe(200);

    const list = await api().get('/v1/admin/api-keys?limit=100');
    expect(list.status).toBe(200);
    const listed = list.body.data.find((k: { id: string }) => k.id === created.body.id);
    expect(listed).toMatchObject({ name: 'pos', key_type: 'publishable', mode: 'test' });
    expect(JSON.stringify(list.body)).not.toContain(created.body.key);
    // live keys are not listed by a test key
    expect(list.body.data.every((k: { mode: string }) => k.mode === 'test')).toBe(true);

    const deleted = await api().delete(`/v1/admin/api-keys/${created.body.id}`);
    expect(deleted.body).toEqual({ id: created.body.id, deleted: true });
    const revoked = await api().get('/v1/storefront/products', { key: created.body.key });
    expect(revoked.status).toBe(401);
    expect(revoked.body.error.code).toBe('invalid_api_key');
    const again = await api().delete(`/v1/admin/api-keys/${created.body.id}`);
    expect(again.status).toBe(404);
  });

  test('API keys: rotate returns a new key under the same id and the old one stops working at once', async () => {
    const created = await api().post('/v1/admin/api-keys', { name: 'ci', key_type: 'secret', mode: 'test' });
    // used first, so the engine has it among its recently verified keys
    expect((await api().get('/v1/admin/store', { key: created.body.key })).status).toBe(200);
    const rotated = await api().post(`/v1/admin/api-keys/${created.body.id}/rotate`);
    expect(rotated.status).toBe(200);
    expect(rotated.body.key).toMatch(/^sk_test_/);
    expect(rotated.body.id).toBe(created.body.id);
    expect(rotated.body.key).not.toBe(created.body.key);
    expect((await api().get('/v1/admin/store', { key: created.body.key })).status).toBe(401);
    expect((await api().get('/v1/admin/store', { key: rotated.body.key })).status).toBe(200);
  });

  test('API keys: a key may only create keys of its own mode (403), bad kinds are 400, expired keys stop working', async () => {
    const cross = await api().post('/v1/admin/api-keys', { name: 'x', key_type: 'secret', mode: 'live' });
    expect(cross.status).toBe(403);
    expect(cross.body.error).toMatchObject({ code: 'forbidden', param: 'mode' });
    const bad = await api().post('/v1/admin/api-keys', { name: 'x', key_type: 'admin', mode: 'test' });
    expect(bad.status).toBe(400);
    expect(bad.body.error).toMatchObject({ code: 'parameter_invalid', param: 'key_type' });
    const past = await api().post('/v1/admin/api-keys', {
      name: 'x',
      key_type: 'secret',
      mode: 'test',
      expires_at: '2001-01-01T00:00:00Z',
    });
    expect(past.status).toBe(400);
    expect(past.body.error.param).toBe('expires_at');
  });

  test('authentication: missing or malformed header → 401 unauthenticated; unknown key → 401 invalid_api_key; live and test data are apart', async () => {
    const none = await api().get('/v1/admin/store', { key: null });
    expect(none.status).toBe(401);
    expect(none.body.error).toMatchObject({ type: 'authentication_error', code: 'unauthenticated' });
    const malformed = await api().get('/v1/admin/store', {
      key: null,
      headers: { authorization: 'Basic abc' },
    });
    expect(malformed.body.error.code).toBe('unauthenticated');
    const unknown = await api().get('/v1/admin/store', { key: 'sk_test_doesNotExist000000000000000000' });
    expect(unknown.status).toBe(401);
    expect(unknown.body.error.code).toBe('invalid_api_key');

    const product = await api().post('/v1/admin/products', {
      name: 'Test-only',
      variants: [{ sku: 'TONLY', price: 100 }],
    });
    const fromLive = await api().get(`/v1/admin/products/${product.body.id}`, { key: api().keys.liveSecret });
    expect(fromLive.status).toBe(404);
    expect(fromLive.body.error.code).toBe('not_found');
  });
});
