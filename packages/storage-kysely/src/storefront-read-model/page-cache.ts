/**
 * Storefront responses kept in process, per storage instance (storefront-read-model/README.md):
 * the complete JSON text of a list page (`listProducts`) or of one product (`getProduct`), kept
 * under the store's catalog version read BEFORE the text was read. A lookup at another version
 * forgets the entry. Correctness rests on the database, not on this process: the catalog
 * version moves in the transaction of every change a response shows (catalog-versions.ts).
 *
 * Key: store, mode, filter and page request (one key per distinct list request;
 * {@link storefrontPageKey}), or store, mode, lookup, status and id/slug for a product
 * ({@link storefrontProductKey}). Products not found are not kept, so looking up random ids
 * cannot fill the cache. Bound: `maxEntries` entries and `maxChars` characters of text (defaults
 * 200 and 8 Mi: a page of 20 demo products is ~60 K characters), least recently used out first
 * (a hit moves its entry: one Map delete + set per request).
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

  /** Lookups served from memory, and lookups that were not (since the storage was opened). */
  hits = 0;
  misses = 0;

  /** Entries cached now. */
  get size(): number {
    return this.#entries.size;
  }

  /** Text characters cached now. */
  get chars(): number {
    return this.#chars;
  }

  /** Changes the bounds (evicting at once when over them); 0 entries turns the cache off. */
  resize(options: StorefrontPageCacheOptions): void {
    if (options.maxEntries !== undefined) this.#maxEntries = options.maxEntries;
    if (options.maxChars !== undefined) this.#maxChars = options.maxChars;
    this.#evict();
  }

  /** The text kept under `key` when it was read at catalog version `version`, else undefined. */
  get(key: string, version: number): string | undefined {
    const entry = this.#entries.get(key);
    if (!entry) {
      this.misses++;
      return undefined;
    }
    if (entry.version !== version) {
      this.#remove(key, entry);
      this.misses++;
      return undefined;
    }
    this.#entries.delete(key);
    this.#entries.set(key, entry);
    this.hits++;
    return entry.text;
  }

  /** Keeps `text` under `key` at `version` (replacing what was there). */
  put(key: string, version: number, text: string): void {
    const previous = this.#entries.get(key);
    if (previous) this.#remove(key, previous);
    if (this.#maxEntries > 0 && text.length <= this.#maxChars) {
      this.#entries.set(key, { version, text });
      this.#chars += text.length;
      this.#evict();
    }
  }

  #remove(key: string, entry: CachedPage): void {
    this.#entries.delete(key);
    this.#chars -= entry.text.length;
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
  /** A list response, or one product's text. */
  readonly text: string;
}

/** The key of one list request of one scope (filter and page request as the repository got them). */
export function storefrontPageKey(
  scope: { store_id: string; mode: string },
  filter: unknown,
  page: unknown,
  locale: string | null = null,
): string {
  const key = `${scope.store_id}\u0000${scope.mode}\u0000${JSON.stringify(filter)}\u0000${JSON.stringify(page)}`;
  // The locale answered in (decisions §21): the base text's key is unchanged.
  return locale === null ? key : `${key}\u0002${locale}`;
}

/** The key of one product looked up by id or slug at a status (never equal to a list key). */
export function storefrontProductKey(
  scope: { store_id: string; mode: string },
  by: 'id' | 'slug',
  key: string,
  status: string,
  locale: string | null = null,
  region: string | null = null,
): string {
  const text = `${scope.store_id}\u0000${scope.mode}\u0001${by}\u0000${status}\u0000${key}`;
  const inLocale = locale === null ? text : `${text}\u0002${locale}`;
  // The region answered in (decisions §19): the store currency's key is unchanged.
  return region === null ? inLocale : `${inLocale}\u0003${region}`;
}
