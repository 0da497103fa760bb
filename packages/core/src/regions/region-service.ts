import { refreshRegionProductPrices } from '../catalog/region-product-prices';
import type {
  CurrencyRateRecord,
  RegionPriceRecord,
  RegionRecord,
  Repositories,
  Scope,
  StoreRecord,
} from '../ports/storage';
import type { ServiceContext } from '../shared/context';
import { CommerceError, errors } from '../shared/errors';
import { sameCurrency } from '../shared/money';
import type { MoneyInput } from '../shared/schemas/common';
import { MAX_AMOUNT } from '../shared/schemas/limits';
import { read, write } from '../shared/unit-of-work';
import { convertAmount, type ExactRate, parseRate, rateText } from './exchange-rate';
import {
  type CreateRegionInput,
  MAX_REGIONS,
  type RegionPriceListQuery,
  type UpdateRegionInput,
  type UpsertCurrencyRateInput,
  type UpsertRegionPriceInput,
} from './schemas';
import { currencyRateToWire, regionPriceToWire, regionToWire, wholeList } from './wire';

async function storeOf(tx: Repositories, scope: Scope): Promise<StoreRecord> {
  const store = await tx.stores.get(scope.store_id);
  if (!store) throw new CommerceError('not_found', 'No such store');
  return store;
}

async function requireRegion(tx: Repositories, scope: Scope, id: string): Promise<RegionRecord> {
  const region = await tx.regions.get(scope, id);
  if (!region) throw errors.notFound('region', id);
  return region;
}

/**
 * The amount of a money input in the region's currency (decisions §19): an integer is taken as
 * minor units of the region currency; a Money object of another currency → 422
 * `currency_mismatch` with `param`.
 */
export function amountInRegionCurrency(
  input: MoneyInput,
  region: { currency: string },
  param: string,
): number {
  if (input.currency !== undefined && !sameCurrency(input.currency, region.currency)) {
    throw new CommerceError(
      'currency_mismatch',
      `${param} is in ${input.currency.toUpperCase()}, but the region's currency is ${region.currency}`,
      { param, data: { expected: region.currency, actual: input.currency.toUpperCase() } },
    );
  }
  return input.amount;
}

/**
 * After a rate of the pair (`from`, `to`) changed: the regions whose prices it converts — those
 * selling in `to` when `from` is the store currency (only direct store → region pairs are used).
 */
async function refreshAfterRate(tx: Repositories, scope: Scope, from: string, to: string): Promise<void> {
  const store = await storeOf(tx, scope);
  if (from !== store.currency) return;
  const region_ids = (await tx.regions.list(scope)).filter((r) => r.currency === to).map((r) => r.id);
  if (region_ids.length > 0) await refreshRegionProductPrices(tx, scope, { region_ids });
}

/**
 * A rate must turn every amount a request may carry (≤ `MAX_AMOUNT`) into a safe integer of the
 * target currency, so that no conversion it makes can fail: else 400 `parameter_invalid`.
 */
function assertConvertsExactly(rate: ExactRate, from: string, to: string): void {
  try {
    convertAmount(MAX_AMOUNT, rate, from, to);
  } catch {
    throw errors.invalid(
      'rate',
      `rate is too large: ${MAX_AMOUNT} minor units of ${from} would not convert to an exact amount of ${to}`,
    );
  }
}

/**
 * Regions, region prices and currency rates (decisions §19, docs/selling-in-several-currencies.md).
 * Every writer of a scope's regions, prices and rates takes `tx.regions.lock` first, so that at
 * most one region is the default, at most {@link MAX_REGIONS} exist, a region's currency does not
 * change under a price being written, and the representative prices each write recomputes
 * (`refreshRegionProductPrices`, in the same transaction) follow one order.
 */
export function createRegionService(ctx: ServiceContext) {
  return {
    /** `GET /v1/admin/regions`: every region, by name, in one page. */
    async list(scope: Scope) {
      const regions = await read(ctx, (tx) => tx.regions.list(scope));
      return wholeList(regions.map(regionToWire));
    },

    /** `GET /v1/storefront/regions`: the active regions, by name, in one page. */
    async listStorefront(scope: Scope) {
      const regions = await read(ctx, (tx) => tx.regions.list(scope));
      return wholeList(regions.filter((r) => r.is_active).map(regionToWire));
    },

    /** `GET /v1/admin/regions/{id}`. */
    async get(scope: Scope, id: string) {
      return regionToWire(await read(ctx, (tx) => requireRegion(tx, scope, id)));
    },

    /**
     * `POST /v1/admin/regions`: `code` unique (409 `duplicate_code`), at most {@link MAX_REGIONS}
     * (400 `parameter_invalid`); `tax_rate` and `prices_include_tax` default to the store's;
     * `is_default: true` clears the other default.
     */
    async create(scope: Scope, input: CreateRegionInput) {
      return write(ctx, scope, async ({ tx, now }) => {
        await tx.regions.lock(scope);
        const [store, existing] = await Promise.all([storeOf(tx, scope), tx.regions.list(scope)]);
        if (existing.some((region) => region.code === input.code)) {
          throw new CommerceError(
            'duplicate_code',
            `The store already has a region with code '${input.code}'`,
            {
              param: 'code',
            },
          );
        }
        if (existing.length >= MAX_REGIONS) {
          throw errors.invalid('code', `A store has at most ${MAX_REGIONS} regions per mode`);
        }
        const record: RegionRecord = {
          store_id: scope.store_id,
          mode: scope.mode,
          id: ctx.ids.next('reg'),
          name: input.name,
          code: input.code,
          currency: input.currency,
          tax_rate: input.tax_rate ?? store.tax_rate,
          prices_include_tax: input.prices_include_tax ?? store.prices_include_tax,
          is_default: input.is_default,
          is_active: input.is_active,
          metadata: input.metadata ?? {},
          created_at: now,
          updated_at: now,
        };
        await tx.regions.insert(record);
        if (record.is_default) await tx.regions.clearDefault(scope, record.id);
        await refreshRegionProductPrices(tx, scope, { region_ids: [record.id] });
        return regionToWire(record);
      });
    },

    /**
     * `PATCH /v1/admin/regions/{id}`: the fields given replace the stored ones (`metadata` as a
     * whole). A new `currency` once the region has prices or orders → 409 `currency_locked`.
     */
    async update(scope: Scope, id: string, input: UpdateRegionInput) {
      return write(ctx, scope, async ({ tx, now }) => {
        await tx.regions.lock(scope);
        const region = await requireRegion(tx, scope, id);
        const currencyChanges = input.currency !== undefined && input.currency !== region.currency;
        if (currencyChanges && (await tx.regions.isInUse(scope, id))) {
          throw new CommerceError(
            'currency_locked',
            `The region's currency cannot change: it has region prices or orders in ${region.currency}`,
            { param: 'currency' },
          );
        }
        const updated = await tx.regions.update(scope, id, {
          ...(input.name !== undefined ? { name: input.name } : {}),
          ...(input.currency !== undefined ? { currency: input.currency } : {}),
          ...(input.tax_rate !== undefined ? { tax_rate: input.tax_rate } : {}),
          ...(input.prices_include_tax !== undefined ? { prices_include_tax: input.prices_include_tax } : {}),
          ...(input.is_default !== undefined ? { is_default: input.is_default } : {}),
          ...(input.is_active !== undefined ? { is_active: input.is_active } : {}),
          ...(input.metadata !== undefined ? { metadata: input.metadata } : {}),
          updated_at: now,
        });
        if (!updated) throw errors.notFound('region', id);
        if (input.is_default === true) await tx.regions.clearDefault(scope, id);
        if (currencyChanges) await refreshRegionProductPrices(tx, scope, { region_ids: [id] });
        return regionToWire(updated);
      });
    },

    /**
     * `DELETE /v1/admin/regions/{id}`: the region and its prices; its carts fall back to the
     * default region (when another), else to none in the store currency; orders keep theirs.
     */
    async delete(scope: Scope, id: string) {
      return write(ctx, scope, async ({ tx }) => {
        await tx.regions.lock(scope);
        const [store, fallbackRegion] = await Promise.all([storeOf(tx, scope), tx.regions.getDefault(scope)]);
        const fallback =
          fallbackRegion !== null && fallbackRegion.id !== id
            ? { region_id: fallbackRegion.id, currency: fallbackRegion.currency }
            : { region_id: null, currency: store.currency };
        // Its representative prices first (their table may refer to the region).
        await tx.regionProductPrices.deleteRegion(scope, id);
        const deleted = await tx.regions.delete(scope, id, fallback);
        if (!deleted) throw errors.notFound('region', id);
        return { id, deleted: true as const };
      });
    },

    /** `GET /v1/admin/regions/{id}/prices`: by variant id (`variant_id` filters), 100 a page by default. */
    async listPrices(scope: Scope, region_id: string, query: RegionPriceListQuery) {
      const page = await read(ctx, async (tx) => {
        await requireRegion(tx, scope, region_id);
        return tx.regions.listPrices(scope, region_id, {
          limit: query.limit,
          ...(query.variant_id !== undefined ? { variant_id: query.variant_id } : {}),
          ...(query.starting_after !== undefined ? { starting_after: query.starting_after } : {}),
        });
      });
      const last = page.data[page.data.length - 1];
      return {
        data: page.data.map(regionPriceToWire),
        total_count: page.total_count,
        has_more: page.has_more,
        next_cursor: page.has_more && last !== undefined ? last.id : null,
      };
    },

    /**
     * `PUT /v1/admin/regions/{id}/prices`: creates or replaces the (region, variant) price. The
     * variant must exist (404, `param: variant_id`); amounts in the region currency (a Money
     * object of another → 422 `currency_mismatch`).
     */
    async upsertPrice(scope: Scope, region_id: string, input: UpsertRegionPriceInput) {
      return write(ctx, scope, async ({ tx, now }) => {
        await tx.regions.lock(scope);
        const region = await requireRegion(tx, scope, region_id);
        const price = amountInRegionCurrency(input.price, region, 'price');
        const compareAt =
          input.compare_at_price === undefined || input.compare_at_price === null
            ? null
            : amountInRegionCurrency(input.compare_at_price, region, 'compare_at_price');
        const variant = await tx.products.getVariant(scope, input.variant_id);
        if (!variant) {
          throw new CommerceError('not_found', `No such variant: '${input.variant_id}'`, {
            param: 'variant_id',
          });
        }
        const record: RegionPriceRecord = {
          store_id: scope.store_id,
          mode: scope.mode,
          id: ctx.ids.next('rprice'),
          region_id,
          variant_id: variant.id,
          product_id: variant.product_id,
          price,
          compare_at_price: compareAt,
          created_at: now,
          updated_at: now,
        };
        const stored = await tx.regions.upsertPrice(record);
        await refreshRegionProductPrices(tx, scope, {
          region_ids: [region_id],
          product_ids: [variant.product_id],
        });
        return regionPriceToWire(stored);
      });
    },

    /** `DELETE /v1/admin/regions/{id}/prices/{variant_id}`: the variant's price there follows the rule again. */
    async deletePrice(scope: Scope, region_id: string, variant_id: string) {
      return write(ctx, scope, async ({ tx }) => {
        await tx.regions.lock(scope);
        await requireRegion(tx, scope, region_id);
        const deleted = await tx.regions.deletePrice(scope, region_id, variant_id);
        if (!deleted) throw errors.notFound('region price', variant_id);
        await refreshRegionProductPrices(tx, scope, {
          region_ids: [region_id],
          product_ids: [deleted.product_id],
        });
        return { id: deleted.id, deleted: true as const };
      });
    },

    /** `GET /v1/admin/currency-rates`: every rate, by from then to currency, in one page. */
    async listRates(scope: Scope) {
      const rates = await read(ctx, (tx) => tx.regions.listRates(scope));
      return wholeList(rates.map(currencyRateToWire));
    },

    /**
     * `PUT /v1/admin/currency-rates`: upserts the pair (1 `from` = `rate` `to`), kept exactly.
     * `from` = `to` → 400; `rate` ≤ 0 or with more than 12 significant digits → 400.
     */
    async upsertRate(scope: Scope, input: UpsertCurrencyRateInput) {
      if (input.from_currency === input.to_currency) {
        throw errors.invalid('to_currency', 'to_currency must differ from from_currency');
      }
      const rate: ExactRate = parseRate(input.rate, 'rate');
      assertConvertsExactly(rate, input.from_currency, input.to_currency);
      return write(ctx, scope, async ({ tx, now }) => {
        await tx.regions.lock(scope);
        const record: CurrencyRateRecord = {
          store_id: scope.store_id,
          mode: scope.mode,
          id: ctx.ids.next('rate'),
          from_currency: input.from_currency,
          to_currency: input.to_currency,
          rate: rateText(rate),
          created_at: now,
          updated_at: now,
        };
        const stored = await tx.regions.upsertRate(record);
        await refreshAfterRate(tx, scope, stored.from_currency, stored.to_currency);
        return currencyRateToWire(stored);
      });
    },

    /** `DELETE /v1/admin/currency-rates/{id}`: prices converted with it are no longer sold (unless priced). */
    async deleteRate(scope: Scope, id: string) {
      return write(ctx, scope, async ({ tx }) => {
        await tx.regions.lock(scope);
        const deleted = await tx.regions.deleteRate(scope, id);
        if (!deleted) throw errors.notFound('currency rate', id);
        await refreshAfterRate(tx, scope, deleted.from_currency, deleted.to_currency);
        return { id, deleted: true as const };
      });
    },
  };
}

export type RegionService = ReturnType<typeof createRegionService>;
