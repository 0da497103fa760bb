import type { Scope } from '@cartwright/core';
import { type SplitStorefrontTemplate, splitStorefrontTemplate } from '@cartwright/core/internal';
import type { ApiKeyLookups } from './api-key-lookups';
import type { StorefrontPageCache } from './storefront-page-cache';

/**
 * Storefront templates kept in process, per storage instance: the catalog page
 * statement then ships each product's template revision instead of its ~3 KB template, and
 * filling is a join of pre-split parts with the stock (no scan for slots, no copy of the page's
 * templates out of the database on every request).
 *
 * An entry is `{ rev, split }` of one product of one store and mode: the template and
 * `product_documents.storefront_rev` read TOGETHER from one row (never the revision of another
 * statement), split at its slots; `split` null caches "no usable template" (the product is
 * rendered from its aggregate). A reader uses an entry only when its store, mode and revision
 * equal the ones its page statement read; every write of `storefront` increments
 * `storefront_rev` in the same statement (0005_storefront_revisions), so a committed revision
 * names one template forever and another instance's or process's write is seen at the next read.
 *
 * Only reads outside a transaction fill it (see {@link StorefrontTemplateAccess}): a transaction
 * sees its own uncommitted revisions, and one rolled back would leave a revision number that a
 * later write commits with another template.
 *
 * Bound: at most `maxEntries` products and `maxChars` template characters (defaults 2,000 and
 * 8 Mi characters: the templates are ASCII-heavy one-byte V8 strings, so ~8 MB worst case, and
 * 2,000 products of ~3 KB is ~6 MB), evicting the least recently used. Decision: LRU rather than
 * FIFO because catalog traffic is skewed to the first pages of a few listings — a crawl through
 * deep pages must not push those out. The Map's insertion order is the recency order, so
 * eviction is O(1).
 *
 * Cost of a hit (a page reads 20): entries are keyed by product id alone — ids are random, so
 * products of different stores or modes practically never share one; when they do, the entry
 * holds the store and mode it belongs to, a lookup for another scope misses and its `put`
 * replaces it (correct, only not cached for both) — because building a per-scope key string per
 * lookup (and hashing it) cost about half of a page's lookups. And recency is approximate: a hit
 * moves an entry to the recent end (a Map delete + set, the other half) only when more than
 * half the capacity has been inserted or moved since its own last move. An entry read at least
 * once per `maxEntries / 2` such steps is therefore never the one evicted, as with exact LRU;
 * between moves a hit is one Map get (measured: 20 lookups ~20 µs → ~1 µs).
 */
export class StorefrontTemplateCache {
  readonly #entries = new Map<string, CachedStorefrontTemplate>();
  #chars = 0;
  #maxEntries: number;
  #maxChars: number;
  /** Insertions and moves so far: an entry's `at` is its position in the recency order. */
  #clock = 0;

  constructor(options: StorefrontTemplateCacheOptions = {}) {
    this.#maxEntries = options.maxEntries ?? 2_000;
    this.#maxChars = options.maxChars ?? 8 * 1024 * 1024;
  }

  /** Products cached now. */
  get size(): number {
    return this.#entries.size;
  }

  /** Template characters cached now. */
  get chars(): number {
    return this.#chars;
  }

  /** Changes the bounds (evicting at once when over them); 0 entries turns the cache off. */
  resize(options: StorefrontTemplateCacheOptions): void {
    if (options.maxEntries !== undefined) this.#maxEntries = options.maxEntries;
    if (options.maxChars !== undefined) this.#maxChars = options.maxChars;
    this.#evict();
  }

  /**
   * The split template of a product when the cache holds it at revision `rev`, else undefined
   * (null: cached as having no usable template at that revision). A hit makes it recent (see
   * the class notes: moved only when older than half the capacity).
   */
  get(scope: Scope, productId: string, rev: number): SplitStorefrontTemplate | null | undefined {
    const entry = this.#entries.get(productId);
    if (!entry || entry.rev !== rev || entry.store_id !== scope.store_id || entry.mode !== scope.mode) {
      return undefined;
    }
    if (this.#clock - entry.at > this.#maxEntries >> 1) {
      this.#entries.delete(productId);
      this.#entries.set(productId, entry);
      entry.at = this.#clock++;
    }
    return entry.split;
  }

  /**
   * Splits `template` (read with `rev` from the same row), caches it when `fill`, and returns
   * the split (null when there is no template or it cannot be split).
   */
  put(
    scope: Scope,
    productId: string,
    rev: number,
    template: string | null,
    fill: boolean,
  ): SplitStorefrontTemplate | null {
    const split = template === null ? null : (splitStorefrontTemplate(template) ?? null);
    if (!fill) return split;
    const chars = template?.length ?? 0;
    const previous = this.#entries.get(productId);
    if (previous) {
      this.#entries.delete(productId);
      this.#chars -= previous.chars;
    }
    // A template larger than the whole budget is served but not kept.
    if (chars > this.#maxChars || this.#maxEntries <= 0) return split;
    this.#entries.set(productId, {
      store_id: scope.store_id,
      mode: scope.mode,
      rev,
      split,
      chars,
      at: this.#clock++,
    });
    this.#chars += chars;
    this.#evict();
    return split;
  }

  /** Drops least recently used entries until within both bounds. */
  #evict(): void {
    while (this.#entries.size > this.#maxEntries || this.#chars > this.#maxChars) {
      const oldest = this.#entries.keys().next();
      if (oldest.done) return;
      const entry = this.#entries.get(oldest.value) as CachedStorefrontTemplate;
      this.#entries.delete(oldest.value);
      this.#chars -= entry.chars;
    }
  }
}

/** Bounds of a {@link StorefrontTemplateCache}. */
export interface StorefrontTemplateCacheOptions {
  /** Products kept at most (default 2,000). */
  maxEntries?: number;
  /** Template characters kept at most (default 8 Mi). */
  maxChars?: number;
}

/**
 * What a repository gets: the storage's caches, and whether its reads may fill them — true only
 * for the repositories of reads outside a transaction (which see committed rows only);
 * transaction repositories use template entries but never add them, and never use pages.
 */
export interface StorefrontTemplateAccess {
  readonly cache: StorefrontTemplateCache;
  /** Whole list pages by catalog version (storefront-page-cache.ts); none: pages are not kept. */
  readonly pages?: StorefrontPageCache;
  readonly fill: boolean;
  /** SQLite: API keys by hash while the file is unchanged (api-key-lookups.ts); none: not kept. */
  readonly apiKeys?: ApiKeyLookups;
}

interface CachedStorefrontTemplate {
  readonly store_id: string;
  readonly mode: string;
  readonly rev: number;
  readonly split: SplitStorefrontTemplate | null;
  readonly chars: number;
  /** `#clock` when inserted or last moved to the recent end. */
  at: number;
}
