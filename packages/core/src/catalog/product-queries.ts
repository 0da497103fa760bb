import { BASE_TEXT, type ReadLanguage } from '../locales/negotiate';
import { productsIn as translated } from '../locales/records';
import type {
  Page,
  PageRequest,
  ProductAggregate,
  ProductListFilter,
  Repositories,
  Scope,
} from '../ports/storage';
import type { ServiceContext } from '../shared/context';
import { CommerceError, errors } from '../shared/errors';
import { read } from '../shared/unit-of-work';
import { categoryAndDescendants } from './category-membership';
import {
  productInRegionToWire,
  regionPriceMap,
  type StorefrontRegion,
  storefrontRegionOf,
} from './product-in-region';
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

/**
 * The storefront region of a read (decisions §19): `region_id` (unknown or inactive → 404
 * `not_found`, `param: region_id`), else the default region when it is active, else null (the
 * store currency, today's answer). The scope's regions, rates and store currency come from the
 * read model under the catalog version the request already read (`version`), else from storage.
 */
async function storefrontRegion(
  ctx: ServiceContext,
  scope: Scope,
  regionId: string | undefined,
  version: number | null | undefined,
): Promise<StorefrontRegion | null> {
  const model = ctx.storage.storefront;
  const kept = model?.regions ? await model.regions(scope, version ?? null) : null;
  const known =
    kept ??
    (await read(ctx, async (tx) => {
      const regions = await tx.regions.list(scope);
      if (regions.length === 0) return { regions, rates: [], store_currency: null };
      const rates = await tx.regions.listRates(scope);
      const store = await tx.stores.get(scope.store_id);
      return { regions, rates, store_currency: store?.currency ?? null };
    }));
  const region =
    regionId === undefined
      ? known.regions.find((candidate) => candidate.is_default && candidate.is_active)
      : known.regions.find((candidate) => candidate.id === regionId && candidate.is_active);
  if (region === undefined) {
    if (regionId === undefined) return null;
    throw new CommerceError('not_found', `No such region: '${regionId}'`, { param: 'region_id' });
  }
  if (known.store_currency === null) return null;
  return storefrontRegionOf(region, known.store_currency, known.rates);
}

/** Products on the storefront in `region`: the region's prices of their variants read in one statement. */
async function inRegion(
  tx: Repositories,
  scope: Scope,
  region: StorefrontRegion | null,
  products: readonly ProductAggregate[],
): Promise<(product: ProductAggregate) => ProductWire> {
  if (region === null) return (product) => productToWire(product, 'storefront');
  const ids = products.flatMap((product) => product.variants.map((variant) => variant.id));
  const prices = regionPriceMap(ids.length === 0 ? [] : await tx.regions.pricesFor(scope, region.id, ids));
  return (product) => productInRegionToWire(product, 'storefront', region, prices) as ProductWire;
}

/** A storefront page in a region (or the store currency) as the list envelope. */
function regionPageToWire(page: Page<ProductAggregate>, toWire: (product: ProductAggregate) => ProductWire) {
  return {
    data: page.data.map(toWire),
    total_count: page.total_count,
    has_more: page.has_more,
    next_cursor: page.next_cursor,
  };
}

/** `filter` in a region: `price_min`, `price_max` and `sort=price` read its prices. */
function inRegionFilter(filter: ProductListFilter, region: StorefrontRegion | null): ProductListFilter {
  return region === null ? filter : { ...filter, region_id: region.id };
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
      const region = await storefrontRegion(ctx, scope, query.region_id, language.version);
      await storefrontCursor(scope, query.starting_after);
      const filterIn = { ...storefrontFilterOf(query), ...extra };
      const found = await withCategory(ctx, scope, filterIn, query.category_id);
      if (found === null) return EMPTY_PAGE;
      const filter = inRegionFilter(inLanguage(found, language), region);
      return read(ctx, async (tx) => {
        const listed = await tx.products.list(scope, filter, pageOf(query));
        const toWire = await inRegion(tx, scope, region, listed.data);
        return regionPageToWire(
          { ...listed, data: await translated(tx, scope, language, listed.data) },
          toWire,
        );
      });
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
      const region = await storefrontRegion(ctx, scope, query.region_id, language.version);
      await storefrontCursor(scope, query.starting_after);
      const filterIn = { ...storefrontFilterOf(query), ...extra };
      const found = await withCategory(ctx, scope, filterIn, query.category_id);
      if (found === null) return JSON.stringify(EMPTY_PAGE);
      const filter = inRegionFilter(inLanguage(found, language), region);
      const model = ctx.storage.storefront;
      if (model) {
        return model.listProducts(scope, filter, pageOf(query), {
          locale: language.translate,
          version: language.version ?? null,
          ...(region !== null && { region }),
        });
      }
      const page = await read(ctx, async (tx) => {
        const listed = await tx.products.list(scope, filter, pageOf(query));
        const toWire = await inRegion(tx, scope, region, listed.data);
        return regionPageToWire(
          { ...listed, data: await translated(tx, scope, language, listed.data) },
          toWire,
        );
      });
      return JSON.stringify(page);
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
      regionId?: string,
    ): Promise<string> {
      const region = await storefrontRegion(ctx, scope, regionId, language.version);
      const model = ctx.storage.storefront;
      const text = model
        ? await model.getProduct(scope, by, key, 'active', {
            locale: language.translate,
            version: language.version ?? null,
            ...(region !== null && { region }),
          })
        : await read(ctx, async (tx) => {
            const product = await tx.products.get(scope, by === 'id' ? key : { slug: key });
            if (!visible(product)) return null;
            const [shown] = await translated(tx, scope, language, [product]);
            return JSON.stringify((await inRegion(tx, scope, region, [product]))(shown as ProductAggregate));
          });
      if (text === null) throw errors.notFound('product', key);
      return text;
    },

    /** `GET /v1/storefront/products/{id}`: 404 unless the product is active. */
    async getStorefront(
      scope: Scope,
      id: string,
      language: ReadLanguage = BASE_TEXT,
      regionId?: string,
    ): Promise<ProductWire> {
      const region = await storefrontRegion(ctx, scope, regionId, language.version);
      const product = await read(ctx, async (tx) => {
        const found = await tx.products.get(scope, id);
        if (!visible(found)) return null;
        const toWire = await inRegion(tx, scope, region, [found]);
        return toWire((await translated(tx, scope, language, [found]))[0] as ProductAggregate);
      });
      if (!product) throw errors.notFound('product', id);
      return product;
    },

    /** `GET /v1/storefront/products/by-slug/{slug}`: 404 unless an active product has that slug. */
    async getStorefrontBySlug(
      scope: Scope,
      slug: string,
      language: ReadLanguage = BASE_TEXT,
      regionId?: string,
    ): Promise<ProductWire> {
      const region = await storefrontRegion(ctx, scope, regionId, language.version);
      const product = await read(ctx, async (tx) => {
        const found = await tx.products.get(scope, { slug });
        if (!visible(found)) return null;
        const toWire = await inRegion(tx, scope, region, [found]);
        return toWire((await translated(tx, scope, language, [found]))[0] as ProductAggregate);
      });
      if (!product) throw errors.notFound('product', slug);
      return product;
    },
  };
}
