import type {
  CollectionFilterCondition,
  CollectionRuleFilter,
  CollectionRules,
} from '../vocabulary/collections';

/**
 * The rules of automatic collections (decisions §17), evaluated when read:
 * - `product_tag` `in`: the product has at least one of the tags; `not_in`: none of them;
 * - `product_type` / `product`: its type / id is (not) one of the values;
 * - `category`: it is (not) in one of the categories or in any category below them;
 * - `price` `gte` / `lte`: its representative price (§7) is at least / at most `value`; a product
 *   without a price (no active variant) never matches a price condition;
 * - `match: all` needs every condition, `any` at least one.
 *
 * {@link compileRules} turns stored rules into the storage's filter (category subtrees
 * expanded), and {@link matchesRules} is the reference evaluation of that filter over one
 * product: the storage's SQL must agree with it (property-tested in packages/testing).
 */

/** A category as the tree walk needs it. */
export interface CategoryNode {
  id: string;
  parent_id: string | null;
}

/** What a rule looks at on a product. */
export interface RuleProduct {
  id: string;
  type: string;
  tags: readonly string[];
  price: number | null;
  category_ids?: readonly string[] | undefined;
}

/**
 * The given categories and every category below them (ids of the tree only; an id that names no
 * category is kept, and matches no product). A cycle in the tree (which the category rules
 * forbid) cannot make it loop.
 */
export function withDescendants(tree: readonly CategoryNode[], ids: readonly string[]): string[] {
  const children = new Map<string, string[]>();
  for (const node of tree) {
    if (node.parent_id === null) continue;
    const list = children.get(node.parent_id);
    if (list) list.push(node.id);
    else children.set(node.parent_id, [node.id]);
  }
  const seen = new Set<string>();
  const out: string[] = [];
  const stack = [...ids].reverse();
  while (stack.length > 0) {
    const id = stack.pop() as string;
    if (seen.has(id)) continue;
    seen.add(id);
    out.push(id);
    const below = children.get(id);
    if (below) for (let i = below.length - 1; i >= 0; i--) stack.push(below[i] as string);
  }
  return out;
}

const KIND = {
  product_tag: 'tag',
  product_type: 'type',
  product: 'product',
  category: 'category',
} as const;

/** Stored rules as the storage evaluates them: category conditions carry whole subtrees. */
export function compileRules(rules: CollectionRules, tree: readonly CategoryNode[]): CollectionRuleFilter {
  return {
    match: rules.match,
    conditions: rules.conditions.map((condition): CollectionFilterCondition => {
      if (condition.type === 'price')
        return { kind: 'price', op: condition.operator, value: condition.value };
      const kind = KIND[condition.type];
      const values =
        kind === 'category' ? withDescendants(tree, condition.values) : [...new Set(condition.values)];
      return { kind, negate: condition.operator === 'not_in', values };
    }),
  };
}

/** Whether the rules need the category tree (a `category` condition). */
export function rulesNeedCategories(rules: CollectionRules): boolean {
  return rules.conditions.some((condition) => condition.type === 'category');
}

function conditionHolds(condition: CollectionFilterCondition, product: RuleProduct): boolean {
  if (condition.kind === 'price') {
    if (product.price === null) return false;
    return condition.op === 'gte' ? product.price >= condition.value : product.price <= condition.value;
  }
  const values = condition.values;
  let hit: boolean;
  switch (condition.kind) {
    case 'tag':
      hit = product.tags.some((tag) => values.includes(tag));
      break;
    case 'type':
      hit = values.includes(product.type);
      break;
    case 'product':
      hit = values.includes(product.id);
      break;
    case 'category':
      hit = (product.category_ids ?? []).some((id) => values.includes(id));
      break;
  }
  return condition.negate ? !hit : hit;
}

/** The reference evaluation: whether `product` is a member under the compiled rules. */
export function matchesRules(filter: CollectionRuleFilter, product: RuleProduct): boolean {
  return filter.match === 'all'
    ? filter.conditions.every((condition) => conditionHolds(condition, product))
    : filter.conditions.some((condition) => conditionHolds(condition, product));
}
