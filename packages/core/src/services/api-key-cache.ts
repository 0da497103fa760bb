import type { ApiKeyRecord } from '../ports/storage';

/** How many verified keys one engine remembers (beyond it, the oldest is dropped). */
const MAX_CACHED_KEYS = 1000;

/**
 * API keys verified recently, by the raw key a request presented, so that a busy key is not
 * hashed and read from the database on every request. Only keys that were found usable are
 * remembered; an entry lives `ttlMs` (`EngineConfig.api_key_cache_ms`), and expiry
 * (`expires_at`) is still checked against the current time on every use.
 *
 * Revoking or rotating a key through this engine clears the cache, so the key stops working at
 * once in this process; another process sharing the database notices within `ttlMs`. A `ttlMs`
 * of 0 turns the cache off.
 */
export interface ApiKeyCache {
  get(raw: string, now: number): ApiKeyRecord | undefined;
  set(raw: string, record: ApiKeyRecord, now: number): void;
  clear(): void;
}

export function createApiKeyCache(ttlMs: number): ApiKeyCache {
  const entries = new Map<string, { record: ApiKeyRecord; until: number }>();
  return {
    get(raw, now) {
      const entry = entries.get(raw);
      if (entry === undefined) return undefined;
      if (entry.until <= now) {
        entries.delete(raw);
        return undefined;
      }
      return entry.record;
    },
    set(raw, record, now) {
      if (ttlMs <= 0) return;
      if (!entries.has(raw) && entries.size >= MAX_CACHED_KEYS) {
        const oldest = entries.keys().next().value;
        if (oldest !== undefined) entries.delete(oldest);
      }
      entries.set(raw, { record, until: now + ttlMs });
    },
    clear() {
      entries.clear();
    },
  };
}
