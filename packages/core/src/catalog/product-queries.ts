import { BASE_TEXT, type ReadLanguage } from '../locales/negotiate';
import { productsIn as translated } from '../locales/records';
import type { PageRequest, ProductAggregate, ProductListFilter, Scope } from '../ports/storage';
import type { ServiceContext } from '../shared/context';
import { CommerceError, errors } from '../shared/errors';
import { read } from '../shared/unit-of-work';
import { categoryAndDescendants } from './category-membership';
import { productPageToWire } from './product-support';
import type {
  ADMIN_PRODUCT_SORTS,
  AdminProductListQuery,
  STOREFRONT_PRODUCT_SORTS,
  StorefrontProductListQuery,
} from './schemas';
import { type ProductWire, productToWire } from './wire';

/** Every product sort (`updated_at` is the admin's, `relevance` the storefront's). */
type ProductSort = (typeof ADMIN_PRODUCT_SORTS)[number] | (typeof STOREFRONT_PRODUCT_SORTS)[number];

function pageOf<S extends ProductSort>(query: {
  limit: number;
  starting_after?: string | undefined;
  sort: S;
  order: 'asc' | 'desc';
}): PageRequest<S> {
  return { limit: query.limit, starting_after: query.starting_after, sort: query.sort, order: query.order };
}

/** `q` and `tag` of both lists; an empty `q=` or `tag=` filters nothing. */
function searchOf(query: { q?: string | undefined; tag?: string[] | undefined }): ProductListFilter {
  const q = query.q?.trim();
  return {
    ...(q !== undefined && q !== '' && { q }),
    ...(query.tag !== undefined && query.tag.length > 0 && { tags: query.tag }),
  };
}

/** The storefront list's filter: active products, `q`, `tag`, price bounds. */
function storefrontFilterOf(query: StorefrontProductListQuery): ProductListFilter {
  return {
    ...searchOf(query),
    status: 'active',
    ...(query.price_min !== undefined && { price_min: query.price_min }),
    ...(query.price_max !== undefined && { price_max: query.price_max }),
  };
}

/** The empty page a `category_id` naming no category answers (decisions §17: 200, empty). */
const EMPTY_PAGE = { data: [], total_count: 0, has_more: false, next_cursor: null };

/**
 * `filter` with `category_ids`: the query's `category_id` and every category below it, read from
 * the scope's tree (one statement); null when the id names no category (the list is empty).
 */
async function withCategory(
  ctx: ServiceContext,
  scope: Scope,
  filter: ProductListFilter,
  categoryId: string | undefined,
): Promise<ProductListFilter | null> {
  if (categoryId === undefined) return filter;
  const ids = categoryAndDescendants(await read(ctx, (tx) => tx.categories.all(scope)), categoryId);
  return ids === null ? null : { ...filter, category_ids: ids };
}

/**
 * What a list's `collection_id` adds to its filter, resolved by the collections service
 * (collections/collection-service.ts `productFilter`; the operation passes it in).
 */
type CollectionFilter = Pick<ProductListFilter, 'collection'>;

/** `filter` in a language (decisions §21): `q` matches the name translated into it too. */
function inLanguage(filter: ProductListFilter, language: ReadLanguage): ProductListFilter {
  return language.translate !== null && filter.q !== undefined
    ? { ...filter, q_locale: language.translate }
    : filter;
}

/** Whether the storefront may show a product (docs/contract.md#storefront-visibility): only `active` ones. */
function visible(product: ProductAggregate | null): product is ProductAggregate {
  return product !== null && product.status === 'active';
}

/**
 * Reading products: the admin view (every status, cost prices, full inventory) and the
 * storefront view (active products only, inactive variants hidden, no cost or stock counts).
 * Lists come from one storage call that returns whole aggregates (no N+1).
 */
export function createProductQueries(ctx: ServiceContext) {
  /**
   * A storefront list's `starting_after` must be a product the storefront shows (active): a draft
   * or archived product's id is answered exactly as an unknown id (ports/storage/pagination.ts),
   * so a publishable key cannot tell that it exists.
   */
  async function storefrontCursor(scope: Scope, after: string | undefined): Promise<void> {
    if (after === undefined) return;
    const model = ctx.storage.storefront;
    const shown = model
      ? (await model.getProduct(scope, 'id', after, 'active')) !== null
      : visible(await read(ctx, (tx) => tx.products.get(scope, after)));
    if (!shown) {
      throw new CommerceError('parameter_invalid', `No such object for starting_after: '${after}'`, {
        param: 'starting_after',
      });
    }
  }

  return {
    /** `GET /v1/admin/products`: filters `status`, `type`, `q`, `tag` (AND); sorts created_at | name | price | updated_at. */
    async list(scope: Scope, query: AdminProductListQuery, extra: CollectionFilter = {}) {
      const filter = await withCategory(
        ctx,
        scope,
        {
          ...searchOf(query),
          ...(query.status !== undefined && { status: query.status }),
          ...(query.type !== undefined && { type: query.type }),
          ...extra,
        },
        query.category_id,
      );
      if (filter === null) return EMPTY_PAGE;
      const page = await read(ctx, (tx) => tx.products.list(scope, filter, pageOf(query)));
      return productPageToWire(page, 'admin');
    },

    /** `GET /v1/admin/products/{id}`, any status. */
    async get(scope: Scope, id: string): Promise<ProductWire> {
      const product = await read(ctx, (tx) => tx.products.get(scope, id));
      if (!product) throw errors.notFound('product', id);
      return productToWire(product, 'admin');
    },

    /**
     * `GET /v1/storefront/products`: active products only; `q`, `tag` (comma-separated, AND),
     * `price_min`/`price_max` (inclusive, on the representative price; products without an
     * active variant have no price and never match a bound).
     */
    async listStorefront(
      scope: Scope,
      query: StorefrontProductListQuery,
      extra: CollectionFilter = {},
      language: ReadLanguage = BASE_TEXT,
    ) {
      await storefrontCursor(scope, query.starting_after);
      const filterIn = { ...storefrontFilterOf(query), ...extra };
      const found = await withCategory(ctx, scope, filterIn, query.category_id);
      if (found === null) return EMPTY_PAGE;
      const filter = inLanguage(found, language);
      const page = await read(ctx, async (tx) => {
        const listed = await tx.products.list(scope, filter, pageOf(query));
        return { ...listed, data: await translated(tx, scope, language, listed.data) };
      });
      return productPageToWire(page, 'storefront');
    },

    /**
     * `listStorefront` as JSON text, byte for byte `JSON.stringify(await listStorefront(…))`:
     * the storage's storefront read model when it has one (`Storage.storefront`, which may keep
     * responses however it likes; ports/storage/storefront-read-model.ts), else the object path
     * serialised.
     */
    async listStorefrontJson(
      scope: Scope,
      query: StorefrontProductListQuery,
      extra: CollectionFilter = {},
      language: ReadLanguage = BASE_TEXT,
    ): Promise<string> {
      await storefrontCursor(scope, query.starting_after);
      const filterIn = { ...storefrontFilterOf(query), ...extra };
      const found = await withCategory(ctx, scope, filterIn, query.category_id);
      if (found === null) return JSON.stringify(EMPTY_PAGE);
      const filter = inLanguage(found, language);
      const model = ctx.storage.storefront;
      if (model) {
        return model.listProducts(scope, filter, pageOf(query), {
          locale: language.translate,
          version: language.version ?? null,
        });
      }
      const page = await read(ctx, async (tx) => {
        const listed = await tx.products.list(scope, filter, pageOf(query));
        return { ...listed, data: await translated(tx, scope, language, listed.data) };
      });
      return JSON.stringify(productPageToWire(page, 'storefront'));
    },

    /**
     * `getStorefront` / `getStorefrontBySlug` as JSON text, byte for byte `JSON.stringify` of
     * theirs: the storage's read model (`Storage.storefront`), or the object path serialised
     * when the storage has none. 404 unless an active product has this id (or slug).
     */
    async getStorefrontJson(
      scope: Scope,
      by: 'id' | 'slug',
      key: string,
      language: ReadLanguage = BASE_TEXT,
    ): Promise<string> {
      const model = ctx.storage.storefront;
      const text = model
        ? await model.getProduct(scope, by, key, 'active', {
            locale: language.translate,
            version: language.version ?? null,
          })
        : await read(ctx, async (tx) => {
            const product = await tx.products.get(scope, by === 'id' ? key : { slug: key });
            if (!visible(product)) return null;
            const [shown] = await translated(tx, scope, language, [product]);
            return JSON.stringify(productToWire(shown as ProductAggregate, 'storefront'));
          });
      if (text === null) throw errors.notFound('product', key);
      return text;
    },

    /** `GET /v1/storefront/products/{id}`: 404 unless the product is active. */
    async getStorefront(scope: Scope, id: string, language: ReadLanguage = BASE_TEXT): Promise<ProductWire> {
      const product = await read(ctx, async (tx) => {
        const found = await tx.products.get(scope, id);
        return visible(found)
          ? ((await translated(tx, scope, language, [found]))[0] as ProductAggregate)
          : null;
      });
      if (!product) throw errors.notFound('product', id);
      return productToWire(product, 'storefront');
    },

    /** `GET /v1/storefront/products/by-slug/{slug}`: 404 unless an active product has that slug. */
    async getStorefrontBySlug(
      scope: Scope,
      slug: string,
      language: ReadLanguage = BASE_TEXT,
    ): Promise<ProductWire> {
      const product = await read(ctx, async (tx) => {
        const found = await tx.products.get(scope, { slug });
        return visible(found)
          ? ((await translated(tx, scope, language, [found]))[0] as ProductAggregate)
          : null;
      });
      if (!product) throw errors.notFound('product', slug);
      return productToWire(product, 'storefront');
    },
  };
}
