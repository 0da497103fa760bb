import type { PageRequest, ProductAggregate, ProductListFilter, Scope } from '../ports/storage';
import type { ServiceContext } from '../shared/context';
import { CommerceError, errors } from '../shared/errors';
import { read } from '../shared/unit-of-work';
import { productPageToWire } from './product-support';
import type { ADMIN_PRODUCT_SORTS, AdminProductListQuery, StorefrontProductListQuery } from './schemas';
import { type ProductWire, productToWire } from './wire';

/** Every product sort (the storefront offers all but `updated_at`). */
type ProductSort = (typeof ADMIN_PRODUCT_SORTS)[number];

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
    async list(scope: Scope, query: AdminProductListQuery) {
      const filter: ProductListFilter = {
        ...searchOf(query),
        ...(query.status !== undefined && { status: query.status }),
        ...(query.type !== undefined && { type: query.type }),
      };
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
    async listStorefront(scope: Scope, query: StorefrontProductListQuery) {
      const filter = storefrontFilterOf(query);
      await storefrontCursor(scope, query.starting_after);
      const page = await read(ctx, (tx) => tx.products.list(scope, filter, pageOf(query)));
      return productPageToWire(page, 'storefront');
    },

    /**
     * `listStorefront` as JSON text, byte for byte `JSON.stringify(await listStorefront(…))`:
     * the storage's storefront read model when it has one (`Storage.storefront`, which may keep
     * responses however it likes; ports/storage/storefront-read-model.ts), else the object path
     * serialised.
     */
    async listStorefrontJson(scope: Scope, query: StorefrontProductListQuery): Promise<string> {
      const filter = storefrontFilterOf(query);
      await storefrontCursor(scope, query.starting_after);
      const model = ctx.storage.storefront;
      if (model) return model.listProducts(scope, filter, pageOf(query));
      const page = await read(ctx, (tx) => tx.products.list(scope, filter, pageOf(query)));
      return JSON.stringify(productPageToWire(page, 'storefront'));
    },

    /**
     * `getStorefront` / `getStorefrontBySlug` as JSON text, byte for byte `JSON.stringify` of
     * theirs: the storage's read model (`Storage.storefront`), or the object path serialised
     * when the storage has none. 404 unless an active product has this id (or slug).
     */
    async getStorefrontJson(scope: Scope, by: 'id' | 'slug', key: string): Promise<string> {
      const model = ctx.storage.storefront;
      const text = model
        ? await model.getProduct(scope, by, key, 'active')
        : await read(ctx, async (tx) => {
            const product = await tx.products.get(scope, by === 'id' ? key : { slug: key });
            return visible(product) ? JSON.stringify(productToWire(product, 'storefront')) : null;
          });
      if (text === null) throw errors.notFound('product', key);
      return text;
    },

    /** `GET /v1/storefront/products/{id}`: 404 unless the product is active. */
    async getStorefront(scope: Scope, id: string): Promise<ProductWire> {
      const product = await read(ctx, (tx) => tx.products.get(scope, id));
      if (!visible(product)) throw errors.notFound('product', id);
      return productToWire(product, 'storefront');
    },

    /** `GET /v1/storefront/products/by-slug/{slug}`: 404 unless an active product has that slug. */
    async getStorefrontBySlug(scope: Scope, slug: string): Promise<ProductWire> {
      const product = await read(ctx, (tx) => tx.products.get(scope, { slug }));
      if (!visible(product)) throw errors.notFound('product', slug);
      return productToWire(product, 'storefront');
    },
  };
}
