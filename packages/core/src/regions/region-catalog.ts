import type { Repositories, Scope } from '../ports/storage';

/**
 * Which representative prices to recompute (`region_product_prices`, decisions §19): the given
 * products in every region of the scope, every product in the given regions, or both filters.
 */
export interface RegionPriceRefresh {
  /** Only these regions (default: every region of the scope). */
  region_ids?: readonly string[];
  /** Only these products (default: every product of the scope, paged). */
  product_ids?: readonly string[];
}

/**
 * Recomputes the representative price of products in regions with the price rule
 * (`priceInRegion`) and writes them through `tx.regionProductPrices.set`, in the caller's
 * transaction. Called by every write that moves one: a region created or its currency changed,
 * a region price upserted or deleted, a currency rate upserted or deleted, a product or variant
 * created, changed or deleted.
 *
 * STUB: implemented by the storefront-in-a-region work (session 18).
 */
export async function refreshRegionProductPrices(
  _tx: Repositories,
  _scope: Scope,
  _which: RegionPriceRefresh,
): Promise<void> {}
