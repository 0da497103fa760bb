import type { Millis, Scope } from './scope';

// Store locales and translations (decisions §21). Core holds every rule (locales/); the storage
// offers rows, a per-store lock for locale writers and the reads the storefront needs in one
// statement.

/** What a translation belongs to (decisions §21). */
export type TranslatableEntityType =
  | 'product'
  | 'option'
  | 'option_value'
  | 'category'
  | 'collection'
  | 'shipping_method';

/** A language the store sells in: a BCP 47 tag in canonical case, unique per store and mode. */
export interface StoreLocaleRecord {
  store_id: string;
  mode: Scope['mode'];
  id: string;
  locale: string;
  name: string;
  is_default: boolean;
  is_active: boolean;
  created_at: Millis;
}

/** One translated field of one record in one locale, unique by (entity, locale, field). */
export interface TranslationRecord {
  store_id: string;
  mode: Scope['mode'];
  id: string;
  entity_type: TranslatableEntityType;
  entity_id: string;
  /**
   * The record whose reads show the translation: the product for `product`, `option` and
   * `option_value` translations (a page of products reads its translations by their ids in one
   * statement), else the entity itself.
   */
  owner_id: string;
  locale: string;
  field: string;
  value: string;
  created_at: Millis;
  updated_at: Millis;
}

/** What applying a translation needs of it. */
export type TranslationText = Pick<TranslationRecord, 'entity_type' | 'entity_id' | 'field' | 'value'>;

export interface LocaleRepository {
  /**
   * Serialises the writers of a scope's locales (so that at most one is the default): locks the
   * store's row until the transaction ends (Postgres and MariaDB; SQLite's writer lock already
   * serialises writers).
   */
  lock(scope: Scope): Promise<void>;
  /** Every locale of the scope, oldest first (`created_at`, then id). */
  list(scope: Scope): Promise<StoreLocaleRecord[]>;
  /** Tag unique per scope → `duplicate_locale` (param `locale`). */
  insert(record: StoreLocaleRecord): Promise<void>;
  /**
   * Writes the given fields of the scope's locale `id` (the tag and `created_at` are fixed); the
   * record after, or null when there is none. An empty patch writes nothing and answers the record.
   */
  update(
    scope: Scope,
    id: string,
    patch: Partial<Pick<StoreLocaleRecord, 'name' | 'is_default' | 'is_active'>>,
  ): Promise<StoreLocaleRecord | null>;
  /** Clears `is_default` on every locale of the scope but `except_id`. */
  clearDefault(scope: Scope, except_id: string): Promise<void>;
  /** Deletes the locale; the deleted record, or null when there was none. */
  delete(scope: Scope, id: string): Promise<StoreLocaleRecord | null>;
}

export interface TranslationRepository {
  /**
   * Inserts the translation, or replaces the value (and `updated_at`) of the one with the same
   * entity, locale and field, keeping its id and `created_at`. Answers the stored record.
   */
  upsert(record: TranslationRecord): Promise<TranslationRecord>;
  /** An entity's translations (in one locale when given), by locale then field. */
  listForEntity(
    scope: Scope,
    entity_type: TranslatableEntityType,
    entity_id: string,
    locale?: string,
  ): Promise<TranslationRecord[]>;
  /** The translations in `locale` of records owned by `owner_ids` (see `owner_id`), in one statement. */
  listForOwners(scope: Scope, locale: string, owner_ids: readonly string[]): Promise<TranslationText[]>;
  /**
   * The live product a product, option or option value belongs to (its id), or null when there
   * is no such record (or its product is deleted).
   */
  productOf(
    scope: Scope,
    entity_type: 'product' | 'option' | 'option_value',
    id: string,
  ): Promise<string | null>;
  delete(scope: Scope, id: string): Promise<boolean>;
  /** Deletes every translation in `locale` (its locale is being deleted). */
  deleteForLocale(scope: Scope, locale: string): Promise<void>;
}
