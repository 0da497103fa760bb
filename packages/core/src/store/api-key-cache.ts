/** What never changes of an API key: its id, store, mode and kind. */
export interface ApiKeyFacts {
  key_id: string;
  store_id: string;
  mode: 'test' | 'live';
  key_type: 'secret' | 'publishable';
}

/** How many keys one engine remembers the hash of (beyond it, the oldest is dropped). */
const MAX_CACHED_KEYS = 1000;

/**
 * The SHA-256 of API keys presented recently, by the raw key, so that a busy key is not hashed on
 * every request. Only the hash work is remembered — never whether a key is usable: every request
 * reads the key's record afresh (`AuthService.authenticateApiKey`), so revoking or rotating a key
 * takes effect at once in every process sharing the database (docs/contract.md#key-revocation). A hash
 * cannot go stale; an entry lives `ttlMs` (`EngineConfig.api_key_cache_ms`) only so that raw
 * secrets do not stay in memory longer than a busy key needs them. A `ttlMs` of 0 turns the
 * cache off.
 */
export interface ApiKeyCache {
  get(raw: string, now: number): string | undefined;
  set(raw: string, hash: string, now: number): void;
  /**
   * Who the key named when it was last found usable — its id, store, mode and kind, which never
   * change for a key — for as long as its hash is remembered. Never whether it is still usable:
   * a request that starts from it confirms the key in its first statement (`AuthService.provisional`).
   */
  principal(raw: string, now: number): ApiKeyFacts | undefined;
  remember(raw: string, facts: ApiKeyFacts): void;
  /** Forgets every remembered key (revoke and rotate call it: the secrets leave memory). */
  clear(): void;
}

export function createApiKeyCache(ttlMs: number): ApiKeyCache {
  const entries = new Map<string, { hash: string; until: number; facts?: ApiKeyFacts }>();
  const live = (raw: string, now: number) => {
    const entry = entries.get(raw);
    if (entry === undefined) return undefined;
    if (entry.until <= now) {
      entries.delete(raw);
      return undefined;
    }
    return entry;
  };
  return {
    get(raw, now) {
      return live(raw, now)?.hash;
    },
    principal(raw, now) {
      return live(raw, now)?.facts;
    },
    remember(raw, facts) {
      const entry = entries.get(raw);
      if (entry !== undefined) entry.facts = facts;
    },
    set(raw, hash, now) {
      if (ttlMs <= 0) return;
      if (!entries.has(raw) && entries.size >= MAX_CACHED_KEYS) {
        const oldest = entries.keys().next().value;
        if (oldest !== undefined) entries.delete(oldest);
      }
      entries.set(raw, { hash, until: now + ttlMs });
    },
    clear() {
      entries.clear();
    },
  };
}
