import type { JsonObject, Millis, Scope } from './scope';

// Regions, region prices and currency rates (decisions §19). Core holds every rule (regions/):
// the price rule, conversion, validation, the default region. The storage offers rows, a per-store
// lock for region writers, and the materialised representative price of each product in each
// region (`region_product_prices`) that storefront lists filter and sort on.

/** A market the store sells in: its currency, tax rate and tax convention. */
export interface RegionRecord {
  store_id: string;
  mode: Scope['mode'];
  id: string;
  name: string;
  /** 1–32 of `[a-z0-9_-]`, unique per store and mode, fixed after creation. */
  code: string;
  /** Active ISO 4217 code in upper case. */
  currency: string;
  /** A percentage, as the store's `tax_rate`. */
  tax_rate: number;
  prices_include_tax: boolean;
  is_default: boolean;
  is_active: boolean;
  metadata: JsonObject;
  created_at: Millis;
  updated_at: Millis;
}

/** A variant's own price in a region, in the region currency's minor units. */
export interface RegionPriceRecord {
  store_id: string;
  mode: Scope['mode'];
  id: string;
  region_id: string;
  variant_id: string;
  /** The variant's product (region lists recompute a product's representative price). */
  product_id: string;
  price: number;
  compare_at_price: number | null;
  created_at: Millis;
  updated_at: Millis;
}

/** 1 `from_currency` = `rate` `to_currency`, kept as exact decimal text (`"1.0825"`). */
export interface CurrencyRateRecord {
  store_id: string;
  mode: Scope['mode'];
  id: string;
  from_currency: string;
  to_currency: string;
  /** Plain decimal text, no exponent (core's `rateText`); never a float. */
  rate: string;
  created_at: Millis;
  updated_at: Millis;
}

/** A product's representative price in one region (null: no active variant is sold there). */
export interface RegionProductPrice {
  product_id: string;
  price: number | null;
  compare_at_price: number | null;
}

export interface RegionRepository {
  /**
   * Serialises the writers of a scope's regions (at most one default, at most 200 regions):
   * locks the store's row until the transaction ends (Postgres and MariaDB; SQLite's writer lock
   * already serialises writers).
   */
  lock(scope: Scope): Promise<void>;
  /** Every region of the scope, by `name`, then id. */
  list(scope: Scope): Promise<RegionRecord[]>;
  get(scope: Scope, id: string): Promise<RegionRecord | null>;
  /** The region with `is_default`, or null. */
  getDefault(scope: Scope): Promise<RegionRecord | null>;
  /** `code` unique per scope → 409 `duplicate_code` (param `code`). */
  insert(record: RegionRecord): Promise<void>;
  /** Writes the given fields (and `updated_at`); the updated record, or null when absent. */
  update(
    scope: Scope,
    id: string,
    patch: Partial<
      Pick<
        RegionRecord,
        | 'name'
        | 'currency'
        | 'tax_rate'
        | 'prices_include_tax'
        | 'is_default'
        | 'is_active'
        | 'metadata'
        | 'updated_at'
      >
    >,
  ): Promise<RegionRecord | null>;
  /** Clears `is_default` on every region of the scope but `except_id`. */
  clearDefault(scope: Scope, except_id: string): Promise<void>;
  /**
   * Deletes the region with its region prices and representative prices, and moves the scope's
   * active carts of that region to `fallback` (region id and currency; null region id: none).
   * Orders keep their snapshot. The deleted record, or null when there was none.
   */
  delete(
    scope: Scope,
    id: string,
    fallback: { region_id: string | null; currency: string },
  ): Promise<RegionRecord | null>;
  /** True when the region has a region price or an order (its currency is then locked). */
  isInUse(scope: Scope, id: string): Promise<boolean>;

  /**
   * Inserts the (region, variant) price or replaces its `price`, `compare_at_price` and
   * `updated_at`, keeping id and `created_at`. Answers the stored record.
   */
  upsertPrice(record: RegionPriceRecord): Promise<RegionPriceRecord>;
  /**
   * A region's prices by variant id (`variant_id` filters), keyset-paged by id. `total_count`
   * counts every price of the region matching the filter (the list envelope's); a
   * `starting_after` that is not one of the region's prices → 400 `parameter_invalid`.
   */
  listPrices(
    scope: Scope,
    region_id: string,
    options: { variant_id?: string; limit: number; starting_after?: string; ending_before?: string },
  ): Promise<{ data: RegionPriceRecord[]; has_more: boolean; total_count: number }>;
  /** The region's prices of these variants (any order). */
  pricesFor(scope: Scope, region_id: string, variant_ids: readonly string[]): Promise<RegionPriceRecord[]>;
  /** The region prices of these products' variants in every region of the scope. */
  pricesForProducts(scope: Scope, product_ids: readonly string[]): Promise<RegionPriceRecord[]>;
  /** Deletes the pair; the deleted record, or null. */
  deletePrice(scope: Scope, region_id: string, variant_id: string): Promise<RegionPriceRecord | null>;

  /** Inserts the pair or replaces its `rate` and `updated_at`, keeping id and `created_at`. */
  upsertRate(record: CurrencyRateRecord): Promise<CurrencyRateRecord>;
  /** Every rate of the scope, by from, then to currency. */
  listRates(scope: Scope): Promise<CurrencyRateRecord[]>;
  getRate(scope: Scope, from_currency: string, to_currency: string): Promise<CurrencyRateRecord | null>;
  deleteRate(scope: Scope, id: string): Promise<CurrencyRateRecord | null>;
}

/**
 * The materialised representative price of each product in each region (`region_product_prices`),
 * which storefront lists in a region filter (`price_min`, `price_max`) and sort (`sort=price`) on
 * through an index, as they do on `products.price` in the store currency. Core computes every row
 * (regions/region-price.ts) and writes it in the transaction of every change that moves it.
 */
export interface RegionProductPriceRepository {
  /**
   * Replaces the rows of these products in the region (one row per product; a null price is kept
   * as a row: not sold there, sorted last and never matched by a price filter).
   */
  set(scope: Scope, region_id: string, rows: readonly RegionProductPrice[]): Promise<void>;
  /** Deletes every row of the region (the region was deleted). */
  deleteRegion(scope: Scope, region_id: string): Promise<void>;
}
