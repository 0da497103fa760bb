import type { Repositories, Scope } from '../ports/storage';
import {
  regionPriceMap,
  regionProductPriceOf,
  type StorefrontRegion,
  storefrontRegionOf,
} from './product-in-region';

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

/** Products per page when a whole region is recomputed. */
export const REGION_REFRESH_PAGE = 500;

/**
 * Recomputes the representative price of products in regions with the price rule
 * (`priceInRegion` per live active variant, then the cheapest; `representativeInRegion`) and
 * writes them through `tx.regionProductPrices.set`, in the caller's transaction. Called by every
 * write that moves one: a region created or its currency changed, a region price upserted or
 * deleted, a currency rate upserted or deleted, a product or variant created, changed or deleted.
 *
 * Reads: the scope's regions (one statement; none → nothing else, so a store without regions
 * pays one indexed read per product write), the store currency and the store → region rates,
 * then per page of products (the given ones, else the scope's live products 500 at a time) their
 * live variants' prices and their region prices in one statement each. A given product that is
 * not live (deleted) gets a null row: it is never listed (lists join live products), and a
 * filter never matches it.
 */
export async function refreshRegionProductPrices(
  tx: Repositories,
  scope: Scope,
  which: RegionPriceRefresh,
): Promise<void> {
  if (which.product_ids !== undefined && which.product_ids.length === 0) return;
  if (which.region_ids !== undefined && which.region_ids.length === 0) return;
  const all = await tx.regions.list(scope);
  const wanted = which.region_ids === undefined ? null : new Set(which.region_ids);
  const chosen = wanted === null ? all : all.filter((region) => wanted.has(region.id));
  if (chosen.length === 0) return;
  const store = await tx.stores.get(scope.store_id);
  if (!store) return;
  const rates = await Promise.all(
    [...new Set(chosen.map((region) => region.currency))]
      .filter((currency) => currency !== store.currency)
      .map((currency) => tx.regions.getRate(scope, store.currency, currency)),
  );
  const known = rates.flatMap((rate) => (rate === null ? [] : [rate]));
  const regions = chosen.map((region) => storefrontRegionOf(region, store.currency, known));

  if (which.product_ids !== undefined) {
    await refreshPage(tx, scope, regions, which.product_ids, [...new Set(which.product_ids)]);
    return;
  }
  let after: string | null = null;
  for (;;) {
    const page = await tx.products.pricedVariants(scope, { after, limit: REGION_REFRESH_PAGE });
    if (page.length === 0) return;
    await refreshPage(
      tx,
      scope,
      regions,
      page.map((product) => product.product_id),
      null,
      page,
    );
    if (page.length < REGION_REFRESH_PAGE) return;
    after = (page[page.length - 1] as { product_id: string }).product_id;
  }
}

async function refreshPage(
  tx: Repositories,
  scope: Scope,
  regions: readonly StorefrontRegion[],
  productIds: readonly string[],
  requested: readonly string[] | null,
  read?: Awaited<ReturnType<Repositories['products']['pricedVariants']>>,
): Promise<void> {
  const products = read ?? (await tx.products.pricedVariants(scope, { product_ids: productIds }));
  const prices = await tx.regions.pricesForProducts(scope, [...productIds]);
  const live = new Set(products.map((product) => product.product_id));
  const gone = (requested ?? []).filter((id) => !live.has(id));
  for (const region of regions) {
    const map = regionPriceMap(prices.filter((price) => price.region_id === region.id));
    const rows = products.map((product) =>
      regionProductPriceOf(product.product_id, product.variants, map, region),
    );
    for (const id of gone) rows.push({ product_id: id, price: null, compare_at_price: null });
    await tx.regionProductPrices.set(scope, region.id, rows);
  }
}
