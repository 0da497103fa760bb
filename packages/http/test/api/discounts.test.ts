import type { Discount } from '@cartwright/core';
import { expect, test } from 'vitest';
import { createDiscount, usd } from './support/catalog-fixtures';
import { describeApi } from './support/harness';

const ISO = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}(\.\d{3})?Z$/;

describeApi('discounts', (api) => {
  test('POST /v1/admin/discounts creates a code discount with the full wire shape', async () => {
    const res = await api().post('/v1/admin/discounts', {
      name: 'Spring sale',
      description: '10 % off shirts',
      code: 'SPRING10',
      value_type: 'percentage',
      value: 10,
      usage_limit: 100,
      per_customer_limit: 1,
      minimum_amount: 5000,
      maximum_discount: { amount: 2500, currency: 'USD' },
      starts_at: '2024-03-01T00:00:00Z',
      ends_at: '2099-03-31T23:59:59Z',
      conditions: [{ type: 'product_tag', values: ['shirts'] }],
      metadata: { campaign: 'spring' },
    });
    expect(res.status).toBe(200);
    const d = res.body;
    expect(d.id).toMatch(/^disc_/);
    expect(d).toMatchObject({
      name: 'Spring sale',
      description: '10 % off shirts',
      code: 'SPRING10',
      type: 'code',
      value_type: 'percentage',
      value: 10,
      target: 'order',
      usage_limit: 100,
      usage_count: 0,
      per_customer_limit: 1,
      minimum_amount: usd(5000),
      maximum_discount: usd(2500),
      starts_at: '2024-03-01T00:00:00.000Z',
      ends_at: '2099-03-31T23:59:59.000Z',
      is_active: true,
      metadata: { campaign: 'spring' },
    });
    expect(d.conditions).toHaveLength(1);
    expect(d.conditions[0].id).toMatch(/^cond_/);
    expect(d.conditions[0]).toMatchObject({ type: 'product_tag', operator: 'in', values: ['shirts'] });
    expect(d.created_at).toMatch(ISO);

    const got = await api().get(`/v1/admin/discounts/${d.id}`);
    expect(got.status).toBe(200);
    expect(got.body).toEqual(d);
  });

  test('automatic and free_shipping discounts: code null, target defaults, value 0', async () => {
    const auto = await api().post('/v1/admin/discounts', {
      name: 'Auto 5 off',
      type: 'automatic',
      value_type: 'fixed',
      value: 500,
    });
    expect(auto.status).toBe(200);
    expect(auto.body).toMatchObject({ type: 'automatic', code: null, target: 'order', value: 500 });
    expect(auto.body.minimum_amount).toBeNull();
    expect(auto.body.usage_limit).toBeNull();
    expect(auto.body.starts_at).toBeNull();

    const free = await api().post('/v1/admin/discounts', {
      name: 'Free ship',
      code: `SHIPFREE-${Date.now()}`,
      value_type: 'free_shipping',
    });
    expect(free.status).toBe(200);
    expect(free.body).toMatchObject({ value_type: 'free_shipping', target: 'shipping', value: 0 });
  });

  test('codes are unique case-insensitively → 409 duplicate_code (param code), on create and update', async () => {
    const code = `UNIQ${Date.now()}`;
    await createDiscount(api(), { code, value_type: 'fixed', value: 100 });
    const dup = await api().post('/v1/admin/discounts', {
      name: 'Other',
      code: code.toLowerCase(),
      value_type: 'fixed',
      value: 100,
    });
    expect(dup.status).toBe(409);
    expect(dup.body.error).toMatchObject({ code: 'duplicate_code', param: 'code', type: 'conflict_error' });

    const other = await createDiscount(api(), { value_type: 'fixed', value: 100 });
    const patch = await api().patch(`/v1/admin/discounts/${other.id}`, { code: code.toLowerCase() });
    expect(patch.status).toBe(409);
    expect(patch.body.error).toMatchObject({ code: 'duplicate_code', param: 'code' });
  });

  test('validation: missing code, bad percentage, unknown field, currency mismatch, automatic with code', async () => {
    const noCode = await api().post('/v1/admin/discounts', { name: 'x', value_type: 'fixed', value: 1 });
    expect(noCode.status).toBe(400);
    expect(noCode.body.error).toMatchObject({ code: 'parameter_missing', param: 'code' });

    const pct = await api().post('/v1/admin/discounts', {
      name: 'x',
      code: 'PCT101',
      value_type: 'percentage',
      value: 101,
    });
    expect(pct.status).toBe(400);
    expect(pct.body.error).toMatchObject({ code: 'parameter_invalid', param: 'value' });

    const zero = await api().post('/v1/admin/discounts', {
      name: 'x',
      code: 'PCT0',
      value_type: 'percentage',
      value: 0,
    });
    expect(zero.status).toBe(400);
    expect(zero.body.error.param).toBe('value');

    const unknown = await api().post('/v1/admin/discounts', {
      name: 'x',
      code: 'UNK1',
      value_type: 'fixed',
      value: 1,
      usage_count: 5,
    });
    expect(unknown.status).toBe(400);
    expect(unknown.body.error).toMatchObject({ code: 'parameter_unknown', param: 'usage_count' });

    const currency = await api().post('/v1/admin/discounts', {
      name: 'x',
      code: 'EUR1',
      value_type: 'fixed',
      value: 100,
      minimum_amount: { amount: 1000, currency: 'EUR' },
    });
    expect(currency.status).toBe(422);
    expect(currency.body.error).toMatchObject({ code: 'currency_mismatch', param: 'minimum_amount' });

    const autoCode = await api().post('/v1/admin/discounts', {
      name: 'x',
      type: 'automatic',
      code: 'AUTO1',
      value_type: 'fixed',
      value: 1,
    });
    expect(autoCode.status).toBe(400);
    expect(autoCode.body.error.param).toBe('code');

    const badType = await api().post('/v1/admin/discounts', {
      name: 'x',
      code: 'BT1',
      value_type: 'bogus',
      value: 1,
    });
    expect(badType.status).toBe(400);
    expect(badType.body.error.param).toBe('value_type');
  });

  test('GET /v1/admin/discounts filters by type and is_active and paginates', async () => {
    const marker = `list-${Date.now()}`;
    const a = await createDiscount(api(), { value_type: 'fixed', value: 1, metadata: { marker } });
    const b = await createDiscount(api(), {
      value_type: 'fixed',
      value: 2,
      is_active: false,
      metadata: { marker },
    });
    const c = await createDiscount(api(), {
      type: 'automatic',
      value_type: 'fixed',
      value: 3,
      is_active: false,
    });

    const automatic = await api().get('/v1/admin/discounts?type=automatic&limit=100');
    expect(automatic.status).toBe(200);
    expect(automatic.body.data.every((d: Discount) => d.type === 'automatic')).toBe(true);
    expect(automatic.body.data.map((d: Discount) => d.id)).toContain(c.id);

    const inactiveCodes = await api().get('/v1/admin/discounts?type=code&is_active=false&limit=100');
    const ids = inactiveCodes.body.data.map((d: Discount) => d.id);
    expect(ids).toContain(b.id);
    expect(ids).not.toContain(a.id);
    expect(ids).not.toContain(c.id);
    expect(inactiveCodes.body.total_count).toBe(inactiveCodes.body.data.length);

    const page1 = await api().get('/v1/admin/discounts?limit=2');
    expect(page1.body.data).toHaveLength(2);
    expect(page1.body.has_more).toBe(true);
    expect(page1.body.next_cursor).toBe(page1.body.data[1].id);
    const page2 = await api().get(`/v1/admin/discounts?limit=2&starting_after=${page1.body.next_cursor}`);
    expect(page2.status).toBe(200);
    const seen = [...page1.body.data, ...page2.body.data];
    expect(new Set(seen.map((d: Discount) => d.id)).size).toBe(seen.length);
    // newest first
    const times = seen.map((d: Discount) => Date.parse(d.created_at));
    expect([...times].sort((x, y) => y - x)).toEqual(times);

    const badFilter = await api().get('/v1/admin/discounts?type=bogus');
    expect(badFilter.status).toBe(400);
    expect(badFilter.body.error.param).toBe('type');
    const badBool = await api().get('/v1/admin/discounts?is_active=yes');
    expect(badBool.status).toBe(400);
  });

  test('PATCH updates fields and checks rules against the stored discount', async () => {
    const d = await createDiscount(api(), { value_type: 'percentage', value: 10, minimum_amount: 1000 });
    const res = await api().patch(`/v1/admin/discounts/${d.id}`, {
      name: 'Renamed',
      value: 15,
      minimum_amount: null,
      maximum_discount: 300,
      conditions: [{ type: 'product', operator: 'not_in', values: ['prod_x'] }],
      metadata: { a: 1 },
    });
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({
      name: 'Renamed',
      value: 15,
      minimum_amount: null,
      maximum_discount: usd(300),
      metadata: { a: 1 },
    });
    expect(res.body.conditions[0]).toMatchObject({ type: 'product', operator: 'not_in', values: ['prod_x'] });

    const tooMuch = await api().patch(`/v1/admin/discounts/${d.id}`, { value: 150 });
    expect(tooMuch.status).toBe(400);
    expect(tooMuch.body.error).toMatchObject({ code: 'parameter_invalid', param: 'value' });

    const typeChange = await api().patch(`/v1/admin/discounts/${d.id}`, { type: 'automatic' });
    expect(typeChange.status).toBe(400);
    expect(typeChange.body.error).toMatchObject({ code: 'parameter_invalid', param: 'type' });

    const noCode = await api().patch(`/v1/admin/discounts/${d.id}`, { code: null });
    expect(noCode.status).toBe(400);
    expect(noCode.body.error.param).toBe('code');

    const window = await api().patch(`/v1/admin/discounts/${d.id}`, { starts_at: '2030-01-02T00:00:00Z' });
    expect(window.status).toBe(200);
    const badWindow = await api().patch(`/v1/admin/discounts/${d.id}`, { ends_at: '2030-01-01T00:00:00Z' });
    expect(badWindow.status).toBe(400);
    expect(badWindow.body.error.param).toBe('ends_at');

    const toFree = await api().patch(`/v1/admin/discounts/${d.id}`, { value_type: 'free_shipping' });
    expect(toFree.status).toBe(200);
    expect(toFree.body).toMatchObject({ value_type: 'free_shipping', target: 'shipping', value: 0 });

    const unknown = await api().patch(`/v1/admin/discounts/${d.id}`, { usage_count: 3 });
    expect(unknown.status).toBe(400);
    expect(unknown.body.error.code).toBe('parameter_unknown');

    const currency = await api().patch(`/v1/admin/discounts/${d.id}`, {
      maximum_discount: { amount: 1, currency: 'GBP' },
    });
    expect(currency.status).toBe(422);
    expect(currency.body.error).toMatchObject({ code: 'currency_mismatch', param: 'maximum_discount' });

    const missing = await api().patch('/v1/admin/discounts/disc_unknown', { name: 'x' });
    expect(missing.status).toBe(404);
    expect(missing.body.error.code).toBe('not_found');
  });

  test('DELETE returns { id, deleted: true }, then the discount is gone', async () => {
    const d = await createDiscount(api(), { value_type: 'fixed', value: 100 });
    const res = await api().delete(`/v1/admin/discounts/${d.id}`);
    expect(res.status).toBe(200);
    expect(res.body).toEqual({ id: d.id, deleted: true });
    expect((await api().get(`/v1/admin/discounts/${d.id}`)).status).toBe(404);
    const again = await api().delete(`/v1/admin/discounts/${d.id}`);
    expect(again.status).toBe(404);
    expect(again.body.error.code).toBe('not_found');
  });

  test('isolation: live-mode discounts are 404 to the test key; publishable keys are forbidden', async () => {
    const live = await api().post(
      '/v1/admin/discounts',
      { name: 'Live', code: `LIVE${Date.now()}`, value_type: 'fixed', value: 1 },
      { key: api().keys.liveSecret },
    );
    expect(live.status).toBe(200);
    const fromTest = await api().get(`/v1/admin/discounts/${live.body.id}`);
    expect(fromTest.status).toBe(404);
    const list = await api().get('/v1/admin/discounts?limit=100');
    expect(list.body.data.map((d: Discount) => d.id)).not.toContain(live.body.id);
    // the same code may exist in the other mode
    const sameCode = await api().post('/v1/admin/discounts', {
      name: 'Test',
      code: live.body.code,
      value_type: 'fixed',
      value: 1,
    });
    expect(sameCode.status).toBe(200);

    const pk = await api().storefront.get('/v1/admin/discounts');
    expect(pk.status).toBe(403);
    expect(pk.body.error.code).toBe('forbidden');
  });
});
