import { z } from 'zod';
import { ProductSchema, SlugSchema } from '../catalog/schemas';
import { STOREFRONT_LOCALE_SHAPE } from '../locales/schemas';
import {
  DateTimeSchema,
  IdentifierTextSchema,
  IdSchema,
  IntegerSchema,
  listOf,
  listQuery,
  MetadataInputSchema,
  MetadataSchema,
  type Named,
  NonNegativeIntegerSchema,
  OptionalLongTextSchema,
  PAGE_QUERY_SHAPE,
  RequiredTextSchema,
} from '../shared/schemas/common';
import { MAX_AMOUNT } from '../shared/schemas/limits';
import type { CollectionRules, CollectionType } from '../vocabulary/collections';

/** Collections (decisions §17): `manual` (ordered `product_ids`) or `auto` (`rules`). */
export const COLLECTION_TYPES = ['manual', 'auto'] as const satisfies readonly CollectionType[];
export const CollectionTypeSchema = z.enum(COLLECTION_TYPES);

/** At most this many members in a manual collection. */
export const MAX_COLLECTION_PRODUCTS = 250;
/** At most this many conditions in an automatic collection's rules. */
export const MAX_RULE_CONDITIONS = 20;
/** At most this many values in one condition. */
export const MAX_RULE_VALUES = 100;
/** A storefront collection shows at most this many of its products. */
export const COLLECTION_DETAIL_PRODUCTS = 100;

const LIST_CONDITION_TYPES = ['product_tag', 'product_type', 'category', 'product'] as const;
const CONDITION_TYPES = [...LIST_CONDITION_TYPES, 'price'] as const;
const LIST_OPERATORS = ['in', 'not_in'] as const;
const PRICE_OPERATORS = ['gte', 'lte'] as const;

// ---------------------------------------------------------------- responses

const ListConditionSchema = z.object({
  type: z.enum(LIST_CONDITION_TYPES),
  operator: z.enum(LIST_OPERATORS),
  values: z.array(z.string()),
});
const PriceConditionSchema = z.object({
  type: z.literal('price'),
  operator: z.enum(PRICE_OPERATORS),
  value: z.int(),
});

/** An automatic collection's rules as stored and shown (inline: it is only ever nullable). */
export interface CollectionRulesSchema extends Named<typeof collectionRulesSchema> {}
const collectionRulesSchema = z.object({
  match: z.enum(['all', 'any']),
  conditions: z.array(z.union([ListConditionSchema, PriceConditionSchema])),
});
export const CollectionRulesSchema: CollectionRulesSchema = collectionRulesSchema;

const COLLECTION_FIELDS = {
  id: z.string(),
  name: z.string(),
  slug: z.string(),
  description: z.string().nullable(),
  type: CollectionTypeSchema,
  position: z.int(),
  /** Beyond the SDK: an automatic collection's rules (null on a manual one). */
  rules: CollectionRulesSchema.nullable(),
  /** Beyond the SDK: a manual collection's members in display order (null on an automatic one). */
  product_ids: z.array(z.string()).nullable(),
  metadata: MetadataSchema,
  created_at: DateTimeSchema,
  updated_at: DateTimeSchema,
};

/**
 * A collection (decisions §17). On the storefront, `product_ids` lists only the members it shows
 * (`active` products).
 */
export interface CollectionSchema extends Named<typeof collectionSchema> {}
const collectionSchema = z.object(COLLECTION_FIELDS).meta({ id: 'Collection' });
export const CollectionSchema: CollectionSchema = collectionSchema;
export type Collection = z.infer<typeof CollectionSchema>;

/** A storefront collection with its first 100 `active` products, in collection order. */
export interface CollectionDetailSchema extends Named<typeof collectionDetailSchema> {}
const collectionDetailSchema = z
  .object({ ...COLLECTION_FIELDS, products: z.array(ProductSchema) })
  .meta({ id: 'CollectionDetail' });
export const CollectionDetailSchema: CollectionDetailSchema = collectionDetailSchema;
export type CollectionDetail = z.infer<typeof CollectionDetailSchema>;

export const CollectionListSchema = listOf(CollectionSchema);

// ---------------------------------------------------------------- requests

/**
 * One condition: `{ type: product_tag | product_type | category | product, operator: in | not_in,
 * values: [1..100 strings] }` or `{ type: price, operator: gte | lte, value: integer minor units }`.
 * One object with the fields of both forms, checked per `type`, so that every fault names its
 * field (`rules[conditions][2][operator]`).
 */
export interface CollectionConditionInputSchema extends Named<typeof collectionConditionInputSchema> {}
const collectionConditionInputSchema = z
  .strictObject({
    type: z.enum(CONDITION_TYPES),
    operator: z.enum([...LIST_OPERATORS, ...PRICE_OPERATORS]),
    values: z.array(IdentifierTextSchema).min(1).max(MAX_RULE_VALUES).optional(),
    value: IntegerSchema.min(0).max(MAX_AMOUNT).optional(),
  })
  .superRefine((condition, ctx) => {
    const price = condition.type === 'price';
    const operators: readonly string[] = price ? PRICE_OPERATORS : LIST_OPERATORS;
    if (!operators.includes(condition.operator)) {
      ctx.addIssue({
        code: 'custom',
        path: ['operator'],
        message: `must be one of: ${operators.join(', ')} for a ${condition.type} condition`,
      });
    }
    const [needed, refused] = price ? (['value', 'values'] as const) : (['values', 'value'] as const);
    if (condition[needed] === undefined) {
      ctx.addIssue({
        code: 'custom',
        path: [needed],
        params: { code: 'parameter_missing' },
        message: `is required for a ${condition.type} condition`,
      });
    }
    if (condition[refused] !== undefined) {
      ctx.addIssue({
        code: 'custom',
        path: [refused],
        message: `is not allowed on a ${condition.type} condition (it takes ${needed})`,
      });
    }
  })
  .meta({ id: 'CollectionConditionInput' });
export const CollectionConditionInputSchema: CollectionConditionInputSchema = collectionConditionInputSchema;

/** `rules` of an automatic collection: `{ match: all | any (default all), conditions: [1..20] }` (inline: only ever nullable). */
export interface CollectionRulesInputSchema extends Named<typeof collectionRulesInputSchema> {}
const collectionRulesInputSchema = z.strictObject({
  match: z.enum(['all', 'any']).default('all'),
  conditions: z.array(CollectionConditionInputSchema).min(1).max(MAX_RULE_CONDITIONS),
});
export const CollectionRulesInputSchema: CollectionRulesInputSchema = collectionRulesInputSchema;
export type CollectionRulesInput = z.infer<typeof CollectionRulesInputSchema>;

/** The stored form of validated rules (each condition with only its own fields). */
export function rulesOf(input: CollectionRulesInput): CollectionRules {
  return {
    match: input.match,
    conditions: input.conditions.map((condition) =>
      condition.type === 'price'
        ? { type: 'price', operator: condition.operator as 'gte' | 'lte', value: condition.value as number }
        : {
            type: condition.type,
            operator: condition.operator as 'in' | 'not_in',
            values: condition.values as string[],
          },
    ),
  };
}

/** `product_ids` of a manual collection: at most 250 distinct product ids, in display order. */
const ProductIdsInputSchema = z
  .array(IdSchema)
  .max(MAX_COLLECTION_PRODUCTS)
  .superRefine((ids, ctx) => {
    const seen = new Set<string>();
    ids.forEach((id, index) => {
      if (seen.has(id))
        ctx.addIssue({ code: 'custom', path: [index], message: 'repeats an earlier product id' });
      seen.add(id);
    });
  });

/**
 * The type rules of a request, given the collection's resulting type: `manual` takes
 * `product_ids` and refuses `rules` (unless null); `auto` needs `rules` (`rulesRequired`) and
 * refuses `product_ids`.
 */
export function typeRuleIssues(
  type: CollectionType,
  input: { rules?: unknown; product_ids?: unknown },
  rulesRequired: boolean,
): { param: 'rules' | 'product_ids'; code: 'parameter_invalid' | 'parameter_missing'; message: string }[] {
  if (type === 'manual') {
    return input.rules !== undefined && input.rules !== null
      ? [
          {
            param: 'rules',
            code: 'parameter_invalid',
            message: 'must be absent or null for a manual collection',
          },
        ]
      : [];
  }
  const issues: ReturnType<typeof typeRuleIssues> = [];
  if (input.product_ids !== undefined) {
    issues.push({
      param: 'product_ids',
      code: 'parameter_invalid',
      message: 'is not allowed on an auto collection (its members come from its rules)',
    });
  }
  if (input.rules === null || (rulesRequired && input.rules === undefined)) {
    issues.push({ param: 'rules', code: 'parameter_missing', message: 'is required for an auto collection' });
  }
  return issues;
}

/** `POST /v1/admin/collections` (decisions §17). */
export interface CreateCollectionInputSchema extends Named<typeof createCollectionInputSchema> {}
const createCollectionInputSchema = z
  .strictObject({
    name: RequiredTextSchema,
    slug: SlugSchema.optional(),
    description: OptionalLongTextSchema,
    type: CollectionTypeSchema.default('manual'),
    rules: CollectionRulesInputSchema.nullable().optional(),
    product_ids: ProductIdsInputSchema.optional(),
    position: NonNegativeIntegerSchema.default(0),
    metadata: MetadataInputSchema.default({}),
  })
  .superRefine((input, ctx) => {
    for (const issue of typeRuleIssues(input.type, input, true)) {
      ctx.addIssue({
        code: 'custom',
        path: [issue.param],
        params: { code: issue.code },
        message: issue.message,
      });
    }
  })
  .meta({ id: 'CreateCollectionInput' });
export const CreateCollectionInputSchema: CreateCollectionInputSchema = createCollectionInputSchema;
export type CreateCollectionInput = z.infer<typeof CreateCollectionInputSchema>;

/**
 * `PATCH /v1/admin/collections/{id}`: fields given replace the stored ones (`product_ids` whole).
 * The type rules depend on the stored type, so the service checks them (`typeRuleIssues`).
 */
export interface UpdateCollectionInputSchema extends Named<typeof updateCollectionInputSchema> {}
const updateCollectionInputSchema = z
  .strictObject({
    name: RequiredTextSchema.optional(),
    slug: SlugSchema.optional(),
    description: OptionalLongTextSchema,
    type: CollectionTypeSchema.optional(),
    rules: CollectionRulesInputSchema.nullable().optional(),
    product_ids: ProductIdsInputSchema.optional(),
    position: NonNegativeIntegerSchema.optional(),
    metadata: MetadataInputSchema.optional(),
  })
  .meta({ id: 'UpdateCollectionInput' });
export const UpdateCollectionInputSchema: UpdateCollectionInputSchema = updateCollectionInputSchema;
export type UpdateCollectionInput = z.infer<typeof UpdateCollectionInputSchema>;

// ---------------------------------------------------------------- list queries

/** `GET /v1/admin/collections`: newest first; filter `type`. */
export const AdminCollectionListParamsSchema = listQuery(['created_at'], {
  type: CollectionTypeSchema.optional(),
});
export type AdminCollectionListParams = z.infer<typeof AdminCollectionListParamsSchema>;

/** `GET /v1/storefront/collections`: `position` ascending, then newest first (no sort parameter). */
export const StorefrontCollectionListParamsSchema = z.object({
  ...PAGE_QUERY_SHAPE,
  ...STOREFRONT_LOCALE_SHAPE,
});
export type StorefrontCollectionListParams = z.infer<typeof StorefrontCollectionListParamsSchema>;
