import { expect, test } from 'vitest';
import { describeApi, type TestApi } from './support/harness';

/**
 * Regions, region prices and currency rates over real HTTP on every engine (decisions §19): the
 * admin routes with their statuses and shapes, every refusal (and that it changes nothing), the
 * storefront's active regions, and `Idempotency-Key` on `PUT` as on `POST`.
 */

// biome-ignore lint/suspicious/noExplicitAny: response bodies are read field by field in assertions.
type Body = any;

async function ok(res: Promise<{ status: number; body: Body }>, status = 200): Promise<Body> {
  const done = await res;
  expect(done.status, JSON.stringify(done.body)).toBe(status);
  return done.body;
}

function put(
  api: TestApi,
  path: string,
  body: unknown,
  options: { idempotencyKey?: string; key?: string } = {},
) {
  return api.request('PUT', path, { body, ...options });
}

function expectError(res: { status: number; body: Body }, status: number, code: string, param?: string) {
  expect(res.status, JSON.stringify(res.body)).toBe(status);
  expect(res.body.error.code).toBe(code);
  if (param !== undefined) expect(res.body.error.param).toBe(param);
}

async function product(api: TestApi, sku: string, price = 2000): Promise<{ id: string; variant_id: string }> {
  const created = await ok(
    api.post('/v1/admin/products', {
      name: `Tee ${sku}`,
      status: 'active',
      variants: [{ sku, price, inventory: { on_hand: 10 } }],
    }),
  );
  return { id: created.id, variant_id: created.variants[0].id };
}

/** Everything the region routes store, to prove a refusal changed nothing. */
async function snapshot(api: TestApi): Promise<Body> {
  const regions = await ok(api.get('/v1/admin/regions'));
  const prices: Body[] = [];
  for (const region of regions.data) prices.push(await ok(api.get(`/v1/admin/regions/${region.id}/prices`)));
  return { regions, prices, rates: await ok(api.get('/v1/admin/currency-rates')) };
}

describeApi('regions: admin', (api) => {
  test('POST 200 with the store defaults; GET one; GET all by name in one page; other mode apart', async () => {
    const store = await ok(api().get('/v1/admin/store'));
    const jp = await ok(api().post('/v1/admin/regions', { name: 'Japan', code: 'jp', currency: 'jpy' }));
    expect(jp).toEqual({
      id: expect.stringMatching(/^reg_/),
      name: 'Japan',
      code: 'jp',
      currency: 'JPY',
      tax_rate: store.tax_rate,
      prices_include_tax: store.prices_include_tax,
      is_default: false,
      is_active: true,
      metadata: {},
      created_at: expect.any(String),
      updated_at: jp.created_at,
    });
    const eu = await ok(
      api().post('/v1/admin/regions', {
        name: 'Europe',
        code: 'eu',
        currency: 'EUR',
        tax_rate: 20,
        prices_include_tax: true,
        is_default: true,
        metadata: { note: 'VAT included' },
      }),
    );
    expect(eu).toMatchObject({
      tax_rate: 20,
      prices_include_tax: true,
      is_default: true,
      metadata: { note: 'VAT included' },
    });
    expect(await ok(api().get(`/v1/admin/regions/${eu.id}`))).toEqual(eu);
    expect(await ok(api().get('/v1/admin/regions'))).toEqual({
      data: [eu, jp],
      total_count: 2,
      has_more: false,
      next_cursor: null,
    });
    expect((await ok(api().get('/v1/admin/regions', { key: api().keys.liveSecret }))).data).toEqual([]);
    expectError(
      await api().get(`/v1/admin/regions/${eu.id}`, { key: api().keys.liveSecret }),
      404,
      'not_found',
    );
  });

  test('every refusal of POST and PATCH, and none changes anything', async () => {
    const eu = (await ok(api().get('/v1/admin/regions'))).data.find((r: Body) => r.code === 'eu');
    const before = await snapshot(api());
    const bad: [unknown, number, string, string | undefined][] = [
      [{ name: 'x', code: 'eu', currency: 'EUR' }, 409, 'duplicate_code', 'code'],
      [{ name: 'x', code: 'EU2', currency: 'EUR' }, 400, 'parameter_invalid', 'code'],
      [{ name: 'x', code: 'x'.repeat(33), currency: 'EUR' }, 400, 'parameter_invalid', 'code'],
      [{ name: 'x', code: '', currency: 'EUR' }, 400, 'parameter_invalid', 'code'],
      [{ name: 'x', currency: 'EUR' }, 400, 'parameter_missing', 'code'],
      [{ code: 'x', currency: 'EUR' }, 400, 'parameter_missing', 'name'],
      [{ name: 'x', code: 'x' }, 400, 'parameter_missing', 'currency'],
      [{ name: 'x', code: 'x', currency: 'XAU' }, 400, 'parameter_invalid', 'currency'],
      [{ name: 'x', code: 'x', currency: 'ABC' }, 400, 'parameter_invalid', 'currency'],
      [{ name: 'x', code: 'x', currency: 'EUR', tax_rate: 101 }, 400, 'parameter_invalid', 'tax_rate'],
      [{ name: 'x', code: 'x', currency: 'EUR', tax_rate: 0.1234567 }, 400, 'parameter_invalid', 'tax_rate'],
      [{ name: 'x', code: 'x', currency: 'EUR', is_default: 'yes' }, 400, 'parameter_invalid', 'is_default'],
      [{ name: 'x', code: 'x', currency_code: 'EUR' }, 400, 'parameter_unknown', 'currency_code'],
      [{ name: 'x', code: 'x', currency: 'EUR', countries: ['DE'] }, 400, 'parameter_unknown', 'countries'],
      [{ name: 'x', code: 'x', currency: 'EUR', metadata: 'no' }, 400, 'parameter_invalid', 'metadata'],
    ];
    for (const [body, status, code, param] of bad) {
      expectError(await api().post('/v1/admin/regions', body), status, code, param);
    }
    expectError(
      await api().post(
        '/v1/admin/regions',
        { name: 'x', code: 'x', currency: 'EUR' },
        { key: api().keys.publishable },
      ),
      403,
      'forbidden',
    );
    expectError(
      await api().post('/v1/admin/regions', { name: 'x', code: 'x', currency: 'EUR' }, { key: null }),
      401,
      'unauthenticated',
    );
    const badPatches: [unknown, number, string, string | undefined][] = [
      [{ code: 'europe' }, 400, 'parameter_unknown', 'code'],
      [{ currency: 'eu' }, 400, 'parameter_invalid', 'currency'],
      [{ currency: 'XDR' }, 400, 'parameter_invalid', 'currency'],
      [{ tax_rate: -1 }, 400, 'parameter_invalid', 'tax_rate'],
      [{ name: '' }, 400, 'parameter_invalid', 'name'],
      [{ is_active: null }, 400, 'parameter_invalid', 'is_active'],
    ];
    for (const [body, status, code, param] of badPatches) {
      expectError(await api().patch(`/v1/admin/regions/${eu.id}`, body), status, code, param);
    }
    expectError(await api().patch('/v1/admin/regions/reg_nope', { name: 'x' }), 404, 'not_found');
    expectError(await api().patch('/v1/admin/regions/not-an-id', { name: 'x' }), 404, 'not_found');
    expectError(await api().get('/v1/admin/regions/reg_nope'), 404, 'not_found');
    expectError(await api().delete('/v1/admin/regions/reg_nope'), 404, 'not_found');
    expect(await snapshot(api())).toEqual(before);
  });

  test('PATCH: fields replace; is_default moves; currency_locked once a price exists; DELETE', async () => {
    const { data } = await ok(api().get('/v1/admin/regions'));
    const eu = data.find((r: Body) => r.code === 'eu');
    const jp = data.find((r: Body) => r.code === 'jp');
    const updated = await ok(
      api().patch(`/v1/admin/regions/${jp.id}`, { is_default: true, tax_rate: 10, metadata: { a: 1 } }),
    );
    expect(updated).toMatchObject({
      id: jp.id,
      code: 'jp',
      is_default: true,
      tax_rate: 10,
      metadata: { a: 1 },
    });
    expect((await ok(api().get(`/v1/admin/regions/${eu.id}`))).is_default).toBe(false);

    const tee = await product(api(), 'REG-LOCK');
    // No price yet: the currency may change.
    expect((await ok(api().patch(`/v1/admin/regions/${jp.id}`, { currency: 'krw' }))).currency).toBe('KRW');
    await ok(put(api(), `/v1/admin/regions/${jp.id}/prices`, { variant_id: tee.variant_id, price: 30000 }));
    const before = await snapshot(api());
    expectError(
      await api().patch(`/v1/admin/regions/${jp.id}`, { currency: 'JPY', name: 'Japan again' }),
      409,
      'currency_locked',
      'currency',
    );
    expect(await snapshot(api())).toEqual(before);
    // The same currency is no change.
    expect(
      (await ok(api().patch(`/v1/admin/regions/${jp.id}`, { currency: 'KRW', name: 'Korea' }))).name,
    ).toBe('Korea');

    expect(await ok(api().delete(`/v1/admin/regions/${jp.id}`))).toEqual({ id: jp.id, deleted: true });
    expectError(await api().get(`/v1/admin/regions/${jp.id}`), 404, 'not_found');
    expectError(await api().get(`/v1/admin/regions/${jp.id}/prices`), 404, 'not_found');
    expectError(await api().delete(`/v1/admin/regions/${jp.id}`), 404, 'not_found');
  });

  test('GET /v1/storefront/regions: the active regions by name, with a publishable key', async () => {
    const asia = await ok(
      api().post('/v1/admin/regions', { name: 'Asia', code: 'asia', currency: 'SGD', is_active: false }),
    );
    const before = (await ok(api().storefront.get('/v1/storefront/regions'))).data.map((r: Body) => r.code);
    expect(before).not.toContain('asia');
    await ok(api().patch(`/v1/admin/regions/${asia.id}`, { is_active: true }));
    const after = await ok(api().storefront.get('/v1/storefront/regions'));
    expect(after.data[0]).toEqual({ ...asia, is_active: true, updated_at: expect.any(String) });
    expect(after).toMatchObject({ has_more: false, next_cursor: null, total_count: after.data.length });
    expectError(await api().get('/v1/storefront/regions', { key: null }), 401, 'unauthenticated');
  });
});

describeApi('regions: prices', (api) => {
  test('PUT 200 creates then replaces the pair (same id); Money of the region currency; list and filter; DELETE', async () => {
    const kw = await ok(api().post('/v1/admin/regions', { name: 'Kuwait', code: 'kw', currency: 'KWD' }));
    const a = await product(api(), 'KW-A');
    const b = await product(api(), 'KW-B');
    const first = await ok(
      put(api(), `/v1/admin/regions/${kw.id}/prices`, {
        variant_id: a.variant_id,
        price: 6147,
        compare_at_price: 7000,
      }),
    );
    expect(first).toEqual({
      id: expect.stringMatching(/^rprice_/),
      region_id: kw.id,
      variant_id: a.variant_id,
      price: 6147,
      compare_at_price: 7000,
      created_at: expect.any(String),
      updated_at: expect.any(String),
    });
    const replaced = await ok(
      put(api(), `/v1/admin/regions/${kw.id}/prices`, {
        variant_id: a.variant_id,
        price: { amount: 6150, currency: 'KWD' },
      }),
    );
    expect(replaced).toMatchObject({
      id: first.id,
      created_at: first.created_at,
      price: 6150,
      compare_at_price: null,
    });
    const second = await ok(
      put(api(), `/v1/admin/regions/${kw.id}/prices`, { variant_id: b.variant_id, price: 0 }),
    );
    const list = await ok(api().get(`/v1/admin/regions/${kw.id}/prices`));
    expect(list).toEqual({
      data: [replaced, second].sort((x, y) => (x.id < y.id ? -1 : 1)),
      total_count: 2,
      has_more: false,
      next_cursor: null,
    });
    const page = await ok(api().get(`/v1/admin/regions/${kw.id}/prices?limit=1`));
    expect(page).toMatchObject({
      total_count: 2,
      has_more: true,
      next_cursor: list.data[0].id,
      data: [list.data[0]],
    });
    const rest = await ok(
      api().get(`/v1/admin/regions/${kw.id}/prices?limit=1&starting_after=${page.next_cursor}`),
    );
    expect(rest).toMatchObject({ has_more: false, next_cursor: null, data: [list.data[1]] });
    const filtered = await ok(api().get(`/v1/admin/regions/${kw.id}/prices?variant_id=${b.variant_id}`));
    expect(filtered).toMatchObject({ total_count: 1, data: [second] });
    expect(await ok(api().delete(`/v1/admin/regions/${kw.id}/prices/${b.variant_id}`))).toEqual({
      id: second.id,
      deleted: true,
    });
    expectError(await api().delete(`/v1/admin/regions/${kw.id}/prices/${b.variant_id}`), 404, 'not_found');
    expect((await ok(api().get(`/v1/admin/regions/${kw.id}/prices`))).data).toEqual([replaced]);
  });

  test('every refusal of PUT and GET prices, and none changes anything', async () => {
    const kw = (await ok(api().get('/v1/admin/regions'))).data.find((r: Body) => r.code === 'kw');
    const c = await product(api(), 'KW-C');
    const path = `/v1/admin/regions/${kw.id}/prices`;
    const before = await snapshot(api());
    const bad: [unknown, number, string, string | undefined][] = [
      [{ variant_id: 'var_nope', price: 1 }, 404, 'not_found', 'variant_id'],
      [
        { variant_id: c.variant_id, price: { amount: 100, currency: 'USD' } },
        422,
        'currency_mismatch',
        'price',
      ],
      [
        { variant_id: c.variant_id, price: 1, compare_at_price: { amount: 100, currency: 'EUR' } },
        422,
        'currency_mismatch',
        'compare_at_price',
      ],
      [{ variant_id: c.variant_id, price: -1 }, 400, 'parameter_invalid', 'price'],
      [{ variant_id: c.variant_id, price: 1.5 }, 400, 'parameter_invalid', 'price'],
      [{ variant_id: c.variant_id, price: '100' }, 400, 'parameter_invalid', 'price'],
      [{ variant_id: c.variant_id }, 400, 'parameter_missing', 'price'],
      [{ price: 1 }, 400, 'parameter_missing', 'variant_id'],
      [{ variant_id: c.variant_id, amount: 2499, currency_code: 'KWD' }, 400, 'parameter_unknown', undefined],
    ];
    for (const [body, status, code, param] of bad) {
      expectError(await put(api(), path, body), status, code, param);
    }
    expectError(
      await put(api(), '/v1/admin/regions/reg_nope/prices', { variant_id: c.variant_id, price: 1 }),
      404,
      'not_found',
    );
    expectError(
      await put(api(), path, { variant_id: c.variant_id, price: 1 }, { key: api().keys.publishable }),
      403,
      'forbidden',
    );
    expectError(await api().get('/v1/admin/regions/reg_nope/prices'), 404, 'not_found');
    expectError(await api().get(`${path}?limit=101`), 400, 'parameter_invalid', 'limit');
    expectError(
      await api().get(`${path}?starting_after=rprice_nope`),
      400,
      'parameter_invalid',
      'starting_after',
    );
    expectError(await api().delete(`${path}/var_nope`), 404, 'not_found');
    expect(await snapshot(api())).toEqual(before);
  });

  test('Idempotency-Key on PUT: a retry replays the first answer; another body under the key is 409', async () => {
    const kw = (await ok(api().get('/v1/admin/regions'))).data.find((r: Body) => r.code === 'kw');
    const d = await product(api(), 'KW-D');
    const path = `/v1/admin/regions/${kw.id}/prices`;
    const body = { variant_id: d.variant_id, price: 1000 };
    const first = await put(api(), path, body, { idempotencyKey: 'rprice-key-1' });
    expect(first.status).toBe(200);
    await ok(put(api(), path, { ...body, price: 2000 }));
    const replay = await put(api(), path, body, { idempotencyKey: 'rprice-key-1' });
    expect(replay.status).toBe(200);
    expect(replay.headers.get('idempotent-replayed')).toBe('true');
    expect(replay.body).toEqual(first.body);
    // The replay did not write: the price is still the later one.
    const stored = await ok(api().get(`${path}?variant_id=${d.variant_id}`));
    expect(stored.data[0].price).toBe(2000);
    expectError(
      await put(api(), path, { ...body, price: 3000 }, { idempotencyKey: 'rprice-key-1' }),
      409,
      'idempotency_key_reused',
    );
    expect((await ok(api().get(`${path}?variant_id=${d.variant_id}`))).data[0].price).toBe(2000);
  });
});

describeApi('regions: currency rates', (api) => {
  test('PUT 200 upserts the pair exactly (same id); GET all by from then to; DELETE', async () => {
    const eur = await ok(
      put(api(), '/v1/admin/currency-rates', { from_currency: 'usd', to_currency: 'EUR', rate: 0.92 }),
    );
    expect(eur).toEqual({
      id: expect.stringMatching(/^rate_/),
      from_currency: 'USD',
      to_currency: 'EUR',
      rate: 0.92,
      updated_at: expect.any(String),
    });
    const replaced = await ok(
      put(api(), '/v1/admin/currency-rates', {
        from_currency: 'USD',
        to_currency: 'EUR',
        rate: 0.923456789012,
      }),
    );
    expect(replaced).toMatchObject({ id: eur.id, rate: 0.923456789012 });
    const kwd = await ok(
      put(api(), '/v1/admin/currency-rates', { from_currency: 'USD', to_currency: 'KWD', rate: 0.3075 }),
    );
    const tiny = await ok(
      put(api(), '/v1/admin/currency-rates', {
        from_currency: 'KRW',
        to_currency: 'KWD',
        rate: 0.000000223456,
      }),
    );
    expect(tiny.rate).toBe(0.000000223456);
    const huge = await ok(
      put(api(), '/v1/admin/currency-rates', {
        from_currency: 'KWD',
        to_currency: 'KRW',
        rate: 4475123456.78,
      }),
    );
    expect(huge.rate).toBe(4475123456.78);
    expect(await ok(api().get('/v1/admin/currency-rates'))).toEqual({
      data: [tiny, huge, replaced, kwd],
      total_count: 4,
      has_more: false,
      next_cursor: null,
    });
    expect((await ok(api().get('/v1/admin/currency-rates', { key: api().keys.liveSecret }))).data).toEqual(
      [],
    );
    expect(await ok(api().delete(`/v1/admin/currency-rates/${tiny.id}`))).toEqual({
      id: tiny.id,
      deleted: true,
    });
    expectError(await api().delete(`/v1/admin/currency-rates/${tiny.id}`), 404, 'not_found');
  });

  test('every refusal, and none changes anything', async () => {
    const before = await snapshot(api());
    const bad: [unknown, number, string, string | undefined][] = [
      [{ from_currency: 'USD', to_currency: 'usd', rate: 1 }, 400, 'parameter_invalid', 'to_currency'],
      [{ from_currency: 'USD', to_currency: 'EUR', rate: 0 }, 400, 'parameter_invalid', 'rate'],
      [{ from_currency: 'USD', to_currency: 'EUR', rate: -0.9 }, 400, 'parameter_invalid', 'rate'],
      [{ from_currency: 'USD', to_currency: 'EUR', rate: 1.0000000000001 }, 400, 'parameter_invalid', 'rate'],
      [{ from_currency: 'USD', to_currency: 'EUR', rate: 1234567890123 }, 400, 'parameter_invalid', 'rate'],
      [{ from_currency: 'USD', to_currency: 'EUR', rate: '0.9' }, 400, 'parameter_invalid', 'rate'],
      // 999,999,999 cents × 10^7 × 10 would not be an exact amount of fils.
      [{ from_currency: 'USD', to_currency: 'KWD', rate: 10_000_000 }, 400, 'parameter_invalid', 'rate'],
      [{ from_currency: 'USD', to_currency: 'JPY', rate: 1e12 }, 400, 'parameter_invalid', 'rate'],
      [{ from_currency: 'USD', to_currency: 'EUR' }, 400, 'parameter_missing', 'rate'],
      [{ from_currency: 'XAU', to_currency: 'EUR', rate: 1 }, 400, 'parameter_invalid', 'from_currency'],
      [{ from_currency: 'USD', to_currency: 'EURO', rate: 1 }, 400, 'parameter_invalid', 'to_currency'],
      [{ from: 'USD', to: 'EUR', rate: 0.92 }, 400, 'parameter_unknown', undefined],
    ];
    for (const [body, status, code, param] of bad) {
      expectError(await put(api(), '/v1/admin/currency-rates', body), status, code, param);
    }
    expectError(
      await put(
        api(),
        '/v1/admin/currency-rates',
        { from_currency: 'USD', to_currency: 'EUR', rate: 1 },
        { key: api().keys.publishable },
      ),
      403,
      'forbidden',
    );
    expectError(await api().delete('/v1/admin/currency-rates/rate_nope'), 404, 'not_found');
    expect(await snapshot(api())).toEqual(before);
  });

  test('Idempotency-Key on PUT: a retry replays the first answer; another body under the key is 409', async () => {
    const body = { from_currency: 'USD', to_currency: 'JPY', rate: 151.37 };
    const first = await put(api(), '/v1/admin/currency-rates', body, { idempotencyKey: 'rate-key-1' });
    expect(first.status).toBe(200);
    await ok(put(api(), '/v1/admin/currency-rates', { ...body, rate: 150 }));
    const replay = await put(api(), '/v1/admin/currency-rates', body, { idempotencyKey: 'rate-key-1' });
    expect(replay.status).toBe(200);
    expect(replay.headers.get('idempotent-replayed')).toBe('true');
    expect(replay.body).toEqual(first.body);
    const rates = await ok(api().get('/v1/admin/currency-rates'));
    expect(rates.data.find((r: Body) => r.to_currency === 'JPY').rate).toBe(150);
    expectError(
      await put(api(), '/v1/admin/currency-rates', { ...body, rate: 152 }, { idempotencyKey: 'rate-key-1' }),
      409,
      'idempotency_key_reused',
    );
  });
});

describeApi(
  'regions: staff roles (decisions §23)',
  (api) => {
    const asHost = (method: string, path: string, role: 'admin' | 'member', body?: unknown) =>
      api().request(method, path, {
        key: null,
        headers: {
          'x-host-user': `host|${role}`,
          'x-host-role': role,
          'x-host-mode': 'test',
          'cartwright-csrf': '1',
        },
        ...(body !== undefined && { body }),
      });

    test('a staff member gets 403 forbidden on every admin region route, before anything is written; an admin may', async () => {
      const region = await ok(
        asHost('POST', '/v1/admin/regions', 'admin', { name: 'Europe', code: 'eu', currency: 'EUR' }),
      );
      const tee = await product(api(), 'ROLE-1');
      const rate = await ok(
        asHost('PUT', '/v1/admin/currency-rates', 'admin', {
          from_currency: 'USD',
          to_currency: 'EUR',
          rate: 0.9,
        }),
      );
      await ok(
        asHost('PUT', `/v1/admin/regions/${region.id}/prices`, 'admin', {
          variant_id: tee.variant_id,
          price: 1,
        }),
      );
      const before = await snapshot(api());
      const routes: [string, string, unknown?][] = [
        ['GET', '/v1/admin/regions'],
        ['POST', '/v1/admin/regions', { name: 'Asia', code: 'asia', currency: 'SGD' }],
        ['GET', `/v1/admin/regions/${region.id}`],
        ['PATCH', `/v1/admin/regions/${region.id}`, { name: 'Renamed' }],
        ['DELETE', `/v1/admin/regions/${region.id}`],
        ['GET', `/v1/admin/regions/${region.id}/prices`],
        ['PUT', `/v1/admin/regions/${region.id}/prices`, { variant_id: tee.variant_id, price: 2 }],
        ['DELETE', `/v1/admin/regions/${region.id}/prices/${tee.variant_id}`],
        ['GET', '/v1/admin/currency-rates'],
        ['PUT', '/v1/admin/currency-rates', { from_currency: 'USD', to_currency: 'EUR', rate: 0.8 }],
        ['DELETE', `/v1/admin/currency-rates/${rate.id}`],
      ];
      for (const [method, path, body] of routes) {
        expectError(await asHost(method, path, 'member', body), 403, 'forbidden');
      }
      expect(await snapshot(api())).toEqual(before);
      // A member still manages the catalog.
      expect((await asHost('GET', '/v1/admin/products', 'member')).status).toBe(200);
    });
  },
  {},
  {
    authorize: (request) => {
      const user = request.headers.get('x-host-user');
      if (user === null) return null;
      return {
        member_id: user,
        role: request.headers.get('x-host-role') === 'admin' ? 'admin' : 'member',
        mode: 'test' as const,
      };
    },
  },
);

describeApi('regions: deleting a region moves its carts', (api) => {
  test("the region's carts fall back to the default region (re-priced), then to the store currency", async () => {
    const tee = await product(api(), 'MOVE-1', 2000);
    const eu = await ok(
      api().post('/v1/admin/regions', { name: 'Europe', code: 'eu', currency: 'EUR', is_default: true }),
    );
    const jp = await ok(api().post('/v1/admin/regions', { name: 'Japan', code: 'jp', currency: 'JPY' }));
    await ok(put(api(), `/v1/admin/regions/${eu.id}/prices`, { variant_id: tee.variant_id, price: 1850 }));
    await ok(put(api(), `/v1/admin/regions/${jp.id}/prices`, { variant_id: tee.variant_id, price: 3000 }));
    const cart = await ok(
      api().storefront.post('/v1/storefront/carts', {
        region_id: jp.id,
        items: [{ variant_id: tee.variant_id, quantity: 1 }],
      }),
    );
    expect(cart).toMatchObject({
      region_id: jp.id,
      currency: 'JPY',
      items: [{ unit_price: { amount: 3000 } }],
    });
    await ok(api().delete(`/v1/admin/regions/${jp.id}`));
    expect(await ok(api().storefront.get(`/v1/storefront/carts/${cart.id}`))).toMatchObject({
      region_id: eu.id,
      currency: 'EUR',
      items: [{ unit_price: { amount: 1850, currency: 'EUR' } }],
    });
    await ok(api().delete(`/v1/admin/regions/${eu.id}`));
    expect(await ok(api().storefront.get(`/v1/storefront/carts/${cart.id}`))).toMatchObject({
      region_id: null,
      currency: 'USD',
      items: [{ unit_price: { amount: 2000, currency: 'USD' } }],
    });
  });
});

describeApi('regions: concurrent writers', (api) => {
  test('concurrent creations: one default at most; the same code once (the others 409 duplicate_code)', async () => {
    const made = await Promise.all(
      Array.from({ length: 8 }, (_, i) =>
        api().post('/v1/admin/regions', { name: `R${i}`, code: `r${i}`, currency: 'EUR', is_default: true }),
      ),
    );
    expect(made.map((res) => res.status)).toEqual(Array(8).fill(200));
    const { data } = await ok(api().get('/v1/admin/regions'));
    expect(data.filter((r: Body) => r.is_default)).toHaveLength(1);

    const same = await Promise.all(
      Array.from({ length: 6 }, () =>
        api().post('/v1/admin/regions', { name: 'Same', code: 'same', currency: 'GBP' }),
      ),
    );
    expect(same.filter((res) => res.status === 200)).toHaveLength(1);
    for (const res of same.filter((r) => r.status !== 200)) expectError(res, 409, 'duplicate_code', 'code');

    // Concurrent defaults by PATCH too.
    await Promise.all(data.map((r: Body) => api().patch(`/v1/admin/regions/${r.id}`, { is_default: true })));
    const after = await ok(api().get('/v1/admin/regions'));
    expect(after.data.filter((r: Body) => r.is_default)).toHaveLength(1);
  });
});
