import { expect, test } from 'vitest';
import { describeApi, type TestApi } from './support/harness';

/**
 * Store locales and translations over real HTTP (decisions §21): the admin routes and every rule
 * and error; storefront reads in a locale (`locale`, or the best `Accept-Language` match) with
 * the base text as fallback and `Content-Language`; `q` over translated names; the read model
 * answering a translation edit at once; carts and orders in the shopper's locale.
 */

// biome-ignore lint/suspicious/noExplicitAny: response bodies are read field by field in assertions.
type Body = any;

async function ok(res: Promise<{ status: number; body: Body }>, status = 200): Promise<Body> {
  const done = await res;
  expect(done.status, JSON.stringify(done.body)).toBe(status);
  return done.body;
}

function put(api: TestApi, path: string, body: unknown, options: { idempotencyKey?: string } = {}) {
  return api.request('PUT', path, { body, ...options });
}

async function shirt(api: TestApi, name = 'T-Shirt'): Promise<Body> {
  return ok(
    api.post('/v1/admin/products', {
      name,
      description: 'Organic cotton',
      status: 'active',
      options: [
        { name: 'Size', values: ['Small', 'Large'] },
        { name: 'Color', values: ['Red'] },
      ],
      variants: [
        {
          sku: `${name}-S`,
          price: 2000,
          options: { Size: 'Small', Color: 'Red' },
          inventory: { on_hand: 10 },
        },
        {
          sku: `${name}-L`,
          price: 2200,
          options: { Size: 'Large', Color: 'Red' },
          inventory: { on_hand: 10 },
        },
      ],
    }),
  );
}

function expectError(res: { status: number; body: Body }, status: number, code: string, param?: string) {
  expect(res.status, JSON.stringify(res.body)).toBe(status);
  expect(res.body.error.code).toBe(code);
  if (param !== undefined) expect(res.body.error.param).toBe(param);
}

describeApi('locales: admin', (api) => {
  test('no locales: an empty list; the storefront sends no Content-Language and refuses any locale', async () => {
    expect(await ok(api().get('/v1/admin/locales'))).toEqual({ data: [] });
    const product = await shirt(api(), 'Plain');
    const read = await api().storefront.get(`/v1/storefront/products/${product.id}`, {
      headers: { 'Accept-Language': 'ko' },
    });
    expect(read.status).toBe(200);
    expect(read.headers.get('content-language')).toBeNull();
    expectError(
      await api().storefront.get(`/v1/storefront/products/${product.id}?locale=ko`),
      404,
      'not_found',
      'locale',
    );
    expectError(await api().storefront.get('/v1/storefront/products?locale=en'), 404, 'not_found', 'locale');
  });

  test('create: canonical case, defaults, 409 duplicate_locale, 400s; the default moves; list oldest first', async () => {
    const en = await ok(
      api().post('/v1/admin/locales', { locale: 'en-us', name: 'English', is_default: true }),
    );
    expect(en).toEqual({
      id: expect.stringMatching(/^lcl_/),
      locale: 'en-US',
      name: 'English',
      is_default: true,
      is_active: true,
      created_at: expect.any(String),
    });
    expectError(
      await api().post('/v1/admin/locales', { locale: 'EN-US', name: 'Again' }),
      409,
      'duplicate_locale',
      'locale',
    );
    expectError(
      await api().post('/v1/admin/locales', { locale: 'en_US', name: 'x' }),
      400,
      'parameter_invalid',
      'locale',
    );
    expectError(await api().post('/v1/admin/locales', { locale: 'ko' }), 400, 'parameter_missing', 'name');
    expectError(await api().post('/v1/admin/locales', { name: 'x' }), 400, 'parameter_missing', 'locale');
    expectError(
      await api().post('/v1/admin/locales', { locale: 'ko', name: 'x', is_active: false }),
      400,
      'parameter_unknown',
    );
    expectError(
      await api().post('/v1/admin/locales', { locale: 'ko', name: 'x' }, { key: api().keys.publishable }),
      403,
      'forbidden',
    );
    const ko = await ok(api().post('/v1/admin/locales', { locale: 'ko', name: 'Korean' }));
    expect(ko.is_default).toBe(false);
    const fr = await ok(api().post('/v1/admin/locales', { locale: 'fr', name: 'French', is_default: true }));
    const list = await ok(api().get('/v1/admin/locales'));
    expect(list.data.map((l: Body) => [l.id, l.locale, l.is_default])).toEqual([
      [en.id, 'en-US', false],
      [ko.id, 'ko', false],
      [fr.id, 'fr', true],
    ]);
    // Another mode has its own locales.
    expect(await ok(api().get('/v1/admin/locales', { key: api().keys.liveSecret }))).toEqual({ data: [] });
    expectError(
      await api().delete(`/v1/admin/locales/${ko.id}`, { key: api().keys.liveSecret }),
      404,
      'not_found',
    );
    expect(await ok(api().delete(`/v1/admin/locales/${ko.id}`))).toEqual({ id: ko.id, deleted: true });
    expectError(await api().delete(`/v1/admin/locales/${ko.id}`), 404, 'not_found');
  });
});

describeApi('locales: PATCH', (api) => {
  test('PATCH /v1/admin/locales/{id}: the default moves (same id, translations kept) and the storefront answers it at once; 422 deactivating the default; 400s; 404', async () => {
    const en = await ok(api().post('/v1/admin/locales', { locale: 'en', name: 'English', is_default: true }));
    const ko = await ok(api().post('/v1/admin/locales', { locale: 'ko', name: 'Korean' }));
    const product = await shirt(api());
    const translation = await ok(
      put(api(), '/v1/admin/translations', {
        entity_type: 'product',
        entity_id: product.id,
        locale: 'ko',
        field: 'name',
        value: '티셔츠',
      }),
    );
    const read = async (headers: Record<string, string> = {}) => {
      const res = await api().storefront.get(`/v1/storefront/products/${product.id}`, { headers });
      expect(res.status).toBe(200);
      return [res.headers.get('content-language'), res.body.name];
    };
    // Read twice: the second may be served from the read model's pages.
    for (let i = 0; i < 2; i++) expect(await read()).toEqual(['en', 'T-Shirt']);
    expect(await read({ 'Accept-Language': 'ko' })).toEqual(['ko', '티셔츠']);

    const made = await ok(api().patch(`/v1/admin/locales/${ko.id}`, { is_default: true }));
    expect(made).toEqual({ ...ko, is_default: true });
    expect(await read()).toEqual(['ko', 'T-Shirt']);
    expect(await read({ 'Accept-Language': 'en' })).toEqual(['en', 'T-Shirt']);
    expect((await ok(api().get('/v1/admin/locales'))).data).toEqual([
      { ...en, is_default: false },
      { ...ko, is_default: true },
    ]);
    expect((await ok(api().get(`/v1/admin/translations/product/${product.id}`))).data).toEqual([translation]);

    expectError(
      await api().patch(`/v1/admin/locales/${ko.id}`, { is_active: false }),
      422,
      'locale_unavailable',
      'is_active',
    );
    const refused = await api().patch(`/v1/admin/locales/${ko.id}`, { is_active: false });
    expect(refused.body.error).toMatchObject({
      type: 'invalid_request_error',
      message: "'ko' is the default locale and cannot be deactivated: make another locale the default first",
    });
    expectError(
      await api().patch(`/v1/admin/locales/${en.id}`, { locale: 'de' }),
      400,
      'parameter_unknown',
      'locale',
    );
    expectError(
      await api().patch(`/v1/admin/locales/${en.id}`, { is_active: 'no' }),
      400,
      'parameter_invalid',
      'is_active',
    );
    expectError(await api().patch('/v1/admin/locales/lcl_nope', { name: 'x' }), 404, 'not_found');
    expectError(
      await api().patch(`/v1/admin/locales/${en.id}`, { name: 'x' }, { key: api().keys.publishable }),
      403,
      'forbidden',
    );
    // An empty body is `{}` (decisions §4): nothing changes, the locale is answered.
    expect(await ok(api().patch(`/v1/admin/locales/${en.id}`))).toEqual({ ...en, is_default: false });

    // No default at all is allowed: the base text then has no Content-Language.
    expect(
      await ok(api().patch(`/v1/admin/locales/${ko.id}`, { is_default: false, name: '한국어' })),
    ).toEqual({ ...ko, name: '한국어' });
    expect(await read()).toEqual([null, 'T-Shirt']);
    expect(await read({ 'Accept-Language': 'ko' })).toEqual(['ko', '티셔츠']);
    // A deactivated locale is no longer offered.
    await ok(api().patch(`/v1/admin/locales/${ko.id}`, { is_active: false }));
    expectError(
      await api().storefront.get(`/v1/storefront/products/${product.id}?locale=ko`),
      404,
      'not_found',
      'locale',
    );
    expect(await read({ 'Accept-Language': 'ko' })).toEqual([null, 'T-Shirt']);
  });
});

describeApi(
  'translations: admin',
  (api) => {
    test('PUT upserts by (entity, locale, field): same id, value replaced; GET by entity (?locale=); DELETE', async () => {
      await ok(api().post('/v1/admin/locales', { locale: 'en', name: 'English', is_default: true }));
      await ok(api().post('/v1/admin/locales', { locale: 'ko', name: 'Korean' }));
      await ok(api().post('/v1/admin/locales', { locale: 'fr', name: 'French' }));
      const product = await shirt(api());
      const body = {
        entity_type: 'product',
        entity_id: product.id,
        locale: 'KO',
        field: 'name',
        value: '셔츠',
      };
      const first = await ok(put(api(), '/v1/admin/translations', body));
      expect(first).toEqual({
        id: expect.stringMatching(/^tr_/),
        entity_type: 'product',
        entity_id: product.id,
        locale: 'ko',
        field: 'name',
        value: '셔츠',
        created_at: expect.any(String),
        updated_at: expect.any(String),
      });
      const second = await ok(put(api(), '/v1/admin/translations', { ...body, value: '티셔츠' }));
      expect(second).toMatchObject({ id: first.id, value: '티셔츠', created_at: first.created_at });
      // Naturally idempotent: the same PUT again answers the same record.
      expect(await ok(put(api(), '/v1/admin/translations', { ...body, value: '티셔츠' }))).toMatchObject({
        id: first.id,
        value: '티셔츠',
      });
      await ok(put(api(), '/v1/admin/translations', { ...body, locale: 'fr', value: 'Tee-shirt' }));
      await ok(put(api(), '/v1/admin/translations', { ...body, field: 'description', value: '면' }));
      const all = await ok(api().get(`/v1/admin/translations/product/${product.id}`));
      expect(all.data.map((tr: Body) => [tr.locale, tr.field, tr.value])).toEqual([
        ['fr', 'name', 'Tee-shirt'],
        ['ko', 'description', '면'],
        ['ko', 'name', '티셔츠'],
      ]);
      expect(Object.keys(all)).toEqual(['data']);
      const fr = await ok(api().get(`/v1/admin/translations/product/${product.id}?locale=fr`));
      expect(fr.data).toHaveLength(1);
      expect(await ok(api().delete(`/v1/admin/translations/${first.id}`))).toEqual({
        id: first.id,
        deleted: true,
      });
      expectError(await api().delete(`/v1/admin/translations/${first.id}`), 404, 'not_found');
    });

    test('Idempotency-Key on PUT: a retry replays the first answer; another body under the key is 409', async () => {
      const product = await shirt(api(), 'Keyed');
      const body = {
        entity_type: 'product',
        entity_id: product.id,
        locale: 'ko',
        field: 'name',
        value: '하나',
      };
      const first = await put(api(), '/v1/admin/translations', body, { idempotencyKey: 'tr-key-1' });
      expect(first.status).toBe(200);
      await ok(put(api(), '/v1/admin/translations', { ...body, value: '둘' }));
      const replay = await put(api(), '/v1/admin/translations', body, { idempotencyKey: 'tr-key-1' });
      expect(replay.status).toBe(200);
      expect(replay.headers.get('idempotent-replayed')).toBe('true');
      expect(replay.body).toEqual(first.body);
      const reused = await put(
        api(),
        '/v1/admin/translations',
        { ...body, value: '셋' },
        { idempotencyKey: 'tr-key-1' },
      );
      expectError(reused, 409, 'idempotency_key_reused');
    });

    test('every translatable type and field; 400 for unknown types and fields, 404 unknown entity, 422 locale_unavailable', async () => {
      const product = await shirt(api(), 'Errors');
      const method = await ok(
        api().post('/v1/admin/shipping-methods', { name: 'Express', description: 'Fast', price: 900 }),
      );
      const [size] = product.options;
      const valid = [
        ['product', product.id, 'name'],
        ['product', product.id, 'description'],
        ['option', size.id, 'name'],
        ['option_value', size.values[0].id, 'value'],
        ['shipping_method', method.id, 'name'],
        ['shipping_method', method.id, 'description'],
      ];
      for (const [entity_type, entity_id, field] of valid) {
        await ok(
          put(api(), '/v1/admin/translations', {
            entity_type,
            entity_id,
            locale: 'ko',
            field,
            value: 'ko text',
          }),
        );
      }
      const base = { entity_type: 'product', entity_id: product.id, locale: 'ko', field: 'name', value: 'x' };
      const refused: [Record<string, unknown>, number, string, string | undefined][] = [
        [{ entity_type: 'variant' }, 400, 'parameter_invalid', 'entity_type'],
        [{ field: 'slug' }, 400, 'parameter_invalid', 'field'],
        [
          { entity_type: 'option_value', entity_id: size.values[0].id, field: 'name' },
          400,
          'parameter_invalid',
          'field',
        ],
        [
          { entity_type: 'shipping_method', entity_id: method.id, field: 'price' },
          400,
          'parameter_invalid',
          'field',
        ],
        [{ value: 'v'.repeat(10_001) }, 400, 'parameter_invalid', 'value'],
        [{ value: undefined }, 400, 'parameter_missing', 'value'],
        [{ extra: 1 }, 400, 'parameter_unknown', 'extra'],
        [{ entity_id: 'prod_missing' }, 404, 'not_found', 'entity_id'],
        [{ entity_type: 'option', entity_id: size.values[0].id }, 404, 'not_found', 'entity_id'],
        [{ entity_type: 'shipping_method', entity_id: product.id }, 404, 'not_found', 'entity_id'],
        [{ entity_type: 'collection', entity_id: 'col_missing' }, 404, 'not_found', 'entity_id'],
        [{ locale: 'ja' }, 422, 'locale_unavailable', 'locale'],
        [{ locale: 'EN' }, 422, 'locale_unavailable', 'locale'],
      ];
      for (const [change, status, code, param] of refused) {
        const res = await put(api(), '/v1/admin/translations', { ...base, ...change });
        expectError(res, status, code, param);
      }
      // Nothing refused was stored.
      const stored = await ok(api().get(`/v1/admin/translations/product/${product.id}?locale=ko`));
      expect(stored.data.map((tr: Body) => [tr.field, tr.value])).toEqual([
        ['description', 'ko text'],
        ['name', 'ko text'],
      ]);
      expect(
        (await ok(put(api(), '/v1/admin/translations', { ...base, value: 'w'.repeat(10_000) }))).value,
      ).toHaveLength(10_000);
      expectError(
        await api().get(`/v1/admin/translations/widget/${product.id}`),
        400,
        'parameter_invalid',
        'entity_type',
      );
      expectError(await api().get('/v1/admin/translations/product/prod_missing'), 404, 'not_found');
      expectError(
        await api().get(`/v1/admin/translations/product/${product.id}`, { key: api().keys.publishable }),
        403,
        'forbidden',
      );
      // Deleting a locale deletes its translations.
      const locales = await ok(api().get('/v1/admin/locales'));
      const ko = locales.data.find((l: Body) => l.locale === 'ko');
      await ok(api().delete(`/v1/admin/locales/${ko.id}`));
      expect((await ok(api().get(`/v1/admin/translations/product/${product.id}`))).data).toEqual([]);
    });
  },
  {},
);

describeApi('locales: storefront reads', (api) => {
  let product: Body;
  let method: Body;

  test('set-up: locales en (default), ko, fr-CA and translations', async () => {
    await ok(api().post('/v1/admin/locales', { locale: 'en', name: 'English', is_default: true }));
    await ok(api().post('/v1/admin/locales', { locale: 'ko', name: 'Korean' }));
    await ok(api().post('/v1/admin/locales', { locale: 'fr-CA', name: 'French' }));
    product = await shirt(api());
    method = await ok(
      api().post('/v1/admin/shipping-methods', { name: 'Express', description: 'Fast', price: 900 }),
    );
    const [size] = product.options;
    const tr = (entity_type: string, entity_id: string, locale: string, field: string, value: string) =>
      ok(put(api(), '/v1/admin/translations', { entity_type, entity_id, locale, field, value }));
    await tr('product', product.id, 'ko', 'name', '티셔츠');
    await tr('option', size.id, 'ko', 'name', '사이즈');
    await tr('option_value', size.values[0].id, 'ko', 'value', '스몰');
    await tr('product', product.id, 'fr-CA', 'name', 'Chandail');
    await tr('shipping_method', method.id, 'ko', 'name', '특급');
  });

  test('locale: translated fields with the base text as fallback, Content-Language; list, detail and by-slug', async () => {
    for (const path of [
      `/v1/storefront/products/${product.id}?locale=ko`,
      `/v1/storefront/products/by-slug/${product.slug}?locale=KO`,
    ]) {
      const res = await api().storefront.get(path);
      expect(res.status).toBe(200);
      expect(res.headers.get('content-language')).toBe('ko');
      expect(res.body.name).toBe('티셔츠');
      expect(res.body.description).toBe('Organic cotton');
      expect(res.body.options.map((o: Body) => o.name)).toEqual(['사이즈', 'Color']);
      expect(res.body.options[0].values.map((v: Body) => v.value)).toEqual(['스몰', 'Large']);
    }
    const list = await api().storefront.get('/v1/storefront/products?locale=ko');
    expect(list.headers.get('content-language')).toBe('ko');
    expect(list.body.data.map((p: Body) => p.name)).toEqual(['티셔츠']);
    const base = await api().storefront.get(`/v1/storefront/products/${product.id}?locale=en`);
    expect(base.headers.get('content-language')).toBe('en');
    expect(base.body.name).toBe('T-Shirt');
    const admin = await ok(api().get(`/v1/admin/products/${product.id}`));
    expect(admin.name).toBe('T-Shirt');
    // The base text and the translated one are exactly the base response with the fields replaced.
    expect({
      ...(await api().storefront.get(`/v1/storefront/products/${product.id}?locale=fr-CA`)).body,
    }).toEqual({
      ...base.body,
      name: 'Chandail',
    });
  });

  test('Accept-Language: the best match among the locales (q-weights, ko-KR → ko); * or no match → the default', async () => {
    const cases: [string | undefined, string, string][] = [
      ['ko-KR,ko;q=0.9,en;q=0.5', 'ko', '티셔츠'],
      ['fr, en;q=0.1', 'fr-CA', 'Chandail'],
      ['de;q=1, fr-CA;q=0.3, ko;q=0.7', 'ko', '티셔츠'],
      ['ja, de', 'en', 'T-Shirt'],
      ['*', 'en', 'T-Shirt'],
      [undefined, 'en', 'T-Shirt'],
    ];
    for (const [header, language, name] of cases) {
      const res = await api().storefront.get(`/v1/storefront/products/${product.id}`, {
        headers: header === undefined ? {} : { 'Accept-Language': header },
      });
      expect(res.status, String(header)).toBe(200);
      expect(res.headers.get('content-language'), String(header)).toBe(language);
      expect(res.headers.get('vary') ?? '', String(header)).toContain('Accept-Language');
      expect(res.body.name, String(header)).toBe(name);
    }
    // `locale` wins over the header.
    const explicit = await api().storefront.get(`/v1/storefront/products?locale=en`, {
      headers: { 'Accept-Language': 'ko' },
    });
    expect(explicit.headers.get('content-language')).toBe('en');
    expect(explicit.body.data[0].name).toBe('T-Shirt');
  });

  test('a locale the store does not have → 404 param locale; a malformed one → 400', async () => {
    for (const path of [
      '/v1/storefront/products?locale=ja',
      `/v1/storefront/products/${product.id}?locale=fr`,
      `/v1/storefront/products/by-slug/${product.slug}?locale=de`,
      '/v1/storefront/shipping-methods?locale=ja',
    ]) {
      expectError(await api().storefront.get(path), 404, 'not_found', 'locale');
    }
    expectError(
      await api().storefront.get('/v1/storefront/products?locale=en_US'),
      400,
      'parameter_invalid',
      'locale',
    );
  });

  test('q matches the translated name in the locale, or the base name', async () => {
    const names = async (query: string, headers: Record<string, string> = {}) => {
      const res = await api().storefront.get(`/v1/storefront/products?${query}`, { headers });
      expect(res.status).toBe(200);
      return res.body.data.map((p: Body) => p.name);
    };
    expect(await names('q=%ED%8B%B0%EC%85%94%EC%B8%A0&locale=ko')).toEqual(['티셔츠']);
    expect(await names('q=shirt&locale=ko')).toEqual(['티셔츠']);
    expect(await names('q=chandail', { 'Accept-Language': 'fr-CA' })).toEqual(['Chandail']);
    expect(await names('q=chandail&locale=ko')).toEqual([]);
    expect(await names('q=chandail')).toEqual([]);
  });

  test('shipping methods in a locale, with fallback and Content-Language', async () => {
    const ko = await api().storefront.get('/v1/storefront/shipping-methods?locale=ko');
    expect(ko.headers.get('content-language')).toBe('ko');
    expect(ko.body.data.map((m: Body) => [m.name, m.description])).toEqual([['특급', 'Fast']]);
    const en = await api().storefront.get('/v1/storefront/shipping-methods', {
      headers: { 'Accept-Language': 'en-GB' },
    });
    expect(en.headers.get('content-language')).toBe('en');
    expect(en.body.data[0].name).toBe('Express');
    expect(method.name).toBe('Express');
  });

  test('the read model answers a translation edit at once (list and detail), and a deleted translation falls back', async () => {
    const detail = `/v1/storefront/products/${product.id}?locale=ko`;
    const listPath = '/v1/storefront/products?locale=ko';
    // Warm the pages.
    for (let i = 0; i < 2; i++) {
      expect((await api().storefront.get(detail)).body.name).toBe('티셔츠');
      expect((await api().storefront.get(listPath)).body.data[0].name).toBe('티셔츠');
    }
    const edited = await ok(
      put(api(), '/v1/admin/translations', {
        entity_type: 'product',
        entity_id: product.id,
        locale: 'ko',
        field: 'name',
        value: '반팔 티',
      }),
    );
    expect((await api().storefront.get(detail)).body.name).toBe('반팔 티');
    expect((await api().storefront.get(listPath)).body.data[0].name).toBe('반팔 티');
    // The other languages' pages are unchanged.
    expect((await api().storefront.get(`/v1/storefront/products/${product.id}`)).body.name).toBe('T-Shirt');
    await ok(api().delete(`/v1/admin/translations/${edited.id}`));
    expect((await api().storefront.get(detail)).body.name).toBe('T-Shirt');
    expect((await api().storefront.get(listPath)).body.data[0].name).toBe('T-Shirt');
    // A new default locale changes Content-Language at once too.
    await ok(api().post('/v1/admin/locales', { locale: 'es', name: 'Spanish', is_default: true }));
    const now = await api().storefront.get(`/v1/storefront/products/${product.id}`);
    expect(now.headers.get('content-language')).toBe('es');
    expect(now.body.name).toBe('T-Shirt');
  });
});

describeApi('locales: categories and collections', (api) => {
  test('the category tree, a category by slug and collections (list and detail) in a locale, with fallback', async () => {
    await ok(api().post('/v1/admin/locales', { locale: 'en', name: 'English', is_default: true }));
    await ok(api().post('/v1/admin/locales', { locale: 'ko', name: 'Korean' }));
    const clothing = await ok(
      api().post('/v1/admin/categories', { name: 'Clothing', description: 'All clothes' }),
    );
    const shirts = await ok(api().post('/v1/admin/categories', { name: 'Shirts', parent_id: clothing.id }));
    const product = await shirt(api());
    const summer = await ok(
      api().post('/v1/admin/collections', {
        name: 'Summer',
        description: 'Hot days',
        product_ids: [product.id],
      }),
    );
    const tr = (entity_type: string, entity_id: string, field: string, value: string) =>
      ok(put(api(), '/v1/admin/translations', { entity_type, entity_id, locale: 'ko', field, value }));
    await tr('category', clothing.id, 'name', '의류');
    await tr('category', shirts.id, 'description', '셔츠 모음');
    await tr('collection', summer.id, 'name', '여름');
    await tr('product', product.id, 'name', '티셔츠');

    const tree = await api().storefront.get('/v1/storefront/categories?locale=ko');
    expect(tree.status).toBe(200);
    expect(tree.headers.get('content-language')).toBe('ko');
    expect(tree.body.data[0]).toMatchObject({ name: '의류', description: 'All clothes' });
    expect(tree.body.data[0].children[0]).toMatchObject({ name: 'Shirts', description: '셔츠 모음' });
    const bySlug = await api().storefront.get(`/v1/storefront/categories/by-slug/${clothing.slug}`, {
      headers: { 'Accept-Language': 'ko-KR' },
    });
    expect(bySlug.headers.get('content-language')).toBe('ko');
    expect(bySlug.body.name).toBe('의류');
    const base = await api().storefront.get('/v1/storefront/categories');
    expect(base.headers.get('content-language')).toBe('en');
    expect(base.body.data[0].name).toBe('Clothing');
    expect((await ok(api().get(`/v1/admin/categories/${clothing.id}`))).name).toBe('Clothing');

    const collections = await api().storefront.get('/v1/storefront/collections?locale=ko');
    expect(collections.headers.get('content-language')).toBe('ko');
    expect(collections.body.data.map((c: Body) => [c.name, c.description])).toEqual([['여름', 'Hot days']]);
    for (const path of [
      `/v1/storefront/collections/${summer.id}?locale=ko`,
      `/v1/storefront/collections/by-slug/${summer.slug}?locale=ko`,
    ]) {
      const detail = await api().storefront.get(path);
      expect(detail.status).toBe(200);
      expect(detail.headers.get('content-language')).toBe('ko');
      expect(detail.body.name).toBe('여름');
      expect(detail.body.products.map((p: Body) => p.name)).toEqual(['티셔츠']);
    }
    expect((await api().storefront.get(`/v1/storefront/collections/${summer.id}`)).body.name).toBe('Summer');
    for (const path of [
      '/v1/storefront/categories?locale=ja',
      `/v1/storefront/categories/by-slug/${clothing.slug}?locale=ja`,
      '/v1/storefront/collections?locale=ja',
      `/v1/storefront/collections/${summer.id}?locale=ja`,
    ]) {
      expectError(await api().storefront.get(path), 404, 'not_found', 'locale');
    }
    expectError(
      await put(api(), '/v1/admin/translations', {
        entity_type: 'category',
        entity_id: clothing.id,
        locale: 'ko',
        field: 'slug',
        value: 'x',
      }),
      400,
      'parameter_invalid',
      'field',
    );
  });
});

describeApi('locales: carts and orders', (api) => {
  test("a cart's locale (create or PATCH) is validated and names the order's lines at checkout", async () => {
    await ok(api().post('/v1/admin/locales', { locale: 'en', name: 'English', is_default: true }));
    await ok(api().post('/v1/admin/locales', { locale: 'ko', name: 'Korean' }));
    const product = await shirt(api());
    const [size] = product.options;
    const small = size.values.find((v: Body) => v.value === 'Small');
    const variant = product.variants.find((v: Body) => v.option_values.some((o: Body) => o.id === small.id));
    for (const [entity_type, entity_id, field, value] of [
      ['product', product.id, 'name', '티셔츠'],
      ['option', size.id, 'name', '사이즈'],
      ['option_value', small.id, 'value', '스몰'],
    ]) {
      await ok(put(api(), '/v1/admin/translations', { entity_type, entity_id, locale: 'ko', field, value }));
    }
    const items = [{ variant_id: variant.id, quantity: 1 }];
    expectError(
      await api().storefront.post('/v1/storefront/carts', { items, locale: 'ja' }),
      404,
      'not_found',
      'locale',
    );
    expectError(
      await api().storefront.post('/v1/storefront/carts', { items, locale: 'k_o' }),
      400,
      'parameter_invalid',
      'locale',
    );
    const cart = await ok(api().storefront.post('/v1/storefront/carts', { items }));
    expect(cart.locale).toBeNull();
    expectError(
      await api().storefront.patch(`/v1/storefront/carts/${cart.id}`, { locale: 'fr' }),
      404,
      'not_found',
      'locale',
    );
    const patched = await ok(
      api().storefront.patch(`/v1/storefront/carts/${cart.id}`, {
        locale: 'KO',
        email: undefined,
        shipping_address: {
          name: 'Kim',
          line1: '1 Road',
          city: 'Seoul',
          postal_code: '04524',
          country: 'KR',
        },
      }),
    );
    expect(patched.locale).toBe('ko');
    const order = await ok(
      api().storefront.post(`/v1/storefront/carts/${cart.id}/checkout`, {
        email: 'kim@example.com',
        payment_provider: 'manual',
      }),
      201,
    );
    expect(order.lines[0]).toMatchObject({
      product_name: '티셔츠',
      variant_name: '스몰 / Red',
      option_values: { 사이즈: '스몰', Color: 'Red' },
    });
  });
});
