import {
  AdminProductListQuerySchema,
  AdminShippingMethodListQuerySchema,
  DeletedResponseSchema,
  IdPathSchema,
  IdSchema,
  ImageCreateSchema,
  ImageSchema,
  PAGE_QUERY_SHAPE,
  ProductCreateSchema,
  ProductListSchema,
  ProductSchema,
  ProductUpdateSchema,
  SHIPPING_METHOD_SORTS,
  ShippingMethodCreateSchema,
  ShippingMethodListSchema,
  ShippingMethodSchema,
  ShippingMethodUpdateSchema,
  SortOrderSchema,
  StorefrontProductListQuerySchema,
  VariantCreateSchema,
  VariantListQuerySchema,
  VariantListSchema,
  VariantSchema,
  VariantUpdateSchema,
} from '@cartwright/core/schemas';
import { z } from 'zod';
import { type AnyRoute, jsonText } from '../route';
import { defineApiRoute } from './define-api-route';
import { pageOf, scopeOf } from './scope';

/**
 * `GET /v1/storefront/shipping-methods`: a checkout shows methods in the merchant's order, so
 * here `sort` defaults to `position` (ascending); `sort=created_at` is offered too.
 */
const StorefrontShippingListQuerySchema = z.object({
  ...PAGE_QUERY_SHAPE,
  sort: z.enum(SHIPPING_METHOD_SORTS).default('position'),
  order: SortOrderSchema.optional(),
});

const ImagePathSchema = z.object({ id: IdSchema, image_id: IdSchema });
const SlugPathSchema = z.object({ slug: z.string().min(1) });

const PRODUCT_TAGS = ['Products'] as const;
const SHIPPING_TAGS = ['Shipping methods'] as const;
const STOREFRONT_TAGS = ['Storefront catalog'] as const;

const CREATE_DESCRIPTION = [
  '`slug` is derived from the name when left out (lower-case, other characters → `-`) and is unique per store and mode (409 `duplicate_slug`).',
  '`type` defaults to `physical`, `status` to `draft`. `options` are `[{ name, values: [string] }]`; each variant names one value per option',
  '(`options: { "Size": "M" }`) and gets an Inventory record (defaults: tracked, no backorders, safety stock 0, on hand 0).',
  'SKUs are unique per store and mode (409 `duplicate_sku`). A product created without variants has none and cannot be bought until one is added.',
  'Emits `product.created`.',
].join(' ');

/** Admin products, variants and images (docs/contract.md#catalog): secret key only. */
const productRoutes: AnyRoute[] = [
  defineApiRoute({
    method: 'POST',
    path: '/v1/admin/products',
    auth: 'secret',
    customerToken: 'none',
    body: ProductCreateSchema,
    response: ProductSchema,
    summary: 'Create a product',
    description: CREATE_DESCRIPTION,
    tags: PRODUCT_TAGS,
    operationId: 'createProduct',
    errors: ['duplicate_slug', 'duplicate_sku', 'currency_mismatch'],
    handler: async (ctx) => ctx.engine.products.create(scopeOf(ctx.auth), ctx.body),
  }),
  defineApiRoute({
    method: 'GET',
    path: '/v1/admin/products',
    auth: 'secret',
    customerToken: 'none',
    query: AdminProductListQuerySchema,
    response: ProductListSchema,
    summary: 'List products',
    description:
      'Every status. Filters: `status`, `type`, `q` (partial name, case-insensitive), `tag` (comma-separated, all required). Sorts: `created_at` (default, newest first), `name`, `price` (the representative variant), `updated_at` (newest first by default).',
    tags: PRODUCT_TAGS,
    operationId: 'listProducts',
    handler: async (ctx) => ctx.engine.products.list(scopeOf(ctx.auth), ctx.query),
  }),
  defineApiRoute({
    method: 'GET',
    path: '/v1/admin/products/:id',
    auth: 'secret',
    customerToken: 'none',
    params: IdPathSchema,
    response: ProductSchema,
    summary: 'Retrieve a product',
    tags: PRODUCT_TAGS,
    operationId: 'getProduct',
    handler: async (ctx) => ctx.engine.products.get(scopeOf(ctx.auth), ctx.params.id),
  }),
  defineApiRoute({
    method: 'PATCH',
    path: '/v1/admin/products/:id',
    auth: 'secret',
    customerToken: 'none',
    params: IdPathSchema,
    body: ProductUpdateSchema,
    response: ProductSchema,
    summary: 'Update a product',
    description:
      'Fields given replace the stored ones; `metadata` and `attributes` are replaced as a whole. Drafting or archiving hides the product from the storefront. Emits `product.updated`.',
    tags: PRODUCT_TAGS,
    operationId: 'updateProduct',
    errors: ['duplicate_slug'],
    handler: async (ctx) => ctx.engine.products.update(scopeOf(ctx.auth), ctx.params.id, ctx.body),
  }),
  defineApiRoute({
    method: 'DELETE',
    path: '/v1/admin/products/:id',
    auth: 'secret',
    customerToken: 'none',
    params: IdPathSchema,
    response: DeletedResponseSchema,
    summary: 'Delete a product',
    description: 'Deletes the product and its variants. Emits `product.deleted`.',
    tags: PRODUCT_TAGS,
    operationId: 'deleteProduct',
    handler: async (ctx) => ctx.engine.products.delete(scopeOf(ctx.auth), ctx.params.id),
  }),
  defineApiRoute({
    method: 'GET',
    path: '/v1/admin/products/:id/variants',
    auth: 'secret',
    customerToken: 'none',
    params: IdPathSchema,
    query: VariantListQuerySchema,
    response: VariantListSchema,
    summary: "List a product's variants",
    description:
      'Active and inactive variants. Sorts: `position` (default, ascending; ties by id), `created_at` (newest first by default).',
    tags: PRODUCT_TAGS,
    operationId: 'listVariants',
    handler: async (ctx) =>
      ctx.engine.products.listVariants(scopeOf(ctx.auth), ctx.params.id, pageOf(ctx.query)),
  }),
  defineApiRoute({
    method: 'POST',
    path: '/v1/admin/products/:id/variants',
    auth: 'secret',
    customerToken: 'none',
    params: IdPathSchema,
    body: VariantCreateSchema,
    response: VariantSchema,
    summary: 'Add a variant',
    description:
      'Names its option values with `options: { "<option name>": "<value>" }` (a new value of an existing option is added to it) or `option_value_ids`. `width`, `height`, `depth` are numbers ≥ 0; `position` (integer ≥ 0) defaults to one past the product\'s highest. Gets an Inventory record. Emits `product.updated`.',
    tags: PRODUCT_TAGS,
    operationId: 'createVariant',
    errors: ['duplicate_sku', 'currency_mismatch'],
    handler: async (ctx) => ctx.engine.products.createVariant(scopeOf(ctx.auth), ctx.params.id, ctx.body),
  }),
  defineApiRoute({
    method: 'PATCH',
    path: '/v1/admin/variants/:id',
    auth: 'secret',
    customerToken: 'none',
    params: IdPathSchema,
    body: VariantUpdateSchema,
    response: VariantSchema,
    summary: 'Update a variant',
    description:
      'Fields given replace the stored ones; `null` clears nullable ones. Stock changes go through the inventory endpoints. Emits `product.updated`.',
    tags: PRODUCT_TAGS,
    operationId: 'updateVariant',
    errors: ['duplicate_sku', 'currency_mismatch'],
    handler: async (ctx) => ctx.engine.products.updateVariant(scopeOf(ctx.auth), ctx.params.id, ctx.body),
  }),
  defineApiRoute({
    method: 'DELETE',
    path: '/v1/admin/variants/:id',
    auth: 'secret',
    customerToken: 'none',
    params: IdPathSchema,
    response: DeletedResponseSchema,
    summary: 'Delete a variant',
    description: 'Emits `product.updated`.',
    tags: PRODUCT_TAGS,
    operationId: 'deleteVariant',
    handler: async (ctx) => ctx.engine.products.deleteVariant(scopeOf(ctx.auth), ctx.params.id),
  }),
  defineApiRoute({
    method: 'POST',
    path: '/v1/admin/products/:id/images',
    auth: 'secret',
    customerToken: 'none',
    params: IdPathSchema,
    body: ImageCreateSchema,
    response: ImageSchema,
    summary: 'Add an image',
    description:
      "Returns the new Image. `position` defaults to after the product's last image; `variant_ids` attach it to variants of the product. Emits `product.updated`.",
    tags: PRODUCT_TAGS,
    operationId: 'createProductImage',
    handler: async (ctx) => ctx.engine.products.addImage(scopeOf(ctx.auth), ctx.params.id, ctx.body),
  }),
  defineApiRoute({
    method: 'DELETE',
    path: '/v1/admin/products/:id/images/:image_id',
    auth: 'secret',
    customerToken: 'none',
    params: ImagePathSchema,
    response: DeletedResponseSchema,
    summary: 'Delete an image',
    description: 'Emits `product.updated`.',
    tags: PRODUCT_TAGS,
    operationId: 'deleteProductImage',
    handler: async (ctx) =>
      ctx.engine.products.deleteImage(scopeOf(ctx.auth), ctx.params.id, ctx.params.image_id),
  }),
];

/** Admin shipping methods (docs/contract.md#shipping-methods): secret key only. */
const shippingRoutes: AnyRoute[] = [
  defineApiRoute({
    method: 'POST',
    path: '/v1/admin/shipping-methods',
    auth: 'secret',
    customerToken: 'none',
    body: ShippingMethodCreateSchema,
    response: ShippingMethodSchema,
    summary: 'Create a shipping method',
    description:
      'Its `price` is charged unless the discounted subtotal reaches `free_shipping_threshold` (null: never free).',
    tags: SHIPPING_TAGS,
    operationId: 'createShippingMethod',
    errors: ['currency_mismatch'],
    handler: async (ctx) => ctx.engine.shippingMethods.create(scopeOf(ctx.auth), ctx.body),
  }),
  defineApiRoute({
    method: 'GET',
    path: '/v1/admin/shipping-methods',
    auth: 'secret',
    customerToken: 'none',
    query: AdminShippingMethodListQuerySchema,
    response: ShippingMethodListSchema,
    summary: 'List shipping methods',
    description: 'Filter: `is_active`. Sorts: `created_at` (default, newest first), `position`.',
    tags: SHIPPING_TAGS,
    operationId: 'listShippingMethods',
    handler: async (ctx) => ctx.engine.shippingMethods.list(scopeOf(ctx.auth), ctx.query),
  }),
  defineApiRoute({
    method: 'GET',
    path: '/v1/admin/shipping-methods/:id',
    auth: 'secret',
    customerToken: 'none',
    params: IdPathSchema,
    response: ShippingMethodSchema,
    summary: 'Retrieve a shipping method',
    tags: SHIPPING_TAGS,
    operationId: 'getShippingMethod',
    handler: async (ctx) => ctx.engine.shippingMethods.get(scopeOf(ctx.auth), ctx.params.id),
  }),
  defineApiRoute({
    method: 'PATCH',
    path: '/v1/admin/shipping-methods/:id',
    auth: 'secret',
    customerToken: 'none',
    params: IdPathSchema,
    body: ShippingMethodUpdateSchema,
    response: ShippingMethodSchema,
    summary: 'Update a shipping method',
    description: '`free_shipping_threshold: null` removes the threshold; `metadata` is replaced as a whole.',
    tags: SHIPPING_TAGS,
    operationId: 'updateShippingMethod',
    errors: ['currency_mismatch'],
    handler: async (ctx) => ctx.engine.shippingMethods.update(scopeOf(ctx.auth), ctx.params.id, ctx.body),
  }),
  defineApiRoute({
    method: 'DELETE',
    path: '/v1/admin/shipping-methods/:id',
    auth: 'secret',
    customerToken: 'none',
    params: IdPathSchema,
    response: DeletedResponseSchema,
    summary: 'Delete a shipping method',
    tags: SHIPPING_TAGS,
    operationId: 'deleteShippingMethod',
    handler: async (ctx) => ctx.engine.shippingMethods.delete(scopeOf(ctx.auth), ctx.params.id),
  }),
];

/** Catalog browsing (docs/contract.md#catalog): publishable or secret key; active products only. */
const storefrontRoutes: AnyRoute[] = [
  defineApiRoute({
    method: 'GET',
    path: '/v1/storefront/products',
    auth: 'any',
    customerToken: 'none',
    query: StorefrontProductListQuerySchema,
    response: ProductListSchema,
    summary: 'Browse products',
    description:
      'Active products only. Filters: `q` (partial name, case-insensitive), `tag` (comma-separated, all required), `price_min`/`price_max` (minor units, inclusive, on the representative variant). Sorts: `created_at` (default, newest first), `name`, `price`. Cost prices and stock counts other than `available` are null; inactive variants are left out.',
    tags: STOREFRONT_TAGS,
    operationId: 'browseProducts',
    // Prepared text (storefront templates filled with live stock), byte-identical to the object path.
    handler: async (ctx) =>
      jsonText(await ctx.engine.products.listStorefrontJson(scopeOf(ctx.auth), ctx.query)),
  }),
  defineApiRoute({
    method: 'GET',
    path: '/v1/storefront/products/by-slug/:slug',
    auth: 'any',
    customerToken: 'none',
    params: SlugPathSchema,
    response: ProductSchema,
    summary: 'Retrieve a product by slug',
    description: '404 unless an active product has this slug.',
    tags: STOREFRONT_TAGS,
    operationId: 'getStorefrontProductBySlug',
    handler: async (ctx) =>
      jsonText(await ctx.engine.products.getStorefrontJson(scopeOf(ctx.auth), 'slug', ctx.params.slug)),
  }),
  defineApiRoute({
    method: 'GET',
    path: '/v1/storefront/products/:id',
    auth: 'any',
    customerToken: 'none',
    params: IdPathSchema,
    response: ProductSchema,
    summary: 'Retrieve a product',
    description: '404 unless the product is active.',
    tags: STOREFRONT_TAGS,
    operationId: 'getStorefrontProduct',
    handler: async (ctx) =>
      jsonText(await ctx.engine.products.getStorefrontJson(scopeOf(ctx.auth), 'id', ctx.params.id)),
  }),
  defineApiRoute({
    method: 'GET',
    path: '/v1/storefront/shipping-methods',
    aliases: ['/v1/storefront/shipping_methods'],
    auth: 'any',
    customerToken: 'none',
    query: StorefrontShippingListQuerySchema,
    response: ShippingMethodListSchema,
    summary: 'List shipping methods',
    description:
      'Active methods only, by `position` (ascending) unless `sort=created_at`. Also served as `/v1/storefront/shipping_methods`.',
    tags: STOREFRONT_TAGS,
    operationId: 'listStorefrontShippingMethods',
    handler: async (ctx) => ctx.engine.shippingMethods.listStorefront(scopeOf(ctx.auth), pageOf(ctx.query)),
  }),
];

/** Every catalog route: products, variants, images, shipping methods, and storefront browsing. */
export const catalogRoutes: AnyRoute[] = [...productRoutes, ...shippingRoutes, ...storefrontRoutes];
