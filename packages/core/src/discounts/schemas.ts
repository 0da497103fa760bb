import { z } from 'zod';
import { MAX_DECIMAL_PLACES } from '../shared/money';
import {
  DateTimeSchema,
  fitsDecimalPlaces,
  IdentifierTextSchema,
  listOf,
  listQuery,
  MetadataInputSchema,
  MetadataSchema,
  MoneySchema,
  moneyInput,
  type Named,
  OptionalLongTextSchema,
  PositiveIntegerSchema,
  QueryBooleanSchema,
  RequiredTextSchema,
  TimestampInputSchema,
} from '../shared/schemas/common';
import { MAX_AMOUNT, MAX_LIST_ITEMS } from '../shared/schemas/limits';
import type { DiscountConditionType, DiscountTarget, DiscountValueType } from './vocabulary';

export type { DiscountConditionOperator, DiscountType } from '../pricing/discounts/discount-definition';
/** The vocabulary of this context (./vocabulary.ts, which the storage records use too), re-exported here. */
export type { DiscountConditionType, DiscountTarget, DiscountValueType };

export const DISCOUNT_TYPES = ['code', 'automatic'] as const;
export interface DiscountTypeSchema extends Named<typeof discountTypeSchema> {}
const discountTypeSchema = z.enum(DISCOUNT_TYPES);
export const DiscountTypeSchema: DiscountTypeSchema = discountTypeSchema;

/** docs/contract.md#discounts: `fixed` (minor units), `percentage` (0 < value ≤ 100), `free_shipping`. */
export const DISCOUNT_VALUE_TYPES = [
  'fixed',
  'percentage',
  'free_shipping',
] as const satisfies readonly DiscountValueType[];
export interface DiscountValueTypeSchema extends Named<typeof discountValueTypeSchema> {}
const discountValueTypeSchema = z.enum(DISCOUNT_VALUE_TYPES);
export const DiscountValueTypeSchema: DiscountValueTypeSchema = discountValueTypeSchema;

/** docs/contract.md#discounts: what a discount applies to; default `order`. */
export const DISCOUNT_TARGETS = [
  'order',
  'line_item',
  'shipping',
] as const satisfies readonly DiscountTarget[];
export interface DiscountTargetSchema extends Named<typeof discountTargetSchema> {}
const discountTargetSchema = z.enum(DISCOUNT_TARGETS);
export const DiscountTargetSchema: DiscountTargetSchema = discountTargetSchema;

export const DISCOUNT_CONDITION_TYPES = [
  'product',
  'variant',
  'product_tag',
  'customer',
  'customer_tag',
  'region',
] as const satisfies readonly DiscountConditionType[];
export interface DiscountConditionTypeSchema extends Named<typeof discountConditionTypeSchema> {}
const discountConditionTypeSchema = z.enum(DISCOUNT_CONDITION_TYPES);
export const DiscountConditionTypeSchema: DiscountConditionTypeSchema = discountConditionTypeSchema;

export const DISCOUNT_CONDITION_OPERATORS = ['in', 'not_in'] as const;
export interface DiscountConditionOperatorSchema extends Named<typeof discountConditionOperatorSchema> {}
const discountConditionOperatorSchema = z.enum(DISCOUNT_CONDITION_OPERATORS);
export const DiscountConditionOperatorSchema: DiscountConditionOperatorSchema =
  discountConditionOperatorSchema;

// ---------------------------------------------------------------- responses

/** A condition of a discount (docs/contract.md#discounts). */
export interface DiscountConditionSchema extends Named<typeof discountConditionSchema> {}
const discountConditionSchema = z
  .object({
    id: z.string(),
    type: DiscountConditionTypeSchema,
    operator: DiscountConditionOperatorSchema,
    values: z.array(z.string()),
  })
  .meta({ id: 'DiscountCondition' });
export const DiscountConditionSchema: DiscountConditionSchema = discountConditionSchema;
/** Named `…Response` because pricing's `DiscountCondition` (without `id`) is the domain type. */
export type DiscountConditionResponse = z.infer<typeof DiscountConditionSchema>;

/**
 * A discount (spec "Discount"). `code` is null for automatic discounts; limits, money bounds and
 * the validity window are null when unset.
 */
export interface DiscountSchema extends Named<typeof discountSchema> {}
const discountSchema = z
  .object({
    id: z.string(),
    name: z.string(),
    description: z.string().nullable(),
    code: z.string().nullable(),
    type: DiscountTypeSchema,
    value_type: DiscountValueTypeSchema,
    value: z.number(),
    target: DiscountTargetSchema,
    usage_limit: z.int().nullable(),
    usage_count: z.int(),
    per_customer_limit: z.int().nullable(),
    minimum_amount: MoneySchema.nullable(),
    maximum_discount: MoneySchema.nullable(),
    starts_at: DateTimeSchema.nullable(),
    ends_at: DateTimeSchema.nullable(),
    is_active: z.boolean(),
    conditions: z.array(DiscountConditionSchema),
    metadata: MetadataSchema,
    created_at: DateTimeSchema,
  })
  .meta({ id: 'Discount' });
export const DiscountSchema: DiscountSchema = discountSchema;
export type Discount = z.infer<typeof DiscountSchema>;

export const DiscountListSchema = listOf(DiscountSchema);
export type DiscountList = z.infer<typeof DiscountListSchema>;

/**
 * A discount as applied to a cart or order (spec "AppliedDiscount"): `saved` is what it took off.
 * `code` is null for automatic discounts.
 */
export interface AppliedDiscountSchema extends Named<typeof appliedDiscountSchema> {}
const appliedDiscountSchema = z
  .object({
    discount_id: z.string(),
    code: z.string().nullable(),
    name: z.string(),
    value_type: DiscountValueTypeSchema,
    value: z.number(),
    saved: MoneySchema,
  })
  .meta({ id: 'AppliedDiscount' });
export const AppliedDiscountSchema: AppliedDiscountSchema = appliedDiscountSchema;
export type AppliedDiscount = z.infer<typeof AppliedDiscountSchema>;

// ---------------------------------------------------------------- value rules

/**
 * Why `value` is not valid for `valueType`, or null when it is (docs/contract.md#discounts): `fixed` is an
 * integer ≥ 0 in minor units, `percentage` is 0 < value ≤ 100 with at most 6 decimal places
 * (pricing's exact-decimal limit), `free_shipping` ignores it.
 * Exported so that an update that changes only one of the two can be checked against the
 * stored other half.
 */
export function discountValueProblem(valueType: DiscountValueType, value: number): string | null {
  switch (valueType) {
    case 'fixed':
      return Number.isSafeInteger(value) && value >= 0 && value <= MAX_AMOUNT
        ? null
        : `must be an integer amount in minor units, 0 to ${MAX_AMOUNT}, for a fixed discount`;
    case 'percentage':
      if (!(Number.isFinite(value) && value > 0 && value <= 100)) {
        return 'must be greater than 0 and at most 100 for a percentage discount';
      }
      return fitsDecimalPlaces(value) ? null : `must have at most ${MAX_DECIMAL_PLACES} decimal places`;
    case 'free_shipping':
      return null;
  }
}

// ---------------------------------------------------------------- requests

/** A condition in a discount request; `operator` defaults to `in`. */
export interface DiscountConditionInputSchema extends Named<typeof discountConditionInputSchema> {}
const discountConditionInputSchema = z
  .strictObject({
    type: DiscountConditionTypeSchema,
    operator: DiscountConditionOperatorSchema.default('in'),
    values: z.array(IdentifierTextSchema).min(1).max(MAX_LIST_ITEMS),
  })
  .meta({ id: 'DiscountConditionInput' });
export const DiscountConditionInputSchema: DiscountConditionInputSchema = discountConditionInputSchema;
export type DiscountConditionInput = z.infer<typeof DiscountConditionInputSchema>;

const DISCOUNT_FIELDS = {
  name: RequiredTextSchema,
  description: OptionalLongTextSchema,
  code: IdentifierTextSchema.nullable().optional(),
  type: DiscountTypeSchema,
  value_type: DiscountValueTypeSchema,
  value: z.number(),
  target: DiscountTargetSchema,
  usage_limit: PositiveIntegerSchema.nullable().optional(),
  per_customer_limit: PositiveIntegerSchema.nullable().optional(),
  minimum_amount: moneyInput.nullable().optional(),
  maximum_discount: moneyInput.nullable().optional(),
  starts_at: TimestampInputSchema.nullable().optional(),
  ends_at: TimestampInputSchema.nullable().optional(),
  is_active: z.boolean(),
  conditions: z.array(DiscountConditionInputSchema).max(MAX_LIST_ITEMS),
  metadata: MetadataInputSchema,
};

interface DiscountFieldsIn {
  code?: string | null | undefined;
  type?: (typeof DISCOUNT_TYPES)[number] | undefined;
  value_type?: DiscountValueType | undefined;
  value?: number | undefined;
  target?: DiscountTarget | undefined;
  starts_at?: number | null | undefined;
  ends_at?: number | null | undefined;
}

/** The rules that tie fields of one request together; for updates, only between fields present. */
function checkDiscountFields(discount: DiscountFieldsIn, ctx: z.RefinementCtx, creating: boolean): void {
  const hasCode = typeof discount.code === 'string';
  if (discount.type === 'code' && !hasCode && (creating || discount.code === null)) {
    ctx.addIssue({
      code: 'custom',
      path: ['code'],
      message: "is required when type is 'code'",
      params: { code: discount.code === null ? 'parameter_invalid' : 'parameter_missing' },
    });
  }
  if (discount.type === 'automatic' && hasCode) {
    ctx.addIssue({ code: 'custom', path: ['code'], message: "must not be set when type is 'automatic'" });
  }
  if (discount.value_type !== undefined) {
    if (discount.value === undefined) {
      if (creating && discount.value_type !== 'free_shipping') {
        ctx.addIssue({
          code: 'custom',
          path: ['value'],
          message: `is required for a ${discount.value_type} discount`,
          params: { code: 'parameter_missing' },
        });
      }
    } else {
      const problem = discountValueProblem(discount.value_type, discount.value);
      if (problem !== null) ctx.addIssue({ code: 'custom', path: ['value'], message: problem });
    }
    if (
      discount.value_type === 'free_shipping' &&
      discount.target !== undefined &&
      discount.target !== 'shipping'
    ) {
      ctx.addIssue({
        code: 'custom',
        path: ['target'],
        message: "must be 'shipping' for a free_shipping discount",
      });
    }
  }
  if (
    typeof discount.starts_at === 'number' &&
    typeof discount.ends_at === 'number' &&
    discount.ends_at <= discount.starts_at
  ) {
    ctx.addIssue({ code: 'custom', path: ['ends_at'], message: 'must be after starts_at' });
  }
}

const DISCOUNT_CREATE_SHAPE = {
  ...DISCOUNT_FIELDS,
  type: DiscountTypeSchema.default('code'),
  value: z.number().optional(),
  target: DiscountTargetSchema.optional(),
  is_active: z.boolean().default(true),
  conditions: z.array(DiscountConditionInputSchema).max(MAX_LIST_ITEMS).default([]),
  metadata: MetadataInputSchema.default({}),
};

/**
 * `POST /v1/admin/discounts` (docs/contract.md#discounts). `type` defaults to `code`, and `code` is required
 * iff the type is `code`. `value` is required for fixed and percentage discounts (always 0
 * for free_shipping). `target` defaults to `order`, or `shipping` for free_shipping. Code uniqueness
 * (case-insensitive, 409 `duplicate_code`) is the storage's.
 */
export interface DiscountCreateSchema extends Named<typeof discountCreateSchema> {}
const discountCreateSchema = z
  .strictObject(DISCOUNT_CREATE_SHAPE)
  .superRefine((discount, ctx) => checkDiscountFields(discount, ctx, true))
  .overwrite((discount) => {
    discount.target ??= discount.value_type === 'free_shipping' ? 'shipping' : 'order';
    if (discount.value_type === 'free_shipping' || discount.value === undefined) discount.value = 0;
    return discount;
  })
  .meta({ id: 'DiscountCreate' });
export const DiscountCreateSchema: DiscountCreateSchema = discountCreateSchema;
/** The parsed create body, typed with what `.overwrite` guarantees: `value` and `target` always set. */
export type DiscountCreate = Omit<z.infer<typeof DiscountCreateSchema>, 'value' | 'target'> & {
  value: number;
  target: DiscountTarget;
};

/**
 * `PATCH /v1/admin/discounts/{id}`: any field. Rules between fields are checked here when both
 * are in the request; the service checks the rest against the stored discount (for example a new
 * `value` alone, with {@link discountValueProblem}).
 */
export interface DiscountUpdateSchema extends Named<typeof discountUpdateSchema> {}
const discountUpdateSchema = z
  .strictObject({
    name: RequiredTextSchema.optional(),
    description: OptionalLongTextSchema,
    code: DISCOUNT_FIELDS.code,
    type: DiscountTypeSchema.optional(),
    value_type: DiscountValueTypeSchema.optional(),
    value: z.number().optional(),
    target: DiscountTargetSchema.optional(),
    usage_limit: DISCOUNT_FIELDS.usage_limit,
    per_customer_limit: DISCOUNT_FIELDS.per_customer_limit,
    minimum_amount: DISCOUNT_FIELDS.minimum_amount,
    maximum_discount: DISCOUNT_FIELDS.maximum_discount,
    starts_at: DISCOUNT_FIELDS.starts_at,
    ends_at: DISCOUNT_FIELDS.ends_at,
    is_active: z.boolean().optional(),
    conditions: z.array(DiscountConditionInputSchema).max(MAX_LIST_ITEMS).optional(),
    metadata: MetadataInputSchema.optional(),
  })
  .superRefine((discount, ctx) => checkDiscountFields(discount, ctx, false))
  .meta({ id: 'DiscountUpdate' });
export const DiscountUpdateSchema: DiscountUpdateSchema = discountUpdateSchema;
export type DiscountUpdate = z.infer<typeof DiscountUpdateSchema>;

// ---------------------------------------------------------------- list queries

/** `GET /v1/admin/discounts`: `type` (code | automatic), `is_active` (true | false). */
export interface AdminDiscountListQuerySchema extends Named<typeof adminDiscountListQuerySchema> {}
const adminDiscountListQuerySchema = listQuery(['created_at'], {
  type: DiscountTypeSchema.optional(),
  is_active: QueryBooleanSchema.optional(),
});
export const AdminDiscountListQuerySchema: AdminDiscountListQuerySchema = adminDiscountListQuerySchema;
export type AdminDiscountListQuery = z.infer<typeof AdminDiscountListQuerySchema>;
