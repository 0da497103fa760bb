import type { Scope } from '@cartwright/core';
import type { RegionProductPrice, RegionProductPriceRepository } from '@cartwright/core/storage';
import { type Compilable, type Insertable, type SqlBool, sql } from 'kysely';
import { insertRows } from '../query/insert-template';
import type { QueryRunner } from '../query/query-runner';
import { type Slots, shapedTemplate, slot, template } from '../query/template';
import type { Database } from '../schema/database';
import { TABLE_COLUMNS } from '../schema/table-columns';
import { scoped } from './scoped-args';

type ScopeSlots = 'store_id' | 'mode';

/**
 * `INSERT … ON CONFLICT (key) DO UPDATE` of `n` rows (named as `insertTemplate`'s, so that
 * `insertRows` binds them): a row whose price and compare-at price are already stored is left
 * alone (SQLite `IS NOT`, Postgres `IS DISTINCT FROM`; MariaDB changes nothing for equal values), so
 * that a refresh that moves nothing writes nothing — and moves no catalog version.
 */
const upsertRows = shapedTemplate(
  (count: number) => String(count),
  ({ db, caps }, p: object, count: number) => {
    const columns = TABLE_COLUMNS.region_product_prices as readonly string[];
    const rows = Array.from({ length: count }, (_, i) =>
      Object.fromEntries(columns.map((column) => [column, slot(p, `r${i}_${column}`)])),
    );
    const insert = db
      .insertInto('region_product_prices')
      .values(rows as Insertable<Database['region_product_prices']>[]);
    if (caps.dialect === 'mysql') {
      return insert.onDuplicateKeyUpdate({
        price: sql`values(price)`,
        compare_at_price: sql`values(compare_at_price)`,
      }) as Compilable<unknown>;
    }
    const differs = caps.dialect === 'sqlite' ? sql.raw('is not') : sql.raw('is distinct from');
    return insert.onConflict((oc) =>
      oc
        .columns(['store_id', 'mode', 'region_id', 'product_id'])
        .doUpdateSet({
          price: sql`excluded.price`,
          compare_at_price: sql`excluded.compare_at_price`,
        })
        .where(
          sql<SqlBool>`region_product_prices.price ${differs} excluded.price or region_product_prices.compare_at_price ${differs} excluded.compare_at_price`,
        ),
    ) as Compilable<unknown>;
  },
);

const deleteRegion = template(({ db }, p: Slots<ScopeSlots | 'region_id'>) =>
  db
    .deleteFrom('region_product_prices')
    .where('store_id', '=', p.store_id)
    .where('mode', '=', p.mode)
    .where('region_id', '=', p.region_id),
);

/**
 * The materialised representative price of each product in each region (0031): storefront lists
 * in a region filter and sort on it (product-repository.ts). Core computes every row
 * (`refreshRegionProductPrices`); `set` upserts them (multi-row statements of 100, a row left
 * alone when it holds those prices already), in the caller's transaction.
 */
export class KyselyRegionProductPriceRepository implements RegionProductPriceRepository {
  constructor(private readonly q: QueryRunner) {}

  async set(scope: Scope, region_id: string, rows: readonly RegionProductPrice[]): Promise<void> {
    if (rows.length === 0) return;
    // One row per product (the last given wins), as the port states.
    const byProduct = new Map(rows.map((row) => [row.product_id, row]));
    await insertRows(
      this.q,
      upsertRows,
      'region_product_prices',
      [...byProduct.values()].map((row) => ({
        store_id: scope.store_id,
        mode: scope.mode,
        region_id,
        product_id: row.product_id,
        price: row.price,
        compare_at_price: row.compare_at_price,
      })),
    );
  }

  async deleteRegion(scope: Scope, region_id: string): Promise<void> {
    await this.q.affected(deleteRegion, scoped(scope, { region_id }));
  }
}
