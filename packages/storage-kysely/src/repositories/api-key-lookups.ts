import type { ApiKeyRecord } from '@cartwright/core/storage';

/** How many keys one storage remembers (beyond it, the cache starts over). */
const MAX_KEYS = 1000;

/**
 * SQLite only: API key records found by hash, kept in process while the database file has not
 * changed under another connection. Authentication looks a key up on every request, so that a
 * revoked or rotated key stops working at once in every process (docs/contract.md#key-revocation); on SQLite that
 * look-up costs about as much as the rest of a cached catalog page, so it is answered from here
 * when nothing can have changed:
 *
 * - another connection (another process, or another storage on the same file) committing
 *   anything changes `PRAGMA data_version` of this one, and the cache starts over;
 * - this storage's own writes to `api_keys` (insert, revoke, rotate) start it over at once
 *   (`invalidate`): they do not change this connection's `data_version`. A look-up that was
 *   already reading when a write invalidated is not kept (`generation`).
 *
 * `touch` (`last_used_at`) does not invalidate: authentication does not decide on it.
 */
export class ApiKeyLookups {
  #entries = new Map<string, ApiKeyRecord | null>();
  #dataVersion: number | undefined;
  #generation = 0;

  /** The generation a look-up starts in; pass it back to {@link set}. */
  get generation(): number {
    return this.#generation;
  }

  get(hash: string, dataVersion: number): ApiKeyRecord | null | undefined {
    if (dataVersion !== this.#dataVersion) {
      this.#entries.clear();
      this.#dataVersion = dataVersion;
      this.#generation++;
      return undefined;
    }
    return this.#entries.get(hash);
  }

  set(hash: string, dataVersion: number, generation: number, record: ApiKeyRecord | null): void {
    if (generation !== this.#generation || dataVersion !== this.#dataVersion) return;
    if (this.#entries.size >= MAX_KEYS) this.#entries.clear();
    this.#entries.set(hash, record);
  }

  invalidate(): void {
    this.#entries.clear();
    this.#generation++;
  }
}
