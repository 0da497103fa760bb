import type { Page } from '@cartwright/core/storage';

/**
 * Storefront product list pages kept in process, per storage instance: a page read
 * again while its store's catalog version (0008_catalog_versions) has not moved is served from
 * memory after ONE statement that reads that integer, instead of the page and count statements
 * (~250 µs of a ~450 µs catalog request on SQLite, a round trip and ~1 ms of server time on
 * Postgres).
 *
 * Correctness rests on the database, not on this process: triggers bump the version in the
 * transaction of every change a page shows (any process, any code path), and the reader reads
 * the version BEFORE it reads the page (`KyselyProductRepository.listStorefrontJson`). A page is
 * kept under the version read before it, so it is never older than its version; a change
 * committed between the two reads makes it newer, which only costs the next read a miss. Only
 * reads outside a transaction use it (see {@link StorefrontTemplateAccess}): a transaction sees
 * its own uncommitted bump, which a rollback would hand to another change.
 *
 * Key: store, mode, filter and page request (one key per distinct list request). Value: the
 * `Page<string>` the repository returned, frozen — callers share it. The storefront product by id
 * or slug is kept the same way (`getText`/`putText`, {@link storefrontProductKey}); products not
 * found are not kept, so looking up random ids cannot fill the cache. Bound: `maxEntries` pages and
 * `maxChars` characters of product texts (defaults 200 and 8 Mi: a page of 20 demo products is
 * ~60 K characters), least recently used out first (a hit moves its entry: one per request).
 */
export class StorefrontPageCache {
  readonly #entries = new Map<string, CachedPage>();
  #chars = 0;
  #maxEntries: number;
  #maxChars: number;

  constructor(options: StorefrontPageCacheOptions = {}) {
    this.#maxEntries = options.maxEntries ?? 200;
    this.#maxChars = options.maxChars ?? 8 * 1024 * 1024;
  }

  /** Entries kept at most now (see `resize`). */
  get maxEntries(): number {
    return this.#maxEntries;
  }

  /** False when resized to 0 entries: readers then skip the version statement too. */
  get enabled(): boolean {
    return this.#maxEntries > 0;
  }

  /** Pages cached now. */
  get size(): number {
    return this.#entries.size;
  }

  /** Product text characters cached now. */
  get chars(): number {
    return this.#chars;
  }

  /** Changes the bounds (evicting at once when over them); 0 entries turns the cache off. */
  resize(options: StorefrontPageCacheOptions): void {
    if (options.maxEntries !== undefined) this.#maxEntries = options.maxEntries;
    if (options.maxChars !== undefined) this.#maxChars = options.maxChars;
    this.#evict();
  }

  /** The page kept under `key` when it was read at catalog version `version`, else undefined. */
  get(key: string, version: number): Page<string> | undefined {
    const value = this.#get(key, version);
    return typeof value === 'object' ? value : undefined;
  }

  /**
   * Keeps `page` under `key` at `version` (replacing what was there); freezes it (and its data)
   * in place and returns it: the repository's fresh page, shared from now on.
   */
  put(key: string, version: number, page: Page<string>): Page<string> {
    Object.freeze(page.data);
    const frozen = Object.freeze(page);
    let chars = 0;
    for (const text of frozen.data) chars += text.length;
    this.#put(key, version, frozen, chars);
    return frozen;
  }

  /** The product text kept under `key` (see {@link storefrontProductKey}) at `version`, else undefined. */
  getText(key: string, version: number): string | undefined {
    const value = this.#get(key, version);
    return typeof value === 'string' ? value : undefined;
  }

  /** Keeps one product's storefront text under `key` at `version`. */
  putText(key: string, version: number, text: string): void {
    this.#put(key, version, text, text.length);
  }

  #get(key: string, version: number): Page<string> | string | undefined {
    const entry = this.#entries.get(key);
    if (!entry) return undefined;
    if (entry.version !== version) {
      this.#remove(key, entry);
      return undefined;
    }
    this.#entries.delete(key);
    this.#entries.set(key, entry);
    return entry.value;
  }

  #put(key: string, version: number, value: Page<string> | string, chars: number): void {
    const previous = this.#entries.get(key);
    if (previous) this.#remove(key, previous);
    if (this.#maxEntries > 0 && chars <= this.#maxChars) {
      this.#entries.set(key, { version, value, chars });
      this.#chars += chars;
      this.#evict();
    }
  }

  #remove(key: string, entry: CachedPage): void {
    this.#entries.delete(key);
    this.#chars -= entry.chars;
  }

  #evict(): void {
    for (const [key, entry] of this.#entries) {
      if (this.#entries.size <= this.#maxEntries && this.#chars <= this.#maxChars) return;
      this.#remove(key, entry);
    }
  }
}

export interface StorefrontPageCacheOptions {
  maxEntries?: number;
  maxChars?: number;
}

interface CachedPage {
  readonly version: number;
  /** A list page, or one product's text (`getStorefrontJson`). */
  readonly value: Page<string> | string;
  readonly chars: number;
}

/** The key of one list request of one scope (filter and page request as the repository got them). */
export function storefrontPageKey(
  scope: { store_id: string; mode: string },
  filter: unknown,
  page: unknown,
): string {
  return `${scope.store_id}\u0000${scope.mode}\u0000${JSON.stringify(filter)}\u0000${JSON.stringify(page)}`;
}

/** The key of one product looked up by id or slug at a status (never equal to a list key). */
export function storefrontProductKey(
  scope: { store_id: string; mode: string },
  by: 'id' | 'slug',
  key: string,
  status: string,
): string {
  return `${scope.store_id}\u0000${scope.mode}\u0001${by}\u0000${status}\u0000${key}`;
}
