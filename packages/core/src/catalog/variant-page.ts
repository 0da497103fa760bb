import type { Page, PageRequest } from '../ports/storage';
import { pageOfSorted } from '../shared/loaded-page';

/** Sorts of a product's variant list. */
export type VariantSort = 'created_at' | 'position';

interface Sortable {
  id: string;
  created_at: number;
  position: number;
}

function compareBy(sort: VariantSort): (a: Sortable, b: Sortable) => number {
  const [first, second] =
    sort === 'created_at' ? (['created_at', 'position'] as const) : (['position', 'created_at'] as const);
  return (a, b) => a[first] - b[first] || a[second] - b[second] || (a.id < b.id ? -1 : a.id > b.id ? 1 : 0);
}

/**
 * One page of a product's variants, which the product aggregate already holds (one load, no
 * extra query). Keyset semantics as in the storage (docs/contract.md#lists): `starting_after` is the id of
 * the previous page's last variant, and the page continues after it in the requested order.
 * Ties of the sort value are broken by the other field and then by id, so variants created
 * together (same `created_at`) keep their request order. An unknown `starting_after` → 400
 * `parameter_invalid` (see {@link pageOfSorted}).
 */
export function pageOfVariants<T extends Sortable>(
  variants: readonly T[],
  page: PageRequest<VariantSort>,
): Page<T> {
  const compare = compareBy(page.sort);
  const sorted = [...variants].sort(page.order === 'asc' ? compare : (a, b) => compare(b, a));
  return pageOfSorted(sorted, page, 'a variant of this product');
}
