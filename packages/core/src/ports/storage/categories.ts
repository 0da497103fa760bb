import type { Patch } from './conventions';
import type { Page, PageRequest } from './pagination';
import type { CategoryRecord } from './records';
import type { Millis, Scope } from './scope';

// Categories: a tree per store and mode (decisions §17). Core holds every tree rule
// (categories/tree.ts); the storage offers the tree in one statement and a per-scope lock.

export interface CategoryListFilter {
  /** A category id: its children; `null`: the roots; absent: every category. */
  parent_id?: string | null | undefined;
}

export interface CategoryRepository {
  /**
   * Locks the scope's category tree until the transaction ends: one atomic upsert of the scope's
   * row in `category_trees` (Postgres and MariaDB hold its row lock; SQLite's writer lock already
   * serialises writers). Writers of the tree (create, move, delete) and of product memberships
   * take it before reading what they validate, so two concurrent moves are validated one after
   * the other against the tree the first one left (no cycle can form between them).
   */
  lockTree(scope: Scope): Promise<void>;
  /** Every category of the scope, in one statement (at most 2,000), in no particular order. */
  all(scope: Scope): Promise<CategoryRecord[]>;
  /**
   * The storefront tree's prepared JSON as core last stored it with {@link saveTreeDocument}
   * (one primary-key read), or null when none is stored.
   */
  treeDocument(scope: Scope): Promise<string | null>;
  /**
   * Keeps `doc` (null: none) in the scope's tree row, which {@link lockTree} took in this
   * transaction: written with the change it describes, so every process reads it consistent.
   */
  saveTreeDocument(scope: Scope, doc: string | null): Promise<void>;
  /** By id or by `{ slug }`. */
  get(scope: Scope, key: string | { slug: string }): Promise<CategoryRecord | null>;
  /** Newest first by default (`created_at`, then id). */
  list(
    scope: Scope,
    filter: CategoryListFilter,
    page: PageRequest<'created_at'>,
  ): Promise<Page<CategoryRecord>>;
  /** Slug unique per scope → `duplicate_slug` (param `slug`). */
  insert(record: CategoryRecord): Promise<void>;
  update(
    scope: Scope,
    id: string,
    patch: Patch<CategoryRecord, 'parent_id' | 'name' | 'slug' | 'description' | 'position' | 'metadata'>,
  ): Promise<CategoryRecord | null>;
  /**
   * Deletes the category and its memberships: its `product_categories` rows go, and it is taken
   * out of every product's `category_ids` (order of the others kept), in this transaction.
   * False when no such category.
   */
  delete(scope: Scope, id: string, at: Millis): Promise<boolean>;
  /** Which of `ids` name categories of the scope. */
  existing(scope: Scope, ids: readonly string[]): Promise<Set<string>>;
}
