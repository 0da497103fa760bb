import type { Scope } from '@cartwright/core';
import type {
  PageRequest,
  ProductListFilter,
  ProductStatus,
  Repositories,
  StorefrontReadModel,
} from '@cartwright/core/storage';
import type { QueryRunner } from '../query/query-runner';
import { type Slots, template } from '../query/template';
import { type StorefrontPageCache, storefrontPageKey, storefrontProductKey } from './page-cache';
import { storefrontListText, storefrontProductText } from './storefront-text';

type ProductSort = 'created_at' | 'name' | 'price';

/** The store's catalog version (catalog-versions.ts; no row yet: 0). */
const catalogVersion = template(({ db }, p: Slots<'store_id' | 'mode'>) =>
  db
    .selectFrom('catalog_versions')
    .select('version')
    .where('store_id', '=', p.store_id)
    .where('mode', '=', p.mode),
);

/** What the read model needs of its storage (KyselyStorage hands these over). */
export interface ReadModelHost {
  /** True inside a transaction callback of this storage (reads then go through it, uncached). */
  inTransaction(): boolean;
  /** `Storage.read`: joins the current transaction, else reads committed rows. */
  read<T>(fn: (repos: Repositories) => Promise<T>): Promise<T>;
  /** A query runner outside any transaction (reads committed rows only). */
  committed(): QueryRunner;
}

/**
 * The Kysely storage's storefront read model (README.md in this folder is its contract):
 * responses rendered from `products.list` / `get` (by id or slug) with core's `productToWire`,
 * kept whole in process under the catalog version read BEFORE them.
 */
export class KyselyStorefrontReadModel implements StorefrontReadModel {
  constructor(
    private readonly host: ReadModelHost,
    readonly pages: StorefrontPageCache,
  ) {}

  async listProducts(
    scope: Scope,
    filter: ProductListFilter,
    page: PageRequest<ProductSort>,
  ): Promise<string> {
    const render = () =>
      this.host.read(async (r) => storefrontListText(await r.products.list(scope, filter, page)));
    if (!this.#caching()) return render();
    // The version first: a change committed after it only makes the text newer than its key.
    const version = await this.#version(scope);
    const key = storefrontPageKey(scope, filter, page);
    const kept = this.pages.get(key, version);
    if (kept !== undefined) return kept;
    const text = await render();
    this.pages.put(key, version, text);
    return text;
  }

  async getProduct(
    scope: Scope,
    by: 'id' | 'slug',
    key: string,
    status: ProductStatus,
  ): Promise<string | null> {
    const render = () =>
      this.host.read(async (r) => {
        const product = await r.products.get(scope, by === 'id' ? key : { slug: key });
        return product && product.status === status ? storefrontProductText(product) : null;
      });
    if (!this.#caching()) return render();
    const version = await this.#version(scope);
    const cacheKey = storefrontProductKey(scope, by, key, status);
    const kept = this.pages.get(cacheKey, version);
    if (kept !== undefined) return kept;
    const text = await render();
    // Products not found are not kept: random ids cannot fill the cache.
    if (text !== null) this.pages.put(cacheKey, version, text);
    return text;
  }

  /** Outside a transaction and with the cache on (0 entries: no version statement either). */
  #caching(): boolean {
    return this.pages.enabled && !this.host.inTransaction();
  }

  async #version(scope: Scope): Promise<number> {
    const row = await this.host.committed().first(catalogVersion, {
      store_id: scope.store_id,
      mode: scope.mode,
    });
    return row ? Number(row.version) : 0;
  }
}
