import type { Mode, Scope } from '@cartwright/core';
import { CommerceError } from '@cartwright/core';
import type {
  CurrencyRateRecord,
  JsonObject,
  RegionPriceRecord,
  RegionRecord,
  RegionRepository,
} from '@cartwright/core/storage';
import { type Selectable, type SqlBool, sql } from 'kysely';
import type { DialectCapabilities } from '../dialects/dialect-capabilities';
import { insertRows, insertTemplate } from '../query/insert-template';
import type { QueryRunner } from '../query/query-runner';
import { type Slots, shapedTemplate, template } from '../query/template';
import { updateArgs, updateTemplate } from '../query/update-template';
import type { CurrencyRatesTable, RegionPricesTable, RegionsTable } from '../schema/database';
import { scoped } from './scoped-args';

type ScopeSlots = 'store_id' | 'mode';

// ---------------------------------------------------------------- regions

const insertRegion = insertTemplate('regions');
const updateRegion = updateTemplate('regions');
/** Postgres and MariaDB: the store's row lock, taken by every writer of its regions. */
const lockStore = template(({ db }, p: Slots<'store_id'>) =>
  db.selectFrom('stores').select('id').where('id', '=', p.store_id).forNoKeyUpdate(),
);
/** At most 200 rows: the primary key's scope prefix, sorted. */
const listRegions = template(({ db }, p: Slots<ScopeSlots>) =>
  db
    .selectFrom('regions')
    .selectAll()
    .where('store_id', '=', p.store_id)
    .where('mode', '=', p.mode)
    .orderBy('name')
    .orderBy('id'),
);
const regionById = template(({ db }, p: Slots<ScopeSlots | 'id'>) =>
  db
    .selectFrom('regions')
    .selectAll()
    .where('store_id', '=', p.store_id)
    .where('mode', '=', p.mode)
    .where('id', '=', p.id),
);
/** The region's row, locked until the transaction ends (Postgres and MariaDB). */
const regionByIdForUpdate = template(({ db }, p: Slots<ScopeSlots | 'id'>) =>
  db
    .selectFrom('regions')
    .selectAll()
    .where('store_id', '=', p.store_id)
    .where('mode', '=', p.mode)
    .where('id', '=', p.id)
    .forUpdate(),
);
const defaultRegion = template(({ db, caps }, p: Slots<ScopeSlots>) =>
  db
    .selectFrom('regions')
    .selectAll()
    .where('store_id', '=', p.store_id)
    .where('mode', '=', p.mode)
    .where('is_default', '=', caps.bool(true) as never)
    .orderBy('id')
    .limit(1),
);
const clearDefault = template(({ db, caps }, p: Slots<ScopeSlots | 'id'>) =>
  db
    .updateTable('regions')
    .set({ is_default: caps.bool(false) as never })
    .where('store_id', '=', p.store_id)
    .where('mode', '=', p.mode)
    .where('id', '!=', p.id)
    .where('is_default', '=', caps.bool(true) as never),
);
const deleteRegion = template(({ db }, p: Slots<ScopeSlots | 'id'>) =>
  db
    .deleteFrom('regions')
    .where('store_id', '=', p.store_id)
    .where('mode', '=', p.mode)
    .where('id', '=', p.id),
);
const deleteRegionPrices = template(({ db }, p: Slots<ScopeSlots | 'region_id'>) =>
  db
    .deleteFrom('region_prices')
    .where('store_id', '=', p.store_id)
    .where('mode', '=', p.mode)
    .where('region_id', '=', p.region_id),
);
/** The scope's active carts of a region move to the fallback region and currency. */
const moveActiveCarts = template(({ db }, p: Slots<ScopeSlots | 'region_id' | 'to_region_id' | 'currency'>) =>
  db
    .updateTable('carts')
    .set({ region_id: p.to_region_id, currency: p.currency })
    .where('store_id', '=', p.store_id)
    .where('mode', '=', p.mode)
    .where('region_id', '=', p.region_id)
    .where(sql<SqlBool>`status = 'active'`),
);
/** `region_prices_variant_unique`'s (store_id, mode, region_id) prefix. */
const regionHasPrice = template(({ db }, p: Slots<ScopeSlots | 'region_id'>) =>
  db
    .selectFrom('region_prices')
    .select(sql<number>`1`.as('found'))
    .where('store_id', '=', p.store_id)
    .where('mode', '=', p.mode)
    .where('region_id', '=', p.region_id)
    .limit(1),
);
/** `orders_region_idx`'s (store_id, mode, region_id) prefix. */
const regionHasOrder = template(({ db }, p: Slots<ScopeSlots | 'region_id'>) =>
  db
    .selectFrom('orders')
    .select(sql<number>`1`.as('found'))
    .where('store_id', '=', p.store_id)
    .where('mode', '=', p.mode)
    .where('region_id', '=', p.region_id)
    .limit(1),
);

function decodeRegion(row: Selectable<RegionsTable>, c: DialectCapabilities): RegionRecord {
  return {
    store_id: row.store_id,
    mode: row.mode as Mode,
    id: row.id,
    name: row.name,
    code: row.code,
    currency: row.currency,
    tax_rate: Number(row.tax_rate),
    prices_include_tax: c.toBool(row.prices_include_tax),
    is_default: c.toBool(row.is_default),
    is_active: c.toBool(row.is_active),
    metadata: c.parseJson<JsonObject>(row.metadata),
    created_at: Number(row.created_at),
    updated_at: Number(row.updated_at),
  };
}

// ---------------------------------------------------------------- region prices

/**
 * Inserts the pair or replaces its price (keeping id and created_at): Postgres' `on conflict`
 * waits for a concurrent insert of the pair and then updates it; MariaDB's `on duplicate key
 * update` (the region's row is locked first, see `upsertPrice`); SQLite's writer lock.
 */
const upsertPriceRow = template(
  (
    { db },
    p: Slots<
      | ScopeSlots
      | 'id'
      | 'region_id'
      | 'variant_id'
      | 'product_id'
      | 'price'
      | 'compare_at_price'
      | 'created_at'
      | 'updated_at'
    >,
  ) =>
    db
      .insertInto('region_prices')
      .values({
        store_id: p.store_id,
        mode: p.mode,
        id: p.id,
        region_id: p.region_id,
        variant_id: p.variant_id,
        product_id: p.product_id,
        price: p.price,
        compare_at_price: p.compare_at_price,
        created_at: p.created_at,
        updated_at: p.updated_at,
      })
      .onConflict((oc) =>
        oc.columns(['store_id', 'mode', 'region_id', 'variant_id']).doUpdateSet((eb) => ({
          price: eb.ref('excluded.price'),
          compare_at_price: eb.ref('excluded.compare_at_price'),
          updated_at: eb.ref('excluded.updated_at'),
        })),
      ),
);
const priceByPair = template(({ db }, p: Slots<ScopeSlots | 'region_id' | 'variant_id'>) =>
  db
    .selectFrom('region_prices')
    .selectAll()
    .where('store_id', '=', p.store_id)
    .where('mode', '=', p.mode)
    .where('region_id', '=', p.region_id)
    .where('variant_id', '=', p.variant_id),
);
const deletePriceRow = template(({ db }, p: Slots<ScopeSlots | 'id'>) =>
  db
    .deleteFrom('region_prices')
    .where('store_id', '=', p.store_id)
    .where('mode', '=', p.mode)
    .where('id', '=', p.id),
);
/** A cursor of a region's price list: the row must be one of the region's. */
const priceCursor = template(({ db }, p: Slots<ScopeSlots | 'region_id' | 'id'>) =>
  db
    .selectFrom('region_prices')
    .select('id')
    .where('store_id', '=', p.store_id)
    .where('mode', '=', p.mode)
    .where('region_id', '=', p.region_id)
    .where('id', '=', p.id),
);
interface PricePageShape {
  variant: boolean;
  /** `after`: ids above the cursor, ascending; `before`: below it, descending (reversed after). */
  cursor: 'none' | 'after' | 'before';
}
/**
 * A page of a region's prices by id: `region_prices_region_idx (store_id, mode, region_id, id)`
 * (with `variant_id`, the pair's unique key: at most one row).
 */
const pricePage = shapedTemplate(
  (shape: PricePageShape) => `${shape.variant}|${shape.cursor}`,
  (
    { db },
    p: Slots<ScopeSlots | 'region_id' | 'variant_id' | 'cursor_id' | 'limit'>,
    shape: PricePageShape,
  ) => {
    let query = db
      .selectFrom('region_prices')
      .selectAll()
      .where('store_id', '=', p.store_id)
      .where('mode', '=', p.mode)
      .where('region_id', '=', p.region_id);
    if (shape.variant) query = query.where('variant_id', '=', p.variant_id);
    if (shape.cursor === 'after') query = query.where('id', '>', p.cursor_id);
    if (shape.cursor === 'before') query = query.where('id', '<', p.cursor_id);
    return query.orderBy('id', shape.cursor === 'before' ? 'desc' : 'asc').limit(p.limit);
  },
);
/** `total_count` of a region's price list (the same index prefix). */
const priceCount = shapedTemplate(
  (variant: boolean) => String(variant),
  ({ db }, p: Slots<ScopeSlots | 'region_id' | 'variant_id'>, variant: boolean) => {
    const query = db
      .selectFrom('region_prices')
      .select(sql<number | string>`count(*)`.as('count'))
      .where('store_id', '=', p.store_id)
      .where('mode', '=', p.mode)
      .where('region_id', '=', p.region_id);
    return variant ? query.where('variant_id', '=', p.variant_id) : query;
  },
);
const pricesOfVariants = template(({ db, caps }, p: Slots<ScopeSlots | 'region_id' | 'variants'>) =>
  db
    .selectFrom('region_prices')
    .selectAll()
    .where('store_id', '=', p.store_id)
    .where('mode', '=', p.mode)
    .where('region_id', '=', p.region_id)
    .where(caps.inList(sql.ref('variant_id'), p.variants)),
);
const pricesOfProducts = template(({ db, caps }, p: Slots<ScopeSlots | 'products'>) =>
  db
    .selectFrom('region_prices')
    .selectAll()
    .where('store_id', '=', p.store_id)
    .where('mode', '=', p.mode)
    .where(caps.inList(sql.ref('product_id'), p.products)),
);

function decodePrice(row: Selectable<RegionPricesTable>): RegionPriceRecord {
  return {
    store_id: row.store_id,
    mode: row.mode as Mode,
    id: row.id,
    region_id: row.region_id,
    variant_id: row.variant_id,
    product_id: row.product_id,
    price: Number(row.price),
    compare_at_price: row.compare_at_price === null ? null : Number(row.compare_at_price),
    created_at: Number(row.created_at),
    updated_at: Number(row.updated_at),
  };
}

// ---------------------------------------------------------------- currency rates

/** As `upsertPriceRow`, on `currency_rates_pair_unique` (MariaDB: the store's row locked first). */
const upsertRateRow = template(
  (
    { db },
    p: Slots<ScopeSlots | 'id' | 'from_currency' | 'to_currency' | 'rate' | 'created_at' | 'updated_at'>,
  ) =>
    db
      .insertInto('currency_rates')
      .values({
        store_id: p.store_id,
        mode: p.mode,
        id: p.id,
        from_currency: p.from_currency,
        to_currency: p.to_currency,
        rate: p.rate,
        created_at: p.created_at,
        updated_at: p.updated_at,
      })
      .onConflict((oc) =>
        oc.columns(['store_id', 'mode', 'from_currency', 'to_currency']).doUpdateSet((eb) => ({
          rate: eb.ref('excluded.rate'),
          updated_at: eb.ref('excluded.updated_at'),
        })),
      ),
);
const rateByPair = template(({ db }, p: Slots<ScopeSlots | 'from_currency' | 'to_currency'>) =>
  db
    .selectFrom('currency_rates')
    .selectAll()
    .where('store_id', '=', p.store_id)
    .where('mode', '=', p.mode)
    .where('from_currency', '=', p.from_currency)
    .where('to_currency', '=', p.to_currency),
);
const rateById = template(({ db }, p: Slots<ScopeSlots | 'id'>) =>
  db
    .selectFrom('currency_rates')
    .selectAll()
    .where('store_id', '=', p.store_id)
    .where('mode', '=', p.mode)
    .where('id', '=', p.id),
);
const listRateRows = template(({ db }, p: Slots<ScopeSlots>) =>
  db
    .selectFrom('currency_rates')
    .selectAll()
    .where('store_id', '=', p.store_id)
    .where('mode', '=', p.mode)
    .orderBy('from_currency')
    .orderBy('to_currency'),
);
const deleteRateRow = template(({ db }, p: Slots<ScopeSlots | 'id'>) =>
  db
    .deleteFrom('currency_rates')
    .where('store_id', '=', p.store_id)
    .where('mode', '=', p.mode)
    .where('id', '=', p.id),
);

function decodeRate(row: Selectable<CurrencyRatesTable>): CurrencyRateRecord {
  return {
    store_id: row.store_id,
    mode: row.mode as Mode,
    id: row.id,
    from_currency: row.from_currency,
    to_currency: row.to_currency,
    rate: String(row.rate),
    created_at: Number(row.created_at),
    updated_at: Number(row.updated_at),
  };
}

function badCursor(param: 'starting_after' | 'ending_before', id: string): CommerceError {
  return new CommerceError('parameter_invalid', `No such object for ${param}: '${id}'`, { param });
}

/**
 * Regions, their prices and the scope's currency rates (decisions §19). Upserts are single
 * statements on the pair's unique key, then read back, so two concurrent upserts of one pair end
 * with one row on every engine. MariaDB only: an `insert … on duplicate key update` into a table
 * with two unique keys (the primary key and the pair) may deadlock with a concurrent one (InnoDB
 * gap locks), so its upserts first lock a row that serialises them — the region's for prices, the
 * store's for rates — as the password resets do with the customer's.
 */
export class KyselyRegionRepository implements RegionRepository {
  constructor(private readonly q: QueryRunner) {}

  async lock(scope: Scope): Promise<void> {
    if (this.q.caps.forUpdate) await this.q.first(lockStore, { store_id: scope.store_id });
  }

  async list(scope: Scope): Promise<RegionRecord[]> {
    const rows = await this.q.rows(listRegions, scoped(scope, {}));
    return rows.map((row) => decodeRegion(row, this.q.caps));
  }

  async get(scope: Scope, id: string): Promise<RegionRecord | null> {
    const row = await this.q.first(regionById, scoped(scope, { id }));
    return row ? decodeRegion(row, this.q.caps) : null;
  }

  async getDefault(scope: Scope): Promise<RegionRecord | null> {
    const row = await this.q.first(defaultRegion, scoped(scope, {}));
    return row ? decodeRegion(row, this.q.caps) : null;
  }

  async insert(record: RegionRecord): Promise<void> {
    const c = this.q.caps;
    await insertRows(this.q, insertRegion, 'regions', [
      {
        ...record,
        prices_include_tax: c.bool(record.prices_include_tax),
        is_default: c.bool(record.is_default),
        is_active: c.bool(record.is_active),
        metadata: c.json(record.metadata),
      },
    ]);
  }

  async update(
    scope: Scope,
    id: string,
    patch: Parameters<RegionRepository['update']>[2],
  ): Promise<RegionRecord | null> {
    const c = this.q.caps;
    const { shape, args } = updateArgs(
      {
        name: patch.name,
        currency: patch.currency,
        tax_rate: patch.tax_rate,
        prices_include_tax:
          patch.prices_include_tax === undefined ? undefined : c.bool(patch.prices_include_tax),
        is_default: patch.is_default === undefined ? undefined : c.bool(patch.is_default),
        is_active: patch.is_active === undefined ? undefined : c.bool(patch.is_active),
        metadata: patch.metadata === undefined ? undefined : c.json(patch.metadata),
        updated_at: patch.updated_at,
      },
      scoped(scope, { id }),
    );
    if (shape.columns.length === 0) return this.get(scope, id);
    const row = await this.q.first(updateRegion, args, shape);
    return row ? decodeRegion(row, c) : null;
  }

  async clearDefault(scope: Scope, except_id: string): Promise<void> {
    await this.q.affected(clearDefault, scoped(scope, { id: except_id }));
  }

  async delete(
    scope: Scope,
    id: string,
    fallback: { region_id: string | null; currency: string },
  ): Promise<RegionRecord | null> {
    // Locked first (Postgres, MariaDB): a concurrent price upsert of the region (which locks the
    // region's row on MariaDB, and checks it through the foreign key) waits for the delete.
    const row = await this.q.first(
      this.q.caps.forUpdate ? regionByIdForUpdate : regionById,
      scoped(scope, { id }),
    );
    if (!row) return null;
    await this.q.affected(deleteRegionPrices, scoped(scope, { region_id: id }));
    await this.q.affected(
      moveActiveCarts,
      scoped(scope, { region_id: id, to_region_id: fallback.region_id, currency: fallback.currency }),
    );
    await this.q.affected(deleteRegion, scoped(scope, { id }));
    return decodeRegion(row, this.q.caps);
  }

  async isInUse(scope: Scope, id: string): Promise<boolean> {
    if (await this.q.first(regionHasPrice, scoped(scope, { region_id: id }))) return true;
    return (await this.q.first(regionHasOrder, scoped(scope, { region_id: id }))) !== undefined;
  }

  async upsertPrice(record: RegionPriceRecord): Promise<RegionPriceRecord> {
    if (this.q.caps.dialect === 'mysql') {
      await this.q.first(regionByIdForUpdate, scoped(record, { id: record.region_id }));
    }
    await this.q.affected(
      upsertPriceRow,
      scoped(record, {
        id: record.id,
        region_id: record.region_id,
        variant_id: record.variant_id,
        product_id: record.product_id,
        price: record.price,
        compare_at_price: record.compare_at_price,
        created_at: record.created_at,
        updated_at: record.updated_at,
      }),
    );
    const row = await this.q.first(
      priceByPair,
      scoped(record, { region_id: record.region_id, variant_id: record.variant_id }),
    );
    if (!row) throw new Error('region price upsert: the row is missing after the write');
    return decodePrice(row);
  }

  async listPrices(
    scope: Scope,
    region_id: string,
    options: { variant_id?: string; limit: number; starting_after?: string; ending_before?: string },
  ): Promise<{ data: RegionPriceRecord[]; has_more: boolean; total_count: number }> {
    let cursor: PricePageShape['cursor'] = 'none';
    let cursor_id: string | null = null;
    if (options.starting_after !== undefined) {
      cursor = 'after';
      cursor_id = options.starting_after;
    } else if (options.ending_before !== undefined) {
      cursor = 'before';
      cursor_id = options.ending_before;
    }
    if (cursor_id !== null) {
      const found = await this.q.first(priceCursor, scoped(scope, { region_id, id: cursor_id }));
      if (!found) throw badCursor(cursor === 'after' ? 'starting_after' : 'ending_before', cursor_id);
    }
    const rows = await this.q.rows(
      pricePage,
      scoped(scope, {
        region_id,
        variant_id: options.variant_id ?? null,
        cursor_id,
        limit: options.limit + 1,
      }),
      { variant: options.variant_id !== undefined, cursor },
    );
    const has_more = rows.length > options.limit;
    const page = has_more ? rows.slice(0, options.limit) : rows;
    if (cursor === 'before') page.reverse();
    // A first page that holds every match is its own count.
    const total_count =
      cursor === 'none' && !has_more
        ? page.length
        : Number(
            (
              await this.q.first(
                priceCount,
                scoped(scope, { region_id, variant_id: options.variant_id ?? null }),
                options.variant_id !== undefined,
              )
            )?.count ?? 0,
          );
    return { data: page.map(decodePrice), has_more, total_count };
  }

  async pricesFor(
    scope: Scope,
    region_id: string,
    variant_ids: readonly string[],
  ): Promise<RegionPriceRecord[]> {
    if (variant_ids.length === 0) return [];
    const rows = await this.q.rows(
      pricesOfVariants,
      scoped(scope, { region_id, variants: this.q.caps.list([...new Set(variant_ids)]) }),
    );
    return rows.map(decodePrice);
  }

  async pricesForProducts(scope: Scope, product_ids: readonly string[]): Promise<RegionPriceRecord[]> {
    if (product_ids.length === 0) return [];
    const rows = await this.q.rows(
      pricesOfProducts,
      scoped(scope, { products: this.q.caps.list([...new Set(product_ids)]) }),
    );
    return rows.map(decodePrice);
  }

  async deletePrice(scope: Scope, region_id: string, variant_id: string): Promise<RegionPriceRecord | null> {
    const row = await this.q.first(priceByPair, scoped(scope, { region_id, variant_id }));
    if (!row) return null;
    const deleted = await this.q.affected(deletePriceRow, scoped(scope, { id: row.id }));
    return deleted > 0 ? decodePrice(row) : null;
  }

  async upsertRate(record: CurrencyRateRecord): Promise<CurrencyRateRecord> {
    if (this.q.caps.dialect === 'mysql') await this.q.first(lockStore, { store_id: record.store_id });
    await this.q.affected(
      upsertRateRow,
      scoped(record, {
        id: record.id,
        from_currency: record.from_currency,
        to_currency: record.to_currency,
        rate: record.rate,
        created_at: record.created_at,
        updated_at: record.updated_at,
      }),
    );
    const row = await this.q.first(
      rateByPair,
      scoped(record, { from_currency: record.from_currency, to_currency: record.to_currency }),
    );
    if (!row) throw new Error('currency rate upsert: the row is missing after the write');
    return decodeRate(row);
  }

  async listRates(scope: Scope): Promise<CurrencyRateRecord[]> {
    const rows = await this.q.rows(listRateRows, scoped(scope, {}));
    return rows.map(decodeRate);
  }

  async getRate(
    scope: Scope,
    from_currency: string,
    to_currency: string,
  ): Promise<CurrencyRateRecord | null> {
    const row = await this.q.first(rateByPair, scoped(scope, { from_currency, to_currency }));
    return row ? decodeRate(row) : null;
  }

  async deleteRate(scope: Scope, id: string): Promise<CurrencyRateRecord | null> {
    const row = await this.q.first(rateById, scoped(scope, { id }));
    if (!row) return null;
    const deleted = await this.q.affected(deleteRateRow, scoped(scope, { id }));
    return deleted > 0 ? decodeRate(row) : null;
  }
}
