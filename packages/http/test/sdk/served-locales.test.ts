import type { StoreLocale, Translation } from '@headless-commerce/sdk';
import { expect, test } from 'vitest';
import { describeApi } from '../api/support/harness';
import { createSellable, expectSdkError, sdkClients, tickingClock, unique } from './support';

/**
 * decisions §21 as `@headless-commerce/sdk` 0.2.0 sends and reads it: the six locale and
 * translation methods of `regions` (`adminListLocales`, `adminCreateLocale`, `adminDeleteLocale`,
 * `adminGetTranslations`, `adminUpsertTranslation` — a `PUT` —, `adminDeleteTranslation`),
 * unmodified, and the storefront's products read in a locale afterwards.
 */

describeApi(
  'sdk: locales and translations served as the client sends them (decisions §21)',
  (api) => {
    test('adminCreateLocale / adminListLocales / adminDeleteLocale', async () => {
      const { admin, storefront } = sdkClients(api());
      expect(await admin.regions.adminListLocales()).toEqual({ data: [] });
      const en: StoreLocale = await admin.regions.adminCreateLocale({
        locale: 'en-us',
        name: 'English',
        is_default: true,
      });
      expect(en).toEqual({
        id: expect.stringMatching(/^lcl_/),
        locale: 'en-US',
        name: 'English',
        is_default: true,
        is_active: true,
        created_at: expect.any(String),
      });
      const ko = await admin.regions.adminCreateLocale({ locale: 'ko', name: '한국어' });
      expect(ko).toMatchObject({ locale: 'ko', is_default: false, is_active: true });
      await expectSdkError(
        admin.regions.adminCreateLocale({ locale: 'KO', name: 'Again' }),
        409,
        'duplicate_locale',
      );
      await expectSdkError(
        admin.regions.adminCreateLocale({ locale: 'ko_KR', name: 'Bad' }),
        400,
        'parameter_invalid',
      );
      // A publishable key may not.
      await expectSdkError(
        sdkClients(api()).withKey(api().keys.publishable).regions.adminListLocales(),
        403,
        'forbidden',
      );
      const { data } = await admin.regions.adminListLocales();
      expect(data.map((l) => l.locale)).toEqual(['en-US', 'ko']);
      const ja = await admin.regions.adminCreateLocale({ locale: 'ja', name: '日本語' });
      expect(await admin.regions.adminDeleteLocale(ja.id)).toEqual({ id: ja.id, deleted: true });
      await expectSdkError(admin.regions.adminDeleteLocale(ja.id), 404, 'not_found');
      expect((await admin.regions.adminListLocales()).data.map((l) => l.id)).toEqual([en.id, ko.id]);
      expect(storefront).toBeDefined();
    });

    test('adminUpsertTranslation (PUT) / adminGetTranslations (with and without locale) / adminDeleteTranslation', async () => {
      const { admin, storefront } = sdkClients(api());
      const { product } = await createSellable(admin, { price: 1500 });
      const upsert = {
        entity_type: 'product',
        entity_id: product.id,
        locale: 'ko',
        field: 'name',
        value: unique('셔츠 '),
      };
      const first: Translation = await admin.regions.adminUpsertTranslation(upsert);
      expect(first).toEqual({
        id: expect.stringMatching(/^tr_/),
        entity_type: 'product',
        entity_id: product.id,
        locale: 'ko',
        field: 'name',
        value: upsert.value,
        created_at: expect.any(String),
        updated_at: expect.any(String),
      });
      const value = unique('티셔츠 ');
      const second = await admin.regions.adminUpsertTranslation({ ...upsert, value });
      expect(second).toMatchObject({ id: first.id, value, created_at: first.created_at });
      await admin.regions.adminUpsertTranslation({ ...upsert, field: 'description', value: '유기농 면' });

      const all = await admin.regions.adminGetTranslations('product', product.id);
      expect(all.data.map((tr) => [tr.field, tr.value])).toEqual([
        ['description', '유기농 면'],
        ['name', value],
      ]);
      expect((await admin.regions.adminGetTranslations('product', product.id, 'ko')).data).toHaveLength(2);
      expect((await admin.regions.adminGetTranslations('product', product.id, 'en-US')).data).toEqual([]);

      // The storefront reads it (the SDK forwards `locale` as a query parameter).
      const shown = await storefront.products.get(product.id, { locale: 'ko' } as never);
      expect(shown.name).toBe(value);
      const listed = await storefront.products.list({ locale: 'ko', q: '티셔츠' } as never);
      expect(listed.data.map((p) => p.id)).toEqual([product.id]);
      expect((await storefront.products.get(product.id)).name).toBe(product.name);

      // The SDK's own example field (`title`) is not a translatable field: 400.
      await expectSdkError(
        admin.regions.adminUpsertTranslation({ ...upsert, field: 'title' }),
        400,
        'parameter_invalid',
      );
      await expectSdkError(
        admin.regions.adminUpsertTranslation({ ...upsert, entity_type: 'page' }),
        400,
        'parameter_invalid',
      );
      await expectSdkError(
        admin.regions.adminUpsertTranslation({ ...upsert, entity_id: 'prod_missing' }),
        404,
        'not_found',
      );
      await expectSdkError(
        admin.regions.adminUpsertTranslation({ ...upsert, locale: 'fr-FR' }),
        422,
        'locale_unavailable',
      );
      await expectSdkError(
        admin.regions.adminUpsertTranslation({ ...upsert, locale: 'en-US' }),
        422,
        'locale_unavailable',
      );
      await expectSdkError(
        admin.regions.adminGetTranslations('widget', product.id),
        400,
        'parameter_invalid',
      );

      expect(await admin.regions.adminDeleteTranslation(first.id)).toEqual({ id: first.id, deleted: true });
      await expectSdkError(admin.regions.adminDeleteTranslation(first.id), 404, 'not_found');
      expect((await storefront.products.get(product.id, { locale: 'ko' } as never)).name).toBe(product.name);
    });
  },
  { clock: tickingClock() },
);
