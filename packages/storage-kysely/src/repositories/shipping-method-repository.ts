import type { Mode, Scope } from '@cartwright/core';
import type {
  JsonObject,
  Page,
  PageRequest,
  Patch,
  ShippingMethodRecord,
  ShippingMethodRepository,
} from '@cartwright/core/storage';
import type { Compilable, Selectable, SelectQueryBuilder } from 'kysely';
import type { DialectCapabilities } from '../dialects/dialect-capabilities';
import { insertRows, insertTemplate } from '../query/insert-template';
import { keysetList, runKeysetList } from '../query/keyset-list';
import type { QueryRunner } from '../query/query-runner';
import { rowFromJson, type Slots, sqliteJsonRow, template } from '../query/template';
import { updateArgs, updateTemplate } from '../query/update-template';
import type { Database, ShippingMethodsTable } from '../schema/database';
import { TABLE_COLUMNS } from '../schema/table-columns';
import { scoped } from './scoped-args';

const insert = insertTemplate('shipping_methods');
const SHIPPING_METHOD_COLUMNS = TABLE_COLUMNS.shipping_methods;
/**
 * By id. SQLite: the row as ONE JSON array `r` (see `sqliteJsonRow`: a string instead of a
 * 14-column row object, on every checkout and cart pricing).
 */
/** A method's row: one JSON value on SQLite (sqliteJsonRow), the columns elsewhere. */
function methodRow(
  query: SelectQueryBuilder<Database, 'shipping_methods', object>,
  caps: DialectCapabilities,
) {
  return (
    caps.dialect === 'sqlite'
      ? query.select(sqliteJsonRow(SHIPPING_METHOD_COLUMNS).as('r'))
      : query.selectAll()
  ) as Compilable<Selectable<ShippingMethodsTable> | { r: string }>;
}

const get = template(({ db, caps }, p: Slots<'store_id' | 'mode' | 'id'>) => {
  const query = db
    .selectFrom('shipping_methods')
    .where('store_id', '=', p.store_id)
    .where('mode', '=', p.mode)
    .where('id', '=', p.id)
    .where('deleted_at', 'is', null);
  return methodRow(query, caps);
});
/** {@link get} of the method a cart names: the id by a subquery on the cart's row (its primary key). */
const getForCart = template(({ db, caps }, p: Slots<'store_id' | 'mode' | 'cart_id'>) => {
  const query = db
    .selectFrom('shipping_methods')
    .where('store_id', '=', p.store_id)
    .where('mode', '=', p.mode)
    .where(
      'id',
      '=',
      db
        .selectFrom('carts')
        .select('carts.shipping_method_id')
        .where('carts.store_id', '=', p.store_id)
        .where('carts.mode', '=', p.mode)
        .where('carts.id', '=', p.cart_id),
    )
    .where('deleted_at', 'is', null);
  return methodRow(query, caps);
});
const update = updateTemplate('shipping_methods', { where: 'deleted_at is null' });
const softDelete = template(({ db }, p: Slots<'store_id' | 'mode' | 'id' | 'at'>) =>
  db
    .updateTable('shipping_methods')
    .set({ deleted_at: p.at, updated_at: p.at })
    .where('store_id', '=', p.store_id)
    .where('mode', '=', p.mode)
    .where('id', '=', p.id)
    .where('deleted_at', 'is', null),
);
const list = keysetList({
  table: 'shipping_methods',
  sorts: { created_at: ['created_at'], position: ['position', 'created_at'] },
  filterKey: (f: { is_active: boolean }) => (f.is_active ? 'active' : ''),
  base: ({ db }, p: Slots<'store_id' | 'mode' | 'is_active'>, f) => {
    const query = db
      .selectFrom('shipping_methods')
      .where('store_id', '=', p.store_id)
      .where('mode', '=', p.mode)
      .where('deleted_at', 'is', null);
    return f.is_active ? query.where('is_active', '=', p.is_active) : query;
  },
});

function decode(row: Selectable<ShippingMethodsTable>, c: DialectCapabilities): ShippingMethodRecord {
  return {
    id: row.id,
    store_id: row.store_id,
    mode: row.mode as Mode,
    name: row.name,
    description: row.description,
    price: row.price,
    free_shipping_threshold: row.free_shipping_threshold,
    currency: row.currency,
    is_active: c.toBool(row.is_active),
    position: row.position,
    metadata: c.parseJson<JsonObject>(row.metadata),
    created_at: row.created_at,
    updated_at: row.updated_at,
  };
}

/** Shipping methods; `position` sort orders by position, then created_at, then id. */
export class KyselyShippingMethodRepository implements ShippingMethodRepository {
  constructor(private readonly q: QueryRunner) {}

  async insert(record: ShippingMethodRecord): Promise<void> {
    const c = this.q.caps;
    await insertRows(this.q, insert, 'shipping_methods', [
      { ...record, is_active: c.bool(record.is_active), metadata: c.json(record.metadata), deleted_at: null },
    ]);
  }

  async get(scope: Scope, id: string): Promise<ShippingMethodRecord | null> {
    const row = await this.q.first(get, scoped(scope, { id }));
    if (!row) return null;
    return decode('r' in row ? rowFromJson(SHIPPING_METHOD_COLUMNS, row.r) : row, this.q.caps);
  }

  async getForCart(scope: Scope, cart_id: string): Promise<ShippingMethodRecord | null> {
    const row = await this.q.first(getForCart, scoped(scope, { cart_id }));
    if (!row) return null;
    return decode('r' in row ? rowFromJson(SHIPPING_METHOD_COLUMNS, row.r) : row, this.q.caps);
  }

  list(
    scope: Scope,
    filter: { is_active?: boolean | undefined },
    page: PageRequest<'created_at' | 'position'>,
  ): Promise<Page<ShippingMethodRecord>> {
    const c = this.q.caps;
    const active = filter.is_active !== undefined;
    return runKeysetList(
      this.q,
      list,
      scope,
      { is_active: active },
      { is_active: active ? c.bool(filter.is_active as boolean) : undefined },
      page,
      (rows) => rows.map((row) => decode(row, c)),
    );
  }

  async update(
    scope: Scope,
    id: string,
    patch: Patch<
      ShippingMethodRecord,
      'name' | 'description' | 'price' | 'free_shipping_threshold' | 'is_active' | 'position' | 'metadata'
    >,
  ): Promise<ShippingMethodRecord | null> {
    const c = this.q.caps;
    const { shape, args } = updateArgs(
      {
        name: patch.name,
        description: patch.description,
        price: patch.price,
        free_shipping_threshold: patch.free_shipping_threshold,
        is_active: patch.is_active === undefined ? undefined : c.bool(patch.is_active),
        position: patch.position,
        metadata: patch.metadata === undefined ? undefined : c.json(patch.metadata),
        updated_at: patch.updated_at,
      },
      scoped(scope, { id }),
    );
    const row = await this.q.first(update, args, shape);
    return row ? decode(row, c) : null;
  }

  async delete(scope: Scope, id: string, at: number): Promise<boolean> {
    return (await this.q.affected(softDelete, scoped(scope, { id, at }))) > 0;
  }
}
