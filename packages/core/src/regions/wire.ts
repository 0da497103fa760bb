import type { CurrencyRateRecord, RegionPriceRecord, RegionRecord } from '../ports/storage';
import { iso } from '../shared/wire-format';
import { rateNumber } from './exchange-rate';
import type { CurrencyRate, Region, RegionPrice } from './schemas';

/** The Region resource (decisions §19; the SDK's `Region`). */
export function regionToWire(record: RegionRecord): Region {
  return {
    id: record.id,
    name: record.name,
    code: record.code,
    currency: record.currency,
    tax_rate: record.tax_rate,
    prices_include_tax: record.prices_include_tax,
    is_default: record.is_default,
    is_active: record.is_active,
    metadata: record.metadata,
    created_at: iso(record.created_at),
    updated_at: iso(record.updated_at),
  };
}

/** The RegionPrice resource (decisions §19; the SDK's `RegionPrice`). */
export function regionPriceToWire(record: RegionPriceRecord): RegionPrice {
  return {
    id: record.id,
    region_id: record.region_id,
    variant_id: record.variant_id,
    price: record.price,
    compare_at_price: record.compare_at_price,
    created_at: iso(record.created_at),
    updated_at: iso(record.updated_at),
  };
}

/**
 * The CurrencyRate resource (decisions §19; the SDK's `CurrencyRate`): `rate` as a JSON number,
 * whose shortest text is the stored decimal (at most 12 significant digits).
 */
export function currencyRateToWire(record: CurrencyRateRecord): CurrencyRate {
  return {
    id: record.id,
    from_currency: record.from_currency,
    to_currency: record.to_currency,
    rate: rateNumber(record.rate),
    updated_at: iso(record.updated_at),
  };
}

/** Every item of a list in one page (`has_more` false). */
export function wholeList<T>(data: T[]): {
  data: T[];
  total_count: number;
  has_more: false;
  next_cursor: null;
} {
  return { data, total_count: data.length, has_more: false, next_cursor: null };
}
