import type {
  CurrencyRateRecord,
  RegionPriceRecord,
  RegionRecord,
  Repositories,
  Scope,
  StoreRecord,
} from '../ports/storage';
import { CommerceError } from '../shared/errors';
import { type ExactRate, parseRate } from './exchange-rate';
import { type PricePair, type RegionPriceContext, storeAmountInRegion } from './region-price';

/**
 * What pricing a cart in a region reads (decisions §19): the region, the scope's currency rates
 * (only the store → region pair is used; the list is read whole so that it needs neither the
 * store nor the region first — one round trip, beside pricing's other reads) and the region's
 * prices of the cart's variants. Read only when a cart has a region: a cart without one costs
 * no query more.
 */
export interface RegionPricingRecords {
  /** The region, or null when there is no such region (deleted meanwhile). */
  region: RegionRecord | null;
  rates: CurrencyRateRecord[];
  prices: RegionPriceRecord[];
}

/** Starts the reads of {@link RegionPricingRecords}, all at once. */
export function readRegionPricing(
  tx: Repositories,
  scope: Scope,
  region_id: string,
  variant_ids: readonly string[],
): Promise<RegionPricingRecords> {
  return Promise.all([
    tx.regions.get(scope, region_id),
    tx.regions.listRates(scope),
    variant_ids.length === 0 ? [] : tx.regions.pricesFor(scope, region_id, variant_ids),
  ]).then(([region, rates, prices]) => ({ region, rates, prices }));
}

/** A region as pricing uses it: its record, the price context and its prices by variant id. */
export interface RegionPricing {
  region: RegionRecord;
  context: RegionPriceContext;
  prices: Map<string, PricePair>;
}

/**
 * The pricing context of a region read by {@link readRegionPricing}, or null when the region is
 * gone. The rate is the stored store → region pair (only direct pairs are used, decisions §19).
 */
export function regionPricing(records: RegionPricingRecords, store: StoreRecord): RegionPricing | null {
  const { region } = records;
  if (region === null) return null;
  const stored = records.rates.find(
    (rate) => rate.from_currency === store.currency && rate.to_currency === region.currency,
  );
  const rate: ExactRate | null = stored ? parseRate(stored.rate) : null;
  return {
    region,
    context: { currency: region.currency, store_currency: store.currency, rate },
    prices: new Map(
      records.prices.map((price) => [
        price.variant_id,
        { price: price.price, compare_at_price: price.compare_at_price },
      ]),
    ),
  };
}

/**
 * A store-currency amount in the region (see `storeAmountInRegion`), keeping null (no bound) as
 * null; `undefined` when it cannot be converted (no rate).
 */
export function optionalStoreAmountInRegion(
  amount: number | null,
  context: RegionPriceContext,
): number | null | undefined {
  if (amount === null) return null;
  return storeAmountInRegion(amount, context) ?? undefined;
}

/** The region a cart names, checked for a write: unknown → 404 `not_found`, inactive → 422 `region_unavailable`. */
export function assertRegionUsable(
  region: RegionRecord | null,
  region_id: string,
  param = 'region_id',
): RegionRecord {
  if (region === null) throw new CommerceError('not_found', `No such region: '${region_id}'`, { param });
  if (!region.is_active) throw regionUnavailable(region_id, param);
  return region;
}

/** 422 `region_unavailable`: the region is inactive (or was deleted under a checkout). */
export function regionUnavailable(region_id: string, param = 'region_id'): CommerceError {
  return new CommerceError('region_unavailable', `Region '${region_id}' is not available`, { param });
}
