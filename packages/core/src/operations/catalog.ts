import { z } from 'zod';
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
  STOREFRONT_LOCALE_SHAPE,
  StorefrontProductListQuerySchema,
  StorefrontProductListSchema,
  StorefrontProductQuerySchema,
  StorefrontProductSchema,
  VariantCreateSchema,
  VariantListQuerySchema,
  VariantListSchema,
  VariantSchema,
  VariantUpdateSchema,
} from '../schemas';
import { pageOf } from './call';
import { STOREFRONT_LOCALE_HTTP, storefrontLocaleOf } from './locales';
import { defineOperation } from './operation';

/**
 * `GET /v1/storefront/shipping-methods`: a checkout shows methods in the merchant's order, so
 * here `sort` defaults to `position` (ascending); `sort=created_at` is offered too.
 */
const StorefrontShippingListQuerySchema = z.object({
  ...PAGE_QUERY_SHAPE,
  ...STOREFRONT_LOCALE_SHAPE,
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
const productOperations = [
  defineOperation({
    name: 'products.create',
    http: { method: 'POST', path: '/v1/admin/products' },
    auth: 'secret',
    customerToken: 'none',
    input: ProductCreateSchema,
    response: ProductSchema,
    summary: 'Create a product',
    description: CREATE_DESCRIPTION,
    tags: PRODUCT_TAGS,
    operationId: 'createProduct',
    errors: ['duplicate_slug', 'duplicate_sku', 'currency_mismatch'],
    run: async (s, c) => s.products.create(c.scope, c.input),
  }),
  defineOperation({
    name: 'products.list',
    http: { method: 'GET', path: '/v1/admin/products' },
    auth: 'secret',
    customerToken: 'none',
    inputIn: 'query',
    input: AdminProductListQuerySchema,
    response: ProductListSchema,
    summary: 'List products',
    description:
      'Every status. Filters: `status`, `type`, `q` (partial name, case-insensitive), `tag` (comma-separated, all required). Sorts: `created_at` (default, newest first), `name`, `price` (the representative variant), `updated_at` (newest first by default). `collection_id`: the products of a collection (its members, or what its rules match), ANDed with the other filters; an unknown id lists nothing; a manual collection without `sort` lists in its order.',
    tags: PRODUCT_TAGS,
    operationId: 'listProducts',
    run: async (s, c) =>
      s.products.list(c.scope, c.input, await s.collections.productFilter(c.scope, c.input)),
  }),
  defineOperation({
    name: 'products.get',
    http: { method: 'GET', path: '/v1/admin/products/:id' },
    auth: 'secret',
    customerToken: 'none',
    params: IdPathSchema,
    response: ProductSchema,
    summary: 'Retrieve a product',
    tags: PRODUCT_TAGS,
    operationId: 'getProduct',
    run: async (s, c) => s.products.get(c.scope, c.params.id),
  }),
  defineOperation({
    name: 'products.update',
    http: { method: 'PATCH', path: '/v1/admin/products/:id' },
    auth: 'secret',
    customerToken: 'none',
    params: IdPathSchema,
    input: ProductUpdateSchema,
    response: ProductSchema,
    summary: 'Update a product',
    description:
      'Fields given replace the stored ones; `metadata` and `attributes` are replaced as a whole. Drafting or archiving hides the product from the storefront. Emits `product.updated`.',
    tags: PRODUCT_TAGS,
    operationId: 'updateProduct',
    errors: ['duplicate_slug'],
    run: async (s, c) => s.products.update(c.scope, c.params.id, c.input),
  }),
  defineOperation({
    name: 'products.delete',
    http: { method: 'DELETE', path: '/v1/admin/products/:id' },
    auth: 'secret',
    customerToken: 'none',
    params: IdPathSchema,
    response: DeletedResponseSchema,
    summary: 'Delete a product',
    description: 'Deletes the product and its variants. Emits `product.deleted`.',
    tags: PRODUCT_TAGS,
    operationId: 'deleteProduct',
    run: async (s, c) => s.products.delete(c.scope, c.params.id),
  }),
  defineOperation({
    name: 'products.listVariants',
    http: { method: 'GET', path: '/v1/admin/products/:id/variants' },
    auth: 'secret',
    customerToken: 'none',
    params: IdPathSchema,
    inputIn: 'query',
    input: VariantListQuerySchema,
    response: VariantListSchema,
    summary: "List a product's variants",
    description:
      'Active and inactive variants. Sorts: `position` (default, ascending; ties by id), `created_at` (newest first by default).',
    tags: PRODUCT_TAGS,
    operationId: 'listVariants',
    run: async (s, c) => s.products.listVariants(c.scope, c.params.id, pageOf(c.input)),
  }),
  defineOperation({
    name: 'products.createVariant',
    http: { method: 'POST', path: '/v1/admin/products/:id/variants' },
    auth: 'secret',
    customerToken: 'none',
    params: IdPathSchema,
    input: VariantCreateSchema,
    response: VariantSchema,
    summary: 'Add a variant',
    description:
      'Names its option values with `options: { "<option name>": "<value>" }` (a new value of an existing option is added to it) or `option_value_ids`. `width`, `height`, `depth` are numbers ≥ 0; `position` (integer ≥ 0) defaults to one past the product\'s highest. Gets an Inventory record. Emits `product.updated`.',
    tags: PRODUCT_TAGS,
    operationId: 'createVariant',
    errors: ['duplicate_sku', 'currency_mismatch'],
    run: async (s, c) => s.products.createVariant(c.scope, c.params.id, c.input),
  }),
  defineOperation({
    name: 'products.updateVariant',
    http: { method: 'PATCH', path: '/v1/admin/variants/:id' },
    auth: 'secret',
    customerToken: 'none',
    params: IdPathSchema,
    input: VariantUpdateSchema,
    response: VariantSchema,
    summary: 'Update a variant',
    description:
      'Fields given replace the stored ones; `null` clears nullable ones. Stock changes go through the inventory endpoints. Emits `product.updated`.',
    tags: PRODUCT_TAGS,
    operationId: 'updateVariant',
    errors: ['duplicate_sku', 'currency_mismatch'],
    run: async (s, c) => s.products.updateVariant(c.scope, c.params.id, c.input),
  }),
  defineOperation({
    name: 'products.deleteVariant',
    http: { method: 'DELETE', path: '/v1/admin/variants/:id' },
    auth: 'secret',
    customerToken: 'none',
    params: IdPathSchema,
    response: DeletedResponseSchema,
    summary: 'Delete a variant',
    description: 'Emits `product.updated`.',
    tags: PRODUCT_TAGS,
    operationId: 'deleteVariant',
    run: async (s, c) => s.products.deleteVariant(c.scope, c.params.id),
  }),
  defineOperation({
    name: 'products.addImage',
    http: { method: 'POST', path: '/v1/admin/products/:id/images' },
    auth: 'secret',
    customerToken: 'none',
    params: IdPathSchema,
    input: ImageCreateSchema,
    response: ImageSchema,
    summary: 'Add an image',
    description:
      "Returns the new Image. `position` defaults to after the product's last image; `variant_ids` attach it to variants of the product. Emits `product.updated`.",
    tags: PRODUCT_TAGS,
    operationId: 'createProductImage',
    run: async (s, c) => s.products.addImage(c.scope, c.params.id, c.input),
  }),
  defineOperation({
    name: 'products.deleteImage',
    http: { method: 'DELETE', path: '/v1/admin/products/:id/images/:image_id' },
    auth: 'secret',
    customerToken: 'none',
    params: ImagePathSchema,
    response: DeletedResponseSchema,
    summary: 'Delete an image',
    description: 'Emits `product.updated`.',
    tags: PRODUCT_TAGS,
    operationId: 'deleteProductImage',
    run: async (s, c) => s.products.deleteImage(c.scope, c.params.id, c.params.image_id),
  }),
] as const;

/** Admin shipping methods (docs/contract.md#shipping-methods): secret key only. */
const shippingOperations = [
  defineOperation({
    name: 'shippingMethods.create',
    http: { method: 'POST', path: '/v1/admin/shipping-methods' },
    auth: 'secret',
    customerToken: 'none',
    input: ShippingMethodCreateSchema,
    response: ShippingMethodSchema,
    summary: 'Create a shipping method',
    description:
      'Its `price` is charged unless the discounted subtotal reaches `free_shipping_threshold` (null: never free).',
    tags: SHIPPING_TAGS,
    operationId: 'createShippingMethod',
    errors: ['currency_mismatch'],
    run: async (s, c) => s.shippingMethods.create(c.scope, c.input),
  }),
  defineOperation({
    name: 'shippingMethods.list',
    http: { method: 'GET', path: '/v1/admin/shipping-methods' },
    auth: 'secret',
    customerToken: 'none',
    inputIn: 'query',
    input: AdminShippingMethodListQuerySchema,
    response: ShippingMethodListSchema,
    summary: 'List shipping methods',
    description: 'Filter: `is_active`. Sorts: `created_at` (default, newest first), `position`.',
    tags: SHIPPING_TAGS,
    operationId: 'listShippingMethods',
    run: async (s, c) => s.shippingMethods.list(c.scope, c.input),
  }),
  defineOperation({
    name: 'shippingMethods.get',
    http: { method: 'GET', path: '/v1/admin/shipping-methods/:id' },
    auth: 'secret',
    customerToken: 'none',
    params: IdPathSchema,
    response: ShippingMethodSchema,
    summary: 'Retrieve a shipping method',
    tags: SHIPPING_TAGS,
    operationId: 'getShippingMethod',
    run: async (s, c) => s.shippingMethods.get(c.scope, c.params.id),
  }),
  defineOperation({
    name: 'shippingMethods.update',
    http: { method: 'PATCH', path: '/v1/admin/shipping-methods/:id' },
    auth: 'secret',
    customerToken: 'none',
    params: IdPathSchema,
    input: ShippingMethodUpdateSchema,
    response: ShippingMethodSchema,
    summary: 'Update a shipping method',
    description: '`free_shipping_threshold: null` removes the threshold; `metadata` is replaced as a whole.',
    tags: SHIPPING_TAGS,
    operationId: 'updateShippingMethod',
    errors: ['currency_mismatch'],
    run: async (s, c) => s.shippingMethods.update(c.scope, c.params.id, c.input),
  }),
  defineOperation({
    name: 'shippingMethods.delete',
    http: { method: 'DELETE', path: '/v1/admin/shipping-methods/:id' },
    auth: 'secret',
    customerToken: 'none',
    params: IdPathSchema,
    response: DeletedResponseSchema,
    summary: 'Delete a shipping method',
    tags: SHIPPING_TAGS,
    operationId: 'deleteShippingMethod',
    run: async (s, c) => s.shippingMethods.delete(c.scope, c.params.id),
  }),
] as const;

/** Catalog browsing (docs/contract.md#catalog): publishable or secret key; active products only. */
const storefrontOperations = [
  defineOperation({
    name: 'products.listStorefront',
    http: { method: 'GET', path: '/v1/storefront/products', ...STOREFRONT_LOCALE_HTTP },
    auth: 'any',
    customerToken: 'none',
    inputIn: 'query',
    input: StorefrontProductListQuerySchema,
    response: StorefrontProductListSchema,
    summary: 'Browse products',
    description:
      'Active products only. Filters: `q` (partial name, case-insensitive), `tag` (comma-separated, all required), `price_min`/`price_max` (minor units, inclusive, on the representative variant). Sorts: `created_at` (default, newest first), `name`, `price`, `relevance` (needs `q`; most relevant first: the name equals `q`, starts with it, `q` starts a word of it, anywhere; then newest first; `order=asc` → 400). `include` is accepted and ignored (products always carry variants, options and images). Cost prices and stock counts other than `available` are null; inactive variants are left out. `collection_id`: the products of a collection (its members, or what its rules match), ANDed with the other filters; an unknown id lists nothing; a manual collection without `sort` lists in its order. `region_id` (decisions §19): every price in the currency of that region, `price_min`/`price_max`/`sort=price` on the prices there; a variant not sold there has `price: null`; without it the default region applies, if any; an unknown or inactive region → 404.',
    tags: STOREFRONT_TAGS,
    operationId: 'browseProducts',
    // Prepared text (storefront templates filled with live stock), byte-identical to the object path.
    run: async (s, c) => {
      const language = await storefrontLocaleOf(s, c);
      return s.products.listStorefront(
        c.scope,
        c.input,
        await s.collections.productFilter(c.scope, c.input),
        language,
      );
    },
    runJson: async (s, c) => {
      const language = await storefrontLocaleOf(s, c);
      const collection = await s.collections.productFilter(c.scope, c.input);
      return s.products.listStorefrontJson(c.scope, c.input, collection, language);
    },
  }),
  defineOperation({
    name: 'products.getStorefrontBySlug',
    http: { method: 'GET', path: '/v1/storefront/products/by-slug/:slug', ...STOREFRONT_LOCALE_HTTP },
    auth: 'any',
    customerToken: 'none',
    params: SlugPathSchema,
    inputIn: 'query',
    input: StorefrontProductQuerySchema,
    response: StorefrontProductSchema,
    summary: 'Retrieve a product by slug',
    description:
      '404 unless an active product has this slug. `region_id`: prices in that region (see Browse products).',
    tags: STOREFRONT_TAGS,
    operationId: 'getStorefrontProductBySlug',
    run: async (s, c) =>
      s.products.getStorefrontBySlug(
        c.scope,
        c.params.slug,
        await storefrontLocaleOf(s, c),
        c.input.region_id,
      ),
    runJson: async (s, c) =>
      s.products.getStorefrontJson(
        c.scope,
        'slug',
        c.params.slug,
        await storefrontLocaleOf(s, c),
        c.input.region_id,
      ),
  }),
  defineOperation({
    name: 'products.getStorefront',
    http: { method: 'GET', path: '/v1/storefront/products/:id', ...STOREFRONT_LOCALE_HTTP },
    auth: 'any',
    customerToken: 'none',
    params: IdPathSchema,
    inputIn: 'query',
    input: StorefrontProductQuerySchema,
    response: StorefrontProductSchema,
    summary: 'Retrieve a product',
    description:
      '404 unless the product is active. `region_id`: prices in that region (see Browse products).',
    tags: STOREFRONT_TAGS,
    operationId: 'getStorefrontProduct',
    run: async (s, c) =>
      s.products.getStorefront(c.scope, c.params.id, await storefrontLocaleOf(s, c), c.input.region_id),
    runJson: async (s, c) =>
      s.products.getStorefrontJson(
        c.scope,
        'id',
        c.params.id,
        await storefrontLocaleOf(s, c),
        c.input.region_id,
      ),
  }),
  defineOperation({
    name: 'shippingMethods.listStorefront',
    http: {
      method: 'GET',
      path: '/v1/storefront/shipping-methods',
      aliases: ['/v1/storefront/shipping_methods'],
      ...STOREFRONT_LOCALE_HTTP,
    },
    auth: 'any',
    customerToken: 'none',
    inputIn: 'query',
    input: StorefrontShippingListQuerySchema,
    response: ShippingMethodListSchema,
    summary: 'List shipping methods',
    description:
      'Active methods only, by `position` (ascending) unless `sort=created_at`. Also served as `/v1/storefront/shipping_methods`.',
    tags: STOREFRONT_TAGS,
    operationId: 'listStorefrontShippingMethods',
    run: async (s, c) =>
      s.shippingMethods.listStorefront(c.scope, pageOf(c.input), await storefrontLocaleOf(s, c)),
  }),
] as const;

/** Every catalog route: products, variants, images, shipping methods, and storefront browsing. */
export const catalogOperations = [
  ...productOperations,
  ...shippingOperations,
  ...storefrontOperations,
] as const;
