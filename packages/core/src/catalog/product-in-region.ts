import type {
  CurrencyRateRecord,
  StorefrontRegion as PortStorefrontRegion,
  ProductAggregate,
  RegionPriceRecord,
  RegionProductPrice,
  RegionRecord,
  VariantRecord,
} from '../ports/storage';
import { parseRate } from '../regions/exchange-rate';
import { type PricePair, priceInRegion, type RegionPriceContext } from '../regions/region-price';
import { moneyOrNull } from '../shared/wire-format';
import { type CatalogView, productToWire } from './wire';

/**
 * A region as the storefront prices products in it (decisions §19): its id, and what the price
 * rule needs ({@link RegionPriceContext}: its currency, the store's, the store → region rate).
 */
export type StorefrontRegion = PortStorefrontRegion & RegionPriceContext;

/**
 * The {@link StorefrontRegion} of `region` in a store selling in `storeCurrency`, with the
 * scope's rates (only the direct store → region pair is used).
 */
export function storefrontRegionOf(
  region: Pick<RegionRecord, 'id' | 'currency'>,
  storeCurrency: string,
  rates: readonly Pick<CurrencyRateRecord, 'from_currency' | 'to_currency' | 'rate'>[],
): StorefrontRegion {
  const rate =
    region.currency === storeCurrency
      ? null
      : rates.find((r) => r.from_currency === storeCurrency && r.to_currency === region.currency);
  return {
    id: region.id,
    currency: region.currency,
    store_currency: storeCurrency,
    rate: rate ? parseRate(rate.rate) : null,
  };
}

/** A variant's price pair as the rule reads it. */
type PricedVariant = Pick<VariantRecord, 'id' | 'price' | 'compare_at_price' | 'is_active'>;

/**
 * A product's representative price in a region (decisions §19, docs/contract.md#representative-price
 * in the store currency): each live active variant priced with {@link priceInRegion}, then the
 * cheapest (of equal prices, the first in `variants`' order — give them in display order), with
 * that variant's `compare_at_price`; both null when no active variant is sold there.
 */
export function representativeInRegion(
  variants: readonly PricedVariant[],
  regionPrices: ReadonlyMap<string, PricePair>,
  region: RegionPriceContext,
): { price: number | null; compare_at_price: number | null } {
  let cheapest: PricePair | null = null;
  for (const variant of variants) {
    if (!variant.is_active) continue;
    const priced = priceInRegion(variant, regionPrices.get(variant.id), region);
    if (priced !== null && (cheapest === null || priced.price < cheapest.price)) cheapest = priced;
  }
  return { price: cheapest?.price ?? null, compare_at_price: cheapest?.compare_at_price ?? null };
}

/** A row of `region_product_prices` for one product. */
export function regionProductPriceOf(
  productId: string,
  variants: readonly PricedVariant[],
  regionPrices: ReadonlyMap<string, PricePair>,
  region: RegionPriceContext,
): RegionProductPrice {
  return { product_id: productId, ...representativeInRegion(variants, regionPrices, region) };
}

/** A region's prices by variant id (`RegionRepository.pricesFor` of a page's variants). */
export function regionPriceMap(
  prices: readonly Pick<RegionPriceRecord, 'variant_id' | 'price' | 'compare_at_price'>[],
): Map<string, PricePair> {
  const map = new Map<string, PricePair>();
  for (const price of prices) {
    map.set(price.variant_id, { price: price.price, compare_at_price: price.compare_at_price });
  }
  return map;
}

/** A Money amount of the wire (`{ amount, currency }`). */
type Money = { amount: number; currency: string };

/**
 * The storefront wire form of a product in a region (decisions §19): `productToWire` with every
 * price in the region currency — each variant's `price` / `compare_at_price` by the price rule
 * (`price: null` when it is not sold there: it cannot be bought in that region), and the product's
 * `price` / `compare_at_price` those of its representative variant there
 * ({@link representativeInRegion}). Without a region, `productToWire` itself.
 */
export function productInRegionToWire(
  product: ProductAggregate,
  view: CatalogView,
  region: StorefrontRegion | null,
  regionPrices: ReadonlyMap<string, PricePair>,
) {
  const wire = productToWire(product, view);
  if (region === null) return wire;
  const byId = new Map(product.variants.map((variant) => [variant.id, variant]));
  // Display order: the wire's variants are in position order (ties by id) already.
  const ordered: PricedVariant[] = [];
  const variants = wire.variants.map((shown) => {
    const variant = byId.get(shown.id) as VariantRecord;
    ordered.push(variant);
    const priced = priceInRegion(variant, regionPrices.get(variant.id), region);
    return {
      ...shown,
      price: (priced === null ? null : { amount: priced.price, currency: region.currency }) as Money,
      compare_at_price: moneyOrNull(priced?.compare_at_price ?? null, region.currency),
    };
  });
  const representative = representativeInRegion(ordered, regionPrices, region);
  return {
    ...wire,
    variants,
    price: moneyOrNull(representative.price, region.currency),
    compare_at_price: moneyOrNull(representative.compare_at_price, region.currency),
  };
}
