import type { StoreLocaleRecord } from './locales';
import type { PageRequest } from './pagination';
import type { ProductStatus } from './records';
import type { CurrencyRateRecord, RegionRecord } from './regions';
import type { ProductListFilter } from './repositories';
import type { Scope } from './scope';

/**
 * The storefront read model: an OPTIONAL capability of a storage (`Storage.storefront`) that
 * serves the storefront catalog's responses as finished JSON text, so that a storage can keep
 * them (in memory, in a cache, in rendered rows) however it likes. Core never sees how: it asks
 * for the complete response text and writes it out. A storage without one is served through
 * `ProductRepository.list` / `get` (by id or slug), and core serialises the objects (the reference
 * the read model is held to).
 *
 * The contract every implementation keeps (the conformance suites `storefront-text` and
 * `storefront-cache` prove it, on one storage instance and across instances/processes sharing
 * a database):
 *
 * - **Exact.** `listProducts` returns, byte for byte, `JSON.stringify` of
 *   `{ data, total_count, has_more, next_cursor }` for the page `list(scope, filter, page)`
 *   returns, each product as `productToWire(product, 'storefront')` (translated first with
 *   `options.locale`, see {@link StorefrontReadOptions}). `getProduct` returns
 *   `JSON.stringify(productToWire(product, 'storefront'))` of the live product with this id
 *   (or slug) when its status is `status`, else null.
 * - **Never older than a commit the caller could have seen.** A call reflects every write
 *   committed (by any process or storage instance on the same database) before the call
 *   started. A write committed while the call runs may or may not show.
 * - **Transactions.** Called inside a transaction callback of the same storage, it reads
 *   through that transaction (sees its uncommitted writes) and keeps nothing from it, so a
 *   rollback can never be served afterwards.
 * - **No writes.** It never changes what the repositories return; it needs no call from core
 *   after a write (invalidation is the storage's own business).
 */
export interface StorefrontReadModel {
  /** `GET /v1/storefront/products` as text (see the interface notes for the exact bytes). */
  listProducts(
    scope: Scope,
    filter: ProductListFilter,
    page: PageRequest<'created_at' | 'name' | 'price' | 'relevance'>,
    options?: StorefrontReadOptions,
  ): Promise<string>;
  /** A storefront product by id or slug as text, or null (not live, or another status). */
  getProduct(
    scope: Scope,
    by: 'id' | 'slug',
    key: string,
    status: ProductStatus,
    options?: StorefrontReadOptions,
  ): Promise<string | null>;
  /**
   * The store's locales, exactly as `LocaleRepository.list` answers them (kept however the
   * storage likes, never older than a commit the caller could have seen), and the catalog
   * version it read them under: a request passes it on to its `listProducts` / `getProduct`
   * (`options.version`), which then do not read it again. `version` is null when the storage
   * keeps nothing (inside a transaction, a disabled cache).
   */
  locales?(scope: Scope): Promise<{ locales: StoreLocaleRecord[]; version: number | null }>;
  /**
   * The scope's regions and currency rates exactly as `RegionRepository.list` / `listRates` answer
   * them, and the store's currency (decisions §19), kept like {@link locales} under the catalog
   * version (region, region price and rate writes move it); `version`: the one a request already
   * read (`locales`), used instead of reading it again.
   */
  regions?(scope: Scope, version?: number | null): Promise<StorefrontRegions>;
}

/** What a storefront request needs to choose and price in a region (`StorefrontReadModel.regions`). */
export interface StorefrontRegions {
  regions: RegionRecord[];
  rates: CurrencyRateRecord[];
  /** The store's currency (null: no such store). */
  store_currency: string | null;
  version: number | null;
}

/**
 * A region as a storefront read prices products in it (decisions §19): its id, its currency, the
 * store's currency and the store → region rate (exact decimal: `digits × 10^-scale`; null: none).
 */
export interface StorefrontRegion {
  id: string;
  currency: string;
  store_currency: string;
  rate: { digits: bigint; scale: number } | null;
}

/** Options of a storefront read (decisions §21). */
export interface StorefrontReadOptions {
  /**
   * The locale to answer in: every product as `translateProduct(product, lookup)` (core's
   * `@cartwright/core/wire`) with the translations in this locale of the products shown
   * (`TranslationRepository.listForOwners`); null or absent: the base text.
   */
  locale?: string | null | undefined;
  /**
   * The catalog version `locales` answered earlier in the same request: used instead of reading
   * it again (it was read before anything this call reads, so the guarantee holds).
   */
  version?: number | null | undefined;
  /**
   * The region to answer in (decisions §19): every product as core's `productInRegionToWire`
   * (`@cartwright/core/wire`) with the region's prices of the products' variants
   * (`RegionRepository.pricesFor`); null or absent: the store currency (today's bytes). A list's
   * filter carries its `region_id` too.
   */
  region?: StorefrontRegion | null | undefined;
}
