import type { Mode, Scope } from '@cartwright/core';
import type {
  LocaleRepository,
  StoreLocaleRecord,
  TranslatableEntityType,
  TranslationRecord,
  TranslationRepository,
  TranslationText,
} from '@cartwright/core/storage';
import { type Selectable, type SqlBool, sql } from 'kysely';
import type { DialectCapabilities } from '../dialects/dialect-capabilities';
import { insertRows, insertTemplate } from '../query/insert-template';
import type { QueryRunner } from '../query/query-runner';
import { type Slots, template } from '../query/template';
import { updateArgs, updateTemplate } from '../query/update-template';
import type { StoreLocalesTable, TranslationsTable } from '../schema/database';
import { scoped } from './scoped-args';

type ScopeSlots = 'store_id' | 'mode';

// ---------------------------------------------------------------- store locales

const insertLocale = insertTemplate('store_locales');
/** `update store_locales set <given columns> where <scoped key> returning *` (MariaDB: see mysql-dialect.ts). */
const updateLocale = updateTemplate('store_locales');
/** Postgres and MariaDB: the store's row lock, taken by every writer of its locales and translations. */
const lockStore = template(({ db }, p: Slots<'store_id'>) =>
  db.selectFrom('stores').select('id').where('id', '=', p.store_id).forNoKeyUpdate(),
);
const listLocales = template(({ db }, p: Slots<ScopeSlots>) =>
  db
    .selectFrom('store_locales')
    .selectAll()
    .where('store_id', '=', p.store_id)
    .where('mode', '=', p.mode)
    .orderBy('created_at')
    .orderBy('id'),
);
const clearDefault = template(({ db, caps }, p: Slots<ScopeSlots | 'id'>) =>
  db
    .updateTable('store_locales')
    .set({ is_default: caps.bool(false) as never })
    .where('store_id', '=', p.store_id)
    .where('mode', '=', p.mode)
    .where('id', '!=', p.id)
    .where('is_default', '=', caps.bool(true) as never),
);
const localeById = template(({ db }, p: Slots<ScopeSlots | 'id'>) =>
  db
    .selectFrom('store_locales')
    .selectAll()
    .where('store_id', '=', p.store_id)
    .where('mode', '=', p.mode)
    .where('id', '=', p.id),
);
const deleteLocale = template(({ db }, p: Slots<ScopeSlots | 'id'>) =>
  db
    .deleteFrom('store_locales')
    .where('store_id', '=', p.store_id)
    .where('mode', '=', p.mode)
    .where('id', '=', p.id),
);

function decodeLocale(row: Selectable<StoreLocalesTable>, c: DialectCapabilities): StoreLocaleRecord {
  return {
    store_id: row.store_id,
    mode: row.mode as Mode,
    id: row.id,
    locale: row.locale,
    name: row.name,
    is_default: c.toBool(row.is_default),
    is_active: c.toBool(row.is_active),
    created_at: Number(row.created_at),
  };
}

/** Store locales (decisions §21): at most 200 per scope, read whole. */
export class KyselyLocaleRepository implements LocaleRepository {
  constructor(private readonly q: QueryRunner) {}

  async lock(scope: Scope): Promise<void> {
    if (this.q.caps.forUpdate) await this.q.first(lockStore, { store_id: scope.store_id });
  }

  async list(scope: Scope): Promise<StoreLocaleRecord[]> {
    const rows = await this.q.rows(listLocales, scoped(scope, {}));
    return rows.map((row) => decodeLocale(row, this.q.caps));
  }

  async insert(record: StoreLocaleRecord): Promise<void> {
    const c = this.q.caps;
    await insertRows(this.q, insertLocale, 'store_locales', [
      { ...record, is_default: c.bool(record.is_default), is_active: c.bool(record.is_active) },
    ]);
  }

  async update(
    scope: Scope,
    id: string,
    patch: Parameters<LocaleRepository['update']>[2],
  ): Promise<StoreLocaleRecord | null> {
    const c = this.q.caps;
    const { shape, args } = updateArgs(
      {
        name: patch.name,
        is_default: patch.is_default === undefined ? undefined : c.bool(patch.is_default),
        is_active: patch.is_active === undefined ? undefined : c.bool(patch.is_active),
      },
      scoped(scope, { id }),
    );
    const row =
      shape.columns.length === 0
        ? await this.q.first(localeById, scoped(scope, { id }))
        : await this.q.first(updateLocale, args, shape);
    return row ? decodeLocale(row, c) : null;
  }

  async clearDefault(scope: Scope, except_id: string): Promise<void> {
    await this.q.affected(clearDefault, scoped(scope, { id: except_id }));
  }

  async delete(scope: Scope, id: string): Promise<StoreLocaleRecord | null> {
    const row = await this.q.first(localeById, scoped(scope, { id }));
    if (!row) return null;
    await this.q.affected(deleteLocale, scoped(scope, { id }));
    return decodeLocale(row, this.q.caps);
  }
}

// ---------------------------------------------------------------- translations

const insertTranslation = insertTemplate('translations');
const translationByKey = template(
  ({ db }, p: Slots<ScopeSlots | 'entity_type' | 'entity_id' | 'locale' | 'field'>) =>
    db
      .selectFrom('translations')
      .selectAll()
      .where('store_id', '=', p.store_id)
      .where('mode', '=', p.mode)
      .where('entity_type', '=', p.entity_type)
      .where('entity_id', '=', p.entity_id)
      .where('locale', '=', p.locale)
      .where('field', '=', p.field),
);
const updateValue = template(({ db }, p: Slots<ScopeSlots | 'id' | 'value' | 'value_lower' | 'updated_at'>) =>
  db
    .updateTable('translations')
    .set({ value: p.value, value_lower: p.value_lower, updated_at: p.updated_at })
    .where('store_id', '=', p.store_id)
    .where('mode', '=', p.mode)
    .where('id', '=', p.id),
);
const entityTranslations = template(({ db }, p: Slots<ScopeSlots | 'entity_type' | 'entity_id'>) =>
  db
    .selectFrom('translations')
    .selectAll()
    .where('store_id', '=', p.store_id)
    .where('mode', '=', p.mode)
    .where('entity_type', '=', p.entity_type)
    .where('entity_id', '=', p.entity_id)
    .orderBy('locale')
    .orderBy('field'),
);
const entityTranslationsIn = template(
  ({ db }, p: Slots<ScopeSlots | 'entity_type' | 'entity_id' | 'locale'>) =>
    db
      .selectFrom('translations')
      .selectAll()
      .where('store_id', '=', p.store_id)
      .where('mode', '=', p.mode)
      .where('entity_type', '=', p.entity_type)
      .where('entity_id', '=', p.entity_id)
      .where('locale', '=', p.locale)
      .orderBy('field'),
);
/** A page's translations: `translations_owner_idx` (store_id, mode, locale, owner_id). */
const ownedTranslations = template(({ db, caps }, p: Slots<ScopeSlots | 'locale' | 'owners'>) =>
  db
    .selectFrom('translations')
    .select(['entity_type', 'entity_id', 'field', 'value'])
    .where('store_id', '=', p.store_id)
    .where('mode', '=', p.mode)
    .where('locale', '=', p.locale)
    .where(caps.inList(sql.ref('owner_id'), p.owners)),
);
const deleteTranslation = template(({ db }, p: Slots<ScopeSlots | 'id'>) =>
  db
    .deleteFrom('translations')
    .where('store_id', '=', p.store_id)
    .where('mode', '=', p.mode)
    .where('id', '=', p.id),
);
const deleteLocaleTranslations = template(({ db }, p: Slots<ScopeSlots | 'locale'>) =>
  db
    .deleteFrom('translations')
    .where('store_id', '=', p.store_id)
    .where('mode', '=', p.mode)
    .where('locale', '=', p.locale),
);
const liveProduct = template(({ db }, p: Slots<ScopeSlots | 'id'>) =>
  db
    .selectFrom('products')
    .select('id as product_id')
    .where('store_id', '=', p.store_id)
    .where('mode', '=', p.mode)
    .where('id', '=', p.id)
    .where('deleted_at', 'is', null),
);
const productOfOption = template(({ db }, p: Slots<ScopeSlots | 'id'>) =>
  db
    .selectFrom('product_options as o')
    .innerJoin('products as p', (join) =>
      join
        .onRef('p.store_id', '=', 'o.store_id')
        .onRef('p.mode', '=', 'o.mode')
        .onRef('p.id', '=', 'o.product_id'),
    )
    .select('p.id as product_id')
    .where('o.store_id', '=', p.store_id)
    .where('o.mode', '=', p.mode)
    .where('o.id', '=', p.id)
    .where(sql<SqlBool>`p.deleted_at is null`),
);
const productOfValue = template(({ db }, p: Slots<ScopeSlots | 'id'>) =>
  db
    .selectFrom('product_option_values as v')
    .innerJoin('products as p', (join) =>
      join
        .onRef('p.store_id', '=', 'v.store_id')
        .onRef('p.mode', '=', 'v.mode')
        .onRef('p.id', '=', 'v.product_id'),
    )
    .select('p.id as product_id')
    .where('v.store_id', '=', p.store_id)
    .where('v.mode', '=', p.mode)
    .where('v.id', '=', p.id)
    .where(sql<SqlBool>`p.deleted_at is null`),
);

function decodeTranslation(row: Selectable<TranslationsTable>): TranslationRecord {
  return {
    store_id: row.store_id,
    mode: row.mode as Mode,
    id: row.id,
    entity_type: row.entity_type as TranslatableEntityType,
    entity_id: row.entity_id,
    owner_id: row.owner_id,
    locale: row.locale,
    field: row.field,
    value: row.value,
    created_at: Number(row.created_at),
    updated_at: Number(row.updated_at),
  };
}

/**
 * Translations (decisions §21). Writers hold the store's lock (`LocaleRepository.lock`, core's
 * rule), so an upsert's read-then-write needs no engine-specific upsert statement.
 */
export class KyselyTranslationRepository implements TranslationRepository {
  constructor(private readonly q: QueryRunner) {}

  async upsert(record: TranslationRecord): Promise<TranslationRecord> {
    const key = scoped(record, {
      entity_type: record.entity_type,
      entity_id: record.entity_id,
      locale: record.locale,
      field: record.field,
    });
    const existing = await this.q.first(translationByKey, key);
    const value_lower = record.value.toLowerCase();
    if (existing) {
      await this.q.affected(
        updateValue,
        scoped(record, { id: existing.id, value: record.value, value_lower, updated_at: record.updated_at }),
      );
      return { ...decodeTranslation(existing), value: record.value, updated_at: record.updated_at };
    }
    await insertRows(this.q, insertTranslation, 'translations', [{ ...record, value_lower }]);
    return record;
  }

  async listForEntity(
    scope: Scope,
    entity_type: TranslatableEntityType,
    entity_id: string,
    locale?: string,
  ): Promise<TranslationRecord[]> {
    const rows =
      locale === undefined
        ? await this.q.rows(entityTranslations, scoped(scope, { entity_type, entity_id }))
        : await this.q.rows(entityTranslationsIn, scoped(scope, { entity_type, entity_id, locale }));
    return rows.map(decodeTranslation);
  }

  async listForOwners(
    scope: Scope,
    locale: string,
    owner_ids: readonly string[],
  ): Promise<TranslationText[]> {
    if (owner_ids.length === 0) return [];
    const rows = await this.q.rows(
      ownedTranslations,
      scoped(scope, { locale, owners: this.q.caps.list([...new Set(owner_ids)]) }),
    );
    return rows.map((row) => ({
      entity_type: row.entity_type as TranslatableEntityType,
      entity_id: row.entity_id,
      field: row.field,
      value: row.value,
    }));
  }

  async productOf(
    scope: Scope,
    entity_type: 'product' | 'option' | 'option_value',
    id: string,
  ): Promise<string | null> {
    const t =
      entity_type === 'product' ? liveProduct : entity_type === 'option' ? productOfOption : productOfValue;
    const row = await this.q.first(t, scoped(scope, { id }));
    return row ? row.product_id : null;
  }

  async delete(scope: Scope, id: string): Promise<boolean> {
    return (await this.q.affected(deleteTranslation, scoped(scope, { id }))) > 0;
  }

  async deleteForLocale(scope: Scope, locale: string): Promise<void> {
    await this.q.affected(deleteLocaleTranslations, scoped(scope, { locale }));
  }
}
