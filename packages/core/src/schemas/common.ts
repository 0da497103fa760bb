import { z } from 'zod';
import { ERROR_CODES, ERROR_TYPES, type ErrorCode } from '../errors';
import { MAX_DECIMAL_PLACES, parseDecimal } from '../money';
import type { Json } from '../ports';
import { isCountryCode } from './country-codes';

/*
 * Shared wire shapes (spec "Shared shapes", decisions §4–§7) and the building blocks of every
 * other schema file.
 *
 * Conventions used by all schema files:
 * - Response schemas are `z.object` (unknown keys are stripped, never an error); request bodies
 *   are `z.strictObject` (unknown keys → `parameter_unknown`, as at Stripe).
 * - Every component schema carries an OpenAPI name through zod 4 metadata (`.meta({ id })`).
 * - Messages given to zod (`error:` / refinement `message`) are predicates without the field
 *   name ("must be at least 1"); `parseInput` prefixes the wire param ("quantity must be at least 1").
 * - Responses: absent optional values are `null`, never missing. Timestamps are ISO 8601 strings.
 * - Requests: timestamps are accepted as ISO 8601 date-times with an offset (or `Z`) or plain
 *   dates (midnight UTC) and come out as epoch milliseconds, the unit of the storage records.
 */

// ---------------------------------------------------------------- scalars

/** An identifier in a request (path, body, query). Unknown ids are a 404 later, not a 400. */
export const IdSchema = z.string().min(1);

/**
 * An integer (safe range). Its type error reads "must be an integer" also for non-numbers, where
 * zod alone would only say it expected a number.
 */
export const IntegerSchema = z.int({
  error: (issue) => (issue.code === 'invalid_type' ? 'must be an integer' : undefined),
});

/** A non-negative integer (quantities in stock, positions, sizes). */
export const NonNegativeIntegerSchema = IntegerSchema.min(0);

/** A positive integer (quantities of lines and items, limits). */
export const PositiveIntegerSchema = IntegerSchema.min(1);

/**
 * Whether a rate (percentage, tax rate) has at most {@link MAX_DECIMAL_PLACES} decimal places,
 * so that pricing can turn it into an exact rational (`parseDecimal`): `8.875` yes, `0.1 + 0.2` no.
 */
export function fitsDecimalPlaces(value: number): boolean {
  try {
    parseDecimal(value);
    return true;
  } catch {
    return false;
  }
}

/** A percentage-like rate in a request: finite, with at most 6 decimal places. */
export const RateSchema = z
  .number()
  .refine(fitsDecimalPlaces, { error: `must have at most ${MAX_DECIMAL_PLACES} decimal places` });

/** The path parameters of `/{id}` routes. */
export const IdPathSchema = z.object({ id: IdSchema });

/** A response timestamp: ISO 8601 date-time, e.g. `2024-01-31T12:00:00.000Z`. */
export const DateTimeSchema = z.iso.datetime({ offset: true });

/** Required free text that must not be blank (names, labels); surrounding whitespace is trimmed. */
export const RequiredTextSchema = z.string().trim().min(1);

/** Optional free text in a request body; `null` clears it. */
export const OptionalTextSchema = z.string().nullable().optional();

/** An e-mail address in a request. */
export const EmailSchema = z.email({ error: 'must be a valid e-mail address' });

/** Whether `value` is an absolute `http:` or `https:` URL with a host. */
export function isHttpUrl(value: string): boolean {
  if (!/^https?:\/\//i.test(value)) return false;
  try {
    const url = new URL(value);
    return (url.protocol === 'http:' || url.protocol === 'https:') && url.hostname.length > 0;
  } catch {
    return false;
  }
}

/** An absolute http(s) URL (webhook targets, image and tracking URLs). */
export const HttpUrlSchema = z.string().refine(isHttpUrl, { error: 'must be an absolute http(s) URL' });

/** ISO 3166-1 alpha-2 country code; accepted in any case, normalised to upper case. */
export const CountryCodeSchema = z
  .string()
  .overwrite((value) => value.toUpperCase())
  .refine(isCountryCode, { error: 'must be an ISO 3166-1 alpha-2 country code (e.g. US, GB)' });

/** ISO 4217 currency code; accepted in any case, normalised to upper case. */
export const CurrencyCodeSchema = z
  .string()
  .regex(/^[A-Za-z]{3}$/, { error: 'must be a three-letter ISO 4217 currency code (e.g. USD)' })
  .overwrite((value) => value.toUpperCase());

/**
 * A timestamp in a request body: ISO 8601 date-time with offset/`Z`, or a plain date (midnight
 * UTC). Output: epoch milliseconds. Local date-times without an offset are refused, since their
 * meaning would depend on the server's time zone.
 */
export const TimestampInputSchema = z
  .union([z.iso.datetime({ offset: true }), z.iso.date()], {
    error:
      'must be an ISO 8601 date-time with a time zone (e.g. 2024-01-31T12:00:00Z) or a date (2024-01-31)',
  })
  .transform((value) => Date.parse(value));

// ---------------------------------------------------------------- metadata

function isJsonValue(value: unknown, depth: number): boolean {
  if (value === null || typeof value === 'string' || typeof value === 'boolean') return true;
  if (typeof value === 'number') return Number.isFinite(value);
  if (depth > 32 || typeof value !== 'object') return false;
  if (Array.isArray(value)) return value.every((item) => isJsonValue(item, depth + 1));
  const proto = Object.getPrototypeOf(value);
  if (proto !== Object.prototype && proto !== null) return false;
  return Object.values(value).every((item) => isJsonValue(item, depth + 1));
}

/**
 * `metadata` (and product `attributes`): a free-form JSON object. Request bodies parsed from JSON
 * always pass the JSON-value check; it guards programmatic callers (no Dates, functions, NaN).
 * `PATCH` replaces the object as a whole (decisions §7).
 */
export const MetadataSchema = z
  .record(z.string(), z.unknown() as unknown as z.ZodType<Json>)
  .refine((value) => isJsonValue(value, 0), { error: 'must contain only JSON values' })
  .meta({ id: 'Metadata', description: 'A free-form JSON object.' });

// ---------------------------------------------------------------- money

/** Money on the wire: integer minor units and an ISO 4217 currency (spec "Shared shapes"). */
export const MoneySchema = z
  .object({
    amount: z.int(),
    currency: z.string(),
  })
  .meta({ id: 'Money', description: 'An amount in the smallest currency unit, with its currency.' });

/** A money amount in a request, normalised: `currency` is present only when the client sent one. */
export interface MoneyInput {
  amount: number;
  currency?: string;
}

function moneyInputOf(min: number) {
  const object = z.strictObject({
    amount: IntegerSchema.min(min),
    currency: CurrencyCodeSchema.optional(),
  });
  return z
    .union([IntegerSchema.min(min), object], {
      error: `must be an integer amount in minor units (at least ${min}) or a Money object { amount, currency }`,
    })
    .transform((value): MoneyInput => {
      if (typeof value === 'number') return { amount: value };
      return value.currency === undefined
        ? { amount: value.amount }
        : { amount: value.amount, currency: value.currency };
    });
}

/**
 * A money amount in a request (decisions §6): an integer in minor units (`1999`) or a Money object
 * (`{ "amount": 1999, "currency": "USD" }`), normalised to `{ amount, currency? }`. Amounts are
 * ≥ 0. Whether `currency` equals the store currency is checked by the services
 * (422 `currency_mismatch`), since the schema does not know the store.
 */
export const moneyInput = moneyInputOf(0);

/** Like {@link moneyInput} with amounts ≥ 1 (payments, refunds). */
export const positiveMoneyInput = moneyInputOf(1);

// ---------------------------------------------------------------- address

/** An address as responses show it (spec "Shared shapes"); optional parts are `null`. */
export const AddressSchema = z
  .object({
    name: z.string(),
    company: z.string().nullable(),
    line1: z.string(),
    line2: z.string().nullable(),
    city: z.string(),
    state: z.string().nullable(),
    postal_code: z.string(),
    country: z.string().meta({ description: 'ISO 3166-1 alpha-2' }),
    phone: z.string().nullable(),
  })
  .meta({ id: 'Address' });
export type Address = z.infer<typeof AddressSchema>;

/**
 * The address fields of a request, shared by carts, checkout, orders and the address book:
 * `name`, `line1`, `city`, `postal_code`, `country` required (the spec's address body); the rest
 * optional, `null` meaning blank. Country codes are validated and upper-cased.
 */
export const ADDRESS_INPUT_SHAPE = {
  name: RequiredTextSchema,
  company: OptionalTextSchema,
  line1: RequiredTextSchema,
  line2: OptionalTextSchema,
  city: RequiredTextSchema,
  state: OptionalTextSchema,
  postal_code: RequiredTextSchema,
  country: CountryCodeSchema,
  phone: OptionalTextSchema,
};

/** An address in a request body (cart, checkout, order). */
export const AddressInputSchema = z.strictObject(ADDRESS_INPUT_SHAPE).meta({ id: 'AddressInput' });
export type AddressInput = z.infer<typeof AddressInputSchema>;

// ---------------------------------------------------------------- responses shared by all areas

/**
 * The list envelope of the spec for items of `item`. Named `<ItemName>List` in OpenAPI when the
 * item schema has an id. Call it once per item schema at module load, never per request.
 */
export function listOf<T extends z.ZodType>(item: T) {
  const schema = z.object({
    data: z.array(item),
    total_count: z.int().min(0),
    has_more: z.boolean(),
    next_cursor: z.string().nullable(),
  });
  const id = z.globalRegistry.get(item)?.id;
  return id === undefined ? schema : schema.meta({ id: `${id}List` });
}

/** What `DELETE` returns (decisions §5). */
export const DeletedResponseSchema = z
  .object({ id: z.string(), deleted: z.literal(true) })
  .meta({ id: 'DeletedResponse' });
export type DeletedResponse = z.infer<typeof DeletedResponseSchema>;

const ERROR_TYPE_VALUES = [...new Set(Object.values(ERROR_TYPES))] as [
  (typeof ERROR_TYPES)[ErrorCode],
  ...(typeof ERROR_TYPES)[ErrorCode][],
];

/** One problem with one input field, in the `details` of a validation error. */
export const ErrorDetailSchema = z
  .object({ param: z.string(), message: z.string() })
  .meta({ id: 'ErrorDetail' });

/** The body of every error response (decisions §4). */
export const ErrorBodySchema = z
  .object({
    error: z.object({
      type: z.enum(ERROR_TYPE_VALUES),
      code: z.enum(ERROR_CODES as [ErrorCode, ...ErrorCode[]]),
      message: z.string(),
      param: z.string().optional(),
      request_id: z.string(),
      details: z.array(ErrorDetailSchema).optional(),
    }),
  })
  .meta({ id: 'Error' });
export type ErrorBody = z.infer<typeof ErrorBodySchema>;

// ---------------------------------------------------------------- query parameters

const INTEGER_STRING = /^-?\d+$/;

/**
 * A query integer: query values arrive as strings, so a string of digits (optionally signed) is
 * converted; anything else ('abc', '1.5', '1e3', '') reaches `inner` unchanged and fails as
 * "must be an integer". Numbers passed programmatically are accepted as they are.
 */
export function queryInt<T extends z.ZodType<number>>(inner: T) {
  return z.preprocess(
    // `+ 0` turns '-0' into 0
    (value) => (typeof value === 'string' && INTEGER_STRING.test(value) ? Number(value) + 0 : value),
    inner,
  );
}

/** A query boolean: only `true` / `false` (or real booleans) — 'yes', '1', '' are errors. */
export const QueryBooleanSchema = z.preprocess(
  (value) => (value === 'true' ? true : value === 'false' ? false : value),
  z.boolean(),
);

/** A comma-separated query list (`tag=a,b`): trimmed, empty entries dropped. */
export const QueryListSchema = z
  .string()
  .transform((value) => value.split(',').flatMap((part) => (part.trim() === '' ? [] : [part.trim()])));

/** A query timestamp bound (`created_after`, `created_before`); see {@link TimestampInputSchema}. */
export const QueryTimestampSchema = TimestampInputSchema;

export const SORT_ORDERS = ['asc', 'desc'] as const;
export type SortOrder = (typeof SORT_ORDERS)[number];
export const SortOrderSchema = z.enum(SORT_ORDERS);

/** `limit` (1..100, default 20) and `starting_after` of every list (spec "List conventions"). */
export const PAGE_QUERY_SHAPE = {
  limit: queryInt(IntegerSchema.min(1).max(100)).default(20),
  starting_after: z.string().min(1).optional(),
};

type SortShape<Sorts extends readonly string[]> = {
  sort: z.ZodDefault<z.ZodEnum<{ [K in Sorts[number]]: K }>>;
  order: z.ZodOptional<typeof SortOrderSchema>;
};

/**
 * A list query schema: still a plain `ZodObject` (so the HTTP package can turn it into OpenAPI
 * query parameters), whose output always carries `sort` and `order`.
 */
export type ListQuerySchema<Sorts extends readonly string[], Shape extends z.ZodRawShape> = z.ZodObject<
  typeof PAGE_QUERY_SHAPE & Shape & SortShape<Sorts>
> & { _zod: { output: { order: SortOrder } } };

/**
 * Builds a list query (decisions §7): page parameters, the list's filters (`shape`) and
 * `sort` (one of `sorts`, default `created_at`) with `order`. When `order` is not given it
 * defaults to `desc` for `created_at` and `asc` for any other sort. The output matches the
 * storage port's `PageRequest` plus the filters. Unknown query parameters are ignored (only
 * bodies are strict), so cache-busters and tracking parameters do not break lists.
 */
export function listQuery<
  const Sorts extends readonly ['created_at', ...string[]],
  Shape extends z.ZodRawShape,
>(sorts: Sorts, shape: Shape): ListQuerySchema<Sorts, Shape> {
  const schema = z
    .object({
      ...shape,
      ...PAGE_QUERY_SHAPE,
      sort: z.enum(sorts as unknown as [string, ...string[]]).default('created_at'),
      order: SortOrderSchema.optional(),
    })
    .overwrite((value) => {
      const query = value as { sort: string; order?: SortOrder };
      if (query.order === undefined) query.order = query.sort === 'created_at' ? 'desc' : 'asc';
      return value;
    });
  return schema as unknown as ListQuerySchema<Sorts, Shape>;
}

/** A list without filters whose only sort is `created_at` (newest first by default). */
export const ListQuerySchema = listQuery(['created_at'], {});
export type ListQuery = z.infer<typeof ListQuerySchema>;
