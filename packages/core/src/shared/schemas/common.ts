import { z } from 'zod';
import type { Json } from '../../ports';
import { missingAddressNameField, missingAddressNameMessage } from '../address-name';
import { ERROR_CODES, ERROR_TYPES, type ErrorCode } from '../errors';
import { MAX_DECIMAL_PLACES, parseDecimal } from '../money';
import { isCountryCode } from './country-codes';
import {
  INT4_MAX,
  MAX_AMOUNT,
  MAX_IDENTIFIER_LENGTH,
  MAX_METADATA_DEPTH,
  MAX_METADATA_KEY_LENGTH,
  MAX_METADATA_KEYS,
  MAX_METADATA_VALUE_LENGTH,
  MAX_NAME_LENGTH,
  MAX_QUANTITY,
  MAX_TEXT_LENGTH,
  MAX_URL_LENGTH,
} from './limits';

/*
 * Shared wire shapes (docs/contract.md#errors, #success-statuses, #money, #lists) and the building blocks of every
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
 * - Requests: every string, number, list and metadata object has a maximum (./limits.ts,
 *   docs/contract.md#input-limits) that every supported database can store; `parseInput` refuses strings holding
 *   a NUL or an unpaired surrogate anywhere in an input, keys included.
 */

// ---------------------------------------------------------------- scalars

/** An identifier in a request body or query. Unknown ids are a 404 later, not a 400. */
export const IdSchema = z.string().min(1).max(MAX_IDENTIFIER_LENGTH);

/**
 * What every id looks like (docs/contract.md#ids): a lower-case prefix, `_`, then letters, digits, `_` or
 * `-` (`prod_01J…`; the extra characters leave room for an injected `IdGenerator` that writes
 * UUIDs). A path id that does not is a 404 (docs/contract.md#input-limits), never a query.
 */
export const ID_PATTERN = /^[a-z]+_[0-9A-Za-z_-]+$/;

/** An id in a path (`/products/{id}`). The HTTP layer turns any failure of a path schema into 404. */
export const PathIdSchema = IdSchema.regex(ID_PATTERN, { error: 'is not an id' });

/**
 * An integer (safe range). Its type error reads "must be an integer" also for non-numbers, where
 * zod alone would only say it expected a number.
 */
export const IntegerSchema = z.int({
  error: (issue) => (issue.code === 'invalid_type' ? 'must be an integer' : undefined),
});

/** A non-negative integer stored as int4 (stock counts, positions). */
export const NonNegativeIntegerSchema = IntegerSchema.min(0).max(INT4_MAX);

/** A positive integer stored as int4 (sizes, usage limits). */
export const PositiveIntegerSchema = IntegerSchema.min(1).max(INT4_MAX);

/**
 * The quantity of a cart, order, fulfillment or refund line: 1..{@link MAX_QUANTITY}, which
 * bounds every total (limits.ts `WORST_CASE_TOTAL`).
 */
export const QuantitySchema = IntegerSchema.min(1).max(MAX_QUANTITY);

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
export interface IdPathSchema extends Named<typeof idPathSchema> {}
const idPathSchema = z.object({ id: PathIdSchema });
export const IdPathSchema: IdPathSchema = idPathSchema;

/** A response timestamp: ISO 8601 date-time, e.g. `2024-01-31T12:00:00.000Z`. */
export const DateTimeSchema = z.iso.datetime({ offset: true });

/**
 * Required free text that must not be blank (names, labels), at most {@link MAX_NAME_LENGTH}
 * characters; surrounding whitespace is trimmed.
 */
export const RequiredTextSchema = z.string().trim().min(1).max(MAX_NAME_LENGTH);

/**
 * A required identifier chosen by the client (`session_id`, SKU, discount code, tag, provider
 * label), at most {@link MAX_IDENTIFIER_LENGTH} characters; trimmed, not blank.
 */
export const IdentifierTextSchema = z.string().trim().min(1).max(MAX_IDENTIFIER_LENGTH);

/** Optional one-line text in a request body (at most {@link MAX_NAME_LENGTH}); `null` clears it. */
export interface OptionalTextSchema extends Named<typeof optionalTextSchema> {}
const optionalTextSchema = z.string().max(MAX_NAME_LENGTH).nullable().optional();
export const OptionalTextSchema: OptionalTextSchema = optionalTextSchema;

/**
 * Optional long text (descriptions, notes, reasons), at most {@link MAX_TEXT_LENGTH} characters;
 * `null` clears it.
 */
export interface OptionalLongTextSchema extends Named<typeof optionalLongTextSchema> {}
const optionalLongTextSchema = z.string().max(MAX_TEXT_LENGTH).nullable().optional();
export const OptionalLongTextSchema: OptionalLongTextSchema = optionalLongTextSchema;

/** An e-mail address in a request (at most {@link MAX_IDENTIFIER_LENGTH} characters). */
export const EmailSchema = z.email({ error: 'must be a valid e-mail address' }).max(MAX_IDENTIFIER_LENGTH);

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

/** An absolute http(s) URL (webhook targets, image and tracking URLs), at most 2,048 characters. */
export const HttpUrlSchema = z
  .string()
  .max(MAX_URL_LENGTH)
  .refine(isHttpUrl, { error: 'must be an absolute http(s) URL' });

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
export interface TimestampInputSchema extends Named<typeof timestampInputSchema> {}
const timestampInputSchema = z
  .union([z.iso.datetime({ offset: true }), z.iso.date()], {
    error:
      'must be an ISO 8601 date-time with a time zone (e.g. 2024-01-31T12:00:00Z) or a date (2024-01-31)',
  })
  .transform((value) => Date.parse(value));
export const TimestampInputSchema: TimestampInputSchema = timestampInputSchema;

/**
 * Lets an interface extend the inferred type of a schema: `interface XSchema extends
 * Named<typeof xSchema> {}`. Declarations then name the schema wherever it is embedded (a
 * field, a list, an operation) instead of spelling its zod type out each time.
 */
export type Named<T> = T;

// ---------------------------------------------------------------- metadata

function isJsonValue(value: unknown, depth: number, maxDepth = 32): boolean {
  if (value === null || typeof value === 'string' || typeof value === 'boolean') return true;
  if (typeof value === 'number') return Number.isFinite(value);
  if (depth > maxDepth || typeof value !== 'object') return false;
  if (Array.isArray(value)) return value.every((item) => isJsonValue(item, depth + 1, maxDepth));
  const proto = Object.getPrototypeOf(value);
  if (proto !== Object.prototype && proto !== null) return false;
  return Object.values(value).every((item) => isJsonValue(item, depth + 1, maxDepth));
}

/**
 * `metadata` (and product `attributes`) in a response: a free-form JSON object.
 */
export interface MetadataSchema extends Named<typeof metadataSchema> {}
const metadataSchema = z
  .record(z.string(), z.unknown() as unknown as z.ZodType<Json>)
  .refine((value) => isJsonValue(value, 0), { error: 'must contain only JSON values' })
  .meta({ id: 'Metadata', description: 'A free-form JSON object.' });
export const MetadataSchema: MetadataSchema = metadataSchema;

function isPlainObject(value: unknown): value is Record<string, unknown> {
  if (typeof value !== 'object' || value === null || Array.isArray(value)) return false;
  const proto = Object.getPrototypeOf(value);
  return proto === Object.prototype || proto === null;
}

/** The first string (value or nested key) of a metadata value longer than allowed, as a path. */
function tooLongString(value: unknown, path: PropertyKey[], depth: number): PropertyKey[] | null {
  if (typeof value === 'string') return value.length > MAX_METADATA_VALUE_LENGTH ? path : null;
  if (typeof value !== 'object' || value === null) return null;
  if (Array.isArray(value)) {
    for (let index = 0; index < value.length; index++) {
      const found = tooLongString(value[index], [...path, index], depth + 1);
      if (found !== null) return found;
    }
    return null;
  }
  for (const key of Object.keys(value)) {
    if (key.length > MAX_METADATA_VALUE_LENGTH) return [...path, key];
    const found = tooLongString((value as Record<string, unknown>)[key], [...path, key], depth + 1);
    if (found !== null) return found;
  }
  return null;
}

function checkMetadata(value: Record<string, unknown>, ctx: z.RefinementCtx): void {
  const keys = Object.keys(value);
  if (keys.length > MAX_METADATA_KEYS) {
    ctx.addIssue({
      code: 'custom',
      message: `must have at most ${MAX_METADATA_KEYS} keys (has ${keys.length})`,
    });
    return;
  }
  for (const key of keys) {
    if (key.length > MAX_METADATA_KEY_LENGTH) {
      ctx.addIssue({
        code: 'custom',
        path: [key],
        message: `is too long a key: keys have at most ${MAX_METADATA_KEY_LENGTH} characters`,
      });
      return;
    }
    if (key === '') {
      ctx.addIssue({ code: 'custom', path: [key], message: 'is an empty key: keys must not be empty' });
      return;
    }
  }
  if (!isJsonValue(value, 0, MAX_METADATA_DEPTH)) {
    ctx.addIssue({
      code: 'custom',
      message: `must contain only JSON values, nested at most ${MAX_METADATA_DEPTH} levels`,
    });
    return;
  }
  const long = tooLongString(value, [], 0);
  if (long !== null) {
    ctx.addIssue({
      code: 'custom',
      path: long,
      message: `must be at most ${MAX_METADATA_VALUE_LENGTH} characters long`,
    });
  }
}

/**
 * `metadata` (and product `attributes`) in a request (docs/contract.md#input-limits): a JSON object of at most
 * {@link MAX_METADATA_KEYS} keys, each 1..{@link MAX_METADATA_KEY_LENGTH} characters, whose
 * strings (at any depth) have at most {@link MAX_METADATA_VALUE_LENGTH} characters. The object is
 * passed on as given, not rebuilt: keys such as `__proto__` or `constructor` are kept and stored
 * like any other (zod's `record` would drop `__proto__`). `PATCH` replaces the object as a whole
 * (docs/contract.md#requests).
 */
export interface MetadataInputSchema extends Named<typeof metadataInputSchema> {}
const metadataInputSchema = z
  .custom<Record<string, Json>>(isPlainObject, { error: 'must be a JSON object' })
  .superRefine(checkMetadata)
  .meta({
    id: 'MetadataInput',
    type: 'object',
    additionalProperties: {},
    maxProperties: MAX_METADATA_KEYS,
    propertyNames: { minLength: 1, maxLength: MAX_METADATA_KEY_LENGTH },
    description:
      `A free-form JSON object: at most ${MAX_METADATA_KEYS} keys of at most ${MAX_METADATA_KEY_LENGTH} ` +
      `characters; strings at most ${MAX_METADATA_VALUE_LENGTH} characters.`,
  });
export const MetadataInputSchema: MetadataInputSchema = metadataInputSchema;

// ---------------------------------------------------------------- money

/** Money on the wire: integer minor units and an ISO 4217 currency (spec "Shared shapes"). */
export interface MoneySchema extends Named<typeof moneySchema> {}
const moneySchema = z
  .object({
    amount: z.int(),
    currency: z.string(),
  })
  .meta({ id: 'Money', description: 'An amount in the smallest currency unit, with its currency.' });
export const MoneySchema: MoneySchema = moneySchema;

/** A money amount in a request, normalised: `currency` is present only when the client sent one. */
export interface MoneyInput {
  amount: number;
  currency?: string;
}

/** The zod type of {@link moneyInput} and {@link positiveMoneyInput}. */
export interface MoneyInputSchema extends Named<ReturnType<typeof moneyInputOf>> {}

function moneyInputOf(min: number, max: number) {
  const amount = max === Number.MAX_SAFE_INTEGER ? IntegerSchema.min(min) : IntegerSchema.min(min).max(max);
  const object = z.strictObject({
    amount,
    currency: CurrencyCodeSchema.optional(),
  });
  const range = max === Number.MAX_SAFE_INTEGER ? `at least ${min}` : `${min} to ${max}`;
  return z
    .union([amount, object], {
      error: `must be an integer amount in minor units (${range}) or a Money object { amount, currency }`,
    })
    .transform((value): MoneyInput => {
      if (typeof value === 'number') return { amount: value };
      return value.currency === undefined
        ? { amount: value.amount }
        : { amount: value.amount, currency: value.currency };
    });
}

/**
 * A money amount in a request (docs/contract.md#money): an integer in minor units (`1999`) or a Money object
 * (`{ "amount": 1999, "currency": "USD" }`), normalised to `{ amount, currency? }`. Amounts are
 * 0..{@link MAX_AMOUNT} (docs/contract.md#input-limits; limits.ts shows why no total then overflows). Whether
 * `currency` equals the store currency is checked by the services (422 `currency_mismatch`),
 * since the schema does not know the store.
 */
export const moneyInput: MoneyInputSchema = moneyInputOf(0, MAX_AMOUNT);

/**
 * Like {@link moneyInput} with amounts ≥ 1 (payments, refunds): 1..{@link MAX_AMOUNT} like every
 * money amount in a request (decisions §15); an order that totals more is paid or refunded in
 * several parts (without `amount` a refund takes all that is refundable). What is refundable is a
 * business rule.
 */
export const positiveMoneyInput: MoneyInputSchema = moneyInputOf(1, MAX_AMOUNT);

// ---------------------------------------------------------------- address

/** Longest address `label` ("Home", "Office"; decisions §22). */
export const MAX_ADDRESS_LABEL_LENGTH = 100;

/**
 * An address as responses show it (spec "Shared shapes", decisions §22); optional parts are
 * `null`. `name` is always set: as given, or `"first_name last_name"` when only the parts were;
 * the parts are `null` when only `name` was given (docs/contract.md#addresses).
 */
export interface AddressSchema extends Named<typeof addressSchema> {}
const addressSchema = z
  .object({
    name: z.string(),
    first_name: z.string().nullable(),
    last_name: z.string().nullable(),
    company: z.string().nullable(),
    line1: z.string(),
    line2: z.string().nullable(),
    city: z.string(),
    state: z.string().nullable(),
    postal_code: z.string(),
    country: z.string().meta({ description: 'ISO 3166-1 alpha-2' }),
    phone: z.string().nullable(),
    label: z.string().nullable(),
    receiver_name: z.string().nullable(),
  })
  .meta({ id: 'Address' });
export const AddressSchema: AddressSchema = addressSchema;
export type Address = z.infer<typeof AddressSchema>;

const NAME_PART_DESCRIPTION = 'With the other part, instead of (or besides) `name`.';

/** The name rule of every address body, as OpenAPI describes it (docs/contract.md#addresses). */
export const ADDRESS_NAME_RULE =
  'Who it is for: `name`, or `first_name` + `last_name` (then `name` is "first_name last_name"; with all three, `name` is kept as given). One part without the other → 400 `parameter_missing` naming it; none → naming `name`.';

/**
 * The address fields of a request, shared by carts, checkout, orders and the address book:
 * `line1`, `city`, `postal_code`, `country` required, and who it is for — `name`, or
 * `first_name` + `last_name` (the rule is {@link refineAddressName}'s); the rest optional, `null`
 * meaning blank. Country codes are validated and upper-cased.
 */
export const ADDRESS_INPUT_SHAPE = {
  name: RequiredTextSchema.optional().meta({
    description:
      'Required unless `first_name` and `last_name` are given; then it defaults to "first_name last_name".',
  }),
  first_name: RequiredTextSchema.nullable().optional().meta({ description: NAME_PART_DESCRIPTION }),
  last_name: RequiredTextSchema.nullable().optional().meta({ description: NAME_PART_DESCRIPTION }),
  company: OptionalTextSchema,
  line1: RequiredTextSchema,
  line2: OptionalTextSchema,
  city: RequiredTextSchema,
  state: OptionalTextSchema,
  postal_code: RequiredTextSchema,
  country: CountryCodeSchema,
  phone: OptionalTextSchema,
  label: z.string().max(MAX_ADDRESS_LABEL_LENGTH).nullable().optional(),
  receiver_name: OptionalTextSchema,
};

/**
 * The name rule of an address body (shared/address-name.ts): `name`, or both `first_name` and
 * `last_name`; one part alone → 400 `parameter_missing` naming the other, none → naming `name`.
 * Runs even when other fields already failed, so that every missing field is reported at once.
 */
export function refineAddressName<T extends z.ZodObject>(schema: T): T {
  return schema.superRefine(
    (value, ctx) => {
      const missing = missingAddressNameField(value as Record<string, unknown>);
      if (missing === null) return;
      ctx.addIssue({
        code: 'custom',
        path: [missing],
        message: missingAddressNameMessage(missing),
        params: { code: 'parameter_missing' },
      });
    },
    { when: (payload) => typeof payload.value === 'object' && payload.value !== null },
  ) as T;
}

/** An address in a request body (cart, checkout, order). */
export interface AddressInputSchema extends Named<typeof addressInputSchema> {}
const addressInputSchema = refineAddressName(z.strictObject(ADDRESS_INPUT_SHAPE)).meta({
  id: 'AddressInput',
  description: ADDRESS_NAME_RULE,
});
export const AddressInputSchema: AddressInputSchema = addressInputSchema;
export type AddressInput = z.infer<typeof AddressInputSchema>;

// ---------------------------------------------------------------- responses shared by all areas

/** The zod type of a list envelope of `T` (what {@link listOf} returns). */
export interface ListSchema<T extends z.ZodType>
  extends z.ZodObject<
    {
      data: z.ZodArray<T>;
      total_count: z.ZodInt;
      has_more: z.ZodBoolean;
      next_cursor: z.ZodNullable<z.ZodString>;
    },
    z.core.$strip
  > {}

/**
 * The list envelope of the spec for items of `item`. Named `<ItemName>List` in OpenAPI when the
 * item schema has an id. Call it once per item schema at module load, never per request.
 */
export function listOf<T extends z.ZodType>(item: T): ListSchema<T> {
  const schema = z.object({
    data: z.array(item),
    total_count: z.int().min(0),
    has_more: z.boolean(),
    next_cursor: z.string().nullable(),
  });
  const id = z.globalRegistry.get(item)?.id;
  return id === undefined ? schema : schema.meta({ id: `${id}List` });
}

/** What `DELETE` returns (docs/contract.md#success-statuses). */
export interface DeletedResponseSchema extends Named<typeof deletedResponseSchema> {}
const deletedResponseSchema = z
  .object({ id: z.string(), deleted: z.literal(true) })
  .meta({ id: 'DeletedResponse' });
export const DeletedResponseSchema: DeletedResponseSchema = deletedResponseSchema;
export type DeletedResponse = z.infer<typeof DeletedResponseSchema>;

const ERROR_TYPE_VALUES = [...new Set(Object.values(ERROR_TYPES))] as [
  (typeof ERROR_TYPES)[ErrorCode],
  ...(typeof ERROR_TYPES)[ErrorCode][],
];

/** One problem with one input field, in the `details` of a validation error. */
export interface ErrorDetailSchema extends Named<typeof errorDetailSchema> {}
const errorDetailSchema = z.object({ param: z.string(), message: z.string() }).meta({ id: 'ErrorDetail' });
export const ErrorDetailSchema: ErrorDetailSchema = errorDetailSchema;

/** The body of every error response (docs/contract.md#errors). */
export interface ErrorBodySchema extends Named<typeof errorBodySchema> {}
const errorBodySchema = z
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
export const ErrorBodySchema: ErrorBodySchema = errorBodySchema;
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
export interface QueryBooleanSchema extends Named<typeof queryBooleanSchema> {}
const queryBooleanSchema = z.preprocess(
  (value) => (value === 'true' ? true : value === 'false' ? false : value),
  z.boolean(),
);
export const QueryBooleanSchema: QueryBooleanSchema = queryBooleanSchema;

/** A comma-separated query list (`tag=a,b`): trimmed, empty entries dropped. */
export interface QueryListSchema extends Named<typeof queryListSchema> {}
const queryListSchema = z
  .string()
  .max(MAX_URL_LENGTH)
  .transform((value) => value.split(',').flatMap((part) => (part.trim() === '' ? [] : [part.trim()])));
export const QueryListSchema: QueryListSchema = queryListSchema;

/** A query timestamp bound (`created_after`, `created_before`); see {@link TimestampInputSchema}. */
export const QueryTimestampSchema = TimestampInputSchema;

export const SORT_ORDERS = ['asc', 'desc'] as const;
export type SortOrder = (typeof SORT_ORDERS)[number];
export interface SortOrderSchema extends Named<typeof sortOrderSchema> {}
const sortOrderSchema = z.enum(SORT_ORDERS);
export const SortOrderSchema: SortOrderSchema = sortOrderSchema;

/** `limit` (1..100, default 20) and `starting_after` of every list (spec "List conventions"). */
export const PAGE_QUERY_SHAPE = {
  limit: queryInt(IntegerSchema.min(1).max(100)).default(20),
  starting_after: IdSchema.optional(),
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
 * The order of a sort when the query gives none: `desc` for dates (newest first) and for
 * `relevance` (most relevant first), else `asc`.
 */
export function defaultOrder(sort: string): SortOrder {
  return sort === 'created_at' || sort === 'updated_at' || sort === 'relevance' ? 'desc' : 'asc';
}

/**
 * Builds a list query (docs/contract.md#list-filters): page parameters, the list's filters (`shape`) and
 * `sort` (one of `sorts`, default `created_at` or `options.defaultSort`) with `order`. When
 * `order` is not given it defaults to `desc` for the dates `created_at` and `updated_at` and `asc`
 * for any other sort ({@link defaultOrder}). The output matches the storage port's `PageRequest`
 * plus the filters. Unknown query parameters are ignored (only bodies are strict), so
 * cache-busters and tracking parameters do not break lists.
 */
export function listQuery<
  const Sorts extends readonly ['created_at', ...string[]],
  Shape extends z.ZodRawShape,
>(sorts: Sorts, shape: Shape, options: { defaultSort?: Sorts[number] } = {}): ListQuerySchema<Sorts, Shape> {
  const schema = z
    .object({
      ...shape,
      ...PAGE_QUERY_SHAPE,
      // Optional with the default filled in below (the same JSON Schema as `.default()`), so that
      // a list can tell a defaulted sort from a given one (`sortWasGiven`).
      sort: z
        .enum(sorts as unknown as [string, ...string[]])
        .optional()
        .meta({ default: options.defaultSort ?? 'created_at' }),
      order: SortOrderSchema.optional(),
    })
    .overwrite((value) => {
      const query = value as { sort?: string; order?: SortOrder };
      if (query.sort === undefined) {
        query.sort = options.defaultSort ?? 'created_at';
        Object.defineProperty(query, SORT_DEFAULTED, { value: true });
      }
      if (query.order === undefined) query.order = defaultOrder(query.sort);
      return value;
    });
  return schema as unknown as ListQuerySchema<Sorts, Shape>;
}

/** Marks (non-enumerable) a parsed list query whose `sort` was not given. */
const SORT_DEFAULTED = Symbol('sort defaulted');

/**
 * Whether a list query parsed by a {@link listQuery} schema named its `sort` (false: the default
 * was filled in). E.g. a product list of a manual collection without `sort` follows the
 * collection's order (decisions §17).
 */
export function sortWasGiven(query: object): boolean {
  return !Object.hasOwn(query, SORT_DEFAULTED);
}

/** A list without filters whose only sort is `created_at` (newest first by default). */
export const ListQuerySchema = listQuery(['created_at'], {});
export type ListQuery = z.infer<typeof ListQuerySchema>;
