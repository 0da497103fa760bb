import type { JsonObject, Patch, StoreRecord, StoreRepository } from '@cartwright/core/storage';
import type { Compilable, Selectable } from 'kysely';
import type { DialectCapabilities } from '../dialects/dialect-capabilities';
import { insertRows, insertTemplate } from '../query/insert-template';
import type { QueryRunner } from '../query/query-runner';
import { rowFromJson, type Slots, sqliteJsonRow, template } from '../query/template';
import { updateArgs, updateTemplate } from '../query/update-template';
import type { StoresTable } from '../schema/database';
import { TABLE_COLUMNS } from '../schema/table-columns';

const insert = insertTemplate('stores');
const getFirst = template(({ db }) =>
  db.selectFrom('stores').selectAll().orderBy('created_at').orderBy('id').limit(1),
);
const STORE_COLUMNS = TABLE_COLUMNS.stores;
/**
 * By id. SQLite: the row as ONE JSON array `r` (see `sqliteJsonRow`: a string instead of a
 * 10-column row object, on every checkout and cart pricing).
 */
const get = template(({ db, caps }, p: Slots<'id'>) => {
  const query = db.selectFrom('stores').where('id', '=', p.id);
  return (
    caps.dialect === 'sqlite' ? query.select(sqliteJsonRow(STORE_COLUMNS).as('r')) : query.selectAll()
  ) as Compilable<Selectable<StoresTable> | { r: string }>;
});
const update = updateTemplate('stores', { scoped: false });
/** `claimSlug`: the slug is set only while the store has none. */
const claimSlug = updateTemplate('stores', { scoped: false, where: 'slug is null' });
const getBySlug = template(({ db }, p: Slots<'slug'>) =>
  db.selectFrom('stores').selectAll().where('slug', '=', p.slug),
);
/** Any non-deleted product or any order of the store, in either mode. */
const hasCatalogOrOrders = template(({ db }, p: Slots<'store_id'>) =>
  db.selectNoFrom((eb) => [
    eb
      .or([
        eb.exists(
          eb
            .selectFrom('products')
            .select('id')
            .where('store_id', '=', p.store_id)
            .where('deleted_at', 'is', null),
        ),
        eb.exists(eb.selectFrom('orders').select('id').where('store_id', '=', p.store_id)),
      ])
      .as('found'),
  ]),
);

export function decodeStore(row: Selectable<StoresTable>, c: DialectCapabilities): StoreRecord {
  return {
    id: row.id,
    organization_id: row.organization_id,
    name: row.name,
    slug: row.slug,
    currency: row.currency,
    timezone: row.timezone,
    prices_include_tax: c.toBool(row.prices_include_tax),
    tax_rate: row.tax_rate,
    return_window_days: row.return_window_days ?? null,
    metadata: c.parseJson<JsonObject>(row.metadata),
    created_at: row.created_at,
    updated_at: row.updated_at,
  };
}

/** Stores: a global table; settings are shared by both modes (docs/contract.md#store-settings). */
export class KyselyStoreRepository implements StoreRepository {
  constructor(private readonly q: QueryRunner) {}

  async get(key?: string | { slug: string }): Promise<StoreRecord | null> {
    if (typeof key === 'string') {
      const row = await this.q.first(get, { id: key });
      if (!row) return null;
      return decodeStore('r' in row ? rowFromJson(STORE_COLUMNS, row.r) : row, this.q.caps);
    }
    const row =
      key === undefined
        ? await this.q.first(getFirst, {})
        : await this.q.first(getBySlug, { slug: key.slug });
    return row ? decodeStore(row, this.q.caps) : null;
  }

  async insert(record: StoreRecord): Promise<void> {
    const c = this.q.caps;
    await insertRows(this.q, insert, 'stores', [
      { ...record, prices_include_tax: c.bool(record.prices_include_tax), metadata: c.json(record.metadata) },
    ]);
  }

  async update(
    id: string,
    patch: Patch<
      StoreRecord,
      | 'name'
      | 'slug'
      | 'currency'
      | 'timezone'
      | 'prices_include_tax'
      | 'tax_rate'
      | 'return_window_days'
      | 'metadata'
    >,
  ): Promise<StoreRecord | null> {
    const c = this.q.caps;
    const { shape, args } = updateArgs(
      {
        name: patch.name,
        slug: patch.slug,
        currency: patch.currency,
        timezone: patch.timezone,
        prices_include_tax:
          patch.prices_include_tax === undefined ? undefined : c.bool(patch.prices_include_tax),
        tax_rate: patch.tax_rate,
        return_window_days: patch.return_window_days,
        metadata: patch.metadata === undefined ? undefined : c.json(patch.metadata),
        updated_at: patch.updated_at,
      },
      { id },
    );
    const row = await this.q.first(update, args, shape);
    return row ? decodeStore(row, c) : null;
  }

  async claimSlug(id: string, slug: string): Promise<StoreRecord | null> {
    const { shape, args } = updateArgs({ slug }, { id });
    const row = await this.q.first(claimSlug, args, shape);
    return row ? decodeStore(row, this.q.caps) : this.get(id);
  }

  async hasCatalogOrOrders(store_id: string): Promise<boolean> {
    const row = await this.q.first(hasCatalogOrOrders, { store_id });
    return this.q.caps.toBool(row?.found);
  }
}
