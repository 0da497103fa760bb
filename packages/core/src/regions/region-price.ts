import { convertAmount, type ExactRate } from './exchange-rate';

/** A price pair in minor units: a variant's own, a region price, or the result of the rule. */
export interface PricePair {
  price: number;
  compare_at_price: number | null;
}

/**
 * What the price rule needs to know of a region (decisions §19): its currency, the store's
 * currency, and the store → region rate when there is one (only direct pairs are used).
 */
export interface RegionPriceContext {
  currency: string;
  store_currency: string;
  /** 1 store currency = `rate` region currency; null when no such rate is stored. */
  rate: ExactRate | null;
}

/**
 * The price of a variant in a region (decisions §19): the region's own price for the variant;
 * else the variant's price when the region sells in the store currency; else the variant's price
 * converted at the store → region rate (exact, rounded half away from zero once, see
 * {@link convertAmount}); else null — the variant is not sold there. `compare_at_price` follows
 * the same path as the price it belongs to (a region price keeps its own, possibly null).
 */
export function priceInRegion(
  variant: PricePair,
  regionPrice: PricePair | undefined,
  region: RegionPriceContext,
): PricePair | null {
  if (regionPrice) return { price: regionPrice.price, compare_at_price: regionPrice.compare_at_price };
  if (region.currency === region.store_currency) {
    return { price: variant.price, compare_at_price: variant.compare_at_price };
  }
  if (region.rate === null) return null;
  return {
    price: convertAmount(variant.price, region.rate, region.store_currency, region.currency),
    compare_at_price:
      variant.compare_at_price === null
        ? null
        : convertAmount(variant.compare_at_price, region.rate, region.store_currency, region.currency),
  };
}

/**
 * An amount set in the store currency (a `fixed` discount value, `minimum_amount`,
 * `maximum_discount`, a shipping price or threshold) in the region's currency: unchanged in the
 * store currency, converted at the store → region rate otherwise, null without a rate.
 */
export function storeAmountInRegion(amount: number, region: RegionPriceContext): number | null {
  if (region.currency === region.store_currency) return amount;
  if (region.rate === null) return null;
  return convertAmount(amount, region.rate, region.store_currency, region.currency);
}
