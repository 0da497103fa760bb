import type { Patch } from './conventions';
import type { Page, PageRequest } from './pagination';
import type { ApiKeyRecord, OrganizationRecord, StoreRecord } from './records';
import type { Millis, Scope } from './scope';

// The installation's organization, its stores and their API keys.

export interface OrganizationRepository {
  /** The organization with this id; without one, the first (oldest) organization, if any (one per installation today). */
  get(id?: string): Promise<OrganizationRecord | null>;
  insert(record: OrganizationRecord): Promise<void>;
  update(
    id: string,
    patch: Patch<OrganizationRecord, 'name' | 'billing_email' | 'metadata' | 'plan'>,
  ): Promise<OrganizationRecord | null>;
}

export interface StoreRepository {
  /**
   * The store with this id, or whose `slug` is exactly `{ slug }`; without a key, the first
   * (oldest) store. Null when there is none. One statement.
   */
  get(key?: string | { slug: string }): Promise<StoreRecord | null>;
  /** A `slug` another store already has → `duplicate_slug` (409, param `slug`). */
  insert(record: StoreRecord): Promise<void>;
  /** A `slug` another store already has → `duplicate_slug` (409, param `slug`). */
  update(
    id: string,
    patch: Patch<
      StoreRecord,
      | 'name'
      | 'slug'
      | 'currency'
      | 'timezone'
      | 'prices_include_tax'
      | 'tax_rate'
      | 'return_window_days'
      | 'metadata'
    >,
  ): Promise<StoreRecord | null>;
  /**
   * Gives the store `slug` only if it has none yet (a guarded update: `WHERE slug IS NULL`;
   * `updated_at` is left alone), and returns the store as stored afterwards — with the slug of a
   * concurrent claim that won, if one did — or null when there is no such store. A `slug`
   * another store has → `duplicate_slug` (409, param `slug`). Two statements.
   */
  claimSlug(id: string, slug: string): Promise<StoreRecord | null>;
  /** Whether the store has any product or order in either mode (currency is then locked). */
  hasCatalogOrOrders(store_id: string): Promise<boolean>;
}

export interface ApiKeyRepository {
  /** Global lookup by hash (the key tells its own store and mode). Revoked keys included. */
  findByHash(key_hash: string): Promise<ApiKeyRecord | null>;
  insert(record: ApiKeyRecord): Promise<void>;
  /** The scope's key, revoked or not (`revoked_at` tells). */
  get(scope: Scope, id: string): Promise<ApiKeyRecord | null>;
  /** The scope's keys that are not revoked (`revoked_at` null); `total_count` counts those only. */
  list(scope: Scope, page: PageRequest<'created_at'>): Promise<Page<ApiKeyRecord>>;
  /** Sets revoked_at; returns false if no such unrevoked key. */
  revoke(scope: Scope, id: string, at: Millis): Promise<boolean>;
  /**
   * Gives an unrevoked key a new secret in place (same `id`): replaces `key_hash` and
   * `key_prefix`, so the old secret is unknown from the commit on. Returns the record after, or
   * null if no such unrevoked key.
   */
  rotate(
    scope: Scope,
    id: string,
    secret: { key_hash: string; key_prefix: string },
  ): Promise<ApiKeyRecord | null>;
  /** Best-effort, may be throttled by the caller. */
  touch(id: string, at: Millis): Promise<void>;
}
