import { afterEach, describe, expect, test } from 'vitest';
import { expectCode } from './commerce-error.test-support';
import { createTestEngine, type TestEngine } from './create-test-engine';

/**
 * Store locales and translations through the engine (decisions §21): the admin rules, storefront
 * reads in a locale with the base text as fallback, `q` over translated names, and a cart's
 * locale carried into the order's line names. The HTTP suite (packages/http/test/api/locales.test.ts)
 * asserts the wire: `Accept-Language`, `Content-Language`, statuses.
 */

let t: TestEngine | undefined;
afterEach(async () => {
  await t?.close();
  t = undefined;
});

async function shirt(engine: TestEngine) {
  return engine.store.products.create({
    name: 'T-Shirt',
    description: 'Organic cotton',
    status: 'active',
    options: [
      { name: 'Size', values: ['Small', 'Large'] },
      { name: 'Color', values: ['Red'] },
    ],
    variants: [
      { sku: 'TS-S', price: 2000, options: { Size: 'Small', Color: 'Red' }, inventory: { on_hand: 10 } },
      { sku: 'TS-L', price: 2200, options: { Size: 'Large', Color: 'Red' }, inventory: { on_hand: 10 } },
    ],
  });
}

describe('store locales', () => {
  test('canonical case, unique (409 duplicate_locale), one default at most, listed oldest first', async () => {
    t = await createTestEngine();
    const en = await t.store.locales.create({ locale: 'EN-us', name: 'English', is_default: true });
    expect(en).toMatchObject({ locale: 'en-US', name: 'English', is_default: true, is_active: true });
    expect(en.id).toMatch(/^lcl_/);
    await expectCode(
      t.store.locales.create({ locale: 'en-us', name: 'Again' }),
      'duplicate_locale',
      'locale',
    );
    await expectCode(t.store.locales.create({ locale: 'en_US', name: 'Bad' }), 'parameter_invalid', 'locale');
    t.clock.advance(1000);
    const ko = await t.store.locales.create({ locale: 'ko', name: '한국어' });
    expect(ko.is_default).toBe(false);
    t.clock.advance(1000);
    const fr = await t.store.locales.create({ locale: 'fr', name: 'Français', is_default: true });
    const { data } = await t.store.locales.list();
    expect(data.map((l) => [l.locale, l.is_default])).toEqual([
      ['en-US', false],
      ['ko', false],
      ['fr', true],
    ]);
    expect(data.map((l) => l.id)).toEqual([en.id, ko.id, fr.id]);
  });

  test('deleting a locale deletes its translations; an unknown id is 404', async () => {
    t = await createTestEngine();
    await t.store.locales.create({ locale: 'en', name: 'English', is_default: true });
    const ko = await t.store.locales.create({ locale: 'ko', name: 'Korean' });
    await t.store.locales.create({ locale: 'ja', name: 'Japanese' });
    const product = await shirt(t);
    await t.store.translations.upsert({
      entity_type: 'product',
      entity_id: product.id,
      locale: 'ko',
      field: 'name',
      value: '티셔츠',
    });
    await t.store.translations.upsert({
      entity_type: 'product',
      entity_id: product.id,
      locale: 'ja',
      field: 'name',
      value: 'Tシャツ',
    });
    expect(await t.store.locales.delete(ko.id)).toEqual({ id: ko.id, deleted: true });
    const left = await t.store.translations.list('product', product.id);
    expect(left.data.map((tr) => tr.locale)).toEqual(['ja']);
    await expectCode(t.store.locales.delete(ko.id), 'not_found');
    // Re-adding the locale brings nothing back.
    await t.store.locales.create({ locale: 'ko', name: 'Korean' });
    expect((await t.store.translations.list('product', product.id, { locale: 'ko' })).data).toEqual([]);
  });
});

describe('store locales: update (PATCH)', () => {
  test('name, is_default (clears the other; false leaves none), is_active; the tag is fixed; unknown id 404; an empty patch changes nothing', async () => {
    t = await createTestEngine();
    const en = await t.store.locales.create({ locale: 'en', name: 'English', is_default: true });
    const ko = await t.store.locales.create({ locale: 'ko', name: 'Korean' });
    const fr = await t.store.locales.create({ locale: 'fr', name: 'French' });
    const state = async () =>
      (await t!.store.locales.list()).data.map((l) => [l.id, l.locale, l.name, l.is_default, l.is_active]);

    expect(await t.store.locales.update(ko.id, { name: ' 한국어 ' })).toEqual({ ...ko, name: '한국어' });
    expect(await t.store.locales.update(ko.id, { is_default: true })).toEqual({
      ...ko,
      name: '한국어',
      is_default: true,
    });
    expect(await state()).toEqual([
      [en.id, 'en', 'English', false, true],
      [ko.id, 'ko', '한국어', true, true],
      [fr.id, 'fr', 'French', false, true],
    ]);
    // At most one default: none is allowed.
    expect((await t.store.locales.update(ko.id, { is_default: false })).is_default).toBe(false);
    expect((await state()).map((row) => row[3])).toEqual([false, false, false]);

    // An inactive locale: not offered to storefront reads nor to new translations.
    expect((await t.store.locales.update(fr.id, { is_active: false })).is_active).toBe(false);
    const product = await shirt(t);
    await expectCode(
      t.storefront().products.getStorefront(product.id, { locale: 'fr' }),
      'not_found',
      'locale',
    );
    const inactive = await expectCode(
      t.store.translations.upsert({
        entity_type: 'product',
        entity_id: product.id,
        locale: 'fr',
        field: 'name',
        value: 'T-shirt',
      }),
      'locale_unavailable',
      'locale',
    );
    expect(inactive.message).toBe(
      `'fr' is inactive; activate it first (PATCH /v1/admin/locales/${fr.id} with is_active: true)`,
    );
    expect((await t.store.locales.update(fr.id, { is_active: true })).is_active).toBe(true);
    expect((await t.storefront().products.getStorefront(product.id, { locale: 'fr' })).name).toBe('T-Shirt');

    const before = await state();
    await expectCode(t.store.locales.update(en.id, { locale: 'de' } as never), 'parameter_unknown', 'locale');
    await expectCode(
      t.store.locales.update(en.id, { is_default: 'yes' } as never),
      'parameter_invalid',
      'is_default',
    );
    await expectCode(t.store.locales.update(en.id, { name: '' }), 'parameter_invalid', 'name');
    await expectCode(t.store.locales.update('lcl_nope', { name: 'x' }), 'not_found');
    await expectCode(t.store.locales.update('lcl_nope', {}), 'not_found');
    expect(await t.store.locales.update(en.id, {})).toEqual({ ...en, is_default: false });
    expect(await state()).toEqual(before);
  });

  test('the default locale stays active: 422 locale_unavailable (param is_active, or is_default for an inactive one), nothing written', async () => {
    t = await createTestEngine();
    const en = await t.store.locales.create({ locale: 'en', name: 'English', is_default: true });
    const ko = await t.store.locales.create({ locale: 'ko', name: 'Korean' });
    const state = async () =>
      (await t!.store.locales.list()).data.map((l) => [l.locale, l.name, l.is_default, l.is_active]);
    const refused = await expectCode(
      t.store.locales.update(en.id, { is_active: false, name: 'Changed' }),
      'locale_unavailable',
      'is_active',
    );
    expect(refused.message).toBe(
      "'en' is the default locale and cannot be deactivated: make another locale the default first",
    );
    await expectCode(
      t.store.locales.update(ko.id, { is_default: true, is_active: false }),
      'locale_unavailable',
      'is_active',
    );
    expect(await state()).toEqual([
      ['en', 'English', true, true],
      ['ko', 'Korean', false, true],
    ]);
    await t.store.locales.update(ko.id, { is_active: false });
    const inactive = await expectCode(
      t.store.locales.update(ko.id, { is_default: true }),
      'locale_unavailable',
      'is_default',
    );
    expect(inactive.message).toBe(
      "'ko' is inactive and cannot be the default locale: activate it too (is_active: true)",
    );
    expect(await state()).toEqual([
      ['en', 'English', true, true],
      ['ko', 'Korean', false, false],
    ]);
    // Activated and made the default at once; the former default may then be deactivated.
    await t.store.locales.update(ko.id, { is_default: true, is_active: true });
    await t.store.locales.update(en.id, { is_active: false });
    expect(await state()).toEqual([
      ['en', 'English', false, false],
      ['ko', 'Korean', true, true],
    ]);
  });

  test('a new default is read at once by the storefront (its cached pages too); the translations into it are kept, under the same locale id', async () => {
    t = await createTestEngine();
    await t.store.locales.create({ locale: 'en', name: 'English', is_default: true });
    const ko = await t.store.locales.create({ locale: 'ko', name: 'Korean' });
    const product = await shirt(t);
    const translation = await t.store.translations.upsert({
      entity_type: 'product',
      entity_id: product.id,
      locale: 'ko',
      field: 'name',
      value: '티셔츠',
    });
    const shop = t.storefront();
    const names = async (query: { locale?: string }) => [
      (await shop.products.getStorefront(product.id, query)).name,
      (await shop.products.listStorefront(query)).data.map((p) => p.name),
    ];
    // Read twice: the second may come from the read model's pages.
    for (let i = 0; i < 2; i++) expect(await names({ locale: 'ko' })).toEqual(['티셔츠', ['티셔츠']]);
    expect(await names({})).toEqual(['T-Shirt', ['T-Shirt']]);

    const made = await t.store.locales.update(ko.id, { is_default: true });
    expect([made.id, made.locale, made.is_default]).toEqual([ko.id, 'ko', true]);
    // The default locale's text is the records' own: ko now reads the base text.
    expect(await names({ locale: 'ko' })).toEqual(['T-Shirt', ['T-Shirt']]);
    expect((await t.store.translations.list('product', product.id)).data).toEqual([translation]);
    // … and takes no new translation (the default's text is the base text).
    await expectCode(
      t.store.translations.upsert({
        entity_type: 'product',
        entity_id: product.id,
        locale: 'ko',
        field: 'name',
        value: 'x',
      }),
      'locale_unavailable',
      'locale',
    );
    // Made a plain locale again, its translations show again.
    await t.store.locales.update(ko.id, { is_default: false });
    expect(await names({ locale: 'ko' })).toEqual(['티셔츠', ['티셔츠']]);
  });
});

describe('translations', () => {
  test('upsert by (entity, locale, field): one record, same id, value replaced; list filters by locale', async () => {
    t = await createTestEngine();
    await t.store.locales.create({ locale: 'en', name: 'English', is_default: true });
    await t.store.locales.create({ locale: 'ko', name: 'Korean' });
    await t.store.locales.create({ locale: 'fr', name: 'French' });
    const product = await shirt(t);
    const first = await t.store.translations.upsert({
      entity_type: 'product',
      entity_id: product.id,
      locale: 'KO',
      field: 'name',
      value: '셔츠',
    });
    expect(first).toMatchObject({
      entity_type: 'product',
      entity_id: product.id,
      locale: 'ko',
      field: 'name',
      value: '셔츠',
    });
    expect(first.id).toMatch(/^tr_/);
    t.clock.advance(5000);
    const again = await t.store.translations.upsert({
      entity_type: 'product',
      entity_id: product.id,
      locale: 'ko',
      field: 'name',
      value: '티셔츠',
    });
    expect(again).toMatchObject({ id: first.id, value: '티셔츠', created_at: first.created_at });
    expect(again.updated_at > first.updated_at).toBe(true);
    await t.store.translations.upsert({
      entity_type: 'product',
      entity_id: product.id,
      locale: 'ko',
      field: 'description',
      value: '유기농 면',
    });
    await t.store.translations.upsert({
      entity_type: 'product',
      entity_id: product.id,
      locale: 'fr',
      field: 'name',
      value: 'Tee-shirt',
    });
    const all = await t.store.translations.list('product', product.id);
    expect(all.data.map((tr) => [tr.locale, tr.field, tr.value])).toEqual([
      ['fr', 'name', 'Tee-shirt'],
      ['ko', 'description', '유기농 면'],
      ['ko', 'name', '티셔츠'],
    ]);
    expect((await t.store.translations.list('product', product.id, { locale: 'fr' })).data).toHaveLength(1);
    expect(await t.store.translations.delete(first.id)).toEqual({ id: first.id, deleted: true });
    await expectCode(t.store.translations.delete(first.id), 'not_found');
  });

  test('every translatable type and field; unknown type/field 400, unknown entity 404, locale 422', async () => {
    t = await createTestEngine();
    await t.store.locales.create({ locale: 'en', name: 'English', is_default: true });
    await t.store.locales.create({ locale: 'ko', name: 'Korean' });
    const product = await shirt(t);
    const option = product.options[0] as { id: string; values: { id: string }[] };
    const method = await t.fixtures.shippingMethod({ name: 'Express', description: 'Fast' });
    const ok = [
      ['product', product.id, 'name'],
      ['product', product.id, 'description'],
      ['option', option.id, 'name'],
      ['option_value', option.values[0]?.id as string, 'value'],
      ['shipping_method', method.id, 'name'],
      ['shipping_method', method.id, 'description'],
    ] as const;
    for (const [entity_type, entity_id, field] of ok) {
      await t.store.translations.upsert({
        entity_type,
        entity_id,
        locale: 'ko',
        field,
        value: `${field} (ko)`,
      });
    }
    const upsert = (input: Record<string, string>) =>
      t!.store.translations.upsert({
        entity_type: 'product',
        entity_id: product.id,
        locale: 'ko',
        field: 'name',
        value: 'x',
        ...input,
      } as never);
    await expectCode(upsert({ entity_type: 'variant' }), 'parameter_invalid', 'entity_type');
    await expectCode(upsert({ field: 'slug' }), 'parameter_invalid', 'field');
    await expectCode(
      upsert({ entity_type: 'option', entity_id: option.id, field: 'value' }),
      'parameter_invalid',
      'field',
    );
    await expectCode(upsert({ value: 'x'.repeat(10_001) }), 'parameter_invalid', 'value');
    await expectCode(upsert({ entity_id: 'prod_unknown' }), 'not_found', 'entity_id');
    await expectCode(
      upsert({ entity_type: 'option_value', entity_id: option.id, field: 'value' }),
      'not_found',
      'entity_id',
    );
    await expectCode(upsert({ entity_type: 'category', entity_id: 'cat_unknown' }), 'not_found', 'entity_id');
    await expectCode(upsert({ locale: 'ja' }), 'locale_unavailable', 'locale');
    await expectCode(upsert({ locale: 'en' }), 'locale_unavailable', 'locale');
    await expectCode(upsert({ locale: 'not a tag' }), 'locale_unavailable', 'locale');
    // The longest value is accepted.
    expect((await upsert({ value: 'y'.repeat(10_000) })).value).toHaveLength(10_000);
    // Nothing refused was written.
    const stored = await t.store.translations.list('product', product.id);
    expect(stored.data.map((tr) => [tr.field, tr.value.length])).toEqual([
      ['description', 'description (ko)'.length],
      ['name', 10_000],
    ]);
    await expectCode(t.store.translations.list('widget', product.id), 'parameter_invalid', 'entity_type');
    await expectCode(t.store.translations.list('product', 'prod_unknown'), 'not_found');
    // A deleted product's translations are no longer reachable.
    await t.store.products.delete(product.id);
    await expectCode(upsert({}), 'not_found', 'entity_id');
  });
});

describe('storefront reads in a locale', () => {
  test('translated fields, base text as fallback; the default locale and no locale answer the base text', async () => {
    t = await createTestEngine();
    const product = await shirt(t);
    const shop = t.storefront();
    // No locales yet: any `locale` is 404.
    await expectCode(shop.products.getStorefront(product.id, { locale: 'ko' }), 'not_found', 'locale');
    await t.store.locales.create({ locale: 'en', name: 'English', is_default: true });
    await t.store.locales.create({ locale: 'ko', name: 'Korean' });
    const size = product.options.find((o) => o.name === 'Size') as {
      id: string;
      values: { id: string; value: string }[];
    };
    const small = size.values.find((v) => v.value === 'Small') as { id: string };
    await t.store.translations.upsert({
      entity_type: 'product',
      entity_id: product.id,
      locale: 'ko',
      field: 'name',
      value: '티셔츠',
    });
    await t.store.translations.upsert({
      entity_type: 'option',
      entity_id: size.id,
      locale: 'ko',
      field: 'name',
      value: '사이즈',
    });
    await t.store.translations.upsert({
      entity_type: 'option_value',
      entity_id: small.id,
      locale: 'ko',
      field: 'value',
      value: '스몰',
    });

    const ko = await shop.products.getStorefront(product.id, { locale: 'ko' });
    expect(ko.name).toBe('티셔츠');
    expect(ko.description).toBe('Organic cotton');
    expect(ko.options.map((o) => o.name)).toEqual(['사이즈', 'Color']);
    expect(ko.options[0]?.values.map((v) => v.value)).toEqual(['스몰', 'Large']);
    const variant = ko.variants.find((v) => v.sku === 'TS-S');
    expect(variant?.option_values.map((v) => v.value)).toEqual(['스몰', 'Red']);
    expect((await shop.products.getStorefrontBySlug(product.slug, { locale: 'ko' })).name).toBe('티셔츠');
    const list = await shop.products.listStorefront({ locale: 'ko' });
    expect(list.data.map((p) => p.name)).toEqual(['티셔츠']);

    for (const base of [
      await shop.products.getStorefront(product.id),
      await shop.products.getStorefront(product.id, { locale: 'en' }),
    ]) {
      expect(base.name).toBe('T-Shirt');
      expect(base.options[0]?.values[0]?.value).toBe('Small');
    }
    // The admin always reads the base text.
    expect((await t.store.products.get(product.id)).name).toBe('T-Shirt');
    await expectCode(shop.products.listStorefront({ locale: 'ja' }), 'not_found', 'locale');
    await expectCode(shop.products.listStorefront({ locale: 'not a tag' }), 'parameter_invalid', 'locale');
  });

  test('q matches the translated name in the locale, or the base name', async () => {
    t = await createTestEngine();
    await t.store.locales.create({ locale: 'en', name: 'English', is_default: true });
    await t.store.locales.create({ locale: 'de', name: 'Deutsch' });
    const shirtProduct = await shirt(t);
    t.clock.advance(1000);
    const { product: mug } = await t.fixtures.product({ name: 'Mug', price: 900 });
    await t.store.translations.upsert({
      entity_type: 'product',
      entity_id: mug.id,
      locale: 'de',
      field: 'name',
      value: 'KAFFEEBECHER Groß',
    });
    const shop = t.storefront();
    const names = async (query: Record<string, string>) =>
      (await shop.products.listStorefront(query)).data.map((p) => p.name);
    expect(await names({ q: 'becher', locale: 'de' })).toEqual(['KAFFEEBECHER Groß']);
    expect(await names({ q: 'groß', locale: 'de' })).toEqual(['KAFFEEBECHER Groß']);
    expect(await names({ q: 'mug', locale: 'de' })).toEqual(['KAFFEEBECHER Groß']);
    expect(await names({ q: 'shirt', locale: 'de' })).toEqual(['T-Shirt']);
    expect(await names({ q: 'becher' })).toEqual([]);
    expect(await names({ q: 'becher', locale: 'en' })).toEqual([]);
    const page = await shop.products.listStorefront({ q: 'becher', locale: 'de' });
    expect(page.total_count).toBe(1);
    expect(shirtProduct.name).toBe('T-Shirt');
  });

  test('shipping methods in a locale', async () => {
    t = await createTestEngine();
    await t.store.locales.create({ locale: 'en', name: 'English', is_default: true });
    await t.store.locales.create({ locale: 'ko', name: 'Korean' });
    const express = await t.fixtures.shippingMethod({ name: 'Express', description: 'Fast', position: 0 });
    await t.fixtures.shippingMethod({ name: 'Standard', description: 'Slow', position: 1 });
    await t.store.translations.upsert({
      entity_type: 'shipping_method',
      entity_id: express.id,
      locale: 'ko',
      field: 'name',
      value: '특급',
    });
    const shop = t.storefront();
    const ko = await shop.shippingMethods.listStorefront({ locale: 'ko' });
    expect(ko.data.map((m) => [m.name, m.description])).toEqual([
      ['특급', 'Fast'],
      ['Standard', 'Slow'],
    ]);
    expect((await shop.shippingMethods.listStorefront()).data.map((m) => m.name)).toEqual([
      'Express',
      'Standard',
    ]);
    await expectCode(shop.shippingMethods.listStorefront({ locale: 'fr' }), 'not_found', 'locale');
  });
});

describe('carts and orders', () => {
  test("a cart's locale (create or PATCH) names the order's lines; unknown locales refused and nothing changes", async () => {
    t = await createTestEngine();
    await t.store.locales.create({ locale: 'en', name: 'English', is_default: true });
    await t.store.locales.create({ locale: 'ko-KR', name: 'Korean' });
    const product = await shirt(t);
    const size = product.options.find((o) => o.name === 'Size') as {
      id: string;
      values: { id: string; value: string }[];
    };
    const small = size.values.find((v) => v.value === 'Small') as { id: string };
    await t.store.translations.upsert({
      entity_type: 'product',
      entity_id: product.id,
      locale: 'ko-KR',
      field: 'name',
      value: '티셔츠',
    });
    await t.store.translations.upsert({
      entity_type: 'option',
      entity_id: size.id,
      locale: 'ko-KR',
      field: 'name',
      value: '사이즈',
    });
    await t.store.translations.upsert({
      entity_type: 'option_value',
      entity_id: small.id,
      locale: 'ko-KR',
      field: 'value',
      value: '스몰',
    });
    const variant = product.variants.find((v) => v.sku === 'TS-S') as { id: string };

    await expectCode(t.fixtures.cart([{ variant_id: variant.id }], { locale: 'ja' }), 'not_found', 'locale');
    const cart = await t.fixtures.cart([{ variant_id: variant.id, quantity: 2 }], { locale: 'ko-kr' });
    expect(cart.locale).toBe('ko-KR');
    await expectCode(t.store.carts.update(cart.id, { locale: 'fr' }), 'not_found', 'locale');
    expect((await t.store.carts.get(cart.id)).locale).toBe('ko-KR');

    const order = await t.checkout(cart.id);
    expect(order.lines).toHaveLength(1);
    expect(order.lines[0]).toMatchObject({
      product_name: '티셔츠',
      variant_name: '스몰 / Red',
      option_values: { 사이즈: '스몰', Color: 'Red' },
    });
    // Later catalog edits do not change the order.
    await t.store.translations.upsert({
      entity_type: 'product',
      entity_id: product.id,
      locale: 'ko-KR',
      field: 'name',
      value: '셔츠',
    });
    expect((await t.store.orders.get(order.id)).lines[0]?.product_name).toBe('티셔츠');

    // Without a locale (or cleared by PATCH null): the base names.
    const plain = await t.fixtures.cart([{ variant_id: variant.id }], { locale: 'ko-KR' });
    expect((await t.store.carts.update(plain.id, { locale: null })).locale).toBeNull();
    const base = await t.checkout(plain.id);
    expect(base.lines[0]).toMatchObject({
      product_name: 'T-Shirt',
      variant_name: 'Small / Red',
      option_values: { Size: 'Small', Color: 'Red' },
    });
  });
});
