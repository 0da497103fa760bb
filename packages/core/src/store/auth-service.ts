import type { ApiKeyRecord, Mode, Repositories, Scope, Storage } from '../ports/storage';
import type { ServiceContext } from '../shared/context';
import { CommerceError } from '../shared/errors';
import type { ApiKeyCache } from './api-key-cache';
import type { KeyType } from './vocabulary';

/** Who is calling: resolved from the API key (docs/contract.md#keys-and-modes). */
export interface ApiKeyPrincipal {
  key_id: string;
  store_id: string;
  mode: Mode;
  key_type: KeyType;
}

/** A remembered key taken at its word until the request's first statement confirms it (`AuthService.provisional`). */
export interface ProvisionalApiKey {
  principal: ApiKeyPrincipal;
  /** Runs the rest of the request; rejects with 401 `invalid_api_key` when the key is no longer usable. */
  run<T>(fn: () => Promise<T>): Promise<T>;
}

/** The signed-in customer, resolved from `X-Customer-Token` (docs/contract.md#customer-tokens). */
export interface CustomerPrincipal {
  customer_id: string;
  status: 'active' | 'disabled';
  /** The id of the token presented: sign-out revokes it, a password change keeps only it. */
  token_id: string;
}

const KEY_PATTERN = /^(sk|pk)_(test|live)_[A-Za-z0-9_-]{8,200}$/;
const TOKEN_PATTERN = /^ct_[A-Za-z0-9_-]{16,200}$/;
/** `last_used_at` is written at most once a minute per key, not on every request. */
const TOUCH_INTERVAL_MS = 60_000;

export function keyTypeOf(raw: string): KeyType {
  return raw.startsWith('sk_') ? 'secret' : 'publishable';
}

export function modeOf(raw: string): Mode {
  return raw.slice(3, 7) === 'live' ? 'live' : 'test';
}

export function isWellFormedKey(raw: string): boolean {
  return KEY_PATTERN.test(raw);
}

/** What may be shown back of a key: its kind, mode and the first four characters after them. */
export function keyPrefixOf(raw: string): string {
  return raw.slice(0, 12);
}

/** Keys whose `last_used_at` this process wrote, and when (bounded: cleared past this size). */
const MAX_TOUCHED_KEYS = 10_000;

/**
 * Authentication of API keys and customer tokens. A key's SHA-256 is remembered in `keyCache`
 * (see {@link ApiKeyCache}); its record is read on every request.
 */
export function createAuthService(ctx: ServiceContext, keyCache: ApiKeyCache) {
  const hashOf = (secret: string) => ctx.crypto.sha256Hex(secret);
  const touched = new Map<string, number>();

  /** Writes `last_used_at` at most once a minute per key: best effort, off the request's path. */
  function touch(record: ApiKeyRecord, now: number): void {
    const last = Math.max(record.last_used_at ?? 0, touched.get(record.id) ?? 0);
    if (now - last <= TOUCH_INTERVAL_MS) return;
    const id = record.id;
    if (touched.size >= MAX_TOUCHED_KEYS) touched.clear();
    touched.set(id, now);
    void ctx.storage.read((tx) => tx.apiKeys.touch(id, now)).catch(() => undefined);
  }

  function assertUsable(record: ApiKeyRecord | null, now: number): asserts record is ApiKeyRecord {
    if (!record || record.revoked_at !== null || (record.expires_at !== null && record.expires_at <= now)) {
      throw new CommerceError('invalid_api_key', 'Invalid API key provided');
    }
  }

  return {
    /**
     * Resolves `Authorization: Bearer <key>`; unknown, revoked or expired → 401 `invalid_api_key`.
     * The key's record is read from the database on every request (one indexed read by
     * `key_hash`): a key revoked or rotated by any process is refused by every process for every
     * request that starts after the revoke or rotate response (docs/contract.md#key-revocation). Only the hash is
     * cached.
     */
    async authenticateApiKey(raw: string): Promise<ApiKeyPrincipal> {
      const now = ctx.clock.now();
      let hash = keyCache.get(raw, now);
      if (hash === undefined) {
        if (!isWellFormedKey(raw)) throw new CommerceError('invalid_api_key', 'Invalid API key provided');
        hash = await hashOf(raw);
        keyCache.set(raw, hash, now);
      }
      const record = await ctx.storage.read((tx) => tx.apiKeys.findByHash(hash));
      assertUsable(record, now);
      touch(record, now);
      const principal: ApiKeyPrincipal = {
        key_id: record.id,
        store_id: record.store_id,
        mode: record.mode,
        key_type: record.key_type,
      };
      if (ctx.storage.checked !== undefined) keyCache.remember(raw, principal);
      return principal;
    },

    /**
     * A key this process found usable within the last `api_key_cache_ms`, taken at its word for
     * now: its principal (id, store, mode and kind never change for a key) and `run`, which runs
     * the rest of the request under the storage's `checked` — the key's record is read again by
     * the request's first statement, pipelined with it (no round trip of its own), and nothing
     * of the request commits or is answered unless the key is still usable then (revoked,
     * rotated away or expired → 401 `invalid_api_key`, and nothing took effect). So revocation
     * takes effect at once in every process, as with {@link authenticateApiKey}. Null when the
     * key is not remembered or the storage cannot defer a check: then authenticate it first.
     */
    provisional(raw: string): ProvisionalApiKey | null {
      const storage = ctx.storage;
      if (storage.checked === undefined) return null;
      const now = ctx.clock.now();
      const hash = keyCache.get(raw, now);
      const principal = keyCache.principal(raw, now);
      if (hash === undefined || principal === undefined) return null;
      const confirm = async (repos: Repositories) => {
        const record = await repos.apiKeys.findByHash(hash);
        const at = ctx.clock.now();
        assertUsable(record, at);
        if (record.id !== principal.key_id)
          throw new CommerceError('invalid_api_key', 'Invalid API key provided');
        touch(record, at);
      };
      return {
        principal: { ...principal },
        run: <T>(fn: () => Promise<T>) => (storage.checked as NonNullable<Storage['checked']>)(confirm, fn),
      };
    },

    /**
     * Resolves `X-Customer-Token` within the caller's store and mode. Bad or expired token →
     * 401 `invalid_customer_token`; token of a disabled customer → 403 `customer_disabled`.
     */
    async authenticateCustomerToken(scope: Scope, token: string): Promise<CustomerPrincipal> {
      const invalid = () => new CommerceError('invalid_customer_token', 'Invalid or expired customer token');
      if (!TOKEN_PATTERN.test(token)) throw invalid();
      const hash = await hashOf(token);
      const now = ctx.clock.now();
      const found = await ctx.storage.read(async (tx) => {
        const record = await tx.customerTokens.findByHash(scope, hash);
        if (!record || record.expires_at <= now) return null;
        const customer = await tx.customers.get(scope, record.customer_id);
        return customer && { customer, token_id: record.id };
      });
      if (!found) throw invalid();
      const { customer, token_id } = found;
      if (customer.status === 'disabled') {
        throw new CommerceError('customer_disabled', 'This customer account is disabled');
      }
      return { customer_id: customer.id, status: customer.status, token_id };
    },
  };
}

export type AuthService = ReturnType<typeof createAuthService>;
