import { z } from 'zod';
import {
  AdminCollectionListParamsSchema,
  CollectionDetailSchema,
  CollectionListSchema,
  CollectionSchema,
  CreateCollectionInputSchema,
  DeletedResponseSchema,
  IdPathSchema,
  StorefrontCollectionListParamsSchema,
  StorefrontLocaleQuerySchema,
  UpdateCollectionInputSchema,
} from '../schemas';
import { STOREFRONT_LOCALE_HTTP, storefrontLocaleOf } from './locales';
import { defineOperation } from './operation';

const ADMIN_TAGS = ['Collections'] as const;
const STOREFRONT_TAGS = ['Storefront catalog'] as const;

const CollectionSlugPathSchema = z.object({ slug: z.string().min(1) });

const TYPE_RULES =
  '`manual` (the default): `product_ids`, at most 250 distinct products of the store and mode in display order (an unknown one → 404, `param: product_ids[i]`); `rules` must be absent or null. `auto`: `rules` required (400 `parameter_missing`), `product_ids` refused; `rules` = `{ match: all | any (default all), conditions: [1..20] }`, a condition `{ type: product_tag | product_type | category | product, operator: in | not_in, values: [1..100 strings] }` or `{ type: price, operator: gte | lte, value: <minor units> }` (`category` includes descendants, `price` is the representative price); anything else → 400 naming it (`rules[conditions][2][operator]`).';

/** Collections (decisions §17, docs/organising-the-catalog.md#collections): manual or automatic. */
export const collectionsOperations = [
  defineOperation({
    name: 'collections.create',
    http: { method: 'POST', path: '/v1/admin/collections' },
    auth: 'secret',
    customerToken: 'none',
    input: CreateCollectionInputSchema,
    response: CollectionSchema,
    summary: 'Create a collection',
    description: `${TYPE_RULES} \`slug\` is derived from the name when left out and is unique among the store and mode's collections (409 \`duplicate_slug\`). Emits \`collection.created\`.`,
    tags: ADMIN_TAGS,
    operationId: 'createCollection',
    errors: ['duplicate_slug', 'not_found'],
    run: async (s, c) => s.collections.create(c.scope, c.input),
  }),
  defineOperation({
    name: 'collections.list',
    http: { method: 'GET', path: '/v1/admin/collections' },
    auth: 'secret',
    customerToken: 'none',
    inputIn: 'query',
    input: AdminCollectionListParamsSchema,
    response: CollectionListSchema,
    summary: 'List collections',
    description: 'Newest first. Filter `type` (`manual` or `auto`).',
    tags: ADMIN_TAGS,
    operationId: 'listCollections',
    run: async (s, c) => s.collections.list(c.scope, c.input),
  }),
  defineOperation({
    name: 'collections.get',
    http: { method: 'GET', path: '/v1/admin/collections/:id' },
    auth: 'secret',
    customerToken: 'none',
    params: IdPathSchema,
    response: CollectionSchema,
    summary: 'Retrieve a collection',
    tags: ADMIN_TAGS,
    operationId: 'getCollection',
    errors: ['not_found'],
    run: async (s, c) => s.collections.get(c.scope, c.params.id),
  }),
  defineOperation({
    name: 'collections.update',
    http: { method: 'PATCH', path: '/v1/admin/collections/:id' },
    auth: 'secret',
    customerToken: 'none',
    params: IdPathSchema,
    input: UpdateCollectionInputSchema,
    response: CollectionSchema,
    summary: 'Update a collection',
    description: `Fields given replace the stored ones (\`product_ids\` and \`metadata\` as a whole). Changing \`type\` to \`auto\` needs \`rules\` in the same request; to \`manual\` drops the rules (\`product_ids\` default \`[]\`). ${TYPE_RULES} Emits \`collection.updated\` (a \`product_ids\` change included; products joining or leaving an auto collection by their own changes emit nothing).`,
    tags: ADMIN_TAGS,
    operationId: 'updateCollection',
    errors: ['duplicate_slug', 'not_found'],
    run: async (s, c) => s.collections.update(c.scope, c.params.id, c.input),
  }),
  defineOperation({
    name: 'collections.delete',
    http: { method: 'DELETE', path: '/v1/admin/collections/:id' },
    auth: 'secret',
    customerToken: 'none',
    params: IdPathSchema,
    response: DeletedResponseSchema,
    summary: 'Delete a collection',
    description: 'The products stay. Emits `collection.deleted`.',
    tags: ADMIN_TAGS,
    operationId: 'deleteCollection',
    errors: ['not_found'],
    run: async (s, c) => s.collections.delete(c.scope, c.params.id),
  }),
  defineOperation({
    name: 'collections.listStorefront',
    http: { method: 'GET', path: '/v1/storefront/collections', ...STOREFRONT_LOCALE_HTTP },
    auth: 'any',
    customerToken: 'none',
    inputIn: 'query',
    input: StorefrontCollectionListParamsSchema,
    response: CollectionListSchema,
    summary: 'List collections',
    description:
      'By `position` (ascending), then newest first. A manual collection shows in `product_ids` only its `active` members.',
    tags: STOREFRONT_TAGS,
    operationId: 'listStorefrontCollections',
    run: async (s, c) => s.collections.listStorefront(c.scope, c.input, await storefrontLocaleOf(s, c)),
  }),
  defineOperation({
    name: 'collections.getStorefrontBySlug',
    http: { method: 'GET', path: '/v1/storefront/collections/by-slug/:slug', ...STOREFRONT_LOCALE_HTTP },
    auth: 'any',
    customerToken: 'none',
    params: CollectionSlugPathSchema,
    inputIn: 'query',
    input: StorefrontLocaleQuerySchema,
    response: CollectionDetailSchema,
    summary: 'Retrieve a collection by slug',
    description:
      'The collection and `products`: its first 100 `active` products in collection order (manual: `product_ids` order; auto: newest first). 404 if no collection has this slug.',
    tags: STOREFRONT_TAGS,
    operationId: 'getStorefrontCollectionBySlug',
    errors: ['not_found'],
    run: async (s, c) =>
      s.collections.getStorefront(c.scope, { slug: c.params.slug }, await storefrontLocaleOf(s, c)),
  }),
  defineOperation({
    name: 'collections.getStorefront',
    http: { method: 'GET', path: '/v1/storefront/collections/:id', ...STOREFRONT_LOCALE_HTTP },
    auth: 'any',
    customerToken: 'none',
    params: IdPathSchema,
    inputIn: 'query',
    input: StorefrontLocaleQuerySchema,
    response: CollectionDetailSchema,
    summary: 'Retrieve a collection',
    description:
      'The collection and `products`: its first 100 `active` products in collection order (manual: `product_ids` order; auto: newest first). Draft and archived members stay members but are never shown here.',
    tags: STOREFRONT_TAGS,
    operationId: 'getStorefrontCollection',
    errors: ['not_found'],
    run: async (s, c) => s.collections.getStorefront(c.scope, c.params.id, await storefrontLocaleOf(s, c)),
  }),
] as const;
