import type {
  Repositories,
  Scope,
  StoreLocaleRecord,
  TranslatableEntityType,
  TranslationRecord,
} from '../ports/storage';
import type { ServiceContext } from '../shared/context';
import { CommerceError, errors } from '../shared/errors';
import { read, write } from '../shared/unit-of-work';
import { negotiateLocale, type StorefrontLocale, type StorefrontLocaleRequest } from './negotiate';
import {
  isTranslatableField,
  type StoreLocaleCreate,
  type StoreLocaleUpdate,
  TRANSLATABLE_ENTITY_TYPES,
  type TranslationUpsert,
} from './schemas';
import { canonicalLocale } from './tags';
import { type TranslationLookup, translationLookup } from './translate';
import { storeLocaleToWire, translationToWire } from './wire';

/** At most this many locales per store and mode (as regions, decisions §19). */
export const MAX_STORE_LOCALES = 200;

/** A storefront read's language, and the catalog version the read model answered it under. */
export interface ResolvedStorefrontLocale extends StorefrontLocale {
  /** Pass to the read model's product reads of the same request (`StorefrontReadOptions.version`). */
  version: number | null;
}

const EMPTY: TranslationLookup = new Map();

/**
 * The record a translation belongs to, when it exists (decisions §21): its owner id (the product
 * of a product, option or option value; the record itself otherwise), or null.
 */
async function ownerOf(
  tx: Repositories,
  scope: Scope,
  entity_type: TranslatableEntityType,
  entity_id: string,
): Promise<string | null> {
  switch (entity_type) {
    case 'product':
    case 'option':
    case 'option_value':
      return tx.translations.productOf(scope, entity_type, entity_id);
    case 'shipping_method':
      return (await tx.shippingMethods.get(scope, entity_id)) ? entity_id : null;
    case 'category':
      return (await tx.categories.get(scope, entity_id)) ? entity_id : null;
    case 'collection':
      return (await tx.collections.get(scope, entity_id)) ? entity_id : null;
  }
}

function entityTypeOf(value: string): TranslatableEntityType {
  if (!(TRANSLATABLE_ENTITY_TYPES as readonly string[]).includes(value)) {
    throw errors.invalid('entity_type', `entity_type must be one of ${TRANSLATABLE_ENTITY_TYPES.join(', ')}`);
  }
  return value as TranslatableEntityType;
}

/**
 * Store locales and translations (decisions §21): the admin's locales (one default at most) and
 * translations upserted by (entity, locale, field); the storefront's choice of language
 * (`storefrontLocale`) and the translations its reads apply (`lookup`).
 */
export function createLocaleService(ctx: ServiceContext) {
  return {
    /** `GET /v1/admin/locales`: every locale, oldest first. */
    async list(scope: Scope) {
      const locales = await read(ctx, (tx) => tx.locales.list(scope));
      return { data: locales.map(storeLocaleToWire) };
    },

    /**
     * `POST /v1/admin/locales`: the tag is stored in canonical case and unique per store and mode
     * (409 `duplicate_locale`); `is_default: true` clears the other default. Writers are
     * serialised per store (`locales.lock`), so there is never more than one default.
     */
    async create(scope: Scope, input: StoreLocaleCreate) {
      const tag = canonicalLocale(input.locale);
      if (tag === null) throw errors.invalid('locale', 'locale must be a BCP 47 language tag such as en-US');
      return write(ctx, scope, async ({ tx, now }) => {
        await tx.locales.lock(scope);
        const existing = await tx.locales.list(scope);
        if (existing.some((locale) => locale.locale === tag)) {
          throw new CommerceError('duplicate_locale', `The store already has the locale '${tag}'`, {
            param: 'locale',
          });
        }
        if (existing.length >= MAX_STORE_LOCALES) {
          throw errors.invalid('locale', `A store has at most ${MAX_STORE_LOCALES} locales`);
        }
        const record: StoreLocaleRecord = {
          store_id: scope.store_id,
          mode: scope.mode,
          id: ctx.ids.next('lcl'),
          locale: tag,
          name: input.name,
          is_default: input.is_default,
          is_active: true,
          created_at: now,
        };
        await tx.locales.insert(record);
        if (record.is_default) await tx.locales.clearDefault(scope, record.id);
        return storeLocaleToWire(record);
      });
    },

    /**
     * `PATCH /v1/admin/locales/{id}`: the fields given replace the stored ones (the tag is fixed).
     * `is_default: true` clears the other default; `false` on the default leaves the store without
     * one (at most one, decisions §21). The default locale stays active: deactivating it (while it
     * is or becomes the default) → 422 `locale_unavailable` `param: is_active`; making an inactive
     * locale the default without activating it → the same, `param: is_default`. Under the
     * scope's lock, like every locale writer; the write moves the catalog version (storage), so
     * storefront reads see the new default at once.
     */
    async update(scope: Scope, id: string, input: StoreLocaleUpdate) {
      return write(ctx, scope, async ({ tx }) => {
        await tx.locales.lock(scope);
        const updated = await tx.locales.update(scope, id, {
          ...(input.name !== undefined ? { name: input.name } : {}),
          ...(input.is_default !== undefined ? { is_default: input.is_default } : {}),
          ...(input.is_active !== undefined ? { is_active: input.is_active } : {}),
        });
        if (!updated) throw errors.notFound('locale', id);
        // Thrown after the write: the transaction rolls it back.
        if (updated.is_default && !updated.is_active) {
          throw input.is_active === false
            ? new CommerceError(
                'locale_unavailable',
                `'${updated.locale}' is the default locale and cannot be deactivated: make another locale the default first`,
                { param: 'is_active' },
              )
            : new CommerceError(
                'locale_unavailable',
                `'${updated.locale}' is inactive and cannot be the default locale: activate it too (is_active: true)`,
                { param: 'is_default' },
              );
        }
        if (input.is_default === true) await tx.locales.clearDefault(scope, id);
        return storeLocaleToWire(updated);
      });
    },

    /** `DELETE /v1/admin/locales/{id}`: the locale and its translations. */
    async delete(scope: Scope, id: string) {
      return write(ctx, scope, async ({ tx }) => {
        await tx.locales.lock(scope);
        const deleted = await tx.locales.delete(scope, id);
        if (!deleted) throw errors.notFound('locale', id);
        await tx.translations.deleteForLocale(scope, deleted.locale);
        return { id, deleted: true as const };
      });
    },

    /**
     * `PUT /v1/admin/translations`: creates or replaces the translation of (entity, locale, field).
     * Unknown entity → 404 (`param: entity_id`); a locale the store does not have, an inactive
     * one, or its default locale (whose text is the base text) → 422 `locale_unavailable`.
     */
    async upsertTranslation(scope: Scope, input: TranslationUpsert) {
      if (!isTranslatableField(input.entity_type, input.field)) {
        throw errors.invalid('field', `field is not translatable for ${input.entity_type}`);
      }
      return write(ctx, scope, async ({ tx, now }) => {
        // Writers of a store's translations run one after another (the upsert reads, then writes).
        await tx.locales.lock(scope);
        const [owner, locales] = await Promise.all([
          ownerOf(tx, scope, input.entity_type, input.entity_id),
          tx.locales.list(scope),
        ]);
        if (owner === null) {
          throw new CommerceError('not_found', `No such ${input.entity_type}: '${input.entity_id}'`, {
            param: 'entity_id',
          });
        }
        const tag = canonicalLocale(input.locale);
        const locale = locales.find((l) => l.locale === tag);
        if (locale === undefined || !locale.is_active || locale.is_default) {
          throw new CommerceError(
            'locale_unavailable',
            locale === undefined
              ? `The store has no locale '${input.locale}'; add it first (POST /v1/admin/locales)`
              : !locale.is_active
                ? `'${locale.locale}' is inactive; activate it first (PATCH /v1/admin/locales/${locale.id} with is_active: true)`
                : `'${locale.locale}' is the default locale: its text is the record's own`,
            { param: 'locale' },
          );
        }
        const record: TranslationRecord = {
          store_id: scope.store_id,
          mode: scope.mode,
          id: ctx.ids.next('tr'),
          entity_type: input.entity_type,
          entity_id: input.entity_id,
          owner_id: owner,
          locale: locale.locale,
          field: input.field,
          value: input.value,
          created_at: now,
          updated_at: now,
        };
        return translationToWire(await tx.translations.upsert(record));
      });
    },

    /**
     * `GET /v1/admin/translations/{entity_type}/{entity_id}` (`?locale=` filters): unknown type →
     * 400 (`param: entity_type`), unknown entity → 404.
     */
    async getTranslations(scope: Scope, type: string, entity_id: string, locale?: string) {
      const entity_type = entityTypeOf(type);
      let tag: string | undefined;
      if (locale !== undefined && locale !== '') {
        tag = canonicalLocale(locale) ?? undefined;
        if (tag === undefined)
          throw errors.invalid('locale', 'locale must be a BCP 47 language tag such as en-US');
      }
      const records = await read(ctx, async (tx) => {
        if ((await ownerOf(tx, scope, entity_type, entity_id)) === null) {
          throw errors.notFound(entity_type.replace('_', ' '), entity_id);
        }
        return tx.translations.listForEntity(scope, entity_type, entity_id, tag);
      });
      return { data: records.map(translationToWire) };
    },

    /** `DELETE /v1/admin/translations/{id}`. */
    async deleteTranslation(scope: Scope, id: string) {
      const deleted = await write(ctx, scope, async ({ tx }) => {
        await tx.locales.lock(scope);
        return tx.translations.delete(scope, id);
      });
      if (!deleted) throw errors.notFound('translation', id);
      return { id, deleted: true as const };
    },

    /**
     * The language of a storefront read (decisions §21, `negotiateLocale`): from the store's
     * locales as the storage's read model keeps them (under the catalog version it answers, to be
     * passed on to the product reads of the same request), else as stored.
     */
    async storefrontLocale(
      scope: Scope,
      request: StorefrontLocaleRequest,
    ): Promise<ResolvedStorefrontLocale> {
      const model = ctx.storage.storefront;
      const kept = model?.locales ? await model.locales(scope) : null;
      const locales = kept ? kept.locales : await read(ctx, (tx) => tx.locales.list(scope));
      return { ...negotiateLocale(locales, request), version: kept?.version ?? null };
    },

    /** The translations in `locale` of the records `owner_ids` own (none for a null locale). */
    async lookup(
      scope: Scope,
      locale: string | null,
      owner_ids: readonly string[],
    ): Promise<TranslationLookup> {
      if (locale === null || owner_ids.length === 0) return EMPTY;
      return translationLookup(
        await read(ctx, (tx) => tx.translations.listForOwners(scope, locale, owner_ids)),
      );
    },
  };
}

export type LocaleService = ReturnType<typeof createLocaleService>;
