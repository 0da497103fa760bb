import type { DiscountCondition, DiscountCustomer, DiscountLine } from './discount-definition';

const LINE_CONDITION_TYPES = new Set(['product', 'variant', 'product_tag']);
const CUSTOMER_CONDITION_TYPES = new Set(['customer', 'customer_tag']);

/** Whether a discount has conditions that choose lines (`product`, `variant`, `product_tag`). */
export function hasLineConditions(conditions: readonly DiscountCondition[]): boolean {
  return conditions.some((c) => LINE_CONDITION_TYPES.has(c.type));
}

/**
 * Whether `line` meets ALL of the `product`, `variant` and `product_tag` conditions (other
 * condition types are ignored here). `in`: the line's product / variant id is in `values`, or one
 * of its tags is; `not_in`: the negation. Comparisons are exact (case-sensitive).
 */
export function lineMatchesConditions(line: DiscountLine, conditions: readonly DiscountCondition[]): boolean {
  return conditions.every((condition) => {
    if (!LINE_CONDITION_TYPES.has(condition.type)) return true;
    let hit: boolean;
    if (condition.type === 'product') hit = condition.values.includes(line.product_id);
    else if (condition.type === 'variant') hit = condition.values.includes(line.variant_id);
    else hit = line.product_tags.some((tag) => condition.values.includes(tag));
    return condition.operator === 'in' ? hit : !hit;
  });
}

/** The lines a discount applies to: those matching all its line conditions (all lines when it has none). */
export function eligibleLines<L extends DiscountLine>(
  lines: readonly L[],
  conditions: readonly DiscountCondition[],
): L[] {
  return lines.filter((line) => lineMatchesConditions(line, conditions));
}

/**
 * Whether `customer` meets ALL of the `customer` and `customer_tag` conditions.
 *
 * Decision: a `customer` condition's value matches the customer's id, or the customer's e-mail
 * compared case-insensitively (so a guest can be targeted by e-mail). A guest with neither is in
 * no list: `in` fails, `not_in` holds. `customer_tag` matches when the tags intersect.
 */
export function customerMatchesConditions(
  customer: DiscountCustomer,
  conditions: readonly DiscountCondition[],
): boolean {
  const email = customer.email?.toLowerCase() ?? null;
  return conditions.every((condition) => {
    if (!CUSTOMER_CONDITION_TYPES.has(condition.type)) return true;
    let hit: boolean;
    if (condition.type === 'customer') {
      hit = condition.values.some(
        (value) =>
          (customer.id !== null && value === customer.id) ||
          (email !== null && value.toLowerCase() === email),
      );
    } else {
      hit = customer.tags.some((tag) => condition.values.includes(tag));
    }
    return condition.operator === 'in' ? hit : !hit;
  });
}

/**
 * Whether a cart priced in `region_id` (null: no region, the store's settings) meets ALL of the
 * discount's `region` conditions (decisions §19): `in` holds when the cart's region is one of
 * `values`, `not_in` when it is not. A cart without a region is in no list: `in` fails, `not_in`
 * holds. Other condition types are ignored here.
 */
export function regionMatchesConditions(
  region_id: string | null,
  conditions: readonly DiscountCondition[],
): boolean {
  return conditions.every((condition) => {
    if (condition.type !== 'region') return true;
    const hit = region_id !== null && condition.values.includes(region_id);
    return condition.operator === 'in' ? hit : !hit;
  });
}
