import type { Page, PageRequest } from '../ports/storage';
import { pageOfSorted } from '../shared/loaded-page';
import { INT4_MAX } from '../shared/schemas/limits';

/** Sorts of a product's variant list. */
export type VariantSort = 'created_at' | 'position';

interface Sortable {
  id: string;
  created_at: number;
  position: number;
}

const byId = (a: Sortable, b: Sortable) => (a.id < b.id ? -1 : a.id > b.id ? 1 : 0);

function compareBy(sort: VariantSort): (a: Sortable, b: Sortable) => number {
  if (sort === 'position') return (a, b) => a.position - b.position || byId(a, b);
  return (a, b) => a.created_at - b.created_at || a.position - b.position || byId(a, b);
}

/**
 * One page of a product's variants, which the product aggregate already holds (one load, no
 * extra query). Keyset semantics as in the storage (docs/contract.md#lists): `starting_after` is the id of
 * the previous page's last variant, and the page continues after it in the requested order.
 * `position` ties are broken by id (the order of `product.variants`, decisions §22);
 * `created_at` ties by position, then id, so variants created together keep their request order.
 * An unknown `starting_after` → 400 `parameter_invalid` (see {@link pageOfSorted}).
 */
export function pageOfVariants<T extends Sortable>(
  variants: readonly T[],
  page: PageRequest<VariantSort>,
): Page<T> {
  const compare = compareBy(page.sort);
  const sorted = [...variants].sort(page.order === 'asc' ? compare : (a, b) => compare(b, a));
  return pageOfSorted(sorted, page, 'a variant of this product');
}

/**
 * The position of a variant added without one (decisions §22): one past the highest position of
 * the product's `variants` (0 for none), so it lists last — at most the largest storable
 * position (int4), where it then ties with the last and sorts by id.
 */
export function nextPosition(variants: readonly { position: number }[]): number {
  let next = 0;
  for (const variant of variants) next = Math.max(next, variant.position + 1);
  return Math.min(next, INT4_MAX);
}
