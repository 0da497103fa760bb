/**
 * The words of collections (decisions §17): the values core's rules decide on. They sit below the
 * storage port, whose records and product list filter (ports/storage) use them.
 */

/** `manual`: an ordered list of products; `auto`: rules evaluated when read. */
export type CollectionType = 'manual' | 'auto';

/** How an automatic collection combines its conditions. */
export type CollectionRuleMatch = 'all' | 'any';

/** A condition on a list of values: the product's tags, type, categories (with descendants) or id. */
export type CollectionListConditionType = 'product_tag' | 'product_type' | 'category' | 'product';

/** A condition of an automatic collection, as stored (and shown on the wire). */
export type CollectionCondition =
  | { type: CollectionListConditionType; operator: 'in' | 'not_in'; values: string[] }
  | { type: 'price'; operator: 'gte' | 'lte'; value: number };

/** The rules of an automatic collection, as stored (and shown on the wire). */
export interface CollectionRules {
  match: CollectionRuleMatch;
  conditions: CollectionCondition[];
}

/**
 * The rules as the storage evaluates them (compiled by core, collections/rules.ts): category
 * conditions carry their categories' whole subtrees, so the storage needs no tree walk.
 * `negate` is `not_in`.
 */
export type CollectionFilterCondition =
  | { kind: 'tag' | 'type' | 'product' | 'category'; negate: boolean; values: string[] }
  | { kind: 'price'; op: 'gte' | 'lte'; value: number };

export interface CollectionRuleFilter {
  match: CollectionRuleMatch;
  conditions: CollectionFilterCondition[];
}

/**
 * A product list restricted to a collection's members: a manual collection's stored members
 * (`in_order`: the page follows the collection's order, positions as the cursor, and the page's
 * `sort`/`order` are ignored), or an automatic collection's compiled rules.
 */
export type CollectionMembership =
  | { type: 'manual'; id: string; in_order: boolean }
  | { type: 'auto'; rules: CollectionRuleFilter };
