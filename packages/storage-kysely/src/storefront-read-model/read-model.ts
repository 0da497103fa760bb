import type { Scope } from '@cartwright/core';
import type {
  PageRequest,
  ProductAggregate,
  ProductListFilter,
  ProductStatus,
  Repositories,
  StorefrontReadModel,
  StorefrontReadOptions,
  StorefrontRegion,
  StorefrontRegions,
  StoreLocaleRecord,
} from '@cartwright/core/storage';
import {
  productInRegionToWire,
  regionPriceMap,
  translateProduct,
  translationLookup,
} from '@cartwright/core/wire';
import type { QueryRunner } from '../query/query-runner';
import { type Slots, template } from '../query/template';
import { type StorefrontPageCache, storefrontPageKey, storefrontProductKey } from './page-cache';
import { storefrontListText, storefrontProductText } from './storefront-text';

/** The storefront list's sorts; the page key (`storefrontPageKey`) holds the sort, so `relevance` pages are kept apart. */
type ProductSort = 'created_at' | 'name' | 'price' | 'relevance';

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
    options: StorefrontReadOptions = {},
  ): Promise<string> {
    const locale = options.locale ?? null;
    const region = options.region ?? null;
    const render = () =>
      this.host.read(async (r) => {
        const found = await r.products.list(scope, filter, page);
        const text = await regionText(r, scope, region, found.data);
        if (locale === null) return storefrontListText(found, text);
        const translate = await translator(r, scope, locale, found.data);
        return storefrontListText({ ...found, data: found.data.map(translate) }, text);
      });
    if (!this.#caching()) return render();
    // The version first: a change committed after it only makes the text newer than its key.
    const version = options.version ?? (await this.#version(scope));
    const key = storefrontPageKey(scope, filter, page, locale);
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
    options: StorefrontReadOptions = {},
  ): Promise<string | null> {
    const locale = options.locale ?? null;
    const region = options.region ?? null;
    const render = () =>
      this.host.read(async (r) => {
        const product = await r.products.get(scope, by === 'id' ? key : { slug: key });
        if (!product || product.status !== status) return null;
        const text = await regionText(r, scope, region, [product]);
        if (locale === null) return text(product);
        return text((await translator(r, scope, locale, [product]))(product));
      });
    if (!this.#caching()) return render();
    const version = options.version ?? (await this.#version(scope));
    const cacheKey = storefrontProductKey(scope, by, key, status, locale, region?.id ?? null);
    const kept = this.pages.get(cacheKey, version);
    if (kept !== undefined) return kept;
    const text = await render();
    // Products not found are not kept: random ids cannot fill the cache.
    if (text !== null) this.pages.put(cacheKey, version, text);
    return text;
  }

  /**
   * The store's locales (decisions §21), kept per scope under the catalog version (locale writes
   * move it, migration 0025), and that version for the request's product reads.
   */
  async locales(scope: Scope): Promise<{ locales: StoreLocaleRecord[]; version: number | null }> {
    const load = () => this.host.read((r) => r.locales.list(scope));
    if (!this.#caching()) return { locales: await load(), version: null };
    const version = await this.#version(scope);
    const key = `${scope.store_id}\u0000${scope.mode}`;
    const kept = this.#locales.get(key);
    if (kept !== undefined && kept.version === version) return kept;
    const locales = await load();
    // A small record per scope; a process serving more scopes than this starts again.
    if (this.#locales.size >= MAX_KEPT_LOCALE_LISTS) this.#locales.clear();
    const entry = { locales, version };
    this.#locales.set(key, entry);
    return entry;
  }

  readonly #locales = new Map<string, { locales: StoreLocaleRecord[]; version: number }>();

  /**
   * The scope's regions, rates and store currency (decisions §19), kept per scope under the
   * catalog version like the locales (region, region price and rate writes move it, 0031).
   */
  async regions(scope: Scope, known?: number | null): Promise<StorefrontRegions> {
    const load = () =>
      this.host.read(async (r) => {
        const regions = await r.regions.list(scope);
        // No regions (the common case): nothing else to read.
        if (regions.length === 0) return { regions, rates: [], store_currency: null };
        const [rates, store] = [await r.regions.listRates(scope), await r.stores.get(scope.store_id)];
        return { regions, rates, store_currency: store?.currency ?? null };
      });
    if (!this.#caching()) return { ...(await load()), version: null };
    const version = known ?? (await this.#version(scope));
    const key = `${scope.store_id}\u0000${scope.mode}`;
    const kept = this.#regions.get(key);
    if (kept !== undefined && kept.version === version) return kept;
    const entry = { ...(await load()), version };
    if (this.#regions.size >= MAX_KEPT_LOCALE_LISTS) this.#regions.clear();
    this.#regions.set(key, entry);
    return entry;
  }

  readonly #regions = new Map<string, StorefrontRegions & { version: number }>();

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

/** Scopes whose locales a read model keeps at most. */
const MAX_KEPT_LOCALE_LISTS = 10_000;

/**
 * How a product of `products` is written out: in the store currency, or in `region` with the
 * region's prices of their variants (decisions §19; one statement, `region_prices_variant_unique`).
 */
async function regionText(
  r: Repositories,
  scope: Scope,
  region: StorefrontRegion | null,
  products: readonly ProductAggregate[],
): Promise<(product: ProductAggregate) => string> {
  if (region === null) return storefrontProductText;
  const variantIds = products.flatMap((product) => product.variants.map((variant) => variant.id));
  const prices = regionPriceMap(
    variantIds.length === 0 ? [] : await r.regions.pricesFor(scope, region.id, variantIds),
  );
  return (product) => JSON.stringify(productInRegionToWire(product, 'storefront', region, prices));
}

/**
 * Translates products into `locale` (decisions §21): the translations of the products, their
 * options and values, read in one statement (`translations_owner_idx`).
 */
async function translator(
  r: Repositories,
  scope: Scope,
  locale: string,
  products: readonly ProductAggregate[],
): Promise<(product: ProductAggregate) => ProductAggregate> {
  const lookup = translationLookup(
    await r.translations.listForOwners(
      scope,
      locale,
      products.map((product) => product.id),
    ),
  );
  return (product) => translateProduct(product, lookup);
}
