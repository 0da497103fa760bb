import type { EngineServices } from '../engine-services';
import type { ResolvedStorefrontLocale } from '../locales/locale-service';
import {
  DeletedResponseSchema,
  IdPathSchema,
  StoreLocaleCreateSchema,
  StoreLocaleListSchema,
  StoreLocaleSchema,
  StoreLocaleUpdateSchema,
  TranslationEntityPathSchema,
  TranslationListQuerySchema,
  TranslationListSchema,
  TranslationSchema,
  TranslationUpsertSchema,
} from '../schemas';
import { defineOperation, type HttpBinding, type OperationCall } from './operation';

const TAGS = ['Locales and translations'] as const;

/**
 * What a storefront read in a language declares (decisions §21): it reads `Accept-Language` and
 * answers `Content-Language` (and `Vary: Accept-Language` when the header chose).
 */
export const STOREFRONT_LOCALE_HTTP = {
  headers: ['accept-language'],
  responseHeaders: [
    {
      name: 'Content-Language',
      description:
        "The locale of the response's text: the one chosen (`locale`, else the best `Accept-Language` match), or the default locale's tag for the base text. Absent while the store has no locales.",
    },
  ],
} as const satisfies Pick<HttpBinding, 'headers' | 'responseHeaders'>;

/**
 * The language of a storefront read (decisions §21): the call's `locale`, else its
 * `Accept-Language` header, among the store's locales; sets `Content-Language` (and `Vary`) on
 * the response. 404 `param: locale` for a locale the store does not have.
 */
export async function storefrontLocaleOf(
  s: EngineServices,
  c: OperationCall<unknown, { locale?: string | undefined }>,
): Promise<ResolvedStorefrontLocale> {
  const resolved = await s.locales.storefrontLocale(c.scope, {
    locale: c.input.locale,
    accept_language: c.headers['accept-language'],
  });
  if (resolved.content_language !== null) c.setHeader('Content-Language', resolved.content_language);
  if (resolved.negotiated) c.setHeader('Vary', 'Accept-Language');
  return resolved;
}

/** Store locales and translations (decisions §21, docs/organising-the-catalog.md#languages): secret key only. */
export const localesOperations = [
  defineOperation({
    name: 'locales.list',
    http: { method: 'GET', path: '/v1/admin/locales' },
    auth: 'secret',
    customerToken: 'none',
    response: StoreLocaleListSchema,
    summary: 'List store locales',
    description: 'Every locale of the store, oldest first, in one response (`{ data }`).',
    tags: TAGS,
    operationId: 'listStoreLocales',
    run: async (s, c) => s.locales.list(c.scope),
  }),
  defineOperation({
    name: 'locales.create',
    http: { method: 'POST', path: '/v1/admin/locales' },
    auth: 'secret',
    customerToken: 'none',
    input: StoreLocaleCreateSchema,
    response: StoreLocaleSchema,
    summary: 'Add a store locale',
    description:
      "`locale` is a BCP 47 tag (`ko`, `en-US`), stored in canonical case and unique per store and mode (409 `duplicate_locale`). `is_default: true` makes it the default locale (the language of the records' own text) and clears the previous default. At most 200 locales.",
    tags: TAGS,
    operationId: 'createStoreLocale',
    errors: ['duplicate_locale'],
    run: async (s, c) => s.locales.create(c.scope, c.input),
  }),
  defineOperation({
    name: 'locales.update',
    http: { method: 'PATCH', path: '/v1/admin/locales/:id' },
    auth: 'secret',
    customerToken: 'none',
    params: IdPathSchema,
    input: StoreLocaleUpdateSchema,
    response: StoreLocaleSchema,
    summary: 'Update a store locale',
    description:
      "Fields given replace the stored ones; `locale` is fixed (400 `parameter_unknown`). `is_default: true` makes it the default locale (the language of the records' own text) and clears the previous default; its translations stay stored (storefront reads in it then answer the base text). `is_default: false` on the default leaves the store without one. The default locale stays active: `is_active: false` on the default (or with `is_default: true`) → 422 `locale_unavailable` (`param: is_active`), and making an inactive locale the default without `is_active: true` → 422 `locale_unavailable` (`param: is_default`). An inactive locale is not offered to storefront reads (`locale` → 404, `Accept-Language` passes over it) nor to new translations; its translations stay. Storefront reads see the change at once.",
    tags: TAGS,
    operationId: 'updateStoreLocale',
    errors: ['not_found', 'locale_unavailable'],
    run: async (s, c) => s.locales.update(c.scope, c.params.id, c.input),
  }),
  defineOperation({
    name: 'locales.delete',
    http: { method: 'DELETE', path: '/v1/admin/locales/:id' },
    auth: 'secret',
    customerToken: 'none',
    params: IdPathSchema,
    response: DeletedResponseSchema,
    summary: 'Delete a store locale',
    description: 'Deletes the locale and every translation into it.',
    tags: TAGS,
    operationId: 'deleteStoreLocale',
    run: async (s, c) => s.locales.delete(c.scope, c.params.id),
  }),
  defineOperation({
    name: 'translations.upsert',
    http: { method: 'PUT', path: '/v1/admin/translations' },
    auth: 'secret',
    customerToken: 'none',
    input: TranslationUpsertSchema,
    response: TranslationSchema,
    summary: 'Create or replace a translation',
    description:
      'Upserts by (`entity_type`, `entity_id`, `locale`, `field`): `product` (`name`, `description`), `option` (`name`), `option_value` (`value`), `category` and `collection` (`name`, `description`), `shipping_method` (`name`, `description`). `value` at most 10,000 characters. An unknown type or field → 400; an unknown entity → 404 (`param: entity_id`); a locale the store does not have, an inactive one, or its default locale → 422 `locale_unavailable`. Storefront reads show it at once.',
    tags: TAGS,
    operationId: 'upsertTranslation',
    errors: ['locale_unavailable'],
    run: async (s, c) => s.locales.upsertTranslation(c.scope, c.input),
  }),
  defineOperation({
    name: 'translations.list',
    http: { method: 'GET', path: '/v1/admin/translations/:entity_type/:entity_id' },
    auth: 'secret',
    customerToken: 'none',
    params: TranslationEntityPathSchema,
    inputIn: 'query',
    input: TranslationListQuerySchema,
    response: TranslationListSchema,
    summary: "List a record's translations",
    description:
      'By locale, then field; `?locale=` keeps one locale. An unknown `entity_type` → 400; an unknown entity → 404.',
    tags: TAGS,
    operationId: 'listTranslations',
    run: async (s, c) =>
      s.locales.getTranslations(c.scope, c.params.entity_type, c.params.entity_id, c.input.locale),
  }),
  defineOperation({
    name: 'translations.delete',
    http: { method: 'DELETE', path: '/v1/admin/translations/:id' },
    auth: 'secret',
    customerToken: 'none',
    params: IdPathSchema,
    response: DeletedResponseSchema,
    summary: 'Delete a translation',
    description: 'The field falls back to the base text.',
    tags: TAGS,
    operationId: 'deleteTranslation',
    run: async (s, c) => s.locales.deleteTranslation(c.scope, c.params.id),
  }),
] as const;
