import { z } from 'zod';
import {
  CurrencyCodeSchema,
  DateTimeSchema,
  IdSchema,
  IntegerSchema,
  listOf,
  MetadataInputSchema,
  MetadataSchema,
  moneyInput,
  type Named,
  PathIdSchema,
  queryInt,
  RateSchema,
  RequiredTextSchema,
} from '../shared/schemas/common';
import { MAX_AMOUNT, MAX_TAX_RATE } from '../shared/schemas/limits';
import { isActiveCurrency } from './currencies';
import { MAX_RATE_DIGITS } from './exchange-rate';

/** At most this many regions per store and mode (decisions §19). */
export const MAX_REGIONS = 200;

/**
 * The largest rate a request may carry: 10^11, above any rate an amount of at most `MAX_AMOUNT`
 * converts with to a safe integer (the service checks the pair's own bound, which depends on the
 * two exponents).
 */
export const MAX_RATE = 100_000_000_000;

/** The longest region code (decisions §19). */
export const MAX_REGION_CODE_LENGTH = 32;

/** A region's code: 1–32 of `[a-z0-9_-]` (decisions §19). */
export const REGION_CODE_PATTERN = /^[a-z0-9_-]{1,32}$/;

/**
 * A currency a region sells in, or a rate converts: an active ISO 4217 code (the engine's list,
 * `isActiveCurrency`), accepted in any case and upper-cased, as the store's currency.
 */
export const ActiveCurrencySchema = CurrencyCodeSchema.refine(isActiveCurrency, {
  error: 'must be an active ISO 4217 currency code (e.g. EUR, JPY, KWD)',
}).meta({ examples: ['EUR'] });

/** A region's tax rate: a percentage as the store's (0..100, at most 6 decimal places). */
const RegionTaxRateSchema = RateSchema.min(0)
  .max(MAX_TAX_RATE)
  .meta({ description: "A percentage as the store's `tax_rate` (`20` is 20 %)." });

// ---------------------------------------------------------------- responses

/** A market the store sells in: its currency, tax rate and tax convention (decisions §19). */
export interface RegionSchema extends Named<typeof regionSchema> {}
const regionSchema = z
  .object({
    id: z.string(),
    name: z.string(),
    code: z.string().meta({ description: '1–32 of `[a-z0-9_-]`, unique per store and mode; fixed.' }),
    currency: z.string().meta({ description: 'An active ISO 4217 code in upper case.' }),
    tax_rate: z.number().meta({ description: 'A percentage, as the store settings.' }),
    prices_include_tax: z.boolean(),
    is_default: z.boolean(),
    is_active: z.boolean(),
    metadata: MetadataSchema,
    created_at: DateTimeSchema,
    updated_at: DateTimeSchema,
  })
  .meta({ id: 'Region' });
export const RegionSchema: RegionSchema = regionSchema;
export type Region = z.infer<typeof RegionSchema>;

/** `GET /v1/admin/regions`, `GET /v1/storefront/regions`: every region in one page, by name. */
export const RegionListSchema = listOf(RegionSchema);
export type RegionList = z.infer<typeof RegionListSchema>;

/** A variant's own price in a region, in the region currency's minor units (decisions §19). */
export interface RegionPriceSchema extends Named<typeof regionPriceSchema> {}
const regionPriceSchema = z
  .object({
    id: z.string(),
    region_id: z.string(),
    variant_id: z.string(),
    price: z.int().meta({ description: "Minor units of the region's currency." }),
    compare_at_price: z.int().nullable(),
    created_at: DateTimeSchema,
    updated_at: DateTimeSchema,
  })
  .meta({ id: 'RegionPrice' });
export const RegionPriceSchema: RegionPriceSchema = regionPriceSchema;
export type RegionPrice = z.infer<typeof RegionPriceSchema>;

/** `GET /v1/admin/regions/{id}/prices`. */
export const RegionPriceListSchema = listOf(RegionPriceSchema);
export type RegionPriceList = z.infer<typeof RegionPriceListSchema>;

/** 1 `from_currency` = `rate` `to_currency` (decisions §19). */
export interface CurrencyRateSchema extends Named<typeof currencyRateSchema> {}
const currencyRateSchema = z
  .object({
    id: z.string(),
    from_currency: z.string(),
    to_currency: z.string(),
    rate: z.number().meta({
      description: `1 \`from_currency\` = \`rate\` \`to_currency\`; > 0, at most ${MAX_RATE_DIGITS} significant digits, kept exactly.`,
    }),
    updated_at: DateTimeSchema,
  })
  .meta({ id: 'CurrencyRate' });
export const CurrencyRateSchema: CurrencyRateSchema = currencyRateSchema;
export type CurrencyRate = z.infer<typeof CurrencyRateSchema>;

/** `GET /v1/admin/currency-rates`: every rate in one page, by from, then to currency. */
export const CurrencyRateListSchema = listOf(CurrencyRateSchema);
export type CurrencyRateList = z.infer<typeof CurrencyRateListSchema>;

// ---------------------------------------------------------------- requests

/** `POST /v1/admin/regions`. `tax_rate` and `prices_include_tax` default to the store's. */
export interface CreateRegionInputSchema extends Named<typeof createRegionInputSchema> {}
const createRegionInputSchema = z
  .strictObject({
    name: RequiredTextSchema,
    code: z
      .string()
      .max(MAX_REGION_CODE_LENGTH)
      .regex(REGION_CODE_PATTERN, {
        error: `must be 1 to ${MAX_REGION_CODE_LENGTH} characters of a-z, 0-9, _ and -`,
      })
      .meta({ examples: ['eu'] }),
    currency: ActiveCurrencySchema,
    tax_rate: RegionTaxRateSchema.optional(),
    prices_include_tax: z.boolean().optional(),
    is_default: z.boolean().default(false),
    is_active: z.boolean().default(true),
    metadata: MetadataInputSchema.optional(),
  })
  .meta({ id: 'CreateRegionInput' });
export const CreateRegionInputSchema: CreateRegionInputSchema = createRegionInputSchema;
export type CreateRegionInput = z.infer<typeof CreateRegionInputSchema>;

/** `PATCH /v1/admin/regions/{id}`: the fields given replace the stored ones; `code` is fixed. */
export interface UpdateRegionInputSchema extends Named<typeof updateRegionInputSchema> {}
const updateRegionInputSchema = z
  .strictObject({
    name: RequiredTextSchema.optional(),
    currency: ActiveCurrencySchema.optional(),
    tax_rate: RegionTaxRateSchema.optional(),
    prices_include_tax: z.boolean().optional(),
    is_default: z.boolean().optional(),
    is_active: z.boolean().optional(),
    metadata: MetadataInputSchema.optional(),
  })
  .meta({ id: 'UpdateRegionInput' });
export const UpdateRegionInputSchema: UpdateRegionInputSchema = updateRegionInputSchema;
export type UpdateRegionInput = z.infer<typeof UpdateRegionInputSchema>;

/**
 * `PUT /v1/admin/regions/{id}/prices`: creates or replaces the (region, variant) price. Amounts
 * are integers in the region currency's minor units, or Money objects of that currency (another
 * → 422 `currency_mismatch`, checked by the service). Without `compare_at_price` it is null.
 */
export interface UpsertRegionPriceInputSchema extends Named<typeof upsertRegionPriceInputSchema> {}
const upsertRegionPriceInputSchema = z
  .strictObject({
    variant_id: IdSchema,
    price: moneyInput,
    compare_at_price: moneyInput.nullable().optional(),
  })
  .meta({ id: 'UpsertRegionPriceInput' });
export const UpsertRegionPriceInputSchema: UpsertRegionPriceInputSchema = upsertRegionPriceInputSchema;
export type UpsertRegionPriceInput = z.infer<typeof UpsertRegionPriceInputSchema>;

/** `GET /v1/admin/regions/{id}/prices`: `limit` 1..100 (default 100), `starting_after`, `variant_id`. */
export interface RegionPriceListQuerySchema extends Named<typeof regionPriceListQuerySchema> {}
const regionPriceListQuerySchema = z.object({
  variant_id: IdSchema.optional(),
  limit: queryInt(IntegerSchema.min(1).max(100)).default(100),
  starting_after: IdSchema.optional(),
});
export const RegionPriceListQuerySchema: RegionPriceListQuerySchema = regionPriceListQuerySchema;
export type RegionPriceListQuery = z.infer<typeof RegionPriceListQuerySchema>;

/**
 * `PUT /v1/admin/currency-rates`: upserts the pair. `rate` is a JSON number, > 0 with at most
 * 12 significant digits, read exactly from its decimal text by the service (`parseRate`).
 */
export interface UpsertCurrencyRateInputSchema extends Named<typeof upsertCurrencyRateInputSchema> {}
const upsertCurrencyRateInputSchema = z
  .strictObject({
    from_currency: ActiveCurrencySchema,
    to_currency: ActiveCurrencySchema,
    rate: z
      .number()
      .max(MAX_RATE)
      .meta({
        description: `1 \`from_currency\` = \`rate\` \`to_currency\`: > 0, at most ${MAX_RATE_DIGITS} significant digits, and small enough that every amount (≤ ${MAX_AMOUNT}) converts to an exact integer.`,
        examples: [1.0825],
      }),
  })
  .meta({ id: 'UpsertCurrencyRateInput' });
export const UpsertCurrencyRateInputSchema: UpsertCurrencyRateInputSchema = upsertCurrencyRateInputSchema;
export type UpsertCurrencyRateInput = z.infer<typeof UpsertCurrencyRateInputSchema>;

/** The path of `DELETE /v1/admin/regions/{id}/prices/{variant_id}`. */
export interface RegionPricePathSchema extends Named<typeof regionPricePathSchema> {}
const regionPricePathSchema = z.object({ id: PathIdSchema, variant_id: PathIdSchema });
export const RegionPricePathSchema: RegionPricePathSchema = regionPricePathSchema;
