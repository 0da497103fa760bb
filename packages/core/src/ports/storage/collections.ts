import type { Patch } from './conventions';
import type { Page, PageRequest } from './pagination';
import type { CollectionRecord } from './records';
import type { Scope } from './scope';

// Collections (decisions §17): the records, and a manual collection's ordered members.

export type {
  CollectionCondition,
  CollectionFilterCondition,
  CollectionListConditionType,
  CollectionMembership,
  CollectionRuleFilter,
  CollectionRuleMatch,
  CollectionRules,
  CollectionType,
} from '../../vocabulary/collections';

export interface CollectionRepository {
  /** Inserts the collection. Its slug is unique per scope → 409 `duplicate_slug` (param `slug`). */
  insert(record: CollectionRecord): Promise<void>;
  /** By id or by `{ slug }`. */
  get(scope: Scope, key: string | { slug: string }): Promise<CollectionRecord | null>;
  /**
   * Sorts: `created_at` (the admin list, newest first), `position` (the storefront's: `position`
   * ascending, then `created_at` descending, then id; its `order` is always `asc`).
   */
  list(
    scope: Scope,
    filter: { type?: CollectionRecord['type'] | undefined },
    page: PageRequest<'created_at' | 'position'>,
  ): Promise<Page<CollectionRecord>>;
  update(
    scope: Scope,
    id: string,
    patch: Patch<
      CollectionRecord,
      'name' | 'slug' | 'description' | 'type' | 'rules' | 'position' | 'metadata'
    >,
  ): Promise<CollectionRecord | null>;
  /** Deletes the collection and its member rows; false when there was none. */
  delete(scope: Scope, id: string): Promise<boolean>;
  /** Replaces a manual collection's members whole: `product_ids` in display order. */
  setMembers(scope: Scope, collection_id: string, product_ids: readonly string[]): Promise<void>;
  /**
   * The members of each collection, in display order (collections without members are absent).
   * `active_only`: only members whose product is `active` (the storefront's view).
   */
  members(
    scope: Scope,
    collection_ids: readonly string[],
    options?: { active_only?: boolean },
  ): Promise<Map<string, string[]>>;
  /** Which of these ids name live (not deleted) products of the scope. */
  existingProducts(scope: Scope, product_ids: readonly string[]): Promise<Set<string>>;
}
