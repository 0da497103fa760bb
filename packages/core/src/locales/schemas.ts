import { z } from 'zod';
import type { TranslatableEntityType } from '../ports/storage';
import { DateTimeSchema, IdSchema, type Named, RequiredTextSchema } from '../shared/schemas/common';
import { MAX_TEXT_LENGTH } from '../shared/schemas/limits';
import { canonicalLocale, MAX_LOCALE_LENGTH } from './tags';

/** What can be translated, and which fields of each (decisions §21). */
export const TRANSLATABLE_FIELDS = {
  product: ['name', 'description'],
  option: ['name'],
  option_value: ['value'],
  category: ['name', 'description'],
  collection: ['name', 'description'],
  shipping_method: ['name', 'description'],
} as const satisfies Record<TranslatableEntityType, readonly string[]>;

export const TRANSLATABLE_ENTITY_TYPES = Object.keys(TRANSLATABLE_FIELDS) as [
  TranslatableEntityType,
  ...TranslatableEntityType[],
];

/** Whether `field` is a translatable field of `entity_type`. */
export function isTranslatableField(entity_type: TranslatableEntityType, field: string): boolean {
  return (TRANSLATABLE_FIELDS[entity_type] as readonly string[]).includes(field);
}

/** The longest translated value (decisions §21). */
export const MAX_TRANSLATION_LENGTH = MAX_TEXT_LENGTH;

/**
 * A BCP 47 language tag in a request (`ko`, `en-US`), at most {@link MAX_LOCALE_LENGTH}
 * characters; matched ignoring case and stored in canonical case.
 */
export const LocaleTagSchema = z
  .string()
  .max(MAX_LOCALE_LENGTH)
  .refine((tag) => canonicalLocale(tag) !== null, { error: 'must be a BCP 47 language tag such as en-US' })
  .meta({
    description: `A BCP 47 language tag such as \`ko\` or \`en-US\` (at most ${MAX_LOCALE_LENGTH} characters; any case).`,
    examples: ['ko'],
  });

// ---------------------------------------------------------------- responses

/** A language the store sells in (decisions §21). */
export interface StoreLocaleSchema extends Named<typeof storeLocaleSchema> {}
const storeLocaleSchema = z
  .object({
    id: z.string(),
    locale: z.string().meta({ description: 'A BCP 47 tag in canonical case (`en-US`).' }),
    name: z.string(),
    is_default: z.boolean(),
    is_active: z.boolean(),
    created_at: DateTimeSchema,
  })
  .meta({ id: 'StoreLocale' });
export const StoreLocaleSchema: StoreLocaleSchema = storeLocaleSchema;
export type StoreLocale = z.infer<typeof StoreLocaleSchema>;

/** `GET /v1/admin/locales`: every locale of the store, oldest first. */
export interface StoreLocaleListSchema extends Named<typeof storeLocaleListSchema> {}
const storeLocaleListSchema = z.object({ data: z.array(StoreLocaleSchema) }).meta({ id: 'StoreLocaleList' });
export const StoreLocaleListSchema: StoreLocaleListSchema = storeLocaleListSchema;

/** One translated field of one record in one locale (decisions §21). */
export interface TranslationSchema extends Named<typeof translationSchema> {}
const translationSchema = z
  .object({
    id: z.string(),
    entity_type: z.enum(TRANSLATABLE_ENTITY_TYPES),
    entity_id: z.string(),
    locale: z.string(),
    field: z.string(),
    value: z.string(),
    created_at: DateTimeSchema,
    updated_at: DateTimeSchema,
  })
  .meta({ id: 'Translation' });
export const TranslationSchema: TranslationSchema = translationSchema;
export type Translation = z.infer<typeof TranslationSchema>;

/** `GET /v1/admin/translations/{entity_type}/{entity_id}`: by locale, then field. */
export interface TranslationListSchema extends Named<typeof translationListSchema> {}
const translationListSchema = z.object({ data: z.array(TranslationSchema) }).meta({ id: 'TranslationList' });
export const TranslationListSchema: TranslationListSchema = translationListSchema;

// ---------------------------------------------------------------- requests

/** `POST /v1/admin/locales`: `{ locale, name, is_default? }`. */
export interface StoreLocaleCreateSchema extends Named<typeof storeLocaleCreateSchema> {}
const storeLocaleCreateSchema = z
  .strictObject({
    locale: LocaleTagSchema,
    name: RequiredTextSchema,
    is_default: z.boolean().default(false),
  })
  .meta({ id: 'CreateStoreLocaleInput' });
export const StoreLocaleCreateSchema: StoreLocaleCreateSchema = storeLocaleCreateSchema;
export type StoreLocaleCreate = z.infer<typeof StoreLocaleCreateSchema>;

/**
 * `PATCH /v1/admin/locales/{id}`: `{ name?, is_default?, is_active? }`, the fields given replace
 * the stored ones; the tag is fixed (`locale` → 400 `parameter_unknown`). The rules between the
 * fields (the default is active) are the service's.
 */
export interface StoreLocaleUpdateSchema extends Named<typeof storeLocaleUpdateSchema> {}
const storeLocaleUpdateSchema = z
  .strictObject({
    name: RequiredTextSchema.optional(),
    is_default: z.boolean().optional(),
    is_active: z.boolean().optional(),
  })
  .meta({ id: 'UpdateStoreLocaleInput' });
export const StoreLocaleUpdateSchema: StoreLocaleUpdateSchema = storeLocaleUpdateSchema;
export type StoreLocaleUpdate = z.infer<typeof StoreLocaleUpdateSchema>;

/**
 * `PUT /v1/admin/translations`: upserts by (entity, locale, field). `field` must be one of the
 * entity type's translatable fields (400, `param: field`); `locale` is checked against the
 * store's locales by the service (422 `locale_unavailable`).
 */
export interface TranslationUpsertSchema extends Named<typeof translationUpsertSchema> {}
const translationUpsertSchema = z
  .strictObject({
    entity_type: z.enum(TRANSLATABLE_ENTITY_TYPES),
    entity_id: IdSchema,
    locale: z
      .string()
      .min(1)
      .max(MAX_LOCALE_LENGTH)
      .meta({ examples: ['ko'] }),
    field: z
      .string()
      .min(1)
      .max(64)
      .meta({ examples: ['name'] }),
    value: z
      .string()
      .min(1)
      .max(MAX_TRANSLATION_LENGTH)
      .meta({ examples: ['티셔츠'] }),
  })
  .superRefine((input, ctx) => {
    if (!isTranslatableField(input.entity_type, input.field)) {
      ctx.addIssue({
        code: 'custom',
        path: ['field'],
        message: `must be one of ${TRANSLATABLE_FIELDS[input.entity_type].join(', ')} for ${input.entity_type}`,
      });
    }
  })
  .meta({ id: 'UpsertTranslationInput' });
export const TranslationUpsertSchema: TranslationUpsertSchema = translationUpsertSchema;
export type TranslationUpsert = z.infer<typeof TranslationUpsertSchema>;

/** The path of `GET /v1/admin/translations/{entity_type}/{entity_id}` (checked by the service: 400 / 404). */
export interface TranslationEntityPathSchema extends Named<typeof translationEntityPathSchema> {}
const translationEntityPathSchema = z.object({
  entity_type: z.string().max(64),
  entity_id: IdSchema,
});
export const TranslationEntityPathSchema: TranslationEntityPathSchema = translationEntityPathSchema;

/** `?locale=` of `GET /v1/admin/translations/{entity_type}/{entity_id}`. */
export interface TranslationListQuerySchema extends Named<typeof translationListQuerySchema> {}
const translationListQuerySchema = z.object({ locale: z.string().max(MAX_LOCALE_LENGTH).optional() });
export const TranslationListQuerySchema: TranslationListQuerySchema = translationListQuerySchema;
export type TranslationListQuery = z.infer<typeof TranslationListQuerySchema>;

/**
 * The `locale` of a storefront read (decisions §21): the language to answer in; without it, the
 * best `Accept-Language` match among the store's active locales, else its default.
 */
export const STOREFRONT_LOCALE_SHAPE = {
  locale: LocaleTagSchema.optional().meta({
    description:
      'The language to answer in (a configured locale, else 404). Without it: the best `Accept-Language` match among the active locales, else the default. Untranslated fields keep the base text; `Content-Language` names the locale used.',
  }),
};

/** The query of a storefront read of one record: `locale` (other parameters are ignored, as `expand`). */
export interface StorefrontLocaleQuerySchema extends Named<typeof storefrontLocaleQuerySchema> {}
const storefrontLocaleQuerySchema = z.object(STOREFRONT_LOCALE_SHAPE);
export const StorefrontLocaleQuerySchema: StorefrontLocaleQuerySchema = storefrontLocaleQuerySchema;
export type StorefrontLocaleQuery = z.infer<typeof StorefrontLocaleQuerySchema>;
