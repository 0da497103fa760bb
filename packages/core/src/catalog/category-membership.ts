import type { Repositories, Scope } from '../ports/storage';
import { CommerceError } from '../shared/errors';

/**
 * Products' categories (decisions §17, "Membership", beyond the SDK): `category_ids` on a product
 * (≤ 50 distinct, order kept) and the product lists' `category_id` filter (that category and
 * every category below it). The tree's own rules live in `categories/tree.ts`.
 */

/** What the filter needs of a category. */
export interface CategoryLink {
  id: string;
  parent_id: string | null;
}

/**
 * `id` and every category below it, or null when `id` is not among `categories` (the list then
 * matches nothing). Iterative; a cycle (which the tree rules never let in) cannot loop it.
 */
export function categoryAndDescendants(categories: readonly CategoryLink[], id: string): string[] | null {
  const children = new Map<string, string[]>();
  let found = false;
  for (const category of categories) {
    if (category.id === id) found = true;
    if (category.parent_id === null) continue;
    const siblings = children.get(category.parent_id);
    if (siblings) siblings.push(category.id);
    else children.set(category.parent_id, [category.id]);
  }
  if (!found) return null;
  const ids: string[] = [];
  const seen = new Set<string>();
  const stack = [id];
  while (stack.length > 0) {
    const at = stack.pop() as string;
    if (seen.has(at)) continue;
    seen.add(at);
    ids.push(at);
    for (const child of children.get(at) ?? []) stack.push(child);
  }
  return ids;
}

/**
 * Checks a product's `category_ids` before they are written: every id must name a category of
 * the scope (404 `not_found`, `param: category_ids[i]`). Takes the scope's tree lock first, so a
 * category deleted concurrently cannot leave a membership behind (its delete takes the same
 * lock, then removes it from every product).
 */
export async function assertCategoriesExist(
  tx: Repositories,
  scope: Scope,
  ids: readonly string[],
): Promise<void> {
  if (ids.length === 0) return;
  await tx.categories.lockTree(scope);
  const existing = await tx.categories.existing(scope, ids);
  const index = ids.findIndex((id) => !existing.has(id));
  if (index >= 0) {
    throw new CommerceError('not_found', `No such category: '${ids[index]}'`, {
      param: `category_ids[${index}]`,
    });
  }
}
