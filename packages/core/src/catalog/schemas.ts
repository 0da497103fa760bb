import { z } from 'zod';
import { InventoryInputSchema, InventorySchema } from '../inventory/schemas';
import { STOREFRONT_LOCALE_SHAPE } from '../locales/schemas';
import {
  DateTimeSchema,
  HttpUrlSchema,
  IdentifierTextSchema,
  IdSchema,
  IntegerSchema,
  listOf,
  listQuery,
  MetadataInputSchema,
  MetadataSchema,
  MoneySchema,
  moneyInput,
  type Named,
  NonNegativeIntegerSchema,
  OptionalLongTextSchema,
  OptionalTextSchema,
  PositiveIntegerSchema,
  QueryListSchema,
  queryInt,
  RequiredTextSchema,
} from '../shared/schemas/common';
import {
  MAX_DIMENSION,
  MAX_IDENTIFIER_LENGTH,
  MAX_LIST_ITEMS,
  MAX_NAME_LENGTH,
  MAX_SEARCH_LENGTH,
  MAX_WEIGHT,
} from '../shared/schemas/limits';
import type { ProductStatus, ProductType } from './vocabulary';

/** The vocabulary of this context (./vocabulary.ts, which the storage records use too), re-exported here. */
export type { ProductStatus, ProductType };

export const PRODUCT_TYPES = [
  'physical',
  'digital',
  'service',
  'bundle',
] as const satisfies readonly ProductType[];
export interface ProductTypeSchema extends Named<typeof productTypeSchema> {}
const productTypeSchema = z.enum(PRODUCT_TYPES);
export const ProductTypeSchema: ProductTypeSchema = productTypeSchema;

export const PRODUCT_STATUSES = ['draft', 'active', 'archived'] as const satisfies readonly ProductStatus[];
export interface ProductStatusSchema extends Named<typeof productStatusSchema> {}
const productStatusSchema = z.enum(PRODUCT_STATUSES);
export const ProductStatusSchema: ProductStatusSchema = productStatusSchema;

/** Sorts offered by both product lists (docs/contract.md#representative-price); `price` is the representative variant's. */
export const PRODUCT_SORTS = ['created_at', 'name', 'price'] as const;

/**
 * Sorts of the storefront product list: the shared ones and `relevance` (decisions §17; needs `q`,
 * most relevant first, catalog/relevance.ts).
 */
export const STOREFRONT_PRODUCT_SORTS = [...PRODUCT_SORTS, 'relevance'] as const;

/** Sorts of the admin product list: the shared ones and `updated_at` (decisions §22). */
export const ADMIN_PRODUCT_SORTS = [...PRODUCT_SORTS, 'updated_at'] as const;

/** Sorts of a product's variant list: `position` (the default, ascending) or `created_at`. */
export const VARIANT_SORTS = ['created_at', 'position'] as const;

// ---------------------------------------------------------------- responses

export interface ImageSchema extends Named<typeof imageSchema> {}
const imageSchema = z
  .object({
    id: z.string(),
    url: z.string(),
    alt_text: z.string().nullable(),
    position: z.int(),
    width: z.int().nullable(),
    height: z.int().nullable(),
  })
  .meta({ id: 'Image' });
export const ImageSchema: ImageSchema = imageSchema;
export type Image = z.infer<typeof ImageSchema>;

export interface OptionValueSchema extends Named<typeof optionValueSchema> {}
const optionValueSchema = z
  .object({
    id: z.string(),
    value: z.string(),
    position: z.int(),
  })
  .meta({ id: 'OptionValue' });
export const OptionValueSchema: OptionValueSchema = optionValueSchema;
export type OptionValue = z.infer<typeof OptionValueSchema>;

export interface OptionSchema extends Named<typeof optionSchema> {}
const optionSchema = z
  .object({
    id: z.string(),
    name: z.string(),
    position: z.int(),
    values: z.array(OptionValueSchema),
  })
  .meta({ id: 'Option' });
export const OptionSchema: OptionSchema = optionSchema;
export type Option = z.infer<typeof OptionSchema>;

/**
 * A variant (spec "Variant"). `cost_price` is `null` on the storefront (and when unset);
 * `compare_at_price` is `null` when unset; `weight` is grams or `null`; `width`, `height`,
 * `depth` are numbers or `null`; `position` orders a product's variants; `stock` is the
 * inventory's `available` when it is tracked, else `null` (decisions §22;
 * docs/contract.md#money, #storefront-visibility).
 */
export interface VariantSchema extends Named<typeof variantSchema> {}
const variantSchema = z
  .object({
    id: z.string(),
    product_id: z.string(),
    sku: z.string().nullable(),
    barcode: z.string().nullable(),
    price: MoneySchema,
    compare_at_price: MoneySchema.nullable(),
    cost_price: MoneySchema.nullable(),
    weight: z.number().nullable(),
    width: z.number().nullable(),
    height: z.number().nullable(),
    depth: z.number().nullable(),
    is_active: z.boolean(),
    position: z.int(),
    stock: z.int().nullable(),
    option_values: z.array(OptionValueSchema),
    images: z.array(ImageSchema),
    inventory: InventorySchema,
    metadata: MetadataSchema,
    created_at: DateTimeSchema,
    updated_at: DateTimeSchema,
  })
  .meta({ id: 'Variant' });
export const VariantSchema: VariantSchema = variantSchema;
export type Variant = z.infer<typeof VariantSchema>;

/**
 * A product (spec "Product"), plus `price` and `compare_at_price`: those of its representative
 * variant (the cheapest active one) or `null` (docs/contract.md#representative-price).
 */
export interface ProductSchema extends Named<typeof productSchema> {}
const productSchema = z
  .object({
    id: z.string(),
    name: z.string(),
    slug: z.string(),
    description: z.string().nullable(),
    type: ProductTypeSchema,
    status: ProductStatusSchema,
    tags: z.array(z.string()),
    /** Beyond the SDK (decisions §17): the categories it belongs to, in the order given. */
    category_ids: z.array(z.string()),
    attributes: MetadataSchema,
    images: z.array(ImageSchema),
    options: z.array(OptionSchema),
    variants: z.array(VariantSchema),
    price: MoneySchema.nullable(),
    compare_at_price: MoneySchema.nullable(),
    metadata: MetadataSchema,
    created_at: DateTimeSchema,
    updated_at: DateTimeSchema,
  })
  .meta({ id: 'Product' });
export const ProductSchema: ProductSchema = productSchema;
export type Product = z.infer<typeof ProductSchema>;

export const ProductListSchema = listOf(ProductSchema);
export type ProductList = z.infer<typeof ProductListSchema>;

/**
 * A variant as the storefront shows it (decisions §19): a Variant whose `price` is null in a
 * region where it is not sold (no region price, no rate; it cannot be bought there).
 */
export interface StorefrontVariantSchema extends Named<typeof storefrontVariantSchema> {}
const storefrontVariantSchema = variantSchema
  .extend({ price: MoneySchema.nullable() })
  .meta({ id: 'StorefrontVariant' });
export const StorefrontVariantSchema: StorefrontVariantSchema = storefrontVariantSchema;

/**
 * A product as the storefront shows it: a Product whose variants are {@link StorefrontVariantSchema}
 * (in a region, every price is in the region's currency; decisions §19).
 */
export interface StorefrontProductSchema extends Named<typeof storefrontProductSchema> {}
const storefrontProductSchema = productSchema
  .extend({ variants: z.array(StorefrontVariantSchema) })
  .meta({ id: 'StorefrontProduct' });
export const StorefrontProductSchema: StorefrontProductSchema = storefrontProductSchema;
export const StorefrontProductListSchema = listOf(StorefrontProductSchema);

export const VariantListSchema = listOf(VariantSchema);
export type VariantList = z.infer<typeof VariantListSchema>;

// ---------------------------------------------------------------- request building blocks

/** URL slugs: lowercase letters and digits in hyphen-separated words (`blue-t-shirt`). */
export const SlugSchema = z
  .string()
  .max(MAX_IDENTIFIER_LENGTH)
  .regex(/^[a-z0-9]+(?:-[a-z0-9]+)*$/, {
    error: 'must contain only lowercase letters, digits and single hyphens (e.g. blue-t-shirt)',
  });

/** A tag: non-blank, trimmed, at most 255 characters. */
export const TagSchema = IdentifierTextSchema;

/**
 * A product's `category_ids` in a request (beyond the SDK, decisions §17): at most 50 distinct
 * category ids, in display order; replaces the stored list whole.
 */
export const CategoryIdsInputSchema = z
  .array(IdSchema)
  .max(50)
  .superRefine((ids, ctx) => {
    const seen = new Set<string>();
    ids.forEach((id, index) => {
      if (seen.has(id))
        ctx.addIssue({ code: 'custom', message: 'repeats an earlier category id', path: [index] });
      seen.add(id);
    });
  });

/** A list in a request: at most {@link MAX_LIST_ITEMS} entries. */
function listOfAtMost<T extends z.ZodType>(item: T) {
  return z.array(item).max(MAX_LIST_ITEMS);
}

const IMAGE_INPUT_SHAPE = {
  url: HttpUrlSchema,
  alt_text: OptionalTextSchema,
  width: PositiveIntegerSchema.nullable().optional(),
  height: PositiveIntegerSchema.nullable().optional(),
  position: NonNegativeIntegerSchema.optional(),
};

/** An image in product creation (docs/contract.md#catalog). */
export interface ImageInputSchema extends Named<typeof imageInputSchema> {}
const imageInputSchema = z.strictObject(IMAGE_INPUT_SHAPE).meta({ id: 'ImageInput' });
export const ImageInputSchema: ImageInputSchema = imageInputSchema;
export type ImageInput = z.infer<typeof ImageInputSchema>;

/**
 * `POST /v1/admin/products/{id}/images`. `variant_ids` (optional) attaches the image to variants
 * of the product, which then list it in `Variant.images`.
 */
export interface ImageCreateSchema extends Named<typeof imageCreateSchema> {}
const imageCreateSchema = z
  .strictObject({ ...IMAGE_INPUT_SHAPE, variant_ids: listOfAtMost(IdSchema).optional() })
  .meta({ id: 'ImageCreate' });
export const ImageCreateSchema: ImageCreateSchema = imageCreateSchema;
export type ImageCreate = z.infer<typeof ImageCreateSchema>;

/** An option in product creation: `{ name, values: [string] }`, names and values unique. */
export interface OptionInputSchema extends Named<typeof optionInputSchema> {}
const optionInputSchema = z
  .strictObject({
    name: RequiredTextSchema,
    values: listOfAtMost(RequiredTextSchema).min(1),
  })
  .superRefine((option, ctx) => {
    const seen = new Set<string>();
    option.values.forEach((value, index) => {
      if (seen.has(value)) {
        ctx.addIssue({ code: 'custom', path: ['values', index], message: `duplicates the value '${value}'` });
      }
      seen.add(value);
    });
  })
  .meta({ id: 'OptionInput' });
export const OptionInputSchema: OptionInputSchema = optionInputSchema;
export type OptionInput = z.infer<typeof OptionInputSchema>;

const VARIANT_FIELDS = {
  sku: IdentifierTextSchema.nullable().optional(),
  barcode: z.string().max(MAX_IDENTIFIER_LENGTH).nullable().optional(),
  price: moneyInput,
  compare_at_price: moneyInput.nullable().optional(),
  cost_price: moneyInput.nullable().optional(),
  weight: z.number().min(0).max(MAX_WEIGHT).nullable().optional(),
  width: z.number().min(0).max(MAX_DIMENSION).nullable().optional(),
  height: z.number().min(0).max(MAX_DIMENSION).nullable().optional(),
  depth: z.number().min(0).max(MAX_DIMENSION).nullable().optional(),
  /** Where the variant sorts among its product's variants (ties: by id). */
  position: NonNegativeIntegerSchema.optional(),
  /** `{ "<option name>": "<value>" }`: the variant's value for each of the product's options. */
  options: z.record(z.string().max(MAX_NAME_LENGTH), RequiredTextSchema).optional(),
  /** Existing option value ids, as an alternative to `options` (variants endpoint only). */
  option_value_ids: listOfAtMost(IdSchema).optional(),
};

/** Rejects a variant that names its option values both ways. */
function oneOptionForm(
  variant: { options?: Record<string, string> | undefined; option_value_ids?: string[] | undefined },
  ctx: z.RefinementCtx,
): void {
  if (variant.options !== undefined && variant.option_value_ids !== undefined) {
    ctx.addIssue({
      code: 'custom',
      path: ['option_value_ids'],
      message: 'cannot be combined with options; give one or the other',
    });
  }
}

const VARIANT_CREATE_SHAPE = {
  ...VARIANT_FIELDS,
  is_active: z.boolean().default(true),
  inventory: InventoryInputSchema.optional(),
  metadata: MetadataInputSchema.default({}),
};

/**
 * `POST /v1/admin/products/{id}/variants`, and each entry of a product's `variants` (docs/contract.md#catalog).
 * `sku` is unique per store and mode (409 `duplicate_sku`, checked by the storage). `position`
 * defaults to the end: after the product's variants (variants endpoint), or the entry's index
 * (product creation).
 */
export interface VariantCreateSchema extends Named<typeof variantCreateSchema> {}
const variantCreateSchema = z
  .strictObject(VARIANT_CREATE_SHAPE)
  .superRefine(oneOptionForm)
  .meta({ id: 'VariantCreate' });
export const VariantCreateSchema: VariantCreateSchema = variantCreateSchema;
export type VariantCreate = z.infer<typeof VariantCreateSchema>;

/** `PATCH /v1/admin/variants/{id}`: the variant fields, all optional; `null` clears nullable ones. */
export interface VariantUpdateSchema extends Named<typeof variantUpdateSchema> {}
const variantUpdateSchema = z
  .strictObject({
    ...VARIANT_FIELDS,
    price: moneyInput.optional(),
    is_active: z.boolean().optional(),
    metadata: MetadataInputSchema.optional(),
  })
  .superRefine(oneOptionForm)
  .meta({ id: 'VariantUpdate' });
export const VariantUpdateSchema: VariantUpdateSchema = variantUpdateSchema;
export type VariantUpdate = z.infer<typeof VariantUpdateSchema>;

/**
 * Checks a product's variants against its options, which the request defines itself:
 * every variant of a product with options names one known value for each option, no two
 * variants share the same combination, and `option_value_ids` (ids that do not exist yet) is
 * refused.
 */
function checkVariantOptions(
  product: { options: OptionInput[]; variants: VariantCreate[] },
  ctx: z.RefinementCtx,
): void {
  const options = new Map<string, ReadonlySet<string>>();
  product.options.forEach((option, index) => {
    if (options.has(option.name)) {
      ctx.addIssue({
        code: 'custom',
        path: ['options', index, 'name'],
        message: `duplicates the option '${option.name}'`,
      });
    } else {
      options.set(option.name, new Set(option.values));
    }
  });

  const combinations = new Map<string, number>();
  product.variants.forEach((variant, index) => {
    const at = ['variants', index];
    if (variant.option_value_ids !== undefined) {
      ctx.addIssue({
        code: 'custom',
        path: [...at, 'option_value_ids'],
        message: 'cannot be used when creating a product (its option values have no ids yet); use options',
      });
      return;
    }
    const chosen = variant.options;
    if (options.size === 0) {
      if (chosen !== undefined && Object.keys(chosen).length > 0) {
        ctx.addIssue({
          code: 'custom',
          path: [...at, 'options'],
          message: 'must be empty: the product has no options',
        });
      }
      return;
    }
    if (chosen === undefined) {
      ctx.addIssue({
        code: 'custom',
        path: [...at, 'options'],
        message: 'is required: the product has options',
        params: { code: 'parameter_missing' },
      });
      return;
    }
    let complete = true;
    for (const [name, value] of Object.entries(chosen)) {
      const values = options.get(name);
      if (values === undefined) {
        complete = false;
        ctx.addIssue({
          code: 'custom',
          path: [...at, 'options', name],
          message: 'is not an option of this product',
        });
      } else if (!values.has(value)) {
        complete = false;
        ctx.addIssue({
          code: 'custom',
          path: [...at, 'options', name],
          message: `must be one of: ${[...values].join(', ')}`,
        });
      }
    }
    for (const name of options.keys()) {
      if (!Object.hasOwn(chosen, name)) {
        complete = false;
        ctx.addIssue({
          code: 'custom',
          path: [...at, 'options', name],
          message: 'is required: every variant names a value for each option',
          params: { code: 'parameter_missing' },
        });
      }
    }
    if (!complete) return;
    const key = JSON.stringify([...options.keys()].map((name) => chosen[name]));
    const first = combinations.get(key);
    if (first !== undefined) {
      ctx.addIssue({
        code: 'custom',
        path: [...at, 'options'],
        message: `duplicates the options of variants[${first}]`,
      });
    } else {
      combinations.set(key, index);
    }
  });
}

// ---------------------------------------------------------------- product requests

/**
 * `POST /v1/admin/products` (docs/contract.md#catalog): `slug` is derived from the name when left out;
 * `type` defaults to physical, `status` to draft. Every variant gets an Inventory record.
 */
export interface ProductCreateSchema extends Named<typeof productCreateSchema> {}
const productCreateSchema = z
  .strictObject({
    name: RequiredTextSchema,
    slug: SlugSchema.optional(),
    description: OptionalLongTextSchema,
    type: ProductTypeSchema.default('physical'),
    status: ProductStatusSchema.default('draft'),
    tags: listOfAtMost(TagSchema).default([]),
    category_ids: CategoryIdsInputSchema.default([]),
    attributes: MetadataInputSchema.default({}),
    metadata: MetadataInputSchema.default({}),
    images: listOfAtMost(ImageInputSchema).default([]),
    options: listOfAtMost(OptionInputSchema).default([]),
    variants: listOfAtMost(VariantCreateSchema).default([]),
  })
  .superRefine(checkVariantOptions)
  .meta({ id: 'ProductCreate' });
export const ProductCreateSchema: ProductCreateSchema = productCreateSchema;
export type ProductCreate = z.infer<typeof ProductCreateSchema>;

/**
 * `PATCH /v1/admin/products/{id}`: the spec's fields (name, status, description, tags, attributes,
 * metadata) plus `slug` and `type`. Images, options and variants have their own endpoints.
 */
export interface ProductUpdateSchema extends Named<typeof productUpdateSchema> {}
const productUpdateSchema = z
  .strictObject({
    name: RequiredTextSchema.optional(),
    slug: SlugSchema.optional(),
    description: OptionalLongTextSchema,
    type: ProductTypeSchema.optional(),
    status: ProductStatusSchema.optional(),
    tags: listOfAtMost(TagSchema).optional(),
    category_ids: CategoryIdsInputSchema.optional(),
    attributes: MetadataInputSchema.optional(),
    metadata: MetadataInputSchema.optional(),
  })
  .meta({ id: 'ProductUpdate' });
export const ProductUpdateSchema: ProductUpdateSchema = productUpdateSchema;
export type ProductUpdate = z.infer<typeof ProductUpdateSchema>;

// ---------------------------------------------------------------- list queries

const PRODUCT_SEARCH_SHAPE = {
  /** Case-insensitive partial name match. */
  q: z.string().max(MAX_SEARCH_LENGTH).optional(),
  /** Comma-separated tags, all required (AND). Output: the list of tags. */
  tag: QueryListSchema.optional(),
  /** A category: products in it or in any category below it (decisions §17); unknown → empty list. */
  category_id: IdSchema.optional(),
  /**
   * A collection: its members (manual) or the products its rules match (auto), decisions §17;
   * unknown → empty list. A manual one without `sort` lists in the collection's order.
   */
  collection_id: IdSchema.optional(),
};

/**
 * `sort=relevance` (decisions §17) ranks the matches of `q`: without a `q` (or a blank one) → 400
 * `parameter_invalid` naming `sort`; it has one direction, most relevant first (`order` defaults
 * to `desc`, `order=asc` → 400 naming `order`).
 */
function refineRelevanceSort(
  query: { sort: string; order?: string | undefined; q?: string | undefined },
  ctx: z.RefinementCtx,
): void {
  if (query.sort !== 'relevance') return;
  if (query.q === undefined || query.q.trim() === '') {
    ctx.addIssue({
      code: 'custom',
      path: ['sort'],
      params: { code: 'parameter_invalid' },
      message: 'sort=relevance requires a search (q)',
    });
  }
  if (query.order === 'asc') {
    ctx.addIssue({
      code: 'custom',
      path: ['order'],
      params: { code: 'parameter_invalid' },
      message: 'sort=relevance lists the most relevant first: order must be desc',
    });
  }
}

/**
 * `GET /v1/storefront/products` (docs/contract.md#list-filters): `q`, `tag`, `price_min`/`price_max`
 * (inclusive, minor units, against the representative variant), sort created_at | name | price |
 * relevance (with `q`; docs/organising-the-catalog.md#search-and-relevance).
 * Only active products are listed (a service rule, not a parameter).
 */
/** `region_id` of the storefront product reads (decisions §19). */
const STOREFRONT_REGION_SHAPE = {
  region_id: IdSchema.optional().meta({
    description:
      'The region to answer in (an active region, else 404): every price in its currency, `price_min`/`price_max`/`sort=price` on its prices; a variant not sold there has `price: null`. Without it: the default region, if any.',
  }),
};

/** `GET /v1/storefront/products/{id}` and by slug: `locale`, `region_id` (decisions §19, §21). */
export interface StorefrontProductQuerySchema extends Named<typeof storefrontProductQuerySchema> {}
const storefrontProductQuerySchema = z.object({ ...STOREFRONT_LOCALE_SHAPE, ...STOREFRONT_REGION_SHAPE });
export const StorefrontProductQuerySchema: StorefrontProductQuerySchema = storefrontProductQuerySchema;
export type StorefrontProductQuery = z.infer<typeof StorefrontProductQuerySchema>;

export interface StorefrontProductListQuerySchema extends Named<typeof storefrontProductListQuerySchema> {}
const storefrontProductListQuerySchema = listQuery(STOREFRONT_PRODUCT_SORTS, {
  ...PRODUCT_SEARCH_SHAPE,
  ...STOREFRONT_LOCALE_SHAPE,
  price_min: queryInt(IntegerSchema.min(0)).optional(),
  price_max: queryInt(IntegerSchema.min(0)).optional(),
  ...STOREFRONT_REGION_SHAPE,
}).superRefine(refineRelevanceSort);
export const StorefrontProductListQuerySchema: StorefrontProductListQuerySchema =
  storefrontProductListQuerySchema;
export type StorefrontProductListQuery = z.infer<typeof StorefrontProductListQuerySchema>;

/**
 * `GET /v1/admin/products`: `status`, `type`, `q`, `tag` (docs/contract.md#list-filters); sorts
 * created_at | name | price | updated_at (newest first by default for the dates).
 */
export interface AdminProductListQuerySchema extends Named<typeof adminProductListQuerySchema> {}
const adminProductListQuerySchema = listQuery(ADMIN_PRODUCT_SORTS, {
  ...PRODUCT_SEARCH_SHAPE,
  status: ProductStatusSchema.optional(),
  type: ProductTypeSchema.optional(),
});
export const AdminProductListQuerySchema: AdminProductListQuerySchema = adminProductListQuerySchema;
export type AdminProductListQuery = z.infer<typeof AdminProductListQuerySchema>;

/**
 * `GET /v1/admin/products/{id}/variants`: in position order by default (`sort=position`,
 * ascending; ties by id), or `sort=created_at` (newest first by default).
 */
export interface VariantListQuerySchema extends Named<typeof variantListQuerySchema> {}
const variantListQuerySchema = listQuery(VARIANT_SORTS, {}, { defaultSort: 'position' });
export const VariantListQuerySchema: VariantListQuerySchema = variantListQuerySchema;
export type VariantListQuery = z.infer<typeof VariantListQuerySchema>;
